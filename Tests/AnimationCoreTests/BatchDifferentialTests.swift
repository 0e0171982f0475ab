import Testing
@testable import AnimationCore

/// The batch evaluates simple timing inline and complex timing through the
/// timing model; the general path evaluates the full `ResolvedAnimation`;
/// `MediaTiming.sample` is the model both must follow. These tests drive all
/// three with the same randomised timing and compare bit patterns, not `==`
/// (which would let 0.0 and -0.0 pass, and NaN fail) (R1.2, R0.2).
@Suite("Batch vs general path vs the timing model")
struct BatchDifferentialTests {
    /// SplitMix64 with a fixed seed, so that a failure reproduces.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One random animation: every media timing field, a curve, the flag.
    struct Scenario: CustomStringConvertible {
        var timing = MediaTiming()
        var curve: TimingFunction?
        var removedOnCompletion = true
        var from = 0.1, to = 0.9
        /// Which two of fromValue, toValue, byValue are given (Core Animation's
        /// table); the batch takes all three pairs.
        enum Ends: CaseIterable { case fromTo, fromBy, toBy }
        var ends = Ends.fromTo

        /// A random scenario; one in four has simple timing (the batch's
        /// inline path): only begin, duration, fill, curve and ends vary.
        init(_ g: inout Generator) {
            timing.beginTime = [0, 0, 0.3, 1.25].randomElement(using: &g)!
            timing.duration = [0, 0.5, 1, 1.3].randomElement(using: &g)!
            curve = [nil, .easeIn, .easeInEaseOut, .default, .steps(StepsFunction(count: 3, position: .jumpStart)),
                     .steps(StepsFunction(count: 4, position: .jumpEnd)),
                     .steps(StepsFunction(count: 2, position: .jumpBoth))].randomElement(using: &g)!
            removedOnCompletion = Bool.random(using: &g)
            from = [0.1, -3, 7].randomElement(using: &g)!
            to = [0.9, 5, -2.5].randomElement(using: &g)!
            ends = Ends.allCases.randomElement(using: &g)!
            timing.fillMode = FillMode.allCases.randomElement(using: &g)!
            let shape = g.next() % 4
            if shape == 0 { return }
            // The other fields: all of them at random, or (one time in four)
            // exactly one, so that each condition of the inline path's
            // "simple" test is met alone.
            let only = shape == 1 ? Int(g.next() % 8) : nil
            func pick(_ field: Int) -> Bool { only == nil || only == field }
            if pick(0) { timing.speed = [2, 0.5, 0, -1, -2, -0.5, 1, 1].randomElement(using: &g)! }
            if pick(1) { timing.timeOffset = [0.2, -0.35, 1.7, 0, 0].randomElement(using: &g)! }
            if pick(2) { timing.repeatCount = [1.5, 2, 2.5, .infinity, 0, 1].randomElement(using: &g)! }
            if pick(3) {
                // repeatDuration replaces repeatCount (the two together are refused).
                timing.repeatDuration = [1.1, 0, 0, 0].randomElement(using: &g)!
                if timing.repeatDuration > 0 { timing.repeatCount = 0 }
            }
            if pick(4) { timing.autoreverses = only == 4 || Bool.random(using: &g) }
            if pick(5) { timing.direction = [.reverse, .alternate, .alternateReverse, .normal].randomElement(using: &g)! }
            if pick(6) { timing.iterationStart = [0.25, 1.5, 0, 0].randomElement(using: &g)! }
            if pick(7) { timing.endDelay = [0.4, -0.3, 0, 0].randomElement(using: &g)! }
        }

        init(_ timing: MediaTiming, removedOnCompletion: Bool, from: Double = 0.2, to: Double = 0.8) {
            self.timing = timing; self.removedOnCompletion = removedOnCompletion; self.from = from; self.to = to
        }

