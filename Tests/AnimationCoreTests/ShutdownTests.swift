import Testing
@testable import AnimationCore

/// A runtime's shutdown stops every animation with `.runtimeDestroyed` and
/// then detaches them all. It stops them in slot order first and only then
/// detaches (batch entries from each lane's end, so that no entry moves);
/// these tests hold it to what stopping and detaching each animation in
/// turn gives: the same events in the same order, and nothing left.
@Suite("R1.8 a runtime's shutdown")
struct ShutdownTests {
    /// A scene whose batch lanes are out of slot order: batch entries of
    /// three curves, general-path animations (autoreversing, a group),
    /// finished ones kept attached, two barriers with notifications, and
    /// removals and replacements that moved lane entries and reused slots.
    static func scene() throws -> Runtime {
        let rt = Runtime()
        let layers = try (0..<24).map { _ in try rt.createLayer() }
        let early = try rt.createBarrier(), late = try rt.createBarrier()
        let curves: [TimingFunction] = [.linear, .easeIn, .easeOut]
        for (k, l) in layers.enumerated() {
            var a = linear("opacity", 0, 1, begin: 0, duration: 1 + Double(k % 5))
            a.timingFunction = curves[k % 3]
            try rt.add(a, to: l, forKey: "fade", joining: k % 4 == 0 ? early : k % 4 == 1 ? late : nil)
            if k % 6 == 2 {
                var back = linear("position.x", 0, 10, duration: 3)
                back.timing.autoreverses = true
                try rt.add(back, to: l, forKey: "back", joining: early)
            }
            if k % 7 == 3 {
                var kept = linear("cornerRadius", 0, 4, duration: 0.5, fill: .forwards)
                kept.isRemovedOnCompletion = false
                try rt.add(kept, to: l, forKey: "kept")
            }
            if k % 9 == 4 {
                try rt.add(.group([linear("bounds.size.width", 0, 1), linear("bounds.size.height", 0, 1)],
                                  timing: MediaTiming(duration: 2)), to: l, forKey: "group", joining: late)
            }
        }
        try rt.notify(early, token: 1)
        try rt.notify(late, token: 2)
        try rt.tick(0)
        try rt.tick(0.75)  // the kept ones finish and stay attached
        // Entries leave the middle of their lanes (the last moves in) and
        // their slots are taken again by new entries at the lanes' ends.
        for k in stride(from: 1, to: 24, by: 5) { try rt.removeAnimation(forKey: "fade", from: layers[k]) }
        for k in stride(from: 0, to: 24, by: 7) { try rt.add(linear("opacity", 1, 0, duration: 4), to: layers[k], forKey: "fade") }
        try rt.tick(1.5)
        _ = rt.drain()
        return rt
    }

    /// What a shutdown reports, with handles as slot indices (the two
    /// runtimes compared have different tags).
    static func shape(_ events: [Event]) -> [String] {
        events.map { "\($0.tag) object \($0.object.index) layer \($0.layer.index) at \($0.time)" }
    }

    @Test("stops in slot order, as stopping each in turn did, and leaves nothing attached")
    func sameAsOneByOne() throws {
        let rt = try Self.scene(), reference = try Self.scene()
        let lanesOutOfOrder = rt.batches.lanes.contains { lane in
            (1..<max(lane.count, 1)).contains { lane.owner[$0] < lane.owner[$0 - 1] }
        }
        #expect(lanesOutOfOrder, "the scene must leave a lane out of slot order")
        let live = (0..<rt.instances.capacity).filter { rt.instances.isLive($0) }
        let stopping = live.filter { rt.instances[$0].state != .ended }
        // 24 fades, less 5 removed and 4 finished, plus one added again;
        // 4 autoreversing, 3 groups, 3 kept (finished: no second stop)
        #expect(live.count == 26 && stopping.count == 23)

        let events = rt.shutdown()
        for i in 0..<reference.instances.capacity where reference.instances.isLive(i) {
            reference.stop(instance: i, reason: .runtimeDestroyed)
        }
        reference.runDeferred()
        let expected = reference.drain()
        #expect(Self.shape(events) == Self.shape(expected))
        #expect(events.filter { $0.type == .animationStopped }.map(\.object.index) == stopping)
        #expect(events.filter { $0.type == .barrierNotified }.map(\.token).sorted() == [1, 2])
        #expect(rt.attachedCounts.total == 0 && rt.instances.count == 0)
        #expect(rt.batches.lanes.allSatisfy { $0.count == 0 } && rt.general.isEmpty)
    }

    @Test("with a place to deliver them, no last stop is lost to the queue's bound", arguments: [false, true])
    func delivering(_ deliver: Bool) throws {
        let rt = Runtime(configuration: .init(eventCapacity: 4))
        let l = try rt.createLayer()
        let handles = try (0..<50).map { _ in try rt.add(linear("opacity", 0, 1, duration: 5), to: l, forKey: nil) }
        var batches: [[Event]] = []
        let last = rt.shutdown(delivering: deliver ? { batches.append($0) } : nil)
        let all = batches.flatMap { $0 } + last
        if deliver {
            #expect(all.map(\.object) == handles && all.allSatisfy { $0.reason == .runtimeDestroyed })
            #expect(batches.count == 16 && batches.allSatisfy { $0.count == 3 })  // a queue of 4 holds 3
        } else {
            #expect(all.map(\.tag) == ["stopped:runtimeDestroyed", "stopped:runtimeDestroyed", "stopped:runtimeDestroyed",
                                       "overflow:47"])
        }
    }

    /// What the stops make due runs before `shutdown` returns: a barrier's
    /// closure, queued by the stop that empties it, would otherwise wait
    /// for a tick that never comes. And the closure given to deliver events
    /// is the shutdown's only: a queue filled after it returned counts its
    /// losses again (and tells them by an overflow notice), calling nothing.
    @Test("R1.8 a barrier's closure made due by the stops runs before it returns; the delivering closure is let go")
    func closuresAfterShutdown() throws {
        let rt = Runtime(configuration: .init(eventCapacity: 4))
        let l = try rt.createLayer(), b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1, duration: 5), to: l, forKey: nil, joining: b)
        var ran: [String] = []
        try rt.notify(b) { ran.append("barrier") }
        var delivered: [[Event]] = []
        let last = rt.shutdown(delivering: { delivered.append($0) })
        #expect(ran == ["barrier"])
        #expect(last.map(\.tag) == ["stopped:runtimeDestroyed"] && delivered.isEmpty)
        for k in 1...5 {
            var e = Event(type: .timerFired, time: 0)
            e.token = UInt64(k)
            rt.post(e)
        }
        #expect(delivered.isEmpty)
        var polled: [String] = []
        while let e = rt.pollEvent() { polled.append(e.tag) }
        #expect(polled == ["timer:1", "timer:2", "timer:3", "overflow:2"])
    }
}
