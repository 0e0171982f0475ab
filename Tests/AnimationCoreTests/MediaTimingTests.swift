import Testing
@testable import AnimationCore

@Suite("R1.2 media timing through the runtime")
struct MediaTimingTests {
    @Test("Zero duration becomes 0.25 s")
    func zeroDuration() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(10)
        try rt.add(linear("opacity", 0, 1, duration: 0), to: l, forKey: "a")
        try rt.tick(10)
        try rt.tick(10.125)
        #expect(try rt.scalar("opacity", l) == 0.5)
        try rt.tick(10.25)
        #expect(try rt.scalar("opacity", l) == 1)  // removed: back to the model value
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    @Test("Speed 0 freezes local time at timeOffset and never finishes")
    func speedZero() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1)
        a.timing.speed = 0; a.timing.timeOffset = 0.3
        try rt.add(a, to: l, forKey: "a")
        for t in [0.0, 5, 500] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), 0.3, 1e-12)
        }
        #expect(rt.drain().map(\.tag) == ["started"])
    }

    /// CAMediaTiming: t = (tp − begin) × speed + timeOffset, so speed 0 with
    /// timeOffset = d (or a multiple of it) holds t at the end of the active
    /// duration: a forwards fill shows the end value (as a layer paused at
    /// its end does), no fill shows the model; just before it, the value
    /// there. Both paths (the batch keeps such timing as complex).
    @Test("Speed 0 paused on the end shows the fill's end value", arguments: EvaluationPath.allCases)
    func speedZeroAtEnd(_ path: EvaluationPath) throws {
        for (offset, fill, expected) in [(2.0, FillMode.both, 10.0), (4.0, .forwards, 10.0), (2.0, .removed, -1.0),
                                         (1.998, .both, 9.99), (0.5, .removed, 2.5)] {
            let rt = Runtime(); let l = try rt.createLayer()
            try path.setModel(rt, l, -1)
            var a = path.animation(0, 10, MediaTiming(duration: 2, speed: 0, timeOffset: offset, fillMode: fill))
            a.isRemovedOnCompletion = false
            try rt.add(a, to: l, forKey: "a")
            path.expectPath(rt)
            for t in [0.0, 3] {
                try rt.tick(t)
                expectClose(try path.value(rt, l), expected, 1e-12, "offset \(offset), \(fill), t = \(t)")
            }
        }
    }

    /// Speed 0 holds local time at 0; with a delay (0.5) it is before the
    /// active interval for good (the interval is decided on the time before
    /// timeOffset, which shifts within it: docs/timing.md). Playback never
    /// reaches the interval, so the animation never reports `started` (as
    /// one before its delay does not, Lifecycle) and shows the model (-1),
    /// or with a backwards fill the frame at the offset: 0.7 of 2 s, 10 ×
    /// 0.35 = 3.5. Without the delay the same pause is in its interval, shows
    /// that frame and has started. Both paths.
    @Test("R1.8 speed 0 held before its delay never reports started", arguments: EvaluationPath.allCases)
    func speedZeroBeforeDelay(_ path: EvaluationPath) throws {
        for (delay, offset, fill, expected, events) in [
            (0.5, 0.0, FillMode.removed, -1.0, [String]()), (0.5, 0.0, .backwards, 0.0, []),
            (0.5, 0.7, .removed, -1.0, []), (0.5, 0.7, .backwards, 3.5, []), (0.0, 0.7, .removed, 3.5, ["started"]),
        ] {
            let rt = Runtime(); let l = try rt.createLayer()
            try path.setModel(rt, l, -1)
            var timing = MediaTiming(duration: 2, speed: 0, timeOffset: offset, fillMode: fill)
            timing.delay = delay
            let h = try rt.add(path.animation(0, 10, timing), to: l, forKey: "a")
            path.expectPath(rt)
            for t in [0.0, 3] {
                try rt.tick(t)
                expectClose(try path.value(rt, l), expected, 1e-12, "delay \(delay), offset \(offset), \(fill), t = \(t)")
            }
            #expect(rt.drain().map(\.tag) == events, "delay \(delay), offset \(offset), \(fill)")
            #expect(try rt.lifecycle(of: h) == (events.isEmpty ? .waiting : .running))
        }
    }

    /// Core Animation leaves repeatCount with repeatDuration undefined; it
    /// is refused wherever timing is checked (add, bulk add, a layer's
    /// timing), naming both, with nothing attached. Exact iterations, which
    /// replace both, are not refused.
    @Test("R0.3 repeatCount and repeatDuration together are refused")
    func repeatCountWithRepeatDuration() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1, duration: 1)
        a.timing.repeatCount = 2; a.timing.repeatDuration = 3
        expectFailure(.invalidArgument, containing: "repeatCount (2)", "repeatDuration (3)", "both set") {
            _ = try rt.add(a, to: l, forKey: "a")
        }
        #expect(try rt.animationKeys(of: l).isEmpty)
        var exact = a
        exact.timing.iterations = 4
        _ = try rt.add(exact, to: l, forKey: "exact")
        // Bulk: each value is good, the combination of a column with the
        // description's other field is not; the message names the item.
        let d = try rt.createAnimation(linear("opacity", 0, 1, duration: 1))
        try rt.setTiming(.repeatCount, 2, ofAnimation: d)
        let layers = [try rt.createLayer(), try rt.createLayer()]
        let repeats = [0.0, 5.0]
        expectFailure(.invalidArgument, containing: "item 1: repeatCount", "repeatDuration (5)") {
            try repeats.withUnsafeBufferPointer { r in
                try layers.withUnsafeBufferPointer {
                    try rt.addAnimations(d, to: $0, columns: [BulkColumn(.timing(.repeatDuration), r.baseAddress!)],
                                         forKey: "b", joining: nil)
                }
            }
        }
        #expect(try rt.animationKeys(of: layers[0]).isEmpty)
        // A layer's media timing.
        expectFailure(.invalidArgument, containing: "layer repeatCount") {
            try rt.setMediaTiming(MediaTiming(duration: 1, repeatCount: 2, repeatDuration: 3), of: l)
        }
        #expect(try rt.mediaTiming(of: l) == MediaTiming())
    }

    @Test("Negative speed plays the active interval backwards from its end")
    func negativeSpeed() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        var a = linear("opacity", 0, 1, duration: 2)
        a.timing.speed = -2
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 1)
        try rt.tick(1.25)
        #expect(try rt.scalar("opacity", l) == 0.75)
        try rt.tick(1.75)
        #expect(try rt.scalar("opacity", l) == 0.25)
        try rt.tick(2)
        #expect(try rt.scalar("opacity", l) == -1)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    @Test("Fill backwards shows the first frame before a future beginTime")
    func fillBackwardsFutureBegin() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(9), forKeyPath: "opacity", of: l)
        try rt.add(linear("opacity", 2, 4, begin: 5, duration: 2, fill: .backwards), to: l, forKey: "a")
        try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 2)
        #expect(rt.drain().isEmpty)  // not started yet
        try rt.tick(6)
        #expect(try rt.scalar("opacity", l) == 3)
        #expect(rt.drain().map(\.tag) == ["started"])
        // Without fill the model shows before the start.
        let l2 = try rt.createLayer()
        try rt.setModelValue(.scalar(9), forKeyPath: "opacity", of: l2)
        try rt.add(linear("opacity", 2, 4, begin: 50, duration: 2), to: l2, forKey: "a")
        try rt.tick(7)
        #expect(try rt.scalar("opacity", l2) == 9)
    }

    @Test("repeatCount 2.5 with autoreverses: forward, back, forward, back, forward half")
    func repeatAutoreverse() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1, fill: .forwards)
        a.timing.repeatCount = 2.5; a.timing.autoreverses = true; a.isRemovedOnCompletion = false
        #expect(a.timing.activeDuration == 5)
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        for (t, v) in [(0.5, 0.5), (1.25, 0.75), (2.25, 0.25), (3.75, 0.25), (4.5, 0.5), (5.0, 1.0), (9.0, 1.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), v, 1e-12, "t = \(t)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        #expect(try rt.animationKeys(of: l) == ["a"])  // retained: removedOnCompletion is false
    }

    @Test("fillMode forwards needs removedOnCompletion = false to hold the end value")
    func fillForwardsTrap() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.2), forKeyPath: "opacity", of: l)
        try rt.add(linear("opacity", 0, 1, fill: .forwards), to: l, forKey: "removed")
        try rt.tick(0); try rt.tick(2)
        #expect(try rt.scalar("opacity", l) == 0.2)
        #expect(try rt.animationKeys(of: l).isEmpty)
        var held = linear("opacity", 0, 1, fill: .forwards)
        held.isRemovedOnCompletion = false
        try rt.add(held, to: l, forKey: "held")
        try rt.tick(2); try rt.tick(4)
        #expect(try rt.scalar("opacity", l) == 1)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l).scalar == 0.2)  // the model never changes
    }

    @Test("timeOffset wraps around the active duration")
    func timeOffsetWraps() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1)
        a.timing.timeOffset = 0.5
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 0.5)
        try rt.tick(0.75)
        #expect(try rt.scalar("opacity", l) == 0.25)
    }

    @Test("A layer's speed scales the time of its sublayers' animations")
    func layerSpeedInherited() throws {
        let rt = Runtime()
        let parent = try rt.createLayer(), child = try rt.createLayer(parent: parent)
        try rt.setTiming(LayerTiming(speed: 2), of: parent)
        try rt.add(linear("opacity", 0, 1, duration: 2), to: child, forKey: "a")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", child) == 0.5)
        // Pausing: speed 0 with a time offset freezes everything below.
        try rt.setTiming(LayerTiming(speed: 0, timeOffset: 1.5), of: parent)
        try rt.tick(3)
        #expect(try rt.scalar("opacity", child) == 0.75)
    }

    @Test("A batch entry and the general path give identical values", arguments: ["linear", "easeIn", "default", "steps(3)"])
    func batchMatchesGeneral(_ curve: String) throws {
        let rt = Runtime()
        let fast = try rt.createLayer(), slow = try rt.createLayer()
        var a = linear("opacity", 0.1, 0.9, duration: 1.3, fill: .both)
        a.timingFunction = try rt.timingFunctions.function(named: curve)
        try rt.add(a, to: fast, forKey: "a")
        try rt.add(a, to: slow, forKey: "a")
        var zero = linear("opacity", 0, 0); zero.isAdditive = true; zero.timing.repeatCount = .infinity
        try rt.add(zero, to: slow, forKey: "zero")  // forces the general path
        #expect(rt.attachedCounts.batched == 1)
        for i in 0...30 {
            try rt.tick(Double(i) * 0.05)
            #expect(try rt.scalar("opacity", fast).bitPattern == rt.scalar("opacity", slow).bitPattern, "t = \(Double(i) * 0.05)")
        }
    }

    @Test("R0.2 evaluating the batch on several threads changes nothing, to the bit")
    func threadedBatchIsIdentical() throws {
        func run(threads: Int) throws -> ([UInt64], [String]) {
            let rt = Runtime()
            rt.evaluationThreads = threads
            rt.batches.minimumPerThread = 100  // split even this small scene
            var targets: [(Handle, String)] = []
            for i in 0..<3_000 {
                let l = try rt.createLayer()
                var a = linear("opacity", Double(i % 7), Double(i % 11), begin: Double(i % 13) * 0.01, duration: 0.05 + Double(i % 17) * 0.01)
                a.timingFunction = [.easeIn, .default, nil][i % 3]
                try rt.add(a, to: l, forKey: "k")
                targets.append((l, "opacity"))
            }
            let reader = try rt.resolveTargets(targets)
            var out = [Double](repeating: 0, count: targets.count)
            var bits: [UInt64] = []
            for f in 0..<8 {
                try rt.tick(Double(f) * 0.04)
                try out.withUnsafeMutableBufferPointer { try rt.readPresentation(reader, into: $0) }
                bits += out.map(\.bitPattern)
            }
            return (bits, rt.drain().map { "\($0.tag)#\($0.object.index)" })
        }
        let (one, eventsOne) = try run(threads: 1)
        let (two, eventsTwo) = try run(threads: 4)
        #expect(one.count == two.count && one == two, "presentation values differ")
        #expect(eventsOne.count == eventsTwo.count && eventsOne == eventsTwo, "events differ")
        #expect(eventsOne.count > 3_000)
    }

    @Test("Moving a running animation off the batch keeps its value continuous")
    func demotionIsSeamless() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(linear("position.x", 0, 100, duration: 2), to: l, forKey: "x")
        try rt.tick(0); try rt.tick(1)
        #expect(rt.attachedCounts.batched == 1)
        let before = try rt.scalar("position.x", l)
        var add = Animation.basic("position.y", from: .scalar(0), to: .scalar(10)); add.timing.duration = 10
        try rt.add(add, to: l, forKey: "y")
        try rt.tick(1)
        #expect(rt.attachedCounts.batched == 0)
        #expect(try rt.scalar("position.x", l) == before)
        try rt.tick(1.5)
        #expect(try rt.scalar("position.x", l) == 75)
    }

    @Test("R0.4 isValid and accepts, the tests an add and a setter make, answer as the field-by-field checks do")
    func validityAtOnce() {
        let edges: [Double] = [0, 1, -1, 1e308, -1e308, .infinity, -.infinity, .nan, -0.0, .leastNonzeroMagnitude]
        var refused = 0, checked = 0
        // Each parameter alone at each edge (the others as a description starts).
        for p in TimingParameter.allCases {
            for v in edges {
                var t = MediaTiming()
                t.assign(p, v)
                let each = (try? t.checkEachField()) != nil
                #expect(t.isValid == each, "\(p.name) = \(v)")
                #expect(MediaTiming.accepts(p, v) == each, "\(p.name) = \(v)")
                checked += 1
                if !each { refused += 1 }
            }
        }
        // The one rule between fields: repeatCount with repeatDuration, unless exact iterations.
        for count in [0.0, 2, .infinity] {
            for duration in [0.0, 3] {
                for iterations in [nil, 0.0, 2] as [Double?] {
                    var t = MediaTiming()
                    t.repeatCount = count; t.repeatDuration = duration; t.iterations = iterations
                    let each = (try? t.checkEachField()) != nil
                    #expect(t.isValid == each, "repeatCount \(count), repeatDuration \(duration), iterations \(String(describing: iterations))")
                    #expect(each == !(count > 0 && duration > 0 && iterations == nil))
                    checked += 1
                }
            }
        }
        // Both answers were seen: the grid reaches every rule's two sides.
        #expect(checked == 11 * 10 + 18)
        #expect(refused == 43)  // 3 per field that must be finite, 5 if also ≥ 0, 4 for the counts (+inf allowed)
    }
}