        /// The interpolated ends: by is to − from, given as a difference.
        var start: Double { ends == .toBy ? to - (to - from) : from }
        var end: Double { ends == .fromBy ? from + (to - from) : to }

        var animation: Animation {
            let by = AnimatableValue.scalar(to - from)
            var a: Animation
            switch ends {
            case .fromTo: a = .basic("opacity", from: .scalar(from), to: .scalar(to), timing: timing, timingFunction: curve)
            case .fromBy: a = .basic("opacity", from: .scalar(from), by: by, timing: timing, timingFunction: curve)
            case .toBy: a = .basic("opacity", to: .scalar(to), by: by, timing: timing, timingFunction: curve)
            }
            a.isRemovedOnCompletion = removedOnCompletion
            return a
        }

        var description: String {
            let t = timing
            return "begin \(t.beginTime) duration \(t.duration) speed \(t.speed) offset \(t.timeOffset) repeat \(t.repeatCount)"
                + " repeatDuration \(t.repeatDuration) autoreverses \(t.autoreverses) fill \(t.fillMode.name)"
                + " direction \(t.direction) iterationStart \(t.iterationStart) endDelay \(t.endDelay)"
                + " curve \(curveName) removedOnCompletion \(removedOnCompletion) \(start)→\(end) (\(ends))"
        }

        var curveName: String {
            switch curve {
            case nil, .linear?: "linear"
            case .cubicBezier(let b)?: "cubic-bezier(\(b.x1), \(b.y1), \(b.x2), \(b.y2))"
            case .steps(let f)?: "steps(\(f.count), \(f.position.name))"
            case .custom(let f)?: f.name
            case let other?: "\(other)"
            }
        }

        /// What the timing model says is on screen at `t` when the
        /// animation was stamped with `begin`: the eased value while in
        /// effect, else the model value; and whether it has ended.
        func expected(begin: Double, at t: Double, model: Double) -> (value: Double, ended: Bool) {
            var timing = self.timing
            if timing.beginTime == 0 { timing.beginTime = begin }
            let sample = timing.sample(at: t)
            // The end is where Web Animations finishes: past the active
            // interval in the direction of play, once playback reaches the end
            // of its local time line (the end time forwards, 0 backwards).
            let scaled = (t - timing.beginTime) * timing.speed, endTime = timing.model.endTime
            let ended = timing.speed > 0 ? sample.phase == .after && scaled >= endTime
                : timing.speed < 0 ? sample.phase == .before && endTime + scaled <= 0 : false
            guard let p = sample.directedProgress, !(ended && removedOnCompletion) else { return (model, ended) }
            let y = curve?.evaluate(p, beforeFlag: sample.beforeFlag) ?? p
            return (start + (end - start) * y, ended)
        }

        /// Parent times of the iteration boundaries, where phase and
        /// direction decisions flip (exact ticks there are the hard cases).
        func boundaries(begin: Double) -> [Double] {
            let start = timing.beginTime == 0 ? begin : timing.beginTime
            let d = timing.effectiveDuration, rate = max(abs(timing.speed), 0.5)
            return (0...12).map { start + Double($0) * d / rate }
        }
    }

