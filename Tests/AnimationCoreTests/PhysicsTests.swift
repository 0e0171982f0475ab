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
}
