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
}
