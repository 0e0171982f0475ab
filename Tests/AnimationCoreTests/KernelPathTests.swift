import CBatchKernel
import Foundation
import Testing
@testable import AnimationCore

/// The three ways a linear, Bézier or C-function lane is evaluated (one
/// entry at a time, Swift `SIMD4` blocks, the AVX2 blocks where the
/// processor has them) driven over the same randomised raw entries, compared bit for bit:
/// presentation, lifecycle states, transitions in order. The entries sit on
/// every boundary a block decides on: before, at and after the active
/// interval, every fill, removed or kept, complex timing inside a block,
/// curves shared by a block or mixed, pieces needing more than one Newton
/// step or none, ends overflowing the doubles, and ranges whose length is no
/// multiple of four or of the C chunk (R0.4: every value shown is finite).
@Suite("Kernel paths: one at a time, SIMD4 blocks and AVX2 blocks agree bit for bit")
struct KernelPathTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        mutating func pick<T>(_ a: [T]) -> T { a[next(a.count)] }
    }

    static let bezierCurves: [TimingFunction] = [
        .easeIn, .easeOut, .easeInEaseOut, .default, try! .cubicBezier(1, 0, 0, 1), try! .cubicBezier(0.9, 0.1, 0.1, 0.9),
        try! .cubicBezier(0.5, 1e300, 0.5, -1e300), try! .cubicBezier(0, 1.5, 1, -0.5), try! .cubicBezier(0.3, 0, 0.3, 1)]

    /// C functions as plugins and bound functions give them (one overshoots
    /// to infinity near the end, which counts as 0).
    static let nativeCurves: [TimingFunction] = [
        .custom(try! TimingFunctionFamily(name: "square", body: .native({ x, _, _ in x * x }, context: nil)).function([])),
        .custom(try! TimingFunctionFamily(name: "wild", defaults: [0.9], body: .native({ x, p, _ in x > p![0] ? .infinity : 1 - x },
                                                                                      context: nil)).function([])),
    ]
    static let unaryCurves: [TimingFunction] = [
        .custom(try! TimingFunctionFamily(name: "cube", body: .unary({ x in x * x * x })).function([])),
        .custom(try! TimingFunctionFamily(name: "nan", body: .unary({ x in x < 0.5 ? x : .nan })).function([])),
    ]

    /// Block curves as plugins and hosts give them: one over- and
    /// undershooting with its parameter, one that goes to infinity (counts
    /// as 0), one that leaves some values unwritten (0 too).
    static let swing = try! TimingFunctionFamily(name: "swing", defaults: [1.5], body: .block({ x, y, n, p, _ in
        for i in 0..<n { y![i] = x![i] * x![i] * ((p![0] + 1) * x![i] - p![0]) }
    }, context: nil))
    static let blockCurves: [TimingFunction] = [
        .custom(try! swing.function([])), .custom(try! swing.function([-2])),
        .custom(try! TimingFunctionFamily(name: "edge", body: .block({ x, y, n, _, _ in
            for i in 0..<n { y![i] = x![i] > 0.95 ? -.infinity : x![i].squareRoot() }
        }, context: nil)).function([])),
        .custom(try! TimingFunctionFamily(name: "sparse", body: .block({ x, y, n, _, _ in
            for i in 0..<n where x![i] >= 0.25 { y![i] = 1 - x![i] }
        }, context: nil)).function([])),
    ]

    /// A lane of `count` random entries; `now` values that hit begin and end exactly come from `times`.
    static func lane(kind: UInt8, count: Int, seed: UInt64, curves: inout CurveTable) -> (BatchStorage, [Double]) {
        var g = Generator(state: seed)
        let lane = BatchStorage(kind: kind)
        var times: [Double] = [0, -1e300, 1e300]
        var c = Int32(0)
        var run = 0
        for i in 0..<count {
            // Runs of one curve (a block shares it) and single ones (mixed blocks).
            if run == 0 {
                c = curves.retain(kind == CurveTable.linear ? .linear : kind == CurveTable.bezier ? g.pick(bezierCurves)
                                  : g.pick(kind == CurveTable.native ? nativeCurves : kind == CurveTable.block ? blockCurves
                                           : unaryCurves))
                run = g.pick([1, 1, 2, 4, 9, 40])
            } else { c = curves.retain(id: c) }
            run -= 1
            let begin = g.pick([0, 1, 2.5, -3, 1e-300, 7e15])
            let duration = g.pick([1, 0.25, 3, 1e-300, .leastNonzeroMagnitude, 1e300, 0.1])
            times += [begin, begin + duration, begin + duration / 2]
            let fill = g.pick([FillMode.removed, .forwards, .backwards, .both])
            let removed = g.next(3) == 0
            let from = g.pick([0, -50, 1e308, -1e308, 3]), to = g.pick([1, 99, -1e308, 1e308, 3])
            if g.next(10) == 0 {
                var t = MediaTiming(beginTime: begin, duration: duration, fillMode: fill)
                t.repeatCount = g.pick([1.5, 2]); t.autoreverses = g.next(2) == 0
                _ = lane.append(owner: Int32(i), timing: t, from: from, to: to, slot: Int32(i), curve: c, removedOnCompletion: removed)
            } else {
                _ = lane.append(owner: Int32(i), begin: begin, duration: duration, from: from, to: to, slot: Int32(i), curve: c,
                                flags: BatchStorage.flags(fill: fill, removedOnCompletion: removed, fromPresentation: false))
            }
        }
        for _ in 0..<40 { times.append(Double(g.next(4000)) / 1000 - 0.5) }
        // At most about 120 frames (the exact hits among them), in order.
        times.sort()
        return (lane, stride(from: 0, to: times.count, by: max(1, times.count / 120)).map { times[$0] })
    }

    /// Every frame's presentation bits, state bytes and transitions, on one path.
    static func frames(kind: UInt8, count: Int, seed: UInt64, path: BatchPath, threads: Int, sparse: Bool = false) -> [[UInt64]] {
        var curves = CurveTable()
        let (lane, times) = sparse ? sparseLane(kind: kind, count: count, curves: &curves)
            : lane(kind: kind, count: count, seed: seed, curves: &curves)
        let model = (0..<count).map { Double($0 % 5) - 2 }
        var presentation = [Double](repeating: .nan, count: count)
        var out: [[UInt64]] = []
        for now in times {
            var transitions: [(Int32, LifeState)] = []
            model.withUnsafeBufferPointer { m in
                presentation.withUnsafeMutableBufferPointer { p in
                    lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!,
                                  threads: threads, minimumPerThread: 37, path: path, transitions: &transitions)
                }
            }
            out.append(presentation.map(\.bitPattern) + (0..<count).map { UInt64(lane.state[$0]) }
                       + transitions.map { UInt64($0.0) << 8 | UInt64($0.1.rawValue) })
        }
        return out
    }

    /// A lane of `count` entries mid-flight over (0, 2) but for a few: every
    /// 31st starts at 0.9, every 29th ends at 1 (kept, filling or not, or
    /// removed), every 97th has complex timing. So that in the frames after
    /// the first, a chunk of the AVX2 blocks leaves a few blocks among many
    /// stored ones (a quarter at most), and is closed late, after the next
    /// chunk has run.
    static func sparseLane(kind: UInt8, count: Int, curves: inout CurveTable) -> (BatchStorage, [Double]) {
        let lane = BatchStorage(kind: kind)
        let function: TimingFunction = kind == CurveTable.linear ? .linear : kind == CurveTable.bezier ? .easeInEaseOut
            : kind == CurveTable.block ? .custom(try! swing.function([])) : .custom(try! TimingFunctionFamily(
                name: "cube", body: .unary({ x in x * x * x })).function([]))
        let c = curves.retain(function)
        for i in 0..<count {
            if i > 0 { _ = curves.retain(id: c) }
            let begin = i % 31 == 7 ? 0.9 : 0, duration = i % 29 == 5 ? 1 : 2 - begin
            let fill: FillMode = [.removed, .forwards, .both][i % 3]
            if i % 97 == 50 {
                var t = MediaTiming(beginTime: begin, duration: duration / 2, fillMode: fill)
                t.repeatCount = 2
                _ = lane.append(owner: Int32(i), timing: t, from: Double(i), to: -Double(i), slot: Int32(i), curve: c,
                                removedOnCompletion: i % 2 == 0)
            } else {
                _ = lane.append(owner: Int32(i), begin: begin, duration: duration, from: Double(i), to: 1 - Double(i),
                                slot: Int32(i), curve: c,
                                flags: BatchStorage.flags(fill: fill, removedOnCompletion: i % 2 == 0, fromPresentation: false))
            }
        }
        return (lane, [0.1, 0.5, 0.9, 0.95, 1, 1.05, 1.5, 2, 2.5])
    }

    @Test("a few blocks left among many stored ones (closed a chunk late) agree bit for bit",
          arguments: [CurveTable.bezier, CurveTable.linear, CurveTable.block, CurveTable.unary])
    func sparse(kind: UInt8) {
        for count in [1031, 1280] {
            let reference = Self.frames(kind: kind, count: count, seed: 0, path: .reference, threads: 1, sparse: true)
            for (path, threads) in [(BatchPath.lanes, 1), (.native, 1), (.native, 2)] {
                let other = Self.frames(kind: kind, count: count, seed: 0, path: path, threads: threads, sparse: true)
                let frame = (0..<Swift.min(other.count, reference.count)).first { other[$0] != reference[$0] }
                #expect(frame == nil && other.count == reference.count,
                        "\(path), \(threads) threads, \(count) entries: frame \(frame ?? -1) differs")
            }
        }
    }

    @Test("the sparse lane leaves a few blocks of a chunk, and in every chunk")
    func sparseCoverage() {
        // Nothing to check where the processor has no AVX2 (`dispatch` checks that choice).
        guard BatchKernel.hasNativeBlocks else { return }
        var curves = CurveTable()
        let (lane, times) = Self.sparseLane(kind: CurveTable.bezier, count: 1280, curves: &curves)
        let model = [Double](repeating: 0, count: lane.count)
        var presentation = model
        var none: [(Int32, LifeState)] = []
        let chunk = BatchKernel.nativeChunk
        var lefts: [[Int]] = []
        for now in times {
            model.withUnsafeBufferPointer { m in
                presentation.withUnsafeMutableBufferPointer { p in
                    lane.withKernel(curves: curves, model: m.baseAddress!, presentation: p.baseAddress!) { kernel in
                        // What each chunk leaves at `now`, before the frame changes the states.
                        var columns = kernel.nativeLane
                        var raw = [Double](repeating: 0, count: chunk), value = raw
                        var exact = [UInt8](repeating: 0, count: chunk / 4)
                        lefts.append(stride(from: 0, to: lane.count, by: chunk).map {
                            animrt_bezier_blocks_avx2(&columns, $0, chunk, now, &raw, &value, &exact)
                        })
                    }
                    lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!, threads: 1,
                                  path: .native, transitions: &none)
                }
            }
        }
        // The first frame starts every entry: all blocks left, closed at once.
        #expect(lefts[0].allSatisfy { $0 == chunk / 4 })
        // From 0.5 to 1.5, every chunk leaves a few blocks, a quarter of its
        // blocks at most (closed late); from 2 on, all entries have ended.
        for f in 1..<times.count {
            let few = times[f] < 2
            #expect(lefts[f].allSatisfy { few ? $0 > 0 && $0 <= chunk / 16 : $0 == chunk / 4 }, "at \(times[f]): \(lefts[f])")
        }
    }

    @Test("the same bits on every path and thread count", arguments: [
        (CurveTable.bezier, 1), (CurveTable.bezier, 3), (CurveTable.bezier, 4), (CurveTable.bezier, 255),
        (CurveTable.bezier, 256), (CurveTable.bezier, 257), (CurveTable.bezier, 1031), (CurveTable.linear, 7), (CurveTable.linear, 517),
        (CurveTable.native, 6), (CurveTable.native, 301), (CurveTable.unary, 2), (CurveTable.unary, 263),
        (CurveTable.block, 3), (CurveTable.block, 255), (CurveTable.block, 256), (CurveTable.block, 517), (CurveTable.block, 1031),
    ] as [(UInt8, Int)])
    func agree(kind: UInt8, count: Int) {
        for seed in [1, 2] as [UInt64] {
            let reference = Self.frames(kind: kind, count: count, seed: seed, path: .reference, threads: 1)
            #expect(reference.allSatisfy { $0.prefix(count).allSatisfy { Double(bitPattern: $0).isFinite } })
            for (path, threads) in [(BatchPath.lanes, 1), (.native, 1), (.lanes, 2), (.native, 2)] {
                let other = Self.frames(kind: kind, count: count, seed: seed, path: path, threads: threads)
                // The first frame that differs, if any (not the whole arrays).
                let frame = (0..<Swift.min(other.count, reference.count)).first { other[$0] != reference[$0] }
                #expect(frame == nil && other.count == reference.count,
                        "\(path), \(threads) threads, \(count) entries, seed \(seed): frame \(frame ?? -1) differs")
            }
        }
    }

    @Test("a Bézier entry that ended shows its end value exactly on every path, though Horner's y(1) is an ulp off")
    func bezierEndsExactly() throws {
        // y(1) summed as ay + by + cy: 1.0000000000000009 for the first curve, 0 for the second.
        let curvesAtEnd = [try TimingFunction.cubicBezier(0.5209384176131452, -0.06183887722645043, 0.39325509496422606,
                                                          -2.8225502161985574),
                           try TimingFunction.cubicBezier(0.5, 1e20, 0.5, 1)]
        let ends: [(from: Double, to: Double)] = [(0, 100), (-292.1515902625682, 765.7018371625061), (3, -1)]
        for path in [BatchPath.reference, .lanes, .native] {
            var curves = CurveTable()
            let lane = BatchStorage(kind: CurveTable.bezier)
            var expected: [Double] = []
            // 24 entries (six blocks), ending at 1 and filling forwards, kept.
            for i in 0..<24 {
                let (from, to) = ends[i % ends.count]
                _ = lane.append(owner: Int32(i), begin: 0, duration: 1, from: from, to: to, slot: Int32(i),
                                curve: curves.retain(curvesAtEnd[i / 12]),
                                flags: BatchStorage.flags(fill: .forwards, removedOnCompletion: false, fromPresentation: false))
                expected.append(from + (to - from))
            }
            let model = [Double](repeating: 0, count: lane.count)
            var presentation = model
            for now in [0.5, 1, 2] {
                var transitions: [(Int32, LifeState)] = []
                model.withUnsafeBufferPointer { m in
                    presentation.withUnsafeMutableBufferPointer { p in
                        lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!,
                                      threads: 1, path: path, transitions: &transitions)
                    }
                }
                if now >= 1 { #expect(presentation == expected, "\(path) at \(now): \(presentation)") }
            }
        }
    }

    @Test("the blocks decide what they decide: steady blocks, exact lanes and complex timing all occur")
    func coverage() {
        // The scene of `agree` reaches each branch of the blocks: a frame
        // where entries are mid-flight, entries on the ends of [0, 1], and
        // complex timing (so that the comparison above is not vacuous).
        var curves = CurveTable()
        let (lane, times) = Self.lane(kind: CurveTable.bezier, count: 1031, seed: 1, curves: &curves)
        let complex = (0..<lane.count).filter { lane.complexIndex($0) != nil }.count
        #expect(complex > 20 && complex < lane.count / 4)
        let simple = (0..<lane.count).filter { lane.complexIndex($0) == nil }
        let mid = times.filter { now in simple.contains { (now - lane.begin[$0]) / lane.duration[$0] > 0 && (now - lane.begin[$0]) / lane.duration[$0] < 1 } }
        #expect(mid.count > 10)
        #expect(times.contains { now in simple.contains { now == lane.begin[$0] } })
    }

    @Test("a block of complex timing is never shown as steady, though its duration column read as durations puts it mid-flight",
          arguments: [CurveTable.linear, CurveTable.bezier])
    func complexNeverSteady(kind: UInt8) {
        // The duration column of a complex entry holds its index's bits: 2 ... 5 read as
        // durations of 2 ... 5 × 5e-324, mid-flight at the time 5e-324 after a begin of 0.
        var curves = CurveTable()
        let lane = BatchStorage(kind: kind)
        let c = curves.retain(kind == CurveTable.linear ? .linear : .easeInEaseOut)
        for i in 0..<8 {
            if i > 0 { _ = curves.retain(id: c) }
            if i == 0 || i == 1 || i >= 4 {
                var t = MediaTiming(beginTime: 0, duration: 1, fillMode: .both)
                t.repeatCount = 2
                _ = lane.append(owner: Int32(i), timing: t, from: 0, to: 100, slot: Int32(i), curve: c, removedOnCompletion: false)
            } else {
                _ = lane.append(owner: Int32(i), begin: 0, duration: 1, from: 0, to: 100, slot: Int32(i), curve: c,
                                flags: BatchStorage.flags(fill: .both, removedOnCompletion: false, fromPresentation: false))
            }
        }
        #expect((4..<8).map { lane.duration[$0] } == (2...5).map { Double($0) * .leastNonzeroMagnitude })
        var shown: [[Double]] = []
        for path in [BatchPath.reference, .lanes, .native] {
            let model = [Double](repeating: -1, count: lane.count)
            var presentation = model
            var transitions: [(Int32, LifeState)] = []
            for i in 0..<lane.count { lane.state[i] = LifeState.waiting.rawValue }
            // The first frame starts them all; in the second, every block was running.
            for now in [.leastNonzeroMagnitude, .leastNonzeroMagnitude, 0.5] as [Double] {
                model.withUnsafeBufferPointer { m in
                    presentation.withUnsafeMutableBufferPointer { p in
                        lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!,
                                      threads: 1, path: path, transitions: &transitions)
                    }
                }
                shown.append(presentation)
            }
        }
        // Mid-flight by their own timing: a progress of 5e-324, a value next to 0 (not 50, 33.3, 25, 20).
        #expect(shown[1][4...].allSatisfy { abs($0) < 1e-300 }, "\(shown[1])")
        #expect(shown[3...5].elementsEqual(shown[0...2]) && shown[6...8].elementsEqual(shown[0...2]), "\(shown)")
    }

    /// A steady block is four entries that were running, are mid-flight,
    /// have simple timing, finite values and are in effect while they run:
    /// the blocks then store the values themselves. An entry's flags say
    /// whether it is in effect while it runs; `BatchStorage.flags` always
    /// says so, which left that part of the steady test unchecked. Flags
    /// written without that bit make the difference show: such an entry
    /// shows its model value, so a block holding one (or four) must be closed
    /// by the general code, never stored with the curve's values.
    @Test("a block with an entry not in effect while it runs is never shown as steady, on any path",
          arguments: [CurveTable.linear, CurveTable.bezier, CurveTable.block])
    func notInEffectNeverSteady(kind: UInt8) {
        var curves = CurveTable()
        let lane = BatchStorage(kind: kind)
        let c = curves.retain(kind == CurveTable.linear ? .linear : kind == CurveTable.bezier ? .easeInEaseOut : Self.blockCurves[2])
        let n = 16
        let steady = BatchStorage.flags(fill: .both, removedOnCompletion: false, fromPresentation: false)
        let idle = steady & ~(2 << BatchStorage.effectShift)  // in effect before and after, not while running
        let notInEffect: Set<Int> = [5, 8, 9, 10, 11]  // one entry of block 1, all of block 2
        for i in 0..<n {
            if i > 0 { _ = curves.retain(id: c) }
            _ = lane.append(owner: Int32(i), begin: 0, duration: 2, from: Double(i), to: Double(3 * i + 10), slot: Int32(i), curve: c,
                            flags: notInEffect.contains(i) ? idle : steady)
        }
        let model = (0..<n).map { -1 - Double($0) }
        var frames: [[Double]] = [], states: [[UInt8]] = [], reported: [[String]] = []
        for path in [BatchPath.reference, .lanes, .native] {
            var presentation = [Double](repeating: .nan, count: n)
            var transitions: [(Int32, LifeState)] = []
            for i in 0..<n { lane.state[i] = LifeState.waiting.rawValue }
            // The first frame starts them all; in the second and third every block was running and is mid-flight.
            for now in [0.25, 0.5, 1.5] {
                model.withUnsafeBufferPointer { m in
                    presentation.withUnsafeMutableBufferPointer { p in
                        lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!,
                                      threads: 1, path: path, transitions: &transitions)
                    }
                }
                frames.append(presentation)
                presentation = [Double](repeating: .nan, count: n)
            }
            states.append((0..<n).map { lane.state[$0] })
            reported.append(transitions.map { "\($0.0) \($0.1)" })
        }
        for (f, frame) in frames.enumerated() {
            for i in 0..<n {
                if notInEffect.contains(i) { #expect(frame[i] == model[i], "frame \(f), entry \(i): \(frame[i])") }
                else { #expect(frame[i] > Double(i) && frame[i] < Double(3 * i + 10), "frame \(f), entry \(i): \(frame[i])") }
            }
        }
        #expect(frames[3...5].map { $0.map(\.bitPattern) } == frames[0...2].map { $0.map(\.bitPattern) }, "lanes")
        #expect(frames[6...8].map { $0.map(\.bitPattern) } == frames[0...2].map { $0.map(\.bitPattern) }, "native")
        #expect(states.allSatisfy { $0 == [UInt8](repeating: LifeState.running.rawValue, count: n) })
        #expect(reported[0].count == n && reported[1] == reported[0] && reported[2] == reported[0])
    }

    @Test("AVX2 is chosen exactly where the processor has it")
    func dispatch() throws {
        #if arch(x86_64) && os(Linux)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") }.map { $0.split(separator: " ") } ?? []
        #expect(BatchKernel.hasNativeBlocks == flags.contains("avx2"))
        #elseif !arch(x86_64)
        #expect(!BatchKernel.hasNativeBlocks)
        #endif
    }

    @Test("the AVX2 blocks show steady blocks themselves, and leave every other block to Swift untouched",
          arguments: [CurveTable.bezier, CurveTable.linear])
    func nativeStores(kind: UInt8) {
        // Nothing to check where the processor has no AVX2 (`dispatch` checks that choice).
        guard BatchKernel.hasNativeBlocks else { return }
        // 16 blocks, values scattered in reverse order; curves shared by a block or mixed.
        let n = 64
        var curves = CurveTable()
        let lane = BatchStorage(kind: kind)
        let named: [TimingFunction] = kind == CurveTable.linear ? [.linear] : [.easeIn, .easeOut, .easeInEaseOut, .default]
        for i in 0..<n {
            let curve = curves.retain(i < 32 ? named[i / 8 % named.count] : named[i % named.count])
            // Block 1: one entry that starts after the first frame (not running yet);
            // block 2: one ending before the second frame; block 3: one with complex
            // timing; block 4: one whose value overflows; block 5: one not in effect
            // while it runs (flags BatchStorage.flags never writes; see notInEffectNeverSteady).
            let begin = i == 5 ? 0.5 : 0.0, duration = i == 10 ? 0.75 : 2.0 + Double(i % 3)
            let from = i == 17 ? -1e308 : Double(i), to = i == 17 ? 1e308 : Double(2 * i + 1)
            if i == 14 {
                var t = MediaTiming(beginTime: begin, duration: duration, fillMode: .both)
                t.repeatCount = 2
                _ = lane.append(owner: Int32(i), timing: t, from: from, to: to, slot: Int32(n - 1 - i), curve: curve,
                                removedOnCompletion: false)
            } else {
                let flags = BatchStorage.flags(fill: .both, removedOnCompletion: false, fromPresentation: false)
                _ = lane.append(owner: Int32(i), begin: begin, duration: duration, from: from, to: to, slot: Int32(n - 1 - i),
                                curve: curve, flags: i == 22 ? flags & ~(2 << BatchStorage.effectShift) : flags)
            }
        }
        let model = [Double](repeating: 0, count: n)
        var reference = [Double](repeating: 0, count: n)
        func evaluate(_ now: Double) {
            var transitions: [(Int32, LifeState)] = []
            model.withUnsafeBufferPointer { m in
                reference.withUnsafeMutableBufferPointer { p in
                    lane.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!, threads: 1,
                                  path: .reference, transitions: &transitions)
                }
            }
        }
        evaluate(0.25)  // every entry but 5 is running
        // The second frame in C alone, into values that are all NaN; then the reference's.
        var shown = [Double](repeating: .nan, count: n)
        var raw = [Double](repeating: 0, count: n), value = raw
        var exact = [UInt8](repeating: 0, count: n / 4)
        var left = 0
        model.withUnsafeBufferPointer { m in
            shown.withUnsafeMutableBufferPointer { p in
                lane.withKernel(curves: curves, model: m.baseAddress!, presentation: p.baseAddress!) { kernel in
                    var columns = kernel.nativeLane
                    left = kind == CurveTable.linear ? animrt_linear_blocks_avx2(&columns, 0, n, 1.0, &raw, &value, &exact)
                        : animrt_bezier_blocks_avx2(&columns, 0, n, 1.0, &raw, &value, &exact)
                }
            }
        }
        evaluate(1.0)
        let unstored: Set<Int> = [1, 2, 3, 4, 5]
        #expect(left == unstored.count)
        for b in 0..<n / 4 {
            #expect((exact[b] & UInt8(ANIMRT_BLOCK_STORED) != 0) == !unstored.contains(b), "block \(b)")
            for i in 4 * b..<4 * b + 4 {
                let s = n - 1 - i
                if unstored.contains(b) { #expect(shown[s].isNaN, "entry \(i) was written") }
                else { #expect(shown[s].bitPattern == reference[s].bitPattern && shown[s] != 0, "entry \(i)") }
            }
        }
    }
}
