import Testing
@testable import AnimationCore

/// The spring's closed forms checked against their definition rather than
/// against themselves: the displacement x(t) solves m·x'' + c·x' + k·x = 0
/// with x(0) = 1 and x'(0) = −v0 (the initial velocity, in from→to distances
/// per second towards the target), for every damping regime and a nonzero
/// initial velocity. Derivatives by central differences.
@Suite("R1.5 springs solve their equation of motion")
struct SpringTests {
    static let h = 1e-4

    static func derivatives(_ s: Spring, _ t: Double) -> (x: Double, dx: Double, ddx: Double) {
        let x0 = s.displacement(at: t - h), x1 = s.displacement(at: t), x2 = s.displacement(at: t + h)
        return (x1, (x2 - x0) / (2 * h), (x2 - 2 * x1 + x0) / (h * h))
    }

    @Test("x(0) = 1, x'(0) = −v0, and m·x'' + c·x' + k·x = 0", arguments: [
        // (mass, stiffness, damping, initial velocity, allowsOverdamping)
        (1.0, 100.0, 5.0, 0.0, false), (1.0, 100.0, 5.0, 8.0, false),      // under-damped, ζ = 0.25
        (1.0, 100.0, 20.0, 5.0, false), (2.0, 50.0, 20.0, -3.0, false),    // critically damped, ζ = 1
        (1.0, 100.0, 40.0, 6.0, true), (1.0, 100.0, 40.0, 0.0, true),      // over-damped, ζ = 2
    ])
    func equationOfMotion(_ p: (Double, Double, Double, Double, Bool)) {
        let s = Spring(mass: p.0, stiffness: p.1, damping: p.2, initialVelocity: p.3, allowsOverdamping: p.4)
        #expect(s.displacement(at: 0) == 1)
        // One-sided at 0 (x is 1 for t ≤ 0): x'(0+) from the first steps.
        let slope = (-3 * s.displacement(at: 0) + 4 * s.displacement(at: Self.h) - s.displacement(at: 2 * Self.h)) / (2 * Self.h)
        #expect(abs(slope + p.3) < 1e-5 * max(1, abs(p.3)) + 1e-4, "x'(0) = \(slope), expected \(-p.3)")
        for t in [0.05, 0.1, 0.3, 0.7] {
            let d = Self.derivatives(s, t)
            let residual = p.0 * d.ddx + p.2 * d.dx + p.1 * d.x
            #expect(abs(residual) < 1e-3 * p.1, "residual \(residual) at t = \(t)")
        }
        #expect(s.value(at: 0) == 0)
        #expect(abs(s.value(at: 10) - 1) < 1e-6)
    }

    @Test("Without allowsOverdamping a damping ratio above 1 runs as critically damped")
    func criticalStandIn() {
        let over = Spring(mass: 1, stiffness: 100, damping: 40, initialVelocity: 6)
        let critical = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 6)
        for t in [0.05, 0.2, 0.6] { #expect(over.displacement(at: t) == critical.displacement(at: t)) }
        // (1 + (ω0 − v0)·t)·e^(−ω0·t) with ω0 = 10, v0 = 6, at t = 0.1: 1.4 / e.
        expectClose(critical.displacement(at: 0.1), 1.4 * _exp(-1), 1e-15)
    }

    /// x(t) = (1 + (ω0 − v0)·t)·e^(−ω0·t) is small wherever ω0·t is large,
    /// but its factors need not be: (1 + ω0·t) and (ω0 − v0)·t pass the
    /// largest double first. ω0 = 10 at t = 10^308: x = 0, not ∞ · 0 = NaN
    /// (an attached spring filled at its end showed the model value).
    /// v0 = −10^307 at t = 20: x = 2·10^308·e^(−200) = 2.77·10^221, not ∞.
    /// Stiffness 10^308 (ω0 = 10^154): ω0²·t·e^(−ω0·t) at t = 2 is 0, and at
    /// t = 10^−154 (ω0·t = 1) it is ω0/e.
    @Test("R1.5 a critically damped spring's closed form does not overflow where its value is small")
    func criticalOverflow() throws {
        let critical = Spring(mass: 1, stiffness: 100, damping: 20)
        #expect(critical.displacement(at: 1e308) == 0)
        let r = critical.responses(at: 1e308)
        #expect(r.phi == 0 && r.dphi == 0 && r.psi == 0 && r.dpsi == 0, "\(r)")
        let thrown = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -1e307)
        try thrown.validate()
        expectClose(thrown.displacement(at: 20) / (2 * _exp(-200) * 1e308), 1, 1e-12)
        let stiff = Spring(mass: 1, stiffness: 1e308, damping: 2e154)
        try stiff.validate()
        #expect(stiff.dampingRatio == 1)
        #expect(stiff.displacementRate(at: 2) == 0 && stiff.responses(at: 2).dphi == 0)
        expectClose(stiff.responses(at: 1e-154).dphi / (-1e154 / _exp(1)), 1, 1e-12)
        expectClose(stiff.responses(at: 1e-154).phi, 2 / _exp(1), 1e-15)
        // Attached, filled forwards at the end of a 10^308 s run: the target.
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
        var a = Animation.spring("opacity", critical, from: .scalar(0), to: .scalar(1))
        a.timing.duration = 1e308; a.timing.fillMode = .forwards; a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "s")
        try rt.tick(0); try rt.tick(1e308)
        #expect(try rt.scalar("opacity", l) == 1)
    }
}
