import Testing
@testable import AnimationCore

@Suite("R1.5 springs that run until settled; R2.4 transactions named by their handles")
struct SettlingTests {
    @Test("A spring with usesSettlingDuration runs for its settlingDuration, whatever its duration")
    func runsUntilSettled() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let s = Spring(mass: 1, stiffness: 180, damping: 12)
        var drop = Animation.spring("position.y", s, from: .scalar(-40), to: .scalar(60), timing: MediaTiming(duration: 0.1))
        drop.usesSettlingDuration = true
        try rt.beginTransaction(animationDuration: 0.05)
        let h = try rt.add(drop, to: l, forKey: "in")
        try rt.commitTransaction(token: 1)
        try rt.tick(0); try rt.tick(0.5)
        expectClose(try rt.scalar("position.y", l), -40 + 100 * s.value(at: 0.5), 1e-9)
        try rt.tick(s.settlingDuration)
        let stops = rt.drain().filter { $0.type == .animationStopped && $0.object == h }
        #expect(stops.map(\.time) == [s.settlingDuration])
    }

    @Test("An undamped spring never settles: refused when added, with nothing attached")
    func neverSettles() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var ring = Animation.spring("opacity", Spring(damping: 0), from: .scalar(0), to: .scalar(1))
        ring.usesSettlingDuration = true
        expectFailure(.outOfRange, containing: "never settles") { try rt.add(ring, to: l, forKey: "ring") }
        #expect(try rt.animationKeys(of: l).isEmpty)
        #expect(throws: AnimrtError.self) { try Spring(damping: 0).runningDuration() }
    }

    @Test("A spring that settles within a millisecond still runs for one", arguments: [1e6, 1e9])
    func shortest(stiffness: Double) throws {
        let s = Spring(mass: 1, stiffness: stiffness, damping: 2 * stiffness.squareRoot())
        #expect(try s.runningDuration() >= Spring.shortestRunningDuration)
        #expect(try s.runningDuration().isFinite)
    }

    /// The last time |x| ≥ 8e-4 (the estimator's threshold), found by
    /// scanning `steps` points of [0, horizon].
    static func lastAbove(_ s: Spring, horizon: Double, steps: Int = 400_000) -> Double {
        var last = 0.0
        for i in 0...steps {
            let t = horizon * Double(i) / Double(steps)
            if abs(s.displacement(at: t)) >= 8e-4 { last = t }
        }
        return last
    }

    @Test("Just below critical damping the settling estimate is the critical spring's, not longer",
          arguments: [1 - 1e-4, 1 - 1e-8, 1 - 1e-13])
    func nearCritical(ratio: Double) {
        // ζ → 1 from below: the sine coefficient B = (ζω0 − v0)/ωd grows
        // without bound, but B·sin(ωd t) stays below (ζω0 − v0)·t; the
        // estimate must not follow B up (ζ = 1 − 1e-13 gave 2.1 s).
        let critical = Spring(mass: 1, stiffness: 100, damping: 20)
        let s = Spring(mass: 1, stiffness: 100, damping: 20 * ratio)
        #expect(s.dampingRatio < 1)
        expectClose(s.settlingDuration, critical.settlingDuration, 0.02 * critical.settlingDuration)
        expectClose(s.settlingDuration, Self.lastAbove(s, horizon: 5), 0.02)
        // With an initial velocity past ω0 (an overshoot) too.
        let fast = Spring(mass: 1, stiffness: 100, damping: 20 * ratio, initialVelocity: 30)
        expectClose(fast.settlingDuration, Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30).settlingDuration, 0.03)
    }

    @Test("Apple's two anchors are kept by the estimator")
    func anchors() {
        expectClose(Spring(mass: 1, stiffness: 100, damping: 5).settlingDuration, 2.85, 0.05)
        let overOne = Spring(mass: 1, stiffness: 100, damping: 15).settlingDuration
        #expect(overOne > 1 && overOne < 1.05)
    }

    @Test("Springs that do not oscillate settle when |x| last reaches 8e-4, however slow", arguments: [
        // (mass, stiffness, damping, initial velocity, allowsOverdamping)
        (1.0, 100.0, 20.0, 0.0, false),      // critical, ω0 = 10: 0.948 s
        (1.0, 100.0, 20.0, 30.0, false),     // critical with an overshoot
        (1.0, 1e-6, 2e-3, 0.0, false),       // critical, ω0 = 10^-3: 9 480 s, past an hour
        (1.0, 1e-6, 2e-3, 3e-3, false),      // the same with an overshoot: |x| stays below 8e-4 for
                                             // over a second about the crossing, then swings to 0.2
        (1.0, 1.0, 1000.0, 0.0, true),       // over-damped, ζ = 500: 7 131 s
        (1.0, 100.0, 40.0, -5.0, true),      // over-damped, moving away first
    ])
    func nonOscillating(_ p: (Double, Double, Double, Double, Bool)) {
        let s = Spring(mass: p.0, stiffness: p.1, damping: p.2, initialVelocity: p.3, allowsOverdamping: p.4)
        let d = s.settlingDuration
        let truth = Self.lastAbove(s, horizon: 20 * max(d, 1 / s.naturalFrequency))
        #expect(abs(d - truth) <= max(1e-3, 1e-4 * truth), "settlingDuration \(d), |x| last at 8e-4 at \(truth)")
        #expect(abs(s.displacement(at: d)) >= 8e-4)
    }

    /// The slow rate −ω0(ζ − √(ζ² − 1)) computed as written cancels: at
    /// ζ = 10^9 it is 0 and the spring never moves. Its exact value is
    /// −ω0 / (ζ + √(ζ² − 1)), which the displacement must follow.
    @Test("A heavily over-damped spring moves at its slow rate, however large ζ", arguments: [1e4, 1e9, 1e200])
    func heavilyOverdamped(_ zeta: Double) throws {
        let s = Spring(mass: 1, stiffness: 100, damping: 20 * zeta, allowsOverdamping: true)  // ω0 = 10
        try s.validate()
        expectClose(s.dampingRatio / zeta, 1, 1e-15)
        // √(ζ² − 1) is ζ to the double from 10^8 on; ζ² overflows past 10^154.
        let root = zeta < 1e150 ? (zeta * zeta - 1).squareRoot() : zeta
        let slow = 10 / (zeta + root), fast = 10 * (zeta + root)
        // x = c1·e^(−slow·t) + c2·e^(−fast·t), x(0) = 1, x'(0) = 0; the fast part is gone by t.
        let c1 = 1 + slow / (fast - slow)
        let t = 0.5 / slow
        expectClose(s.displacement(at: t), c1 * _exp(-0.5), 1e-13)
        expectClose(s.displacement(at: 2 * t), c1 * _exp(-1), 1e-13)
        expectClose(s.responses(at: t).phi, c1 * _exp(-0.5), 1e-13)
        // It settles where e^(−slow·t) = 8e-4 (the fast part is long gone).
        expectClose(s.settlingDuration / (2 * t), _log(1 / 8e-4), 1e-3)
    }

    /// |x| = |1 + (ω0 − v0)t|·e^(−ω0t) with ω0 = 10 and |v0| = 10^307 falls
    /// to 8e-4 where 706.9 + ln t − 10t = ln 8e-4: t ≈ 71.8 s. The bound's
    /// slope·t overflows long before; the estimate was the largest double.
    @Test("A spring thrown at 10^307 settles when its bound says, not at the largest double", arguments: [1e307, -1e307])
    func hugeInitialVelocity(_ v0: Double) throws {
        for overdamps in [false, true] {
            let s = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: v0, allowsOverdamping: overdamps)
            try s.validate()
            let d = try s.runningDuration()
            #expect(d > 71 && d < 73, "settling \(d)")
        }
    }

    /// Over-damped so far that the slow rate is subnormal: the time to settle
    /// is past the doubles. Refused with a reason that fits (not "give it
    /// some damping": its damping is 10^10).
    @Test("A spring too over-damped to settle within the doubles is refused for that reason")
    func overdampedPastTheDoubles() {
        let s = Spring(mass: 1, stiffness: 1e-300, damping: 1e10, allowsOverdamping: true)
        #expect(s.settlingDuration == .infinity)
        expectFailure(.outOfRange, containing: "decays too slowly for a double to count the time", "give it less damping") {
            _ = try s.runningDuration()
        }
        expectFailure(.outOfRange, containing: "give it some damping") { _ = try Spring(damping: 0).runningDuration() }
    }

    @Test("currentTransaction is the innermost open one; its completion event carries it")
    func currentTransaction() throws {
        let rt = Runtime()
        #expect(rt.currentTransaction == nil)
        let outer = try rt.beginTransaction()
        let inner = try rt.beginTransaction()
        #expect(rt.currentTransaction == inner && inner != outer)
        try rt.commitTransaction(token: 7)
        #expect(rt.currentTransaction == outer)
        try rt.commitTransaction(token: 7)
        #expect(rt.currentTransaction == nil)
        let done = rt.drain().filter { $0.type == .transactionCompleted }
        #expect(done.map(\.object) == [inner, outer] && done.map(\.token) == [7, 7])
    }
}