    /// One runtime holding every scenario twice: once on a batch layer, once
    /// on a layer whose copy was moved to the general path. Ticks through
    /// `times` and returns the mismatches (value, events or retention).
    /// With `bucketShift`, a family's lane covers 2^bucketShift value slots
    /// (two layers' opacity for 1: the scenarios spread over many lanes).
    static func compare(_ scenarios: [Scenario], firstTick: Double, times: [Double], threads: Int = 1,
                        bucketShift: Int32? = nil) throws -> [String] {
        let rt = Runtime()
        rt.evaluationThreads = threads
        if threads > 1 { rt.batches.minimumPerThread = 1 }
        if let bucketShift { rt.batches.bucketShift = bucketShift }
        let model = 0.625
        var pairs: [(fast: Handle, slow: Handle, inBatch: Handle, general: Handle)] = []
        for s in scenarios {
            let fast = try rt.createLayer(), slow = try rt.createLayer()
            for l in [fast, slow] { try rt.setModelValue(.scalar(model), forKeyPath: "opacity", of: l) }
            let inBatch = try rt.add(s.animation, to: fast, forKey: "a")
            let general = try rt.add(s.animation, to: slow, forKey: "a")
            rt.demote(general.index)
            guard rt.instances[inBatch.index].inBatch, !rt.instances[general.index].inBatch else {
                return ["\(s): the copies did not take the batch and the general path"]
            }
            pairs.append((fast, slow, inBatch, general))
        }
        var failures: [String] = []
        for t in ([firstTick] + times.filter { $0 > firstTick }.sorted()) {
            try rt.tick(t)
            let events = rt.drain()
            for (s, p) in zip(scenarios, pairs) {
                let b = try rt.scalar("opacity", p.fast), g = try rt.scalar("opacity", p.slow)
                let e = s.expected(begin: firstTick, at: t, model: model).value
                if b.bitPattern != e.bitPattern || g.bitPattern != e.bitPattern {
                    failures.append("\(s) at t = \(t): batch \(b), general \(g), timing model \(e)")
                }
                let fromBatch = events.filter { $0.object == p.inBatch }.map(\.tag)
                let fromGeneral = events.filter { $0.object == p.general }.map(\.tag)
                if fromBatch != fromGeneral { failures.append("\(s) at t = \(t): events \(fromBatch) vs \(fromGeneral)") }
            }
        }
        // Retention: removed on completion exactly when the model says it ended.
        let last = max(firstTick, times.max() ?? firstTick)
        for (s, p) in zip(scenarios, pairs) {
            let kept = !(s.expected(begin: firstTick, at: last, model: model).ended && s.removedOnCompletion)
            let keys = try (rt.animationKeys(of: p.fast), rt.animationKeys(of: p.slow))
            if keys.0 != keys.1 || (keys.0 == ["a"]) != kept {
                failures.append("\(s): attached after the last tick: batch \(keys.0), general \(keys.1), expected \(kept)")
            }
        }
        return failures
    }

    @Test("Random timing, one animation per runtime, ticks on every iteration boundary", arguments: 0..<4)
    func oneAtATime(_ seed: UInt64) throws {
        var g = Generator(state: 0xA11A_0000 + seed)
        var failures: [String] = [], complex = 0
        for _ in 0..<250 {
            let s = Scenario(&g)
            if !s.timing.isSimple { complex += 1 }
            let firstTick = [0.0, 0.5].randomElement(using: &g)!
            let grid = (0...80).map { firstTick + Double($0) * 0.0625 }
            failures += try Self.compare([s], firstTick: firstTick, times: grid + s.boundaries(begin: firstTick))
        }
        #expect(complex > 120 && complex < 220, "the generator makes both simple and complex timing")
        #expect(failures.count == 0, "first mismatch: \(failures.first ?? "")")
    }

    @Test("Random timing, 64 animations sharing a runtime, random frame times, 1 and 4 threads, one lane or one per two value slots",
          arguments: [1, 4], [nil, Int32(1)])
    func crowded(_ threads: Int, _ bucketShift: Int32?) throws {
        var g = Generator(state: 0xB0B0 + UInt64(threads))
        var failures: [String] = []
        for _ in 0..<6 {
            let scenarios = (0..<64).map { _ in Scenario(&g) }
            var t = 0.25, times: [Double] = []
            while t < 7 { t += [0.01, 0.05, 0.125, 0.3].randomElement(using: &g)!; times.append(t) }
            failures += try Self.compare(scenarios, firstTick: 0.25, times: times, threads: threads, bucketShift: bucketShift)
        }
        #expect(failures.count == 0, "first mismatch: \(failures.first ?? "")")
    }

