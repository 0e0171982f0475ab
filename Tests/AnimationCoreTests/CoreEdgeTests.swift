import Testing
@testable import AnimationCore

/// Edges of the runtime's core and of keyframe evaluation that the suites
/// around them did not reach: where an overflow begins, a table exactly
/// full, key times one per value in discrete mode, what paced and cubic
/// keyframes compute, a velocity along a path with uneven key times, and a
/// retargeted spring read back. Values are worked out by hand in each case.
@Suite("R0.4, R0.5, R1.4, R1.5 core edges: event loss, table room, keyframe modes, read-back velocity")
struct CoreEdgeTests {
    static func event(_ time: Double) -> Event {
        var e = Event(type: .timerFired, time: time)
        e.token = UInt64(time)
        return e
    }

    /// A queue of capacity 3 holds 2 events and keeps its third slot for the
    /// notice, which tells when the loss began (the first event lost) and
    /// how many were lost.
    @Test("The overflow notice carries the time of the first event lost and the count")
    func overflowNoticeTime() {
        var q = EventQueue(capacity: 3)
        for t in [1.0, 2, 3, 4, 5] { q.push(Self.event(t)) }
        #expect(q.count == 2 && q.lost == 3)
        #expect(q.pop()?.time == 1)
        #expect(q.pop()?.time == 2)
        let notice = q.pop()
        #expect(notice?.type == .overflow && notice?.time == 3 && notice?.token == 3)
        #expect(q.pop() == nil)
        // Once delivered, a new loss starts its own notice.
        for t in [6.0, 7, 8] { q.push(Self.event(t)) }
        _ = q.pop(); _ = q.pop()
        #expect(q.pop().map { ($0.time, $0.token) } ?? (0, 0) == (8, 1))
    }

    /// `hasRoom(for:)` at its edge: a limit of 4 with 2 made has room for 2
    /// more, not 3; a freed slot counts as room.
    @Test("A table has room for exactly what its limit leaves, free slots included")
    func roomAtTheEdge() throws {
        let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0, slotLimit: 4)
        let a = try table.insert(1)
        _ = try table.insert(2)
        #expect(table.hasRoom(for: 2) && !table.hasRoom(for: 3))
        table.remove(at: a.index)
        #expect(table.hasRoom(for: 3) && !table.hasRoom(for: 4))
    }

    /// A limit lowered below the slots made stops at them: those stay
    /// usable, and the table has room for its free slots, never less.
    @Test("A limit lowered below the slots made stays at them")
    func limitBelowSlots() throws {
        let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
        let handles = try (0..<3).map { i throws(AnimrtError) in try table.insert(i) }
        table.lowerLimit(to: 1)
        #expect(table.slotLimit == 3 && !table.hasRoom && !table.hasRoom(for: 1) && table.hasRoom(for: 0))
        table.remove(at: handles[0].index)
        #expect(table.hasRoom(for: 1) && !table.hasRoom(for: 2))
        #expect(try table.insert(7).index == handles[0].index)
    }

    /// Discrete mode takes n + 1 key times or n (Core Animation's
    /// kCAAnimationDiscrete): with n, the last value holds from the last key
    /// time on, and that key time need not be 1.
    @Test("Discrete keyframes take one key time per value")
    func discreteKeyTimesPerValue() throws {
        let values: [AnimatableValue] = [.scalar(1), .scalar(2), .scalar(3)]
        let k = try ResolvedKeyframes(Keyframes(values: values, keyTimes: [0, 0.5, 0.75], calculationMode: .discrete), path: "x")
        #expect([0, 0.49, 0.5, 0.74, 0.75, 1].map { k.value(at: $0).scalar } == [1, 1, 2, 2, 3, 3])
        // n + 2 key times is neither count.
        #expect(throws: AnimrtError.self) {
            try ResolvedKeyframes(Keyframes(values: values, keyTimes: [0, 0.25, 0.5, 0.75, 1], calculationMode: .discrete), path: "x")
        }
    }

    /// kCAAnimationPaced ignores timing functions: values 0, 10, 30 are
    /// paced over 30 units, so progress 0.5 is at 15 and 0.25 at 7.5, eased
    /// segments or not.
    @Test("Paced keyframes ignore their segments' timing functions")
    func pacedIgnoresFunctions() throws {
        let k = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(10), .scalar(30)], timingFunctions: [.easeIn, .easeIn],
                                                calculationMode: .paced), path: "x")
        #expect(abs(k.value(at: 0.5).scalar - 15) < 1e-12)
        #expect(abs(k.value(at: 0.25).scalar - 7.5) < 1e-12)
        #expect(abs(k.rate(at: 0.5).scalar - 30) < 1e-12)
    }

    /// Kochanek–Bartels with bias 0.5 at the middle of 0, 10, 30 (tension
    /// and continuity 0): chords 10 and 20, outgoing tangent
    /// 10·(1.5/2) + 20·(0.5/2) = 12.5; the last keyframe's incoming tangent
    /// is 20·(1/2) = 10. Halfway along the second segment (progress 0.75):
    /// 10·0.5 + 12.5·0.125 + 30·0.5 − 10·0.125 = 20.3125.
    @Test("A keyframe's bias leans its tangents as Kochanek–Bartels define them")
    func biasTangent() throws {
        var kf = Keyframes(values: [.scalar(0), .scalar(10), .scalar(30)], calculationMode: .cubic)
        kf.biasValues = [0, 0.5, 0]
        let k = try ResolvedKeyframes(kf, path: "x")
        #expect(k.outgoing[1].scalar == 12.5 && k.incoming[1].scalar == 12.5 && k.incoming[2].scalar == 10)
        #expect(abs(k.value(at: 0.75).scalar - 20.3125) < 1e-12)
    }

    /// Along (0,0) → (10,0) → (10,10) with key times 0, 0.25, 1, the first
    /// segment runs 10 units in a quarter of the progress: 40 per unit of
    /// progress; the second 10 in three quarters: 40/3.
    @Test("A velocity along a path follows each segment's key-time interval")
    func pathRateKeyTimes() throws {
        var kf = Keyframes(values: [], keyTimes: [0, 0.25, 1])
        kf.path = [.move(0, 0), .line(10, 0), .line(10, 10)]
        let k = try ResolvedKeyframes(kf, path: "position")
        let first = k.rate(at: 0.125), second = k.rate(at: 0.5)
        #expect(first.lanes[0] == 40 && first.lanes[1] == 0)
        #expect(second.lanes[0] == 0 && abs(second.lanes[1] - 40.0 / 3) < 1e-12)
        #expect(k.value(at: 0.125).lanes[0] == 5)
    }

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
