import Testing
@testable import AnimationCore

/// A second animation on a property moves both to the general path (they
/// compose in order there). When one of them goes away, the one left goes
/// back to the batch (`Runtime.promoteSurvivor`): a retriggered animation
/// does not stay on the slow path for the rest of its life. Its values and
/// events do not change because of the move, bit for bit; read back, it
/// reads as any batch entry does (its two ends, docs/timing.md).
@Suite("An animation left alone on its property goes back to the batch")
struct PromotionTests {
    typealias Scenario = BatchDifferentialTests.Scenario

    static func fade(_ from: Double, _ to: Double, begin: Double, duration: Double, removed: Bool = true,
                     fill: FillMode = .removed) -> Animation {
        var a = Animation.basic("opacity", from: .scalar(from), to: .scalar(to),
                                timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill), timingFunction: .easeIn)
        a.isRemovedOnCompletion = removed
        return a
    }

    func lane(_ rt: Runtime, _ h: Handle) -> Int { Int(rt.instances[h.index].lane) }

    @Test("the older animation ends: the newer one is batched again, with the same values and one started event")
    func retriggered() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), alone = try rt.createLayer()
        try rt.add(Self.fade(0, 1, begin: 0, duration: 0.5), to: l, forKey: "old")
        try rt.tick(0)
        try rt.tick(0.25)
        let b = try rt.add(Self.fade(1, 0, begin: 0.3, duration: 1), to: l, forKey: "new")
        let reference = try rt.add(Self.fade(1, 0, begin: 0.3, duration: 1), to: alone, forKey: "new")
        #expect(rt.attachedCounts == (3, 1))   // the old one was demoted beside the new one
        try rt.tick(0.4)
        #expect(rt.attachedCounts == (3, 1))
        try rt.tick(0.5)                        // the old one ends and is removed
        #expect(rt.attachedCounts == (2, 2))
        #expect(rt.instances[b.index].inBatch && rt.instances[b.index].state == .running)
        #expect(rt.batches.lanes[lane(rt, b)].state[Int(rt.instances[b.index].tierIndex)] == LifeState.running.rawValue)
        var events = rt.drain()
        for t in [0.5001, 0.75, 1.0, 1.2999] {
            try rt.tick(t)
            #expect(try rt.scalar("opacity", l).bitPattern == rt.scalar("opacity", alone).bitPattern, "at \(t)")
            events += rt.drain()
        }
        try rt.tick(1.3)
        events += rt.drain()
        #expect(rt.attachedCounts == (0, 0))
        let mine = events.filter { $0.object == b }.map(\.tag)
        let theirs = events.filter { $0.object == reference }.map(\.tag)
        #expect(mine == ["started", "stopped:finished"] && theirs == mine)
        #expect(try rt.scalar("opacity", l) == rt.scalar("opacity", alone))
    }

    @Test("a survivor still waiting to begin starts once, from the batch")
    func waiting() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let a = try rt.add(Self.fade(0, 1, begin: 0, duration: 1), to: l, forKey: "a")
        let b = try rt.add(Self.fade(0, 0.5, begin: 2, duration: 1), to: l, forKey: "b")
        try rt.tick(0.5)
        #expect(rt.attachedCounts == (2, 0))
        try rt.removeInstance(a)
        #expect(rt.attachedCounts == (1, 1))
        #expect(rt.batches.lanes[lane(rt, b)].state[Int(rt.instances[b.index].tierIndex)] == LifeState.waiting.rawValue)
        try rt.tick(2.5)
        #expect(try rt.scalar("opacity", l) == 0.5 * TimingFunction.easeIn.evaluate(0.5))
        let tags = rt.drain().filter { $0.object == b }.map(\.tag)
        #expect(tags == ["started"])
    }

    @Test("a survivor that has ended and fills goes to the frozen store and keeps its value through model changes")
    func endedFill() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let keep = try rt.add(Self.fade(0, 0.75, begin: 0, duration: 0.5, removed: false, fill: .forwards), to: l, forKey: "keep")
        let other = try rt.add(Self.fade(0, 1, begin: 0, duration: 5), to: l, forKey: "other")
        try rt.tick(0)
        try rt.tick(1)
        #expect(rt.instances[keep.index].state == .ended && !rt.instances[keep.index].inBatch)
        try rt.removeInstance(other)
        #expect(lane(rt, keep) == rt.batches.frozenIndex && rt.batches.frozen.count == 1)
        try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 0.75)
        try rt.setModelValue(.scalar(0.25), forKeyPath: "opacity", of: l)
        try rt.tick(2)
        #expect(try rt.scalar("opacity", l) == 0.75)
        try rt.removeInstance(keep)
        try rt.tick(2.5)
        #expect(try rt.scalar("opacity", l) == 0.25)
        let stops = rt.drain().filter { $0.object == keep && $0.type == .animationStopped }
        #expect(stops.map(\.reason) == [.finished])   // once, when it ended: removing it later says nothing more
    }

    @Test("no promotion while two remain, for a survivor that does not qualify, or on a layer with its own time")
    func staysGeneral() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let a = try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: l, forKey: "a")
        try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: l, forKey: "b")
        try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: l, forKey: "c")
        try rt.removeInstance(a)
        #expect(rt.attachedCounts == (2, 0))

        var additive = Self.fade(0, 1, begin: 0, duration: 9)
        additive.isAdditive = true
        let m = try rt.createLayer()
        let x = try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: m, forKey: "x")
        try rt.add(additive, to: m, forKey: "additive")
        let group = Animation.group([Self.fade(0, 1, begin: 0, duration: 9)])
        let g = try rt.createLayer()
        let y = try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: g, forKey: "y")
        try rt.add(group, to: g, forKey: "group")
        let timed = try rt.createLayer()
        try rt.setTiming(LayerTiming(beginTime: 0, speed: 2, timeOffset: 0), of: timed)
        let z = try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: timed, forKey: "z")
        try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: timed, forKey: "w")
        let before = rt.attachedCounts.batched
        for h in [x, y, z] { try rt.removeInstance(h) }
        #expect(rt.attachedCounts.batched == before)
    }

    @Test("a group leaves: the basic animation left on its property is batched again")
    func groupLeaves() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let basic = try rt.add(Self.fade(0, 1, begin: 0, duration: 9), to: l, forKey: "basic")
        let group = try rt.add(.group([Self.fade(0, 1, begin: 0, duration: 9)]), to: l, forKey: "group")
        #expect(!rt.instances[basic.index].inBatch)
        try rt.removeInstance(group)
        #expect(rt.instances[basic.index].inBatch)
    }

    /// Random survivors (every timing field, curve, fill and removal flag):
    /// once the animation added before them has gone, each shows bit for bit
    /// what the same animation alone on another layer shows, with the same
    /// events from then on, and it is in the batch or the frozen store.
    @Test("random survivors match the same animation alone", arguments: 0..<2)
    func randomSurvivors(_ seed: UInt64) throws {
        var g = BatchDifferentialTests.Generator(state: 0x9207_0000 + seed)
        var failures: [String] = [], promoted = 0
        for _ in 0..<150 {
            let s = Scenario(&g)
            let rt = Runtime()
            let l = try rt.createLayer(), alone = try rt.createLayer()
            for x in [l, alone] { try rt.setModelValue(.scalar(0.625), forKeyPath: "opacity", of: x) }
            try rt.add(Self.fade(3, 4, begin: 0.001, duration: 0.3), to: l, forKey: "first")
            try rt.tick(0.2)
            let b = try rt.add(s.animation, to: l, forKey: "b")
            let r = try rt.add(s.animation, to: alone, forKey: "b")
            var t = 0.4
            try rt.tick(t)   // "first" has ended here and leaves
            _ = rt.drain()
            if rt.instances.isLive(b.index) && rt.instances[b.index].inBatch { promoted += 1 }
            else if rt.instances.isLive(b.index) { failures.append("\(s): not promoted") }
            while t < 6 {
                t += [0.05, 0.125, 0.3].randomElement(using: &g)!
                try rt.tick(t)
                let (v, w) = try (rt.scalar("opacity", l), rt.scalar("opacity", alone))
                if v.bitPattern != w.bitPattern { failures.append("\(s) at \(t): \(v) vs \(w) alone") }
                let events = rt.drain()
                let mine = events.filter { $0.object == b }.map(\.tag), theirs = events.filter { $0.object == r }.map(\.tag)
                if mine != theirs { failures.append("\(s) at \(t): events \(mine) vs \(theirs) alone") }
            }
        }
        #expect(promoted > 100, "most survivors are still attached when the first animation leaves")
        #expect(failures.isEmpty, "\(failures.count) mismatches, first: \(failures.first ?? "")")
    }
}
