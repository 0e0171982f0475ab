import Testing
@testable import AnimationCore

/// Block curves (R4.1): C functions that ease an array of progress values
/// per call. The batch calls one once per run of entries on one curve;
/// everything else (the general path, keyframes, a single evaluation) with
/// one value.
@Suite("R4.1 block curves")
struct BlockCurveTests {
    /// The counts of the calls a curve received.
    final class Calls { var counts: [Int] = [] }

    /// y = x^k, k the parameter, over arrays; each call's count goes to the context.
    static let power: BlockCurveFunction = { x, y, n, p, context in
        Unmanaged<Calls>.fromOpaque(context!).takeUnretainedValue().counts.append(n)
        for i in 0..<n {
            var v = 1.0
            for _ in 0..<Int(p![0]) { v *= x![i] }
            y![i] = v
        }
    }

    static func family(_ calls: Calls, name: String = "power") throws -> TimingFunctionFamily {
        try TimingFunctionFamily(name: name, defaults: [2], ranges: [1...6],
                                 body: .block(power, context: Unmanaged.passUnretained(calls).toOpaque()))
    }

    /// `curves[i % curves.count]` on the i-th of `n` opacity animations from i to i + 8, over [1, 3].
    static func scene(_ rt: Runtime, _ curves: [String], n: Int) throws -> [Handle] {
        var layers: [Handle] = []
        for i in 0..<n {
            let l = try rt.createLayer()
            var a = linear("opacity", Double(i), Double(i) + 8, begin: 1, duration: 2)
            a.timingFunction = try rt.timingFunctions.function(named: curves[i % curves.count])
            try rt.add(a, to: l, forKey: "fade")
            layers.append(l)
        }
        return layers
    }

    @Test("One call per chunk of a run; the tail of the lane one value at a time")
    func oneCallPerRun() throws {
        let calls = Calls(), rt = Runtime()
        try rt.timingFunctions.register(family: try Self.family(calls))
        let layers = try Self.scene(rt, ["power"], n: 1001)
        #expect(rt.attachedCounts.batched == 1001)
        let lane = rt.instances[try rt.instances.index(of: try rt.instanceHandles(layers[0])[0])].lane
        #expect(lane == Int8(CurveTable.block))
        try rt.tick(2)
        // 1000 entries in chunks of 256, then the last one alone.
        #expect(calls.counts == [256, 256, 256, 232, 1])
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i) + 8 * 0.25) }
    }

    @Test("A run ends where the curve changes: members of one family with other parameters are other curves")
    func runsBreakOnCurves() throws {
        let calls = Calls(), rt = Runtime()
        try rt.timingFunctions.register(family: try Self.family(calls))
        // 8 on power, 8 on power(3), and again: 1024 entries.
        let layers = try Self.scene(rt, Array(repeating: "power", count: 8) + Array(repeating: "power(3)", count: 8), n: 1024)
        try rt.tick(2)
        #expect(calls.counts == Array(repeating: 8, count: 128))
        for (i, l) in layers.enumerated() {
            #expect(try rt.scalar("opacity", l) == Double(i) + 8 * (i % 16 < 8 ? 0.25 : 0.125))
        }
    }

    @Test("Outside the batch (one evaluation, keyframe segments) the function is called with one value")
    func singleValues() throws {
        let calls = Calls(), rt = Runtime()
        let family = try Self.family(calls)
        try rt.timingFunctions.register(family: family)
        #expect(try rt.timingFunctions.function(named: "power(3)").evaluate(0.5) == 0.125)
        #expect(calls.counts == [1])
        let l = try rt.createLayer()
        let k = Keyframes(values: [.scalar(0), .scalar(4), .scalar(8)],
                              timingFunctions: [try rt.timingFunctions.function(named: "power"), .linear])
        try rt.add(.keyframe("opacity", k, timing: MediaTiming(beginTime: 1, duration: 2)), to: l, forKey: "k")
        #expect(rt.attachedCounts.batched == 0)
        try rt.tick(1.5)  // halfway through the first segment
        #expect(try rt.scalar("opacity", l) == 4 * 0.25)
        #expect(calls.counts.allSatisfy { $0 == 1 } && calls.counts.count > 1)
    }

    /// Counts the values outside [0, 1] (or NaN) it is handed; eases linearly.
    static let strict: BlockCurveFunction = { x, y, n, _, context in
        let calls = Unmanaged<Calls>.fromOpaque(context!).takeUnretainedValue()
        for i in 0..<n {
            if !(x![i] >= 0 && x![i] <= 1) { calls.counts.append(i) }
            y![i] = x![i]
        }
    }

    @Test("The function sees progress in [0, 1] only, also in blocks holding complex timing, on every path",
          arguments: [BatchPath.reference, .lanes, .native])
    func progressInRange(path: BatchPath) throws {
        let outside = Calls(), rt = Runtime()
        rt.batchPath = path
        try rt.timingFunctions.register(family: try TimingFunctionFamily(
            name: "strict", body: .block(Self.strict, context: Unmanaged.passUnretained(outside).toOpaque())))
        var layers: [Handle] = []
        for i in 0..<64 {
            // One entry in three has complex timing: its duration column holds no duration.
            var timing = MediaTiming(beginTime: 1, duration: 0.5 + Double(i % 5) / 4, fillMode: .both)
            if i % 3 == 0 { timing.repeatCount = 2.5; timing.autoreverses = true }
            var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(Double(i)), timing: timing,
                                    timingFunction: try rt.timingFunctions.function(named: "strict"))
            a.isRemovedOnCompletion = false
            let l = try rt.createLayer()
            try rt.add(a, to: l, forKey: "a")
            layers.append(l)
        }
        #expect(rt.attachedCounts.batched == 64)
        for t in stride(from: 0.0, through: 8, by: 0.125) {
            try rt.tick(t)
            for (i, l) in layers.enumerated() where i % 3 != 0 {
                let x = Swift.min(Swift.max((t - 1) / (0.5 + Double(i % 5) / 4), 0), 1)
                #expect(try rt.scalar("opacity", l) == Double(i) * x)
            }
        }
        #expect(outside.counts.isEmpty, "values outside [0, 1] at \(outside.counts.prefix(8))")
    }

    /// Infinity where x > 0.5, NaN below 0.25, nothing written in between.
    static let misbehaving: BlockCurveFunction = { x, y, n, _, _ in
        for i in 0..<n where x![i] > 0.5 || x![i] < 0.25 { y![i] = x![i] > 0.5 ? .infinity : .nan }
    }

    @Test("A value that is not finite, or not written, counts as 0 in the batch and outside it", arguments: [0.1, 0.4, 0.75])
    func nonFinite(_ progress: Double) throws {
        let family = try TimingFunctionFamily(name: "broken", body: .block(Self.misbehaving, context: nil))
        #expect(family.defaultFunction.evaluate(progress) == 0)
        let rt = Runtime()
        try rt.timingFunctions.register(family: family)
        let layers = try Self.scene(rt, ["broken"], n: 9)
        try rt.tick(1 + 2 * progress)
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i)) }
    }
}
