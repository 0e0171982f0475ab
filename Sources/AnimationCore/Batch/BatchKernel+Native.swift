import CBatchKernel

/// The Bézier lane through the AVX2 blocks of four (CBatchKernel), where
/// the processor has AVX2: the same steps as `blocks` (its reference, bit
/// for bit), in registers twice as wide. The C code does the arithmetic of
/// a chunk of entries (progress, the curve, the value, which entries need
/// the exact solver); the rest stays here, as in `blocks`: complex timing,
/// the exact solver, the presentation and the lifecycle.
extension BatchKernel {
    /// Whether this processor runs the AVX2 blocks (asked once).
    static let hasNativeBlocks = animrt_bezier_blocks_avx2_available() != 0

    /// Entries per call into C: its results stay in the first-level cache.
    static let nativeChunk = 256
    /// A block's byte from C when its four entries need no exact solve (so
    /// they are mid-flight) and have finite values (as `closeBlock` checks).
    static let midFlight: UInt8 = 0x10

    func nativeBlocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        let chunk = BatchKernel.nativeChunk
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * chunk) { buffer in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk / 4) { exact in
            let raw = buffer.baseAddress!, value = raw + chunk
            // The same addresses, as C declares them (nullable).
            let tables = UnsafeRawPointer(self.tables).assumingMemoryBound(to: UnsafePointer<Double>?.self)
            var i = range.lowerBound
            let end = range.upperBound
            while i &+ 4 <= end {
                let m = Swift.min(chunk, (end &- i) & ~3)
                animrt_bezier_blocks_avx2(m, now, begin + i, duration + i, from + i, to + i, curve + i, coefficients, tables,
                                          Int32(GuessTable.intervals), Int32(GuessTable.stride), raw, value, exact.baseAddress!)
                for b in stride(from: 0, to: m, by: 4) {
                    let j = i &+ b
                    if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                        loop(j..<(j &+ 4), now, &transitions) { k, x, _ in bezierEase(k, x) }
                        continue
                    }
                    let e = exact[b >> 2]
                    if e == BatchKernel.midFlight && wereRunning(j) {
                        store(j, value[b], value[b &+ 1], value[b &+ 2], value[b &+ 3])
                        continue
                    }
                    for l in 0..<4 {
                        let r = raw[b &+ l]
                        let v = e & (1 << l) == 0 ? value[b &+ l] : exactValue(j &+ l, Swift.min(Swift.max(r, 0), 1))
                        close(j &+ l, r, v, &transitions)
                    }
                }
                i &+= m
            }
            if i < end { loop(i..<end, now, &transitions) { k, x, _ in bezierEase(k, x) } }
        }}
    }
}
