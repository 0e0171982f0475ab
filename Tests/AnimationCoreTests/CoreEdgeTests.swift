import Testing
@testable import AnimationCore

/// Edges of the runtime's core and of keyframe evaluation that the suites
/// around them did not reach: where an overflow begins, a table exactly
/// full, key times one per value in discrete mode, what paced and cubic
/// keyframes compute, a velocity along a path with uneven key times, and a
/// retargeted spring read back. Values are worked out by hand in each case.
@Suite("R0.4, R0.5, R1.4, R1.5 core edges: event loss, table room, keyframe modes, read-back velocity")
struct CoreEdgeTests {
    /// A retargeted spring carries a velocity vector; read back, the
    /// description holds its part along from → to in distances per second:
    /// (w · d) / (d · d). From 0 to 10 at 5 per second: 0.5. From 0 to
    /// 1e200 at 1e200 per second: 1 (d · d is past the doubles; the ratio
    /// is not, and was read back as 0).
    @Test("A retargeted spring reads back its velocity in distances per second, however far it goes")
    func retargetedSpringReadback() throws {
        var registry = PropertyRegistry()
        for (to, w, expected) in [(10.0, 5.0, 0.5), (1e200, 1e200, 1.0), (-4, 2, -0.5)] {
            let r = try ResolvedAnimation.resolve(.spring("opacity", Spring(), from: .scalar(0), to: .scalar(1)),
                                                  properties: &registry, defaultDuration: 0.25)
            r.restartSpring(from: .scalar(0), to: .scalar(to), velocity: .scalar(w), at: 0)
            guard case .spring(_, _, _, let s) = r.readback.content else { Issue.record("not a spring"); continue }
            #expect(s.initialVelocity == expected, "to \(to) at \(w)")
        }
        // A point: from (0, 0) to (3, 4) at (6, 8) per second is 50 / 25 = 2.
        let r = try ResolvedAnimation.resolve(.spring("position", Spring(), from: .point(0, 0), to: .point(1, 1)),
                                              properties: &registry, defaultDuration: 0.25)
        r.restartSpring(from: .point(0, 0), to: .point(3, 4), velocity: .point(6, 8), at: 0)
        guard case .spring(_, _, _, let s) = r.readback.content else { Issue.record("not a spring"); return }
        #expect(s.initialVelocity == 2)
    }
}
