import Testing
@testable import AnimationCore

/// The batch's storage as entries come and go: a removal moves the last
/// entry into the hole (with everything it carries, its complex timing
/// included), the frozen store takes copies, freed complex timings and
/// curve ids are reused, columns grow, and a template turns from, to and by
/// into the two ends the kernel reads. Each test checks the values a host
/// sees, or the storage the kernel reads, against what the entry was given.
@Suite("Batch storage: removals, copies, reuse and growth keep every entry as it was given")
struct BatchStorageTests {
    static func complexTiming(_ k: Int) -> MediaTiming {
        var t = MediaTiming(beginTime: Double(k), duration: 1 + Double(k) / 8, fillMode: k % 2 == 0 ? .both : .forwards)
        t.repeatCount = 2
        t.autoreverses = k % 3 == 0
        return t
    }

    @Test("a complex timing freed by a removal is reused for the next one, which reads its own timing")
    func complexTimingReused() {
        let lane = BatchStorage(kind: CurveTable.linear)
        for k in 0..<2 {
            _ = lane.append(owner: Int32(k), timing: Self.complexTiming(k), from: 0, to: 1, slot: Int32(k), curve: 0,
                            removedOnCompletion: false)
        }
        for k in 2..<50 {
            // The older entry goes; the newer one moves into its place, and a new one comes.
            #expect(lane.remove(at: 0) == Int32(k - 1))
            _ = lane.append(owner: Int32(k), timing: Self.complexTiming(k), from: 0, to: 1, slot: Int32(k), curve: 0,
                            removedOnCompletion: false)
            #expect(lane.timing(0) == Self.complexTiming(k - 1) && lane.timing(1) == Self.complexTiming(k), "after \(k)")
            #expect(lane.owner[0] == Int32(k - 1) && lane.owner[1] == Int32(k))
        }
        // Two entries hold two timings, however many came and went.
        #expect(lane.complex.count == 2)
    }

    @Test("a copy to another store (the frozen one) keeps the timing, the state and every column")
    func copyKeepsEverything() {
        let lane = BatchStorage(kind: CurveTable.bezier), other = BatchStorage(kind: BatchSet.frozenKind)
        for k in 0..<3 {
            _ = lane.append(owner: Int32(10 + k), timing: Self.complexTiming(k), from: Double(k), to: Double(-k),
                            slot: Int32(20 + k), curve: Int32(k), removedOnCompletion: k == 1)
        }
        _ = other.append(owner: 99, begin: 1, duration: 2, from: 3, to: 4, slot: 5, curve: 6,
                         flags: BatchStorage.flags(fill: .forwards, removedOnCompletion: false, fromPresentation: false))
        lane.state[2] = LifeState.ended.rawValue
        #expect(lane.copy(2, to: other) == 1)
        // Its timing is the frozen store's first complex timing, not the lane's third.
        #expect(other.complexIndex(1) == 0 && other.timing(1) == Self.complexTiming(2))
        #expect(other.state[1] == LifeState.ended.rawValue && other.owner[1] == 12 && other.slot[1] == 22)
        #expect(other.curve[1] == 2 && other.from[1] == 2 && other.to[1] == -2 && other.flags[1] == lane.flags[2])
        #expect(other.timing(0) == MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards))
    }

