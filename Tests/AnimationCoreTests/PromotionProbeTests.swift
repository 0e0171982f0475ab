import Testing
@testable import AnimationCore

/// Edge cases of moving an animation back to the batch when it is left
/// alone on its property (`Runtime.promoteSurvivor`) and of removing a
/// finished batch entry without a stale sync: each scenario is built twice,
/// once with the move and once with the same animation alone on another
/// layer (or without the move), and what the host sees must match to the bit.
@Suite("Promotion: edge cases match the animation that was never moved")
struct PromotionProbeTests {
    static func linear(_ from: Double, _ to: Double, begin: Double, duration: Double,
                       removed: Bool = true, fill: FillMode = .removed, path: String = "opacity") -> Animation {
        var a = Animation.basic(path, from: .scalar(from), to: .scalar(to),
                                timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill), timingFunction: .linear)
        a.isRemovedOnCompletion = removed
        return a
    }

    /// A survivor that ended while its layer ran twice as fast, and is in
    /// the middle of its interval again once the layer's time is the
    /// runtime's: on the general path it shows its value at each tick; the
    /// move must not freeze it at the value of the tick after the move.
    @Test("a survivor ended in an earlier layer time is not frozen when that time no longer ends it")
    func endedUnderOldLayerTime() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), alone = try rt.createLayer()
        for x in [l, alone] { try rt.setTiming(LayerTiming(beginTime: 0, speed: 2, timeOffset: 0), of: x) }
        let keep = Self.linear(0, 1, begin: 0.1, duration: 1, removed: false, fill: .forwards)
        let a = try rt.add(keep, to: l, forKey: "keep")
        try rt.add(keep, to: alone, forKey: "keep")
        let other = try rt.add(Self.linear(5, 6, begin: 0.1, duration: 20, path: "opacity"), to: l, forKey: "other")
        try rt.tick(0)
        try rt.tick(0.7)   // layer time 1.4: "keep" has ended on both layers
        #expect(rt.instances[a.index].state == .ended)
        for x in [l, alone] { try rt.setTiming(LayerTiming(beginTime: 0, speed: 1, timeOffset: 0), of: x) }
        try rt.removeInstance(other)
        _ = rt.drain()
        for t in [0.75, 0.8, 0.9, 1.0, 1.05, 1.2, 1.5] {
            try rt.tick(t)
            let (v, w) = try (rt.scalar("opacity", l), rt.scalar("opacity", alone))
            #expect(v.bitPattern == w.bitPattern, "at \(t): \(v) vs \(w) alone")
        }
        #expect(rt.drain().filter { $0.object == a }.isEmpty)
    }

    /// A survivor added with beginTime 0 outside a tick (stamped at the
    /// next tick) and moved before that tick: it begins at the same time,
    /// with the same values and events, as the same animation alone.
    @Test("a survivor whose begin is not stamped yet begins as the one alone does")
    func pendingBegin() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), alone = try rt.createLayer()
        try rt.tick(1)
        let first = try rt.add(Self.linear(0, 1, begin: 0, duration: 5), to: l, forKey: "first")
        var s = Self.linear(-2, 3, begin: 0, duration: 0.7)
        s.timing.repeatCount = 1.5
        s.timing.autoreverses = true
        let b = try rt.add(s, to: l, forKey: "b")
        let r = try rt.add(s, to: alone, forKey: "b")
        try rt.removeInstance(first)
        #expect(rt.instances[b.index].inBatch && rt.instances[b.index].pendingBegin)
        #expect(try rt.attachmentState(b).beginTime == nil)
        var events = rt.drain().filter { $0.object == b || $0.object == r }
        for t in stride(from: 1.25, through: 4, by: 0.125) {
            try rt.tick(t)
            let (v, w) = try (rt.scalar("opacity", l), rt.scalar("opacity", alone))
            #expect(v.bitPattern == w.bitPattern, "at \(t): \(v) vs \(w) alone")
            events += rt.drain()
        }
        #expect(try rt.isAttached(b) == rt.isAttached(r))
        let mine = events.filter { $0.object == b }.map(\.tag), theirs = events.filter { $0.object == r }.map(\.tag)
        #expect(mine == ["started", "stopped:finished"] && theirs == mine)
    }

    /// A survivor on one component of a point (position.y) while the other
    /// component's model changes, ending and removed in a tick where a
    /// barrier's notification sets the model of the component it animated:
    /// the whole point shows what it shows for the animation alone.
    @Test("a survivor on one component: the other component and a model set by a notification show as alone")
    func otherComponent() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), alone = try rt.createLayer()
        for x in [l, alone] { try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: x) }
        let ax = try rt.add(Self.linear(10, 20, begin: 0.1, duration: 0.4, path: "position.x"), to: l, forKey: "x")
        let y = Self.linear(30, 40, begin: 0.2, duration: 1, path: "position.y")
        var barriers: [Handle] = []
        for x in [l, alone] {
            let b = try rt.createBarrier()
            try rt.add(y, to: x, forKey: "y", joining: b)
            try rt.notify(b) { try? rt.setModelValue(.scalar(7), forKeyPath: "position.y", of: x) }
            barriers.append(b)
        }
        #expect(rt.attachedCounts == (3, 1))   // on l, x and y share position: both on the general path
        try rt.tick(0)
        try rt.tick(0.3)
        try rt.removeInstance(ax)   // l: y alone on position, moved back to the batch
        #expect(rt.attachedCounts == (2, 2))
        try rt.setModelValue(.scalar(-4), forKeyPath: "position.x", of: l)
        try rt.setModelValue(.scalar(-4), forKeyPath: "position.x", of: alone)
        for t in [0.35, 0.6, 1.19, 1.2, 1.21, 1.3] {
            try rt.tick(t)
            let (v, w) = try (rt.presentationValue(forKeyPath: "position", of: l), rt.presentationValue(forKeyPath: "position", of: alone))
            #expect(v.lanes[0].bitPattern == w.lanes[0].bitPattern && v.lanes[1].bitPattern == w.lanes[1].bitPattern,
                    "at \(t): \(v.components) vs \(w.components) alone")
        }
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(-4, 7))
    }
}
