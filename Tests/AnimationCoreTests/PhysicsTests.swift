import Foundation
import Testing
@testable import AnimationCore

/// Springs by their other names, decay, retargeting and velocity.
@Suite("R1.5 physics: spring parameterisations, decay, retargeting, velocity")
struct PhysicsTests {
    /// SwiftUI's Spring(response:dampingRatio:): k = (2π/response)², c =
    /// 4π·ζ/response (m = 1), so response = 2π/√k and ζ = c / (2√k) read
    /// back exactly what was given. The perceptual spring (duration, bounce)
    /// has the same k with ζ = 1 − bounce (bounce ≥ 0) or 1/(1 + bounce),
    /// so bounce reads back as 1 − ζ or 1/ζ − 1.
    @Test("Response, damping ratio, perceptual duration and bounce read back",
          arguments: [(0.5, 0.3), (0.35, -0.2), (1.2, 0.0), (0.8, 1.0), (0.8, -0.9)])
    func perceptualRoundTrip(_ p: (Double, Double)) throws {
        let s = try Spring.checked(perceptualDuration: p.0, bounce: p.1)
        expectClose(s.stiffness, (2 * Double.pi / p.0) * (2 * Double.pi / p.0), 1e-9)
        expectClose(s[.perceptualDuration], p.0, 1e-12)
        expectClose(s[.bounce], p.1, 1e-12)
        #expect(s.allowsOverdamping)
        let r = try Spring.checked(response: p.0, dampingRatio: 1 - max(p.1, 0))
        expectClose(r[.response], p.0, 1e-12)
        expectClose(r[.dampingRatio], 1 - max(p.1, 0), 1e-12)
    }

    /// The bounce range is (−1, 1]: 1 is undamped (ζ = 0), −1 would be an
    /// infinite damping ratio. Responses so small that k overflows are
    /// refused, not turned into infinities.
    @Test("Spring parameterisations are checked at their edges")
    func springEdges() throws {
        #expect(try Spring.checked(perceptualDuration: 1, bounce: 1).damping == 0)
        #expect(try Spring.checked(perceptualDuration: 1, bounce: -0.999).dampingRatio > 999)
        for (d, b) in [(1.0, -1.0), (1.0, 1.0000001), (0.0, 0.0), (-1.0, 0.0), (.infinity, 0.0), (1.0, .nan), (1e-200, 0.0)] {
            #expect(throws: AnimrtError.self, "duration \(d), bounce \(b)") { try Spring.checked(perceptualDuration: d, bounce: b) }
        }
        #expect(try Spring.checked(response: 1, dampingRatio: 0).damping == 0)
        for (r, z) in [(0.0, 1.0), (1.0, -0.1), (1e-200, 1.0), (1.0, .infinity)] {
            #expect(throws: AnimrtError.self, "response \(r), ratio \(z)") { try Spring.checked(response: r, dampingRatio: z) }
        }
    }

