import CBatchKernel

/// The Bézier, linear and block-curve lanes through the AVX2 blocks of four
/// (CBatchKernel), where the processor has AVX2: the same steps as `blocks`
/// and `callBlocks` (their reference, bit for bit), in registers twice as
/// wide. The C code does the arithmetic of a chunk of entries (progress, the
/// curve, the value, which entries need the exact solver) and shows the
/// values of steady blocks (four entries mid-flight that were running: all
/// `closeBlock` does with them); the rest stays here, as in the Swift
/// blocks: complex timing, the exact solver, the other presentation values
/// and the lifecycle.
extension BatchKernel {
    /// Whether this processor runs the AVX2 blocks (asked once).
    static let hasNativeBlocks = animrt_bezier_blocks_avx2_available() != 0

    /// Entries per call into C: its results stay in the first-level cache.
    static let nativeChunk = 256

    /// The columns and curves as the AVX2 blocks take them.
    var nativeLane: animrt_batch_lane {
        let running = LifeState.running.rawValue
        return animrt_batch_lane(
            begin: begin, duration: duration, from: from, to: to, curve: curve, slot: slot, flags: flags, state: state,
            coefficients: coefficients,
            // The same addresses, as C declares them (nullable).
            tables: UnsafeRawPointer(tables).assumingMemoryBound(to: UnsafePointer<Double>?.self),
            intervals: Int32(GuessTable.intervals), stride: Int32(GuessTable.stride),
            running: running, active_flag: 1 << (BatchStorage.effectShift &+ running),
            complex_flag: BatchStorage.complexTiming, presentation: presentation)
    }

    /// The Bézier lane: `blocks` through the AVX2 blocks.
    func nativeBlocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        native(range, now, &transitions, animrt_bezier_blocks_avx2, ease: bezierEase) { j, x in exactValue(j, x) }
    }

    /// The linear lane: `callBlocks` with the identity through the AVX2 blocks.
    func nativeLinear(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        native(range, now, &transitions, animrt_linear_blocks_avx2, ease: { _, x in x }, exact: nil)
    }

    /// The lane of block curves: `blockCurveRuns` with the arithmetic
    /// around the calls (the progress before, the values and steady blocks
    /// after) through the AVX2 blocks.
    func nativeBlockCurves(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * BatchKernel.nativeChunk) { buffer in
            let x = buffer.baseAddress!, y = x + BatchKernel.nativeChunk
            native(range, now, &transitions, { lane, first, n, now, raw, value, exact in
                animrt_progress_blocks_avx2(lane, first, n, now, raw, x, y)
                callRuns(first, n, x, y)
                return animrt_eased_blocks_avx2(lane, first, n, raw, y, value, exact)
            }, ease: blockEase, exact: nil)
        }
    }

    typealias NativeBlocks = (UnsafePointer<animrt_batch_lane>?, Int, Int, Double, UnsafeMutablePointer<Double>?,
                              UnsafeMutablePointer<Double>?, UnsafeMutablePointer<UInt8>?) -> Int

    /// Runs `range` through `blocks` a chunk at a time and closes the blocks
    /// it did not store: complex timing one at a time with `ease`, the other
    /// entries with their values (from `exact` where the C code asks for the
    /// exact solver; nil: never).
    @inline(__always)
    private func native(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)], _ blocks: NativeBlocks,
                        ease: (Int, Double) -> Double, exact exactValue: ((Int, Double) -> Double)?) {
        let chunk = BatchKernel.nativeChunk
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * chunk) { buffer in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk / 4) { bytes in
            let raw = buffer.baseAddress!, value = raw + chunk, exact = bytes.baseAddress!
            var lane = nativeLane
            var i = range.lowerBound
            let end = range.upperBound
            while i &+ 4 <= end {
                let m = Swift.min(chunk, (end &- i) & ~3)
                if blocks(&lane, i, m, now, raw, value, exact) > 0 {
                    for b in stride(from: 0, to: m, by: 4) where exact[b >> 2] & UInt8(ANIMRT_BLOCK_STORED) == 0 {
                        let j = i &+ b
                        if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                            loop(j..<(j &+ 4), now, &transitions) { k, x, _ in ease(k, x) }
                            continue
                        }
                        for l in 0..<4 {
                            let r = raw[b &+ l]
                            var v = value[b &+ l]
                            if let exactValue, exact[b >> 2] & (1 << l) != 0 { v = exactValue(j &+ l, Swift.min(Swift.max(r, 0), 1)) }
                            close(j &+ l, r, v, &transitions)
                        }
                    }
                }
                i &+= m
            }
            if i < end { loop(i..<end, now, &transitions) { k, x, _ in ease(k, x) } }
        }}
    }
}
