import Testing
@testable import AnimationCore

/// A lane family keeps a lane per range of value slots (`BatchSet.bucketShift`),
/// and a tick evaluates the lanes range by range, so that its stores stay
/// close together whatever order the entries were added in. Values do not
/// depend on the lane (BatchDifferentialTests runs its random scenes with
/// a lane per two value slots too, against the timing model, bit for bit);
/// these tests check where entries go, the order of the lanes, the limit
/// on lanes and the room a bulk add leaves.
@Suite("Batch lanes by range of value slots")
struct BatchRangeTests {
    /// `n` layers whose opacity takes value slot `first + k` for layer k
    /// (set in order, before any animation).
    static func layers(_ rt: Runtime, _ n: Int) throws -> [Handle] {
        var out: [Handle] = []
        for _ in 0..<n {
            let l = try rt.createLayer()
            try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l)
            out.append(l)
        }
        return out
    }

    static func slot(_ rt: Runtime, _ l: Handle) throws -> Int32 {
        rt.valueSlot(layer: l.index, property: try rt.properties.resolve("opacity").property, create: false)!
    }

    static func fade(_ curve: TimingFunction = .linear, begin: Double = 0, duration: Double = 2) -> Animation {
        .basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: begin, duration: duration),
               timingFunction: curve)
    }

    func lane(_ rt: Runtime, _ h: Handle) -> Int { Int(rt.instances[h.index].lane) }

    /// Every lane (the frozen store aside) holds entries of one range only: the range's index, or nil for an empty lane.
    func ranges(_ rt: Runtime) -> [Int?] {
        rt.batches.lanes.indices.map { k in
            let l = rt.batches.lanes[k]
            guard k != rt.batches.frozenIndex, l.count > 0 else { return nil }
            let r = Int(l.slot[0] >> rt.batches.bucketShift)
            return (0..<l.count).allSatisfy { Int(l.slot[$0] >> rt.batches.bucketShift) == r } ? r : -1
        }
    }

    @Test("an entry goes to its family's lane for the range it shows in, added in any order; the lanes run range by range")
    func byRange() throws {
        let rt = Runtime()
        rt.batches.bucketShift = 2  // four value slots a lane
        let layers = try Self.layers(rt, 20)
        #expect(try (0..<20).allSatisfy { try Self.slot(rt, layers[$0]) == Int32($0) })
        let curve = TimingFunction.cubicBezier(UnitBezier(0.3, 0, 0.7, 1))
        // Linear on even layers, a Bézier of its own on odd ones, added from the last layer to the first.
        var handles: [Int: Handle] = [:]
        for k in (0..<20).reversed() { handles[k] = try rt.add(Self.fade(k % 2 == 0 ? .linear : curve), to: layers[k], forKey: nil) }
        let own = rt.batches.lanes(family: 6)
        let linear = rt.batches.lanes(family: Int(CurveTable.linear))
        // Five ranges of four slots each, for each family; the first lane of each is the one it had before.
        #expect(linear.count == 5 && linear[0] == Int(CurveTable.linear))
        #expect(own.count == 5 && own[0] == rt.batches.frozenIndex + 1)
        for k in 0..<20 {
            let family = k % 2 == 0 ? linear : own
            // Slot 3 is in the first range, slot 4 in the second: the edge.
            #expect(lane(rt, handles[k]!) == family[k / 4], "layer \(k)")
        }
        let ranges = ranges(rt)
        #expect(!ranges.contains(-1))
        for k in 0..<5 { #expect(ranges[linear[k]] == k && ranges[own[k]] == k) }
        // A tick takes the ranges in order, each range's families in the order of their first lanes.
        let order = rt.batches.order.map(Int.init).filter { rt.batches.lanes[$0].count > 0 }
        #expect(order == (0..<5).flatMap { [linear[$0], own[$0]] })
        // The events of a tick come in that order (each lane's in the order
        // added: its last layer first); the values are the curves'.
        try rt.tick(0)
        try rt.tick(0.5)
        let started = rt.drain().filter { $0.type == .animationStarted }.map { $0.object }
        let expected: [Int] = (0..<5).flatMap { (k: Int) -> [Int] in [4 * k + 2, 4 * k, 4 * k + 3, 4 * k + 1] }
        #expect(started == expected.map { handles[$0]! })
        for k in 0..<20 {
            #expect(try rt.scalar("opacity", layers[k]) == (k % 2 == 0 ? 0.25 : curve.evaluate(0.25)), "layer \(k)")
        }
    }

    @Test("a range with no lane past the limit goes to the family's first lane, at and past the edge, with the same values")
    func laneLimit() throws {
        let rt = Runtime()
        rt.batches.bucketShift = 1  // two value slots a lane
        let layers = try Self.layers(rt, 12)
        // Seven lanes to start with (six kinds' first lanes, the frozen store): room for two more.
        #expect(rt.batches.lanes.count == 7)
        rt.batches.laneLimit = 9
        var handles: [Handle] = []
        for l in layers { handles.append(try rt.add(Self.fade(begin: 1), to: l, forKey: nil)) }
        let first = Int(CurveTable.linear)
        // Ranges 0 (the first lane), 1 and 2 (the two made), then 3, 4 and 5: the first lane again.
        #expect(rt.batches.lanes.count == 9)
        #expect(handles.map { lane(rt, $0) } == [first, first, 7, 7, 8, 8] + [Int](repeating: first, count: 6))
        try rt.tick(0)
        try rt.tick(2)
        for l in layers { #expect(try rt.scalar("opacity", l) == 0.5) }
        try rt.tick(3.5)
        #expect(rt.batches.count == 0)
        for l in layers { #expect(try rt.scalar("opacity", l) == 0) }
    }

    /// Adds `description` to `layers` in one bulk add.
    static func bulk(_ rt: Runtime, _ description: Handle, _ layers: [Handle], key: String? = nil) throws -> [Handle] {
        var added = [Handle](repeating: Handle(raw: 0), count: layers.count)
        try layers.withUnsafeBufferPointer { l in
            try added.withUnsafeMutableBufferPointer { try rt.addAnimations(description, to: l, columns: [], forKey: key, joining: nil, handles: $0) }
        }
        return added
    }

    /// `n` layers in ranges of 2^`shift` value slots, their values made in a shuffled order (the same for a seed).
    static func shuffledScene(_ n: Int, shift: Int32, seed: UInt64) throws -> (Runtime, [Handle]) {
        let rt = Runtime()
        rt.batches.bucketShift = shift
        var layers: [Handle] = []
        for _ in 0..<n { layers.append(try rt.createLayer()) }
        var g = BatchDifferentialTests.Generator(state: seed)
        for l in layers.shuffled(using: &g) { try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l) }
        return (rt, layers)
    }

    /// Whether a bulk add's animations `added` in `bulk` took the same lanes and places as `singles`,
    /// added one at a time in `single`, and, ticked at `times`, give the same events and values
    /// (`layers` and `same` the two runtimes' layers, in the same order).
    static func expectSame(_ bulk: Runtime, _ added: [Handle], _ layers: [Handle], _ single: Runtime, _ singles: [Handle],
                           _ same: [Handle], times: [Double]) throws {
        #expect(zip(added, singles).allSatisfy { bulk.instances[$0.index].lane == single.instances[$1.index].lane
            && bulk.instances[$0.index].tierIndex == single.instances[$1.index].tierIndex })
        for t in times {
            for r in [bulk, single] { try r.tick(t) }
            #expect(bulk.drain().map { "\($0.tag) \($0.object.index)" } == single.drain().map { "\($0.tag) \($0.object.index)" })
            for (a, b) in zip(layers, same) { #expect(try bulk.scalar("opacity", a).bitPattern == single.scalar("opacity", b).bitPattern) }
        }
    }

    @Test("a bulk add over many ranges, among items that take other paths (a layer twice, layers animated already), matches adds one at a time")
    func bulkMixedPaths() throws {
        // Two runtimes with a lane per four value slots: the same layers, values in a shuffled order,
        // and animations already on some layers (one under the key the add replaces, one under another).
        func scene() throws -> (Runtime, [Handle]) {
            let (rt, layers) = try Self.shuffledScene(40, shift: 2, seed: 5)
            for k in stride(from: 3, to: 40, by: 7) { try rt.add(Self.fade(begin: 0.5, duration: 1), to: layers[k], forKey: "fade") }
            for k in stride(from: 5, to: 40, by: 9) { try rt.add(Self.fade(begin: 0, duration: 3), to: layers[k], forKey: "other") }
            return (rt, layers)
        }
        let (bulk, layers) = try scene(), (single, same) = try scene()
        // Every layer, the twelfth twice (its second item replaces the first under the key).
        let added = try Self.bulk(bulk, try bulk.createAnimation(Self.fade(.easeIn, begin: 0.25, duration: 2)),
                                  layers + [layers[12]], key: "fade")
        var singles: [Handle] = []
        for l in same + [same[12]] { singles.append(try single.add(Self.fade(.easeIn, begin: 0.25, duration: 2), to: l, forKey: "fade")) }
        #expect(bulk.batches.lanes.count > 12 && !ranges(bulk).contains(-1))
        try Self.expectSame(bulk, added, layers, single, singles, same, times: [0.0, 0.75, 1.5, 2.5])
    }

    @Test("a bulk add fills each range's lane exactly, and gives back what it made room for that went to other lanes")
    func bulkRoom() throws {
        // In the order of their values: each lane of 64 slots filled to its capacity, none grown twice.
        let rt = Runtime()
        rt.batches.bucketShift = 6
        let ordered = try Self.layers(rt, 300)
        let added = try Self.bulk(rt, try rt.createAnimation(Self.fade()), ordered)
        let lanes = rt.batches.lanes(family: Int(CurveTable.linear))
        #expect(lanes.map { rt.batches.lanes[$0].count } == [64, 64, 64, 64, 44])
        #expect(lanes.allSatisfy { rt.batches.lanes[$0].begin.capacity == rt.batches.lanes[$0].count })
        #expect(lanes.allSatisfy { rt.batches.lanes[$0].begin.resizes == 1 && rt.batches.lanes[$0].flags.resizes == 1 })
        for (k, h) in added.enumerated() { #expect(lane(rt, h) == lanes[k / 64]) }

        // A full lane given room for the rest of an add whose items mostly go to other lanes gives it back.
        let trimmed = Runtime()
        trimmed.batches.bucketShift = 6
        let all = try Self.layers(trimmed, 364)
        for l in all[0..<16] { try trimmed.add(Self.fade(), to: l, forKey: nil) }
        let lane0 = trimmed.batches.lanes[Int(CurveTable.linear)]
        #expect(lane0.count == 16 && lane0.begin.capacity == 16)
        _ = try Self.bulk(trimmed, try trimmed.createAnimation(Self.fade()), [all[16]] + Array(all[64...]))
        // The first item found the lane full: room for 48 (what its range holds), then the rest went
        // elsewhere; the lane keeps what an append would have grown it to.
        #expect(lane0.count == 17 && lane0.begin.capacity == GrowingBlock.grownCapacity(Double.self, from: 16))
        #expect(trimmed.batches.lanes(family: Int(CurveTable.linear)).count == 6)

        // Values made in a shuffled order: each lane takes items all through the add, and keeps
        // no room past its entries.
        let (shuffled, layers) = try Self.shuffledScene(300, shift: 6, seed: 11)
        let again = try Self.bulk(shuffled, try shuffled.createAnimation(Self.fade()), layers)
        let spread = shuffled.batches.lanes(family: Int(CurveTable.linear))
        #expect(spread.count == 5 && spread.map { shuffled.batches.lanes[$0].count }.reduce(0, +) == 300)
        #expect(!ranges(shuffled).contains(-1))
        for k in spread {
            let lane = shuffled.batches.lanes[k]
            #expect(lane.begin.capacity == lane.count, "lane \(k)")
            #expect(lane.owner.capacity == lane.begin.capacity && lane.state.capacity == lane.begin.capacity)
        }
        // The same entries, events and values as one add at a time.
        let (one, oneLayers) = try Self.shuffledScene(300, shift: 6, seed: 11)
        var singles: [Handle] = []
        for l in oneLayers { singles.append(try one.add(Self.fade(), to: l, forKey: nil)) }
        try Self.expectSame(shuffled, again, layers, one, singles, oneLayers, times: [0, 0.5])
    }
}