    /// The decay's definition: the velocity keeps the fraction r of itself
    /// each millisecond, v(t) = v0 · r^(1000 t). Its integral is
    /// x(t) = x0 + v0 (r^(1000 t) − 1) / (1000 ln r). The duration is when
    /// the speed reaches the rest velocity: v0 · r^(1000 D) = rest, so
    /// D = ln(rest / v0) / (1000 ln r). With v0 = 1000, r = 0.998, rest 0.5:
    /// D = ln(1/2000) / (1000 ln 0.998) ≈ 3.797 s.
    @Test("Decay follows v(t) = v0 · r^(1000 t); the duration is derived")
    func decayDefinition() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.properties.define("offset", default: .scalar(0))
        let (v0, r, x0) = (1000.0, 0.998, 20.0)
        let expectedDuration = log(0.5 / v0) / (1000 * log(r))
        let a = Animation.decay("offset", velocity: .scalar(v0), from: .scalar(x0), Decay(decelerationRate: r))
        expectClose(try a.settlingDuration(), expectedDuration, 1e-12)
        let h = try rt.add(a, to: l, forKey: "fling")
        try rt.tick(0)
        expectClose(try rt.attachedAnimation(h).timing[.iterationDuration], expectedDuration, 1e-12)
        for t in [0.0, 0.1, 1, 2.5, 3.7] {
            try rt.tick(t)
            let expected = x0 + v0 * (pow(r, 1000 * t) - 1) / (1000 * log(r))
            expectClose(try rt.scalar("offset", l), expected, 1e-9, "t = \(t)")
        }
        // Pop sums the per-millisecond steps: v0/1000 · r (1 − r^n) / (1 − r)
        // after n ms; the integral is within r (−ln r) / (1 − r) of it.
        let pop = v0 / 1000 * r * (1 - pow(r, 1000)) / (1 - r)
        let here = v0 * (pow(r, 1000) - 1) / (1000 * log(r))
        expectClose(pop / here, r * -log(r) / (1 - r), 1e-12)
        try rt.tick(3.8)
        #expect(try rt.scalar("offset", l) == 0)  // finished and removed: the model
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// A vector velocity decays along its direction; its length is the
    /// speed: (300, −400) is 500 per second, D = ln(0.5 / 500) / (1000 ln r).
    /// Without a from value the decay starts from the model. It comes to
    /// rest at from + v0 · (1 − e^(−k D)) / k with e^(−k D) = rest / speed.
    @Test("A point decays along its velocity from the model value")
    func decayPoint() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(10, 10), forKeyPath: "position", of: l)
        let d = Decay(decelerationRate: Decay.fast, restVelocity: 0.5)
        var a = Animation.decay("position", velocity: .point(300, -400), d)
        a.timing.fillMode = .forwards; a.isRemovedOnCompletion = false
        let h = try rt.add(a, to: l, forKey: "fling")
        let k = -1000 * log(Decay.fast)
        let duration = log(0.5 / 500) / (1000 * log(Decay.fast))
        expectClose(try rt.attachedAnimation(h).settlingDuration(), duration, 1e-12)
        try rt.tick(0); try rt.tick(100)
        let p = try rt.presentationValue(forKeyPath: "position", of: l)
        expectClose(p.lanes[0], 10 + 300 / k * (1 - 0.5 / 500), 1e-9)
        expectClose(p.lanes[1], 10 - 400 / k * (1 - 0.5 / 500), 1e-9)
    }

    /// A velocity whose length is past the largest double, though each of
    /// its components is not, still comes to rest in finite time: its
    /// speed is taken in logarithms, as the duration is. (1.5e308, 1.5e308)
    /// is 1.5e308·√2 per second, D = (ln 1.5e308 + ½ ln 2 − ln 0.5) / k.
    @Test("A decay faster than the largest double in length has a finite duration and runs")
    func decaySpeedPastTheDoubles() throws {
        let d = Decay()
        let k = -1000 * log(Decay.normal)
        let expected = (log(1.5e308) + 0.5 * log(2.0) - log(0.5)) / k
        expectClose(d.duration(initialVelocity: .point(1.5e308, 1.5e308)), expected, 1e-9)
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(.decay("position", velocity: .point(1.5e308, 1.5e308), from: .point(0, 0), d), to: l, forKey: "fling")
        expectClose(try rt.attachedAnimation(h).timing.duration, expected, 1e-9)
        try rt.tick(0); try rt.tick(1)
        let p = try rt.presentationValue(forKeyPath: "position", of: l)
        expectClose(p.lanes[0] / (1.5e308 / k * (1 - exp(-k))), 1, 1e-12)
    }

    @Test("Decay is checked at set and add time")
    func decayChecks() throws {
        for (rate, rest) in [(1.0, 0.5), (0.0, 0.5), (1.5, 0.5), (-0.1, 0.5), (Double.nan, 0.5), (0.998, 0.0), (0.998, -1), (0.998, .infinity)] {
            #expect(throws: AnimrtError.self, "rate \(rate), rest \(rest)") {
                try Decay(decelerationRate: rate, restVelocity: rest).validate()
            }
        }
        try Decay(decelerationRate: 0.999999, restVelocity: 1e-300).validate()
        let rt = Runtime(); let l = try rt.createLayer()
        // A whole transform is not a vector.
        #expect(throws: AnimrtError.self) {
            try rt.add(.decay("transform", velocity: .transform(.identity)), to: l, forKey: "t")
        }
        // A travel past the doubles is refused when added, not made infinite.
        do { try rt.add(.decay("opacity", velocity: .scalar(1e308), Decay(decelerationRate: 0.9999999999)), to: l, forKey: "x"); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange) }
        // At the edge: a huge but finite travel is fine, and so is its duration.
        let edge = Animation.decay("opacity", velocity: .scalar(1e300), from: .scalar(0), Decay(decelerationRate: 0.5, restVelocity: 1e-300))
        // ln(1e300 / 1e-300) / (1000 ln 2): the ratio overflows, its log does not.
        expectClose(try edge.settlingDuration(), (log(1e300) - log(1e-300)) / (-1000 * log(0.5)), 1e-12)
        try rt.add(edge, to: l, forKey: "edge")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l).isFinite)
        // No velocity: nothing to travel, done at once.
        try rt.add(.decay("cornerRadius", velocity: .scalar(0)), to: l, forKey: "still")
        #expect(try rt.animationKeys(of: l).contains("still"))
        try rt.tick(1)
        #expect(try !rt.animationKeys(of: l).contains("still"))
    }

    /// The cubic Bézier of CSS Easing / Core Animation: B(t) = 3(1−t)²t·P1 +
    /// 3(1−t)t²·P2 + t³ with B'(t) = 3(1−t)²·P1 + 6(1−t)t·(P2 − P1) +
    /// 3t²·(1 − P2); the curve's slope at x is y'(t)/x'(t) at the t where
    /// x(t) = x (found here by bisection).
    static func bezierSlope(_ p: (Double, Double, Double, Double), at x: Double) -> Double {
        func b(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        func db(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * p1 + 6 * (1 - t) * t * (p2 - p1) + 3 * t * t * (1 - p2) }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let m = (lo + hi) / 2; if b(m, p.0, p.2) < x { lo = m } else { hi = m } }
        let t = (lo + hi) / 2
        return db(t, p.1, p.3) / db(t, p.0, p.2)
    }

    /// value = from + (to − from) · f(progress), progress = (t − begin) ×
    /// speed / duration, so dvalue/dt = (to − from) · f′(progress) · speed /
    /// duration, times the layer's speed. Playing backwards (speed < 0, or
    /// the reverse pass of autoreverses) the sign flips.
    @Test("Velocity of a basic animation through speeds and curves", arguments: EvaluationPath.allCases)
    func basicVelocity(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(path.animation(0, 10, MediaTiming(duration: 2)), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.velocity(of: h).lanes[0] == 5)
        var eased = path.animation(0, 10, MediaTiming(duration: 2))
        eased.timingFunction = .easeIn
        let e = try rt.add(eased, to: l, forKey: "a")
        try rt.tick(1); try rt.tick(2)  // x = 0.5
        expectClose(try rt.velocity(of: e).lanes[0], 10 * Self.bezierSlope((0.42, 0, 1, 1), at: 0.5) / 2, 1e-9)
        var back = path.animation(0, 10, MediaTiming(duration: 2, autoreverses: true))
        back.timing.speed = 2
        let b = try rt.add(back, to: l, forKey: "a")
        try rt.tick(3); try rt.tick(4.5)  // 1.5 s in at speed 2: 3 s of local time, the reverse pass
        #expect(try rt.velocity(of: b).lanes[0] == -10)
        try rt.tick(6)  // over and removed
        #expect(throws: AnimrtError.self) { try rt.velocity(of: b) }
    }

    /// A velocity is asked for by a key path the animation animates; one
    /// that is part of it (`position.y` of a `position` animation, whose
    /// velocity is (5, 10): 10 and 20 over 2 s) is refused, told where the
    /// velocity is. One that is not (`opacity`) is refused without a hint.
    @Test("R0.3 a velocity asked for by a part of the animated key path says where it is")
    func velocityOfAPart() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(.basic("position", from: .point(0, 0), to: .point(10, 20), timing: MediaTiming(duration: 2)), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.velocity(of: h, keyPath: "position").lanes[1] == 10)
        for (keyPath, message) in [
            ("position.y", "the animation of 'position' does not animate 'position.y' by that name: it is part of 'position', whose velocity to ask for (its component 1)"),
            ("opacity", "the animation of 'position' does not animate 'opacity'"),
        ] {
            do throws(AnimrtError) {
                _ = try rt.velocity(of: h, keyPath: keyPath)
                Issue.record("\(keyPath) was answered")
            } catch {
                #expect(error.status == .notFound)
                #expect(error.message == message)
            }
        }
        // Counted from the key path animated: bounds.size holds bounds' components 2 and 3.
        let size = try rt.add(.basic("bounds.size", from: .size(0, 0), to: .size(10, 20), timing: MediaTiming(duration: 2)), to: l, forKey: "s")
        do throws(AnimrtError) {
            _ = try rt.velocity(of: size, keyPath: "bounds.size.height")
            Issue.record("bounds.size.height was answered")
        } catch {
            #expect(error.message == "the animation of 'bounds.size' does not animate 'bounds.size.height' by that name: it is part of 'bounds.size', whose velocity to ask for (its component 1)")
        }
        let g = try rt.add(.group([.basic("position", from: .point(0, 0), to: .point(10, 20))], timing: MediaTiming(duration: 2)), to: l, forKey: "g")
        do throws(AnimrtError) {
            _ = try rt.velocity(of: g, keyPath: "position.x")
            Issue.record("position.x was answered")
        } catch {
            #expect(error.message == "the group does not animate 'position.x' by that name: it is part of 'position', whose velocity to ask for (its component 0)")
        }
    }

    @Test("Velocity is scaled by layer speeds and zero while paused or filling")
    func velocityLayersAndFill() throws {
        let rt = Runtime()
        let parent = try rt.createLayer(), l = try rt.createLayer(parent: parent)
        try rt.setTiming(LayerTiming(speed: 3), of: parent)
        var a = linear("opacity", 0, 10, duration: 10, fill: .forwards)
        a.isRemovedOnCompletion = false
        let h = try rt.add(a, to: l, forKey: "a")
        try rt.tick(0); try rt.tick(1)
        expectClose(try rt.velocity(of: h).scalar, 3, 1e-15)  // 1 per second of local time, 3 local seconds per second
        try rt.setTiming(LayerTiming(speed: 0, timeOffset: 3), of: parent)
        try rt.tick(2)
        #expect(try rt.velocity(of: h).scalar == 0)
        try rt.setTiming(LayerTiming(), of: parent)
        try rt.tick(20)
        #expect(try rt.velocity(of: h).scalar == 0)  // filling the end
        #expect(throws: AnimrtError.self) { try rt.velocity(of: h, keyPath: "position") }
    }

    /// An animation that begins "now" begins at the next tick: until that
    /// tick stamps it, it has no begin time and is not in effect, so its
    /// velocity is zero, not what it would be had it begun at time 0.
    @Test("Velocity is zero until the tick that stamps an animation's begin time", arguments: EvaluationPath.allCases)
    func velocityBeforeTheStamp(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(1)
        let h = try rt.add(path.animation(0, 10, MediaTiming(duration: 10)), to: l, forKey: "a")
        #expect(try rt.velocity(of: h).lanes[0] == 0)
        #expect(try rt.computedTiming(of: h).activeTime == nil)
        try rt.tick(2)
        #expect(try rt.attachmentState(h).beginTime == 2)
        #expect(try rt.velocity(of: h).lanes[0] == 1)
    }

    /// Played backwards (speed < 0) an animation starts from the end of its
    /// active interval: local = endTime + (t − beginTime) × speed. With an
    /// infinite repeat count the end time is +∞, so local = +∞ at every t:
    /// the value is the same at every tick (the end of an iteration, 10 here)
    /// and d value / dt = 0. The velocity must agree with the value it
    /// differentiates (not −speed × (to − from) / duration = −10).
    @Test("Velocity is zero where a backwards play of an endless animation holds its time", arguments: EvaluationPath.allCases)
    func velocityOfFrozenBackwardsPlay(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var timing = MediaTiming(duration: 1, repeatCount: .infinity)
        timing.speed = -1
        let h = try rt.add(path.animation(0, 10, timing), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(0.25)
        let first = try path.value(rt, l)
        try rt.tick(0.5)
        #expect(try path.value(rt, l) == first)  // the value does not move
        #expect(try rt.velocity(of: h).lanes[0] == 0)
        // The same held time on a timed layer playing backwards forever: its
        // animations see one time, so their rate is 0 too.
        let parent = try rt.createLayer(), child = try rt.createLayer(parent: parent)
        var layerTiming = MediaTiming(duration: 1, repeatCount: .infinity)
        layerTiming.speed = -1
        try rt.setMediaTiming(layerTiming, of: parent)
        var retained = path.animation(0, 10, MediaTiming(duration: 1))
        retained.isRemovedOnCompletion = false
        let c = try rt.add(retained, to: child, forKey: "a")
        try rt.tick(0.75)
        let held = try path.value(rt, child)
        try rt.tick(1)
        #expect(try path.value(rt, child) == held)
        #expect(try rt.velocity(of: c).lanes[0] == 0)
    }

    /// A fill on the side playback has not reached yet follows local time
    /// where a negative delay leaves room (Web Animations' before-phase
    /// active time, max(local − delay, 0)): the value moves, and its
    /// velocity is that of the play it runs ahead of, not 0.
    ///
    /// An animation from 0 to 10 over 2 s, beginTime 2, delay −1, filling
    /// backwards: at t = 1.5 its local time is −0.5, before its interval,
    /// active time −0.5 + 1 = 0.5, value 2.5; at 1.75, 3.75. It moves at
    /// 10 / 2 = 5 per second. Played backwards (speed −1) with a negative
    /// end delay and a forwards fill, the same holds on the other side:
    /// duration 2, endDelay −1 (end time 1), beginTime 2: local time
    /// 1 − (t − 2), after its interval until t = 2, active time
    /// min(local, 2): at 1.5, 1.5 (value 7.5), at 1.75, 1.25 (6.25), falling
    /// at 5 per second. Under a timed layer with the first timing an
    /// animation from 0 to 10 over 4 s from layer time 0.25 sees the layer's
    /// time 0.5 at t = 1.5 (value 10 × 0.25 / 4 = 0.625) and 0.75 at 1.75
    /// (1.25), moving at 10 / 4 per second of layer time, one of which
    /// passes per second: 2.5 per second.
    @Test("Velocity follows a fill that moves", arguments: EvaluationPath.allCases)
    func velocityOfMovingFill(_ path: EvaluationPath) throws {
        let rt = Runtime()
        var ahead = MediaTiming(beginTime: 2, duration: 2, fillMode: .backwards)
        ahead.delay = -1
        var behind = MediaTiming(beginTime: 2, duration: 2, speed: -1, fillMode: .forwards)
        behind.endDelay = -1
        let l = try rt.createLayer(), m = try rt.createLayer(), timed = try rt.createLayer()
        try rt.setMediaTiming(ahead, of: timed)
        let a = try rt.add(path.animation(0, 10, ahead), to: l, forKey: "a")
        let b = try rt.add(path.animation(0, 10, behind), to: m, forKey: "b")
        let c = try rt.add(path.animation(0, 10, MediaTiming(beginTime: 0.25, duration: 4)), to: timed, forKey: "c")
        try rt.tick(1.5)
        #expect(try path.value(rt, l) == 2.5)
        #expect(try rt.velocity(of: a).lanes[0] == 5)
        #expect(try path.value(rt, m) == 7.5)
        #expect(try rt.velocity(of: b).lanes[0] == -5)
        // The layer's time 0.5: the animation on it is 0.25 s in.
        #expect(try path.value(rt, timed) == 0.625)
        #expect(try rt.velocity(of: c).lanes[0] == 2.5)
        try rt.tick(1.75)
        #expect(try path.value(rt, l) == 3.75)
        #expect(try path.value(rt, m) == 6.25)
        #expect(try path.value(rt, timed) == 1.25)
    }

    /// The closed form of the spring (WebKit's SpringSolver, ζ < 1):
    /// x(t) = e^(−ζω0t)(cos ωd t + B sin ωd t), B = (ζω0 − v0)/ωd, value =
    /// from + (to − from)(1 − x). Its derivative is x′(t) =
    /// e^(−ζω0t)[(Bωd − ζω0) cos ωd t − (ωd + ζω0 B) sin ωd t]; the velocity
    /// is −(to − from)·x′(t). m = 1, k = 100, c = 10: ω0 = 10, ζ = 0.5.
    @Test("Velocity of a spring is the derivative of its closed form")
    func springVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let spring = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 2)
        let h = try rt.add(.spring("opacity", spring, from: .scalar(0), to: .scalar(4), timing: MediaTiming(duration: 3)), to: l, forKey: "s")
        let (w0, zeta, v0) = (10.0, 0.5, 2.0)
        let wd = w0 * (1 - zeta * zeta).squareRoot(), bb = (zeta * w0 - v0) / wd
        func dx(_ t: Double) -> Double {
            exp(-zeta * w0 * t) * ((bb * wd - zeta * w0) * cos(wd * t) - (wd + zeta * w0 * bb) * sin(wd * t))
        }
        try rt.tick(0)
        expectClose(try rt.velocity(of: h).scalar, 4 * v0, 1e-12)  // x′(0) = −v0
        for t in [0.1, 0.3, 0.77] {
            try rt.tick(t)
            expectClose(try rt.velocity(of: h).scalar, -4 * dx(t), 1e-9, "t = \(t)")
        }
    }

    /// Keyframes: value = v_i + (v_{i+1} − v_i)(y − k_i)/(k_{i+1} − k_i), so
    /// the velocity is (v_{i+1} − v_i)/((k_{i+1} − k_i)·duration); a decay's
    /// is its definition v0·r^(1000t); a group's child's is its own in the
    /// group's time.
    @Test("Velocity of keyframes, decay and a group's child")
    func otherVelocities() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let k = try rt.add(.keyframe("position.y", Keyframes(values: [.scalar(0), .scalar(30), .scalar(20)], keyTimes: [0, 0.25, 1]),
                                     timing: MediaTiming(duration: 4)), to: l, forKey: "k")
        try rt.properties.define("offset", default: .scalar(0))
        let d = try rt.add(.decay("offset", velocity: .scalar(800), Decay(decelerationRate: 0.99)), to: l, forKey: "d")
        let child = Animation.basic("cornerRadius", from: .scalar(0), to: .scalar(6), timing: MediaTiming(beginTime: 1, duration: 3))
        let g = try rt.add(.group([child], timing: MediaTiming(duration: 10)), to: l, forKey: "g")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.velocity(of: k).scalar == 30 / (0.25 * 4))
        expectClose(try rt.velocity(of: d).scalar, 800 * pow(0.99, 500), 1e-9)
        #expect(try rt.velocity(of: g, keyPath: "cornerRadius").scalar == 0)  // the child has not begun
        try rt.tick(2)
        expectClose(try rt.velocity(of: k).scalar, -10 / (0.75 * 4), 1e-15)
        #expect(try rt.velocity(of: g, keyPath: "cornerRadius").scalar == 2)
        #expect(throws: AnimrtError.self) { try rt.velocity(of: g) }
        #expect(throws: AnimrtError.self) { try rt.velocity(of: g, keyPath: "opacity") }
    }

    /// Retargeting restarts the spring from the value it shows, carrying its
    /// velocity: the new motion is the solution of m x″ + c x′ + k(x − T) = 0
    /// with x(0) = p and x′(0) = v (p, v: value and velocity when
    /// retargeted), x(t) = T + (p − T)·φ(t) + v·ψ(t), where for ζ < 1
    /// φ = e^(−ζω0t)(cos ωd t + (ζω0/ωd) sin ωd t) and ψ = e^(−ζω0t) sin(ωd t)/ωd.
    @Test("Retargeting a running spring keeps its value and velocity")
    func retargetSpring() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        let h = try rt.add(.spring("position", spring, from: .point(0, 0), to: .point(100, 0), timing: MediaTiming(duration: 5)),
                           to: l, forKey: "s")
        try rt.tick(0); try rt.tick(0.2)
        _ = rt.drain()
        let p = try rt.presentationValue(forKeyPath: "position", of: l)
        let v = try rt.velocity(of: h)
        #expect(v.lanes[0] > 0)
        // The new target is off the line of motion: the sideways part of the
        // velocity (none here) and the forward part both carry over.
        let target = AnimatableValue.point(40, 30)
        try rt.retarget(h, to: target)
        #expect(try rt.velocity(of: h) == v)
        try rt.tick(0.2)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == p)
        let (w0, zeta) = (10.0, 0.5)
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        for dt in [0.05, 0.4, 1.3] {
            try rt.tick(0.2 + dt)
            let e = exp(-zeta * w0 * dt)
            let phi = e * (cos(wd * dt) + zeta * w0 / wd * sin(wd * dt)), psi = e * sin(wd * dt) / wd
            let now = try rt.presentationValue(forKeyPath: "position", of: l)
            for c in 0..<2 {
                expectClose(now.lanes[c], target.lanes[c] + (p.lanes[c] - target.lanes[c]) * phi + v.lanes[c] * psi, 1e-9, "dt \(dt) c \(c)")
            }
        }
        // Read back: from is where it was, to the new target, and the
        // velocity's part along from → to in distances per second.
        let copy = try rt.attachedAnimation(h)
        #expect(try copy.value(.from) == p && copy.value(.to) == target)
        #expect(rt.drain().isEmpty)  // no lifecycle events: the same animation goes on
        try rt.tick(10)
        #expect(rt.drain().map(\.tag) == ["stopped:finished"])
        #expect(throws: AnimrtError.self) { try rt.retarget(h, to: target) }
    }

    /// The same carry-over in the other regimes, checked against the
    /// equation itself rather than a closed form: from the retarget, m x″ +
    /// c x′ + k(x − T) = 0 with x(0) and x′(0) as shown then, integrated by
    /// fourth-order Runge–Kutta. A damping ratio above 1 without
    /// `allowsOverdamping` moves as critically damped (Core Animation's
    /// rule), so its equation has c = 2√(km).
    @Test("Retargeting keeps value and velocity when critically and over-damped",
          arguments: [(20.0, false, 20.0), (30.0, true, 30.0), (30.0, false, 20.0), (60.0, true, 60.0)])
    func retargetSpringRegimes(_ p: (damping: Double, overdamps: Bool, equation: Double)) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let spring = Spring(mass: 1, stiffness: 100, damping: p.damping, allowsOverdamping: p.overdamps)
        let h = try rt.add(.spring("position.x", spring, from: .scalar(0), to: .scalar(100), timing: MediaTiming(duration: 5)),
                           to: l, forKey: "s")
        try rt.tick(0); try rt.tick(0.15)
        let x0 = try rt.presentationValue(forKeyPath: "position.x", of: l).scalar
        let v0 = try rt.velocity(of: h).scalar
        #expect(x0 > 0 && x0 < 100 && v0 > 0)
        let target = -25.0
        try rt.retarget(h, to: .scalar(target))
        var (x, v, t) = (x0, v0, 0.0)
        let step = 1e-4
        func accel(_ x: Double, _ v: Double) -> Double { -(p.equation * v + 100 * (x - target)) }
        for mark in [0.02, 0.3, 0.9] {
            while t < mark - step / 2 {
                let (k1x, k1v) = (v, accel(x, v))
                let (k2x, k2v) = (v + step / 2 * k1v, accel(x + step / 2 * k1x, v + step / 2 * k1v))
                let (k3x, k3v) = (v + step / 2 * k2v, accel(x + step / 2 * k2x, v + step / 2 * k2v))
                let (k4x, k4v) = (v + step * k3v, accel(x + step * k3x, v + step * k3v))
                x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                t += step
            }
            try rt.tick(0.15 + mark)
            expectClose(try rt.presentationValue(forKeyPath: "position.x", of: l).scalar, x, 1e-8, "value at +\(mark)")
            expectClose(try rt.velocity(of: h).scalar, v, 1e-7, "velocity at +\(mark)")
        }
    }

    @Test("Retargeting: a waiting spring gets the target; refusals change nothing")
    func retargetRefusals() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let s = Spring()
        var later = Animation.spring("opacity", s, from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: 5, duration: 1))
        later.isRemovedOnCompletion = false
        let h = try rt.add(later, to: l, forKey: "later")
        try rt.tick(0)
        try rt.retarget(h, to: .scalar(3))
        #expect(try rt.attachedAnimation(h).value(.to) == .scalar(3))
        #expect(try rt.attachedAnimation(h).timing.beginTime == 5)
        let basic = try rt.add(linear("cornerRadius", 0, 1), to: l, forKey: "b")
        do { try rt.retarget(basic, to: .scalar(2)); Issue.record("accepted") } catch { #expect(error.status == .kind) }
        let t = try rt.add(.spring("transform", s, to: .transform(.scale(2, 2)), timing: MediaTiming(duration: 1)), to: l, forKey: "t")
        do { try rt.retarget(t, to: .transform(.identity)); Issue.record("accepted") } catch { #expect(error.status == .kind) }
        do { try rt.retarget(h, to: .point(1, 1)); Issue.record("accepted") } catch { #expect(error.status == .kind) }
        do { try rt.retarget(h, to: .scalar(.nan)); Issue.record("accepted") } catch { #expect(error.status == .invalidArgument) }
        var backwards = Animation.spring("position.x", s, from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1))
        backwards.timing.speed = -1
        let b = try rt.add(backwards, to: l, forKey: "back")
        try rt.tick(0.5)
        do { try rt.retarget(b, to: .scalar(2)); Issue.record("accepted") } catch { #expect(error.status == .state) }
        #expect(try rt.attachedAnimation(b).value(.to) == .scalar(1))
    }

    /// The speed of a vector velocity is its length, whichever component
    /// holds it: (0, 500) and (500, 0) are both 500 per second, so with
    /// r = 0.99 and rest 0.5 both come to rest after ln(500 / 0.5) /
    /// (−1000 ln 0.99) ≈ 0.687 s, as (300, −400) and (0, −400, 300) do.
    @Test("A decay's speed is the length of its velocity, whichever component is the largest")
    func decaySpeedAnyComponent() {
        let d = Decay(decelerationRate: Decay.fast, restVelocity: 0.5)
        let expected = log(500 / 0.5) / (-1000 * log(0.99))
        for v in [AnimatableValue.point(0, 500), .point(500, 0), .point(300, -400), .point(-300, 400)] {
            expectClose(d.duration(initialVelocity: v), expected, 1e-12, "\(v)")
        }
    }

    /// Each refusal names the number that is wrong and its range, with
    /// .outOfRange; a mass or stiffness of 0 would otherwise be caught only
    /// by the later check that k/m is a normal double, which blames the two
    /// together, and a bounce of −1 or a response of 0 by the finiteness of
    /// the damping or stiffness they make (∞, .invalidArgument).
    @Test("R0.3 a spring's zero mass, zero stiffness, bounce of −1 and response of 0 are refused by name")
    func springRefusalsByName() {
        expectFailure(.outOfRange, exactly: "spring mass is 0; it must be greater than 0") { try Spring(mass: 0).validate() }
        expectFailure(.outOfRange, exactly: "spring stiffness is 0; it must be greater than 0") { try Spring(stiffness: 0).validate() }
        expectFailure(.outOfRange, exactly: "spring mass is -1; it must be greater than 0") { try Spring(mass: -1).validate() }
        expectFailure(.outOfRange, exactly: "spring bounce is -1; it must be in (-1, 1] (1: undamped, 0: critically damped, below 0: over-damped)") {
            _ = try Spring.checked(perceptualDuration: 1, bounce: -1)
        }
        expectFailure(.outOfRange, exactly: "spring response is 0; it must be greater than 0") {
            _ = try Spring.checked(response: 0, dampingRatio: 1)
        }
        expectFailure(.outOfRange, exactly: "spring perceptual duration is 0; it must be greater than 0") {
            _ = try Spring.checked(perceptualDuration: 0, bounce: 0)
        }
    }

    /// SwiftUI's Spring(response:dampingRatio:) over-damps above a ratio of
    /// 1. Response 1, ratio 2: ω0 = 2π, the rates r = −ω0(ζ ∓ √(ζ² − 1)),
    /// and at rest at first x(t) = (r2·e^(r1 t) − r1·e^(r2 t)) / (r2 − r1)
    /// (x(0) = 1, x′(0) = 0). At t = 0.5 that is 0.4643…, where the
    /// critically damped stand-in (1 + ω0 t)·e^(−ω0 t) is 0.1790….
    @Test("R1.5 Spring(response:dampingRatio:) above a ratio of 1 is over-damped, as SwiftUI's")
    func responseOverdamped() throws {
        let s = try Spring.checked(response: 1, dampingRatio: 2)
        #expect(s.allowsOverdamping)
        let w0 = 2 * Double.pi, root = 3.0.squareRoot()
        let r1 = -w0 * (2 - root), r2 = -w0 * (2 + root)
        for t in [0.1, 0.5, 2] {
            expectClose(s.displacement(at: t), (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1), 1e-12, "t = \(t)")
        }
        #expect(abs(s.displacement(at: 0.5) - (1 + w0 * 0.5) * exp(-w0 * 0.5)) > 0.28)
        // At a ratio of 1 or below it is not: critical damping is its own regime.
        #expect(try !Spring.checked(response: 1, dampingRatio: 1).allowsOverdamping)
    }

    /// A whole transform interpolates its decomposition: identity →
    /// translation(10, 20) over 2 s moves the matrix's translation (m[12],
    /// m[13]) at 5 and 10 per second and nothing else; identity →
    /// rotationZ(π/2) over 1 s turns at θ′ = π/2, so m[0] = cos θ changes at
    /// −sin θ·π/2 and m[1] = sin θ at cos θ·π/2 (θ = π/4 half-way).
    @Test("Velocity of a whole transform is the rate of its matrix, translation and rotation alike")
    func transformVelocity() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        let move = try rt.add(.basic("transform", from: .transform(.identity), to: .transform(.translation(10, 20)),
                                     timing: MediaTiming(duration: 2)), to: a, forKey: "t")
        let turn = try rt.add(.basic("transform", from: .transform(.identity), to: .transform(.rotationZ(.pi / 2)),
                                     timing: MediaTiming(duration: 1)), to: b, forKey: "t")
        try rt.tick(0); try rt.tick(0.5)
        let v = try rt.velocity(of: move).lanes
        expectClose(v[12], 5, 1e-6); expectClose(v[13], 10, 1e-6)
        for k in 0..<16 where k != 12 && k != 13 { expectClose(v[k], 0, 1e-6, "lane \(k)") }
        let w = try rt.velocity(of: turn).lanes
        expectClose(w[0], -sin(Double.pi / 4) * .pi / 2, 1e-6); expectClose(w[1], cos(Double.pi / 4) * .pi / 2, 1e-6)
        expectClose(w[4], -cos(Double.pi / 4) * .pi / 2, 1e-6); expectClose(w[5], -sin(Double.pi / 4) * .pi / 2, 1e-6)
    }

    /// A keyframe segment's own timing function eases it: 0 → 10 over key
    /// times 0 → 0.5 of 2 s with ease-in moves at 10 / (0.5 × 2) × y′(f),
    /// the curve's slope where the segment is (f = 0.8 at 0.8 s, where
    /// ease-in is steeper than a line); the next, linear, segment at
    /// 10 / (0.5 × 2) = 10.
    @Test("Velocity of a keyframe segment takes the slope of the segment's timing function")
    func keyframeSegmentCurveVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let k = Keyframes(values: [.scalar(0), .scalar(10), .scalar(20)], keyTimes: [0, 0.5, 1], timingFunctions: [.easeIn, .linear])
        let h = try rt.add(.keyframe("opacity", k, timing: MediaTiming(duration: 2)), to: l, forKey: "k")
        try rt.tick(0); try rt.tick(0.8)
        let slope = Self.bezierSlope((0.42, 0, 1, 1), at: 0.8)
        #expect(slope > 1.4)  // the curve's slope differs from a line's here
        expectClose(try rt.velocity(of: h).scalar, 10 * slope, 1e-9)
        try rt.tick(1.5)
        expectClose(try rt.velocity(of: h).scalar, 10, 1e-9)
    }
}