    @Test("a batch entry's timing read back (as a move to the general path does) has its fill mode",
          arguments: [FillMode.removed, .forwards, .backwards, .both])
    func fillReadBack(_ fill: FillMode) throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        let h = try rt.add(Animation.basic("opacity", from: .scalar(10), to: .scalar(20),
                                           timing: MediaTiming(beginTime: 2, duration: 1, fillMode: fill)), to: l, forKey: "a")
        let lane = rt.batches.lanes[Int(rt.instances[h.index].lane)]
        #expect(lane.timing(Int(rt.instances[h.index].tierIndex)).fillMode == fill)
        // Moved to the general path, it still fills as it did.
        rt.demote(h.index)
        try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == (fill.fillsBackwards ? 10 : -1))
    }

    @Test("an entry moved into a removed one's place keeps its own property and lifecycle")
    func removalMovesTheLast() throws {
        let rt = Runtime()
        var layers: [Handle] = [], handles: [Handle] = []
        // Three linear entries in one lane: two running from 1, the last waiting until 5.
        for (k, begin) in [1.0, 1, 5].enumerated() {
            let l = try rt.createLayer()
            try rt.setModelValue(.scalar(Double(-k - 1)), forKeyPath: "opacity", of: l)
            handles.append(try rt.add(Animation.basic("opacity", from: .scalar(0), to: .scalar(10),
                                                      timing: MediaTiming(beginTime: begin, duration: 1)), to: l, forKey: "a"))
            layers.append(l)
        }
        #expect(Set(handles.map { rt.instances[$0.index].lane }).count == 1)
        try rt.tick(1.5)
        #expect(rt.drain().filter { $0.type == .animationStarted }.map(\.object) == Array(handles.prefix(2)))
        // The first goes: the waiting one moves into its place.
        #expect(try rt.removeAnimation(forKey: "a", from: layers[0]))
        #expect(rt.instances[handles[2].index].tierIndex == 0)
        _ = rt.drain()
        try rt.tick(1.75)
        #expect(try [rt.scalar("opacity", layers[0]), rt.scalar("opacity", layers[1]), rt.scalar("opacity", layers[2])]
                == [-1, 7.5, -3])
        try rt.tick(5.5)
        #expect(try [rt.scalar("opacity", layers[0]), rt.scalar("opacity", layers[2])] == [-1, 5])
        // It starts when it starts, and stops when it ends, once each.
        #expect(rt.drain().filter { $0.object == handles[2] }.map(\.type) == [.animationStarted])
        try rt.tick(6.5)
        #expect(rt.drain().filter { $0.object == handles[2] }.map(\.type) == [.animationStopped])
        #expect(try rt.scalar("opacity", layers[2]) == -3)
    }

    @Test("an entry with complex timing that begins at its first tick runs from that tick")
    func complexBeginStamped() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        var timing = MediaTiming(beginTime: 0, duration: 1)
        timing.repeatCount = 2
        let h = try rt.add(Animation.basic("opacity", from: .scalar(0), to: .scalar(8), timing: timing), to: l, forKey: nil)
        #expect(rt.instances[h.index].inBatch)
        try rt.tick(10)
        try rt.tick(10.25)
        #expect(try rt.attachmentState(h).beginTime == 10)
        #expect(try rt.scalar("opacity", l) == 2)
        try rt.tick(11.5)
        #expect(try rt.scalar("opacity", l) == 4)
    }

    @Test("a column's reserve makes room for all it is asked: the appends that follow never move it")
    func columnReserve() {
        let column = Column<Double>()
        column.reserve(100)
        #expect(column.capacity == 100)  // a first reserve is exact
        for k in 0..<103 { column.append(Double(k)) }
        for n in [1, 10_000, 3] {
            column.reserve(n)
            #expect(column.capacity >= column.count + n)
            let base = column.base, count = column.count
            for k in 0..<n { column.append(Double(count + k)) }
            #expect(column.base == base, "reserve(\(n)) then \(n) appends moved the column")
        }
        #expect((0..<column.count).allSatisfy { column[$0] == Double($0) })
    }

    @Test("a freed curve id waits in the free list: no retain finds it before it is given out again")
    func freedIdNotFound() {
        var curves = CurveTable()
        let bezier = curves.retain(.cubicBezier(UnitBezier(0.3, 0, 0.7, 1)))
        curves.release(bezier)
        // A freed id holds linear; retaining linear must not take it while it is free.
        let linear = curves.retain(.linear)
        let other = curves.retain(.cubicBezier(UnitBezier(0.2, 0.5, 0.6, 1)))
        #expect(linear != other && curves.liveCount == 2)
        #expect(curves.kinds[Int(linear)] == CurveTable.linear && curves.functions[Int(linear)] == .linear)
        #expect(curves.kinds[Int(other)] == CurveTable.bezier)
    }

    @Test("a curve id given to another Bézier solves that curve, on every path, bit for bit",
          arguments: [BatchPath.reference, .lanes, .native])
    func reusedIdSolvesItsCurve(_ path: BatchPath) {
        var curves = CurveTable()
        curves.release(curves.retain(.cubicBezier(UnitBezier(0.9, 0.1, 0.1, 0.9))))
        let f = TimingFunction.cubicBezier(UnitBezier(0.25, 0.1, 0.25, 1))
        let lane = BatchStorage(kind: CurveTable.bezier)
        let n = 256
        for k in 0..<n {
            // Progress k / n at time 0.
            _ = lane.append(owner: Int32(k), begin: -Double(k) / Double(n), duration: 1, from: 0, to: 1, slot: Int32(k),
                            curve: k == 0 ? curves.retain(f) : curves.retain(id: lane.curve[0]),
                            flags: BatchStorage.flags(fill: .both, removedOnCompletion: false, fromPresentation: false))
        }
        #expect(curves.liveCount == 1)
        let model = [Double](repeating: 0, count: n)
        var presentation = model
        var transitions: [(Int32, LifeState)] = []
        for _ in 0..<2 {  // the second frame finds every block running (the steady blocks)
            model.withUnsafeBufferPointer { m in
                presentation.withUnsafeMutableBufferPointer { p in
                    lane.evaluate(now: 0, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!, threads: 1,
                                  path: path, transitions: &transitions)
                }
            }
            let wrong = (0..<n).filter { presentation[$0].bitPattern != f.evaluate(Double($0) / Double(n)).bitPattern }
            #expect(wrong.isEmpty, "\(path): entries \(wrong.prefix(8)) of \(wrong.count)")
        }
    }

    @Test("a stored description's from, to and by become the batch entry's ends as the general path makes them, and what it refuses is refused")
    func templateEnds() throws {
        let rt = Runtime()
        // (from, to, by, from the presentation) → the value halfway, on a layer whose model is 3.
        let cases: [(Double?, Double?, Double?, Bool, Double)] = [
            (nil, 10, 4, false, 8), (2, nil, 4, false, 4), (2, 10, nil, false, 6),
            (nil, nil, 4, true, 5), (2, nil, 4, true, 5), (nil, 11, nil, true, 7), (nil, 11, 4, true, 7), (1, 11, nil, true, 7)]
        var shown: [(Handle, Handle, Double)] = []
        for (from, to, by, presentation, half) in cases {
            var a = Animation.basic("opacity", from: from.map { .scalar($0) }, to: to.map { .scalar($0) }, by: by.map { .scalar($0) },
                                    timing: MediaTiming(beginTime: 1, duration: 1))
            a.startsFromPresentation = presentation
            let batched = try rt.createLayer(), general = try rt.createLayer()
            for l in [batched, general] { try rt.setModelValue(.scalar(3), forKeyPath: "opacity", of: l) }
            // A stored description goes through the batch template; a plain add does not.
            let h = try rt.addAnimation(try rt.createAnimation(a), to: batched, forKey: nil)
            #expect(rt.instances[h.index].inBatch, "\(from as Any), \(to as Any), \(by as Any)")
            rt.demote(try rt.add(a, to: general, forKey: nil).index)
            shown.append((batched, general, half))
        }
        try rt.tick(1.5)
        for (batched, general, half) in shown {
            #expect(try rt.scalar("opacity", batched) == half && rt.scalar("opacity", general) == half)
        }
        // Ends a distance apart that no double holds, and all three given: refused, nothing attached.
        let l = try rt.createLayer()
        for (from, to, by) in [(nil, 1e308, -1e308), (1e308, nil, 1e308), (-1e308, 1e308, nil), (1, 2, 3)] as [(Double?, Double?, Double?)] {
            let a = Animation.basic("opacity", from: from.map { .scalar($0) }, to: to.map { .scalar($0) }, by: by.map { .scalar($0) },
                                    timing: MediaTiming(beginTime: 1, duration: 1))
            #expect(throws: AnimrtError.self, "\(from as Any), \(to as Any), \(by as Any)") { try rt.add(a, to: l, forKey: nil) }
            #expect(throws: AnimrtError.self, "\(from as Any), \(to as Any), \(by as Any)") {
                try rt.addAnimation(try rt.createAnimation(a), to: l, forKey: nil)
            }
        }
        #expect(try rt.animationKeys(of: l).isEmpty && rt.attachedCounts.total == 2 * cases.count)
    }
}
