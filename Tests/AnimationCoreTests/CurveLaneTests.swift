import Testing
@testable import AnimationCore

/// Each Bézier curve in use has a batch lane of its own (up to
/// `BatchSet.curveLaneLimit`), so every block of four the kernel reads has
/// one curve; further curves share the Bézier lane. Values do not depend on
/// the lane an entry is in (BatchDifferentialTests and KernelTests compare
/// them with the general path and across paths bit for bit); these tests
/// check where entries go.
@Suite("Bézier curves get a batch lane each, up to a limit")
struct CurveLaneTests {
    /// A Bézier curve numbered `k`: distinct for every k.
    static func curve(_ k: Int) -> TimingFunction { .cubicBezier(UnitBezier(0.1 + 0.01 * Double(k), 0, 0.58, 1)) }

    static func fade(_ f: TimingFunction, duration: Double = 1, fill: FillMode = .removed, removed: Bool = true) -> Animation {
        var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(1),
                                timing: MediaTiming(beginTime: 0, duration: duration, fillMode: fill), timingFunction: f)
        a.isRemovedOnCompletion = removed
        return a
    }

    func lane(_ rt: Runtime, _ h: Handle) -> Int { Int(rt.instances[h.index].lane) }

    /// Every entry of each lane of one curve has that lane's curve.
    func uniform(_ rt: Runtime) -> Bool {
        rt.batches.lanes.indices.dropFirst(rt.batches.frozenIndex + 1).allSatisfy { k in
            let l = rt.batches.lanes[k]
            return (0..<l.count).allSatisfy { l.curve[$0] == l.curve[0] }
        }
    }

    @Test("entries of one curve share a lane; other curves and kinds go elsewhere")
    func oneLanePerCurve() throws {
        let rt = Runtime()
        var handles: [(Int, Handle)] = []
        for i in 0..<12 {
            let k = i % 3
            handles.append((k, try rt.add(Self.fade(Self.curve(k)), to: try rt.createLayer(), forKey: nil)))
        }
        let linear = try rt.add(Self.fade(.linear), to: try rt.createLayer(), forKey: nil)
        let named = try rt.add(Self.fade(.easeIn), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, linear) == Int(CurveTable.linear))
        let own = rt.batches.frozenIndex + 1
        #expect(rt.batches.curveLanesGiven == 4)  // three curves and easeIn
        for (k, h) in handles { #expect(lane(rt, h) == own + k) }
        #expect(lane(rt, named) == own + 3)
        #expect(rt.batches.lanes[Int(CurveTable.bezier)].count == 0)
        for k in own..<(own + 4) { #expect(rt.batches.lanes[k].kind == CurveTable.bezier) }
        #expect(rt.batches.lanes[own].count == 4 && uniform(rt))
    }

    @Test("past the limit, curves share the Bézier lane, in a bulk add too")
    func sharedPastLimit() throws {
        let rt = Runtime()
        let limit = BatchSet.curveLaneLimit
        var last: [Handle] = []
        for k in 0...(limit + 1) { last.append(try rt.add(Self.fade(Self.curve(k)), to: try rt.createLayer(), forKey: nil)) }
        let own = rt.batches.frozenIndex + 1
        #expect(rt.batches.curveLanesGiven == limit)
        #expect(lane(rt, last[limit - 1]) == own + limit - 1)
        #expect(lane(rt, last[limit]) == Int(CurveTable.bezier) && lane(rt, last[limit + 1]) == Int(CurveTable.bezier))
        // A bulk add of one more curve goes to the shared lane as well.
        let d = try rt.createAnimation(Self.fade(Self.curve(limit + 2)))
        var layers = [Handle](repeating: Handle(raw: 0), count: 8)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        var added = [Handle](repeating: Handle(raw: 0), count: 8)
        try layers.withUnsafeBufferPointer { l in
            try added.withUnsafeMutableBufferPointer { try rt.addAnimations(d, to: l, columns: [], forKey: nil, joining: nil, handles: $0) }
        }
        #expect(added.allSatisfy { lane(rt, $0) == Int(CurveTable.bezier) })
        #expect(rt.batches.lanes[Int(CurveTable.bezier)].count == 10 && uniform(rt))
    }

    @Test("a lane goes to another curve once it is empty and its curve unused, not before")
    func takenOver() throws {
        let rt = Runtime()
        let limit = BatchSet.curveLaneLimit, own = rt.batches.frozenIndex + 1
        // Curve 0 ends and fills (its entry moves to the frozen store and
        // still uses the curve); curve 1 ends and is removed (its id freed
        // first); curve `limit`, in the shared lane, ends later (its id
        // freed last, so the next new curve gets it: an id with no lane).
        let kept = try rt.add(Self.fade(Self.curve(0), duration: 0.5, fill: .forwards, removed: false), to: try rt.createLayer(), forKey: nil)
        let gone = try rt.add(Self.fade(Self.curve(1), duration: 0.5), to: try rt.createLayer(), forKey: nil)
        for k in 2..<limit { try rt.add(Self.fade(Self.curve(k), duration: 5), to: try rt.createLayer(), forKey: nil) }
        let shared = try rt.add(Self.fade(Self.curve(limit), duration: 0.75), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, kept) == own && lane(rt, gone) == own + 1 && lane(rt, shared) == Int(CurveTable.bezier))
        try rt.tick(0)
        try rt.tick(0.6)
        try rt.tick(1)
        #expect(lane(rt, kept) == rt.batches.frozenIndex && !rt.instances.isLive(gone.index) && !rt.instances.isLive(shared.index))
        #expect(rt.batches.lanes[own].count == 0 && rt.batches.lanes[own + 1].count == 0)
        // A new curve takes the lane of curve 1, not that of curve 0.
        let fresh = try rt.add(Self.fade(Self.curve(limit + 5)), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, fresh) == own + 1)
        // Curve 0 still has its lane; one more new curve finds none free.
        let again = try rt.add(Self.fade(Self.curve(0)), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, again) == own)
        let more = try rt.add(Self.fade(Self.curve(limit + 6)), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, more) == Int(CurveTable.bezier))
        // A freed id that had a lane keeps it for the curve that reuses it.
        try rt.removeInstance(fresh)
        let reused = try rt.add(Self.fade(Self.curve(limit + 7)), to: try rt.createLayer(), forKey: nil)
        #expect(lane(rt, reused) == own + 1)
        #expect(rt.batches.curveLanesGiven == limit && uniform(rt))
    }

    @Test("a tick evaluates every lane of one curve, and only the frozen store is skipped")
    func everyLaneEvaluated() throws {
        let rt = Runtime()
        var layers: [Handle] = []
        for k in 0..<(BatchSet.curveLaneLimit + 3) {
            let l = try rt.createLayer()
            layers.append(l)
            try rt.add(Self.fade(Self.curve(k)), to: l, forKey: nil)
        }
        try rt.tick(0)
        try rt.tick(0.5)
        for (k, l) in layers.enumerated() {
            let f = Self.curve(k)
            #expect(abs(try rt.scalar("opacity", l) - f.evaluate(0.5)) <= 1e-9, "curve \(k)")
        }
    }
}
