import Testing
@testable import AnimationCore

/// The batch kernel's four-at-a-time path must give what the one-at-a-time
/// loop gives, to the bit, and so must every number of evaluation threads.
@Suite("The batch kernel: four at a time, one at a time and any thread count agree bit for bit")
struct KernelTests {
    /// A scene of every kind of batch entry: the five named curves and
    /// custom ones (with pieces that need Newton's method, vertical
    /// tangents, and y far past the doubles), linear ones, complex timing,
    /// every fill mode, begin times of 0 (stamped at a tick), entries
    /// removed on completion and kept.
    static func scene(_ rt: Runtime, seed: UInt64) throws -> [Handle] {
        var s = seed
        func next(_ n: Int) -> Int {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Int(s >> 33) % n
        }
        let curves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default,
                                        try .cubicBezier(1, 0, 0, 1), try .cubicBezier(0.9, 0.1, 0.1, 0.9),
                                        try .cubicBezier(0.5, 1e300, 0.5, -1e300), try .cubicBezier(0, 1.5, 1, -0.5)]
        let fills: [FillMode] = [.removed, .forwards, .backwards, .both]
        var layers: [Handle] = []
        for i in 0..<3001 {
            let l = try rt.createLayer()
            try rt.setModelValue(.scalar(Double(i % 7)), forKeyPath: "opacity", of: l)
            var timing = MediaTiming(beginTime: next(6) == 0 ? 0 : Double(next(300)) / 100, duration: Double(1 + next(200)) / 100,
                                     fillMode: fills[next(4)])
            if next(9) == 0 { timing.repeatCount = 1.5; timing.autoreverses = next(2) == 0 }
            var a = Animation.basic("opacity", from: .scalar(Double(next(100)) - 50), to: .scalar(Double(next(100))),
                                    timing: timing, timingFunction: curves[next(curves.count)])
            a.isRemovedOnCompletion = next(3) == 0
            try rt.add(a, to: l, forKey: nil)
            layers.append(l)
        }
        return layers
    }

    @Test("the same values and events, frame after frame", arguments: [1, 2, 3] as [UInt64])
    func agree(seed: UInt64) throws {
        let reference = Runtime(), blocks = Runtime(), threaded = Runtime()
        reference.batchPath = .reference
        threaded.evaluationThreads = 2
        threaded.batches.minimumPerThread = 97  // several ranges, of odd sizes
        var outputs: [([UInt64], [String])] = []
        for rt in [reference, blocks, threaded] {
            _ = try Self.scene(rt, seed: seed)
            #expect(rt.attachedCounts.batched == rt.attachedCounts.total)
            var values: [UInt64] = [], events: [String] = []
            for f in 0..<150 {
                try rt.tick(Double(f) / 40)
                values += rt.presentation.map(\.bitPattern)
                events += rt.drain().map { "\($0.type) \($0.reason) \($0.time) \($0.object.raw & 0xFFFF_FFFF_FFFF)" }
            }
            #expect(rt.presentation.allSatisfy { $0.isFinite })
            outputs.append((values, events))
        }
        #expect(outputs[1].1 == outputs[0].1)
        #expect(outputs[1].0 == outputs[0].0)
        #expect(outputs[2].1 == outputs[0].1)
        #expect(outputs[2].0 == outputs[0].0)
    }
}
