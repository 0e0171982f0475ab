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
        #expect(rt.isAttached(b) == rt.isAttached(r))
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

extension PromotionProbeTests {
    /// What the host reads of an attached animation that drives its values
    /// — computed timing, velocity, the snapshot's begin, duration and
    /// phase, the ends it runs between — is the same just before and just
    /// after the move. (The description itself reads back as a batch
    /// entry's does: a by value as the equivalent to, no curve as linear.)
    @Test("what drives the survivor reads back the same before and after the move", arguments: [false, true])
    func readbacks(_ byValue: Bool) throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let first = try rt.add(Self.linear(0, 1, begin: 0, duration: 5), to: l, forKey: "first")
        var s = byValue ? Animation.basic("opacity", from: .scalar(0.25), by: .scalar(0.5), timing: MediaTiming(beginTime: 0.5, duration: 2))
                        : Animation.basic("opacity", from: .scalar(0.25), to: .scalar(0.75), timing: MediaTiming(beginTime: 0.5, duration: 2))
        s.timing.repeatCount = 2
        s.timing.autoreverses = true
        s.timingFunction = .easeInEaseOut
        let b = try rt.add(s, to: l, forKey: "b")
        try rt.tick(0)
        try rt.tick(1.75)
        let ends = { (a: Animation) throws -> (Double, Double) in
            let f = try a.value(.from)!.scalar
            return (f, try a.value(.to)?.scalar ?? f + a.value(.by)!.scalar)
        }
        let before = (try ends(rt.attachedAnimation(b)), try rt.computedTiming(of: b), try rt.velocity(of: b), try rt.attachmentState(b))
        try rt.removeInstance(first)
        #expect(rt.instances[b.index].inBatch)
        let after = (try ends(rt.attachedAnimation(b)), try rt.computedTiming(of: b), try rt.velocity(of: b), try rt.attachmentState(b))
        #expect(before.0 == after.0)
        #expect(before.1 == after.1 && before.1.progress != nil)
        #expect(before.2 == after.2 && before.2.scalar != 0)
        #expect(before.3.beginTime == after.3.beginTime && before.3.duration == after.3.duration && before.3.phase == after.3.phase)
        #expect(try rt.attachedAnimation(b).timing.repeatCount == 2)
    }
}

extension PromotionProbeTests {
    /// Hundreds of survivors moved in one tick (more than `warmThreshold`
    /// changes, so `processTransitions` loads ahead), evaluated on two
    /// threads, some of their layers later cleared or destroyed: each shows
    /// bit for bit what the same animation alone shows, with the same events.
    @Test("many survivors moved in one tick, on two threads, match the animations alone")
    func manyOnTwoThreads() throws {
        var g = BatchDifferentialTests.Generator(state: 0x5EED_0001)
        let rt = Runtime()
        rt.evaluationThreads = 2
        rt.batches.minimumPerThread = 4
        let n = 300
        var pairs: [(l: Handle, alone: Handle, b: Handle, r: Handle)] = []
        for _ in 0..<n {
            let l = try rt.createLayer(), alone = try rt.createLayer()
            for x in [l, alone] { try rt.setModelValue(.scalar(0.625), forKeyPath: "opacity", of: x) }
            try rt.add(Self.linear(3, 4, begin: 0.001, duration: 0.3), to: l, forKey: "first")
            pairs.append((l, alone, Handle(raw: 0), Handle(raw: 0)))
        }
        try rt.tick(0.2)
        for i in 0..<n {
            let s = BatchDifferentialTests.Scenario(&g)
            pairs[i].b = try rt.add(s.animation, to: pairs[i].l, forKey: "b")
            pairs[i].r = try rt.add(s.animation, to: pairs[i].alone, forKey: "b")
        }
        try rt.tick(0.4)
        #expect(rt.attachedCounts.batched > n + n / 2, "most survivors are back in the batch")
        _ = rt.drain()
        var t = 0.4, step = 0
        var tags: [Handle: [String]] = [:]
        while t < 5 {
            t += [0.05, 0.125, 0.3].randomElement(using: &g)!
            step += 1
            if step == 5 {
                // Clear some layers and destroy others, the same on both sides.
                for i in stride(from: 0, to: n, by: 7) { try rt.removeAllAnimations(from: pairs[i].l); try rt.removeAllAnimations(from: pairs[i].alone) }
                for i in stride(from: 3, to: n, by: 11) { try rt.destroyLayer(pairs[i].l); try rt.destroyLayer(pairs[i].alone) }
            }
            try rt.tick(t)
            for (i, p) in pairs.enumerated() where step < 5 || i % 11 != 3 {
                let (v, w) = try (rt.scalar("opacity", p.l), rt.scalar("opacity", p.alone))
                #expect(v.bitPattern == w.bitPattern, "layer \(i) at \(t): \(v) vs \(w) alone")
            }
            for e in rt.drain() { tags[e.object, default: []].append(e.tag) }
        }
        for p in pairs {
            #expect(tags[p.b] ?? [] == tags[p.r] ?? [], "events \(tags[p.b] ?? []) vs \(tags[p.r] ?? []) alone")
            #expect(rt.isAttached(p.b) == rt.isAttached(p.r))
        }
    }
}