    /// C curves as plugins and hosts register them: one value per call, a
    /// bound f64(f64), and a block curve the batch calls once per run of
    /// entries (the general path and the model call it with one value).
    static let cCurves: [TimingFunction] = [
        .custom(try! TimingFunctionFamily(name: "cube", defaults: [3], body: .native({ x, p, _ in
            x * x * (p![0] - (p![0] - 1) * x) }, context: nil)).function([])),
        .custom(try! TimingFunctionFamily(name: "half", body: .unary({ x in x < 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x) }))
            .function([])),
        .custom(try! TimingFunctionFamily(name: "overshoot", defaults: [1.7], body: .block({ x, y, n, p, _ in
            for i in 0..<n { y![i] = x![i] * x![i] * ((p![0] + 1) * x![i] - p![0]) }
        }, context: nil)).function([2.5])),
    ]

    @Test("C curves (per value, f64(f64), block): random timing, 96 animations, 1 and 4 threads, one lane or one per two value slots",
          arguments: [1, 4], [nil, Int32(1)])
    func cCurves(_ threads: Int, _ bucketShift: Int32?) throws {
        var g = Generator(state: 0xC0C0 + UInt64(threads))
        var failures: [String] = []
        for _ in 0..<4 {
            // Mostly simple timing, so that the block lane's runs and blocks
            // of four are taken, and some complex timing among them.
            var scenarios: [Scenario] = []
            while scenarios.count < 96 {
                var s = Scenario(&g)
                if !s.timing.isSimple && scenarios.count % 6 != 0 { continue }
                s.curve = Self.cCurves[Int(g.next() % 8) < 5 ? 2 : Int(g.next() % 2)]
                scenarios.append(s)
            }
            var t = 0.25, times: [Double] = []
            while t < 4 { t += [0.01, 0.05, 0.125, 0.3].randomElement(using: &g)!; times.append(t) }
            failures += try Self.compare(scenarios, firstTick: 0.25, times: times + scenarios[0].boundaries(begin: 0.25),
                                         threads: threads, bucketShift: bucketShift)
        }
        #expect(failures.count == 0, "first mismatch: \(failures.first ?? "")")
    }

    /// removedOnCompletion with complex timing: once the active interval has
    /// passed, the presentation is the model value (Core Animation removes the
    /// animation "regardless of fillMode"), on both paths, in the very frame
    /// the end is reached; retained with removedOnCompletion = false.
    @Test("removedOnCompletion holds for complex timing on the batch and the general path", arguments: [
        MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: .forwards),   // ends on 0.2
        MediaTiming(duration: 1, speed: 2, repeatCount: 1.5, fillMode: .both),
        MediaTiming(duration: 1, speed: -1, fillMode: .backwards),                         // ends at local 0
        MediaTiming(duration: 1, timeOffset: 0.3, repeatDuration: 1.5, fillMode: .forwards),
    ])
    func removedOnCompletionWithComplexTiming(_ timing: MediaTiming) throws {
        #expect(!timing.isSimple)
        for removed in [true, false] {
            let s = Scenario(timing, removedOnCompletion: removed)
            let end = 1 + timing.activeDuration / abs(timing.speed)
            let failures = try Self.compare([s], firstTick: 1, times: [end - 0.25, end, end + 0.5])
            #expect(failures.count == 0, "first mismatch: \(failures.first ?? "")")
            // And the value itself, without the model: the model (0.625) when removed, the fill otherwise.
            let (atEnd, ended) = s.expected(begin: 1, at: end, model: 0.625)
            #expect(ended)
            #expect(removed ? atEnd == 0.625 : atEnd != 0.625)
        }
    }

    @Test("Evaluation threads are at least 1: 0 or fewer read back as 1, and the batch still runs")
    func threadFloor() throws {
        let rt = Runtime()
        for n in [0, -4] {
            rt.evaluationThreads = n
            #expect(rt.evaluationThreads == 1)
        }
        let l = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1, duration: 2), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 0.5)
    }
}
