import CBatchKernel

/// The Bézier lane through the AVX2 blocks of four (CBatchKernel), where
/// the processor has AVX2: the same steps as `blocks` (its reference, bit
/// for bit), in registers twice as wide. The C code does the arithmetic of
/// a chunk of entries (progress, the curve, the value, which entries need
/// the exact solver) and shows the values of steady blocks (four entries
/// mid-flight that were running: what `closeBlock` does with them); the rest
/// stays here, as in `blocks`: complex timing, the exact solver, the other
/// presentation values and the lifecycle.
extension BatchKernel {
    /// Whether this processor runs the AVX2 blocks (asked once).
    static let hasNativeBlocks = animrt_bezier_blocks_avx2_available() != 0

    /// Entries per call into C: its results stay in the first-level cache.
    static let nativeChunk = 256

    /// The columns and curves as the AVX2 blocks take them.
    var bezierLane: animrt_bezier_lane {
        let running = LifeState.running.rawValue
        return animrt_bezier_lane(
            begin: begin, duration: duration, from: from, to: to, curve: curve, slot: slot, flags: flags, state: state,
            coefficients: coefficients,
            // The same addresses, as C declares them (nullable).
            tables: UnsafeRawPointer(tables).assumingMemoryBound(to: UnsafePointer<Double>?.self),
            intervals: Int32(GuessTable.intervals), stride: Int32(GuessTable.stride),
            running: running, active_flag: 1 << (BatchStorage.effectShift &+ running),
            complex_flag: BatchStorage.complexTiming, presentation: presentation)
    }

    func nativeBlocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        let chunk = BatchKernel.nativeChunk
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * chunk) { buffer in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk / 4) { exact in
            let raw = buffer.baseAddress!, value = raw + chunk
            var lane = bezierLane
            var i = range.lowerBound
            let end = range.upperBound
            while i &+ 4 <= end {
                let m = Swift.min(chunk, (end &- i) & ~3)
                let left = animrt_bezier_blocks_avx2(&lane, i, m, now, raw, value, exact.baseAddress!)
                if left > 0 { closeBlocks(i, m, raw, value, exact.baseAddress!, now, &transitions) }
                i &+= m
            }
            if i < end { loop(i..<end, now, &transitions) { k, x, _ in bezierEase(k, x) } }
        }}
    }

    /// The blocks of entries i ..< i + m that C did not store, as `blocks` closes them.
    @inline(__always)
    private func closeBlocks(_ i: Int, _ m: Int, _ raw: UnsafePointer<Double>, _ value: UnsafePointer<Double>,
                             _ exact: UnsafePointer<UInt8>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        for b in stride(from: 0, to: m, by: 4) {
            let e = exact[b >> 2]
            if e & UInt8(ANIMRT_BLOCK_STORED) != 0 { continue }
            let j = i &+ b
            if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                loop(j..<(j &+ 4), now, &transitions) { k, x, _ in bezierEase(k, x) }
                continue
            }
            for l in 0..<4 {
                let r = raw[b &+ l]
                let v = e & (1 << l) == 0 ? value[b &+ l] : exactValue(j &+ l, Swift.min(Swift.max(r, 0), 1))
                close(j &+ l, r, v, &transitions)
            }
        }
    }
}
