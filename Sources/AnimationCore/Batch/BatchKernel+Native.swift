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
        native(range, now, &transitions, .bezier, animrt_bezier_blocks_avx2)
    }

    /// The linear lane: `callBlocks` with the identity through the AVX2 blocks.
    func nativeLinear(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        native(range, now, &transitions, .linear, animrt_linear_blocks_avx2)
    }

    /// The lane of block curves: `blockCurveRuns` with the arithmetic
    /// around the calls (the progress before, the values and steady blocks
    /// after) through the AVX2 blocks.
    func nativeBlockCurves(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * BatchKernel.nativeChunk) { buffer in
            let x = buffer.baseAddress!, y = x + BatchKernel.nativeChunk
            native(range, now, &transitions, .block) { lane, first, n, now, raw, value, exact in
                animrt_progress_blocks_avx2(lane, first, n, now, raw, x, y)
                callRuns(first, n, x, y)
                return animrt_eased_blocks_avx2(lane, first, n, raw, y, value, exact)
            }
        }
    }

    typealias NativeBlocks = (UnsafePointer<animrt_batch_lane>?, Int, Int, Double, UnsafeMutablePointer<Double>?,
                              UnsafeMutablePointer<Double>?, UnsafeMutablePointer<UInt8>?) -> Int

    /// The lanes that go through the AVX2 blocks.
    enum NativeLane { case bezier, linear, block }

    /// Entry `k`'s eased progress at `x`, one entry at a time, in lane `kind`.
    @inline(__always)
    private func ease(_ kind: NativeLane, _ k: Int, _ x: Double) -> Double {
        switch kind {
        case .bezier: bezierEase(k, x)
        case .linear: x
        case .block: blockEase(k, x)
        }
    }

    /// Closes entries j ..< j + 4, a block the AVX2 blocks left with its
    /// `raw` progress, `value`s and `exact` byte: complex timing one at a
    /// time, the others with their values (from the exact solver where the C
    /// code of a Bézier lane asks for it). Out of line: the loop over a
    /// chunk's blocks then keeps its counters in registers, whatever the
    /// exact solver calls (inlined, its calls made that loop keep them on
    /// the stack, and a churned frame's closing 60 % slower).
    @inline(never)
    private func closeLeft(_ j: Int, _ raw: UnsafePointer<Double>, _ value: UnsafePointer<Double>, _ exact: UInt8,
                           _ now: Double, _ kind: NativeLane, _ transitions: inout [(Int32, LifeState)]) {
        if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
            loop(j..<(j &+ 4), now, &transitions) { k, x, _ in ease(kind, k, x) }
            return
        }
        for l in 0..<4 {
            let r = raw[l]
            var v = value[l]
            if kind == .bezier && exact & (1 << l) != 0 { v = exactValue(j &+ l, Swift.min(Swift.max(r, 0), 1)) }
            close(j &+ l, r, v, &transitions)
        }
    }

    /// Asks for what closing the left blocks of the chunk at `i` (`m`
    /// entries, results in `raw` and `exact`) will read far away: for each
    /// entry outside its active interval, its model value if that shows and
    /// its owner if its lifecycle steps. The C code reads neither, and a few
    /// left blocks among many stored ones (animations ending here and there
    /// in a large scene) would each wait for their misses in turn.
    @inline(__always)
    private func prefetchLeft(_ i: Int, _ m: Int, _ raw: UnsafePointer<Double>, _ exact: UnsafePointer<UInt8>) {
        BatchKernel.forEachLeft(exact, m) { b in
            for l in 0..<4 where !(raw[b &+ l] >= 0 && raw[b &+ l] < 1) {
                let j = i &+ b &+ l, r = raw[b &+ l]
                let newState: UInt8 = (r >= 0 ? 1 : 0) &+ (r >= 1 ? 1 : 0)
                if (flags[j] >> (BatchStorage.effectShift &+ newState)) & 1 == 0 { animrt_prefetch(model + Int(slot[j])) }
                if newState > state[j] { animrt_prefetch(owner + j) }
            }
        }
    }

    /// Calls `body` with the first entry (in the chunk) of each block of
    /// the chunk's `m` entries the C code did not store, in order. The
    /// block bytes are read eight at a time and only the left blocks are
    /// visited: a chunk with a block or two left among 64 (animations
    /// ending here and there in a large scene) costs a few instructions,
    /// not a look at every block.
    @inline(__always)
    static func forEachLeft(_ exact: UnsafePointer<UInt8>, _ m: Int, _ body: (Int) -> Void) {
        let stored = 0x0101_0101_0101_0101 &* UInt64(ANIMRT_BLOCK_STORED)
        let blocks = m >> 2
        var w = 0
        while w < blocks {
            var left = ~UnsafeRawPointer(exact + w).loadUnaligned(as: UInt64.self) & stored
            let n = blocks &- w
            if n < 8 { left &= (1 &<< (UInt64(n) &* 8)) &- 1 }  // the bytes past the chunk's blocks are not its own
            while left != 0 {
                body((w &+ left.trailingZeroBitCount >> 3) << 2)
                left &= left &- 1
            }
            w &+= 8
        }
    }

    /// One chunk's results from `blocks`: raw progress, values, block bytes.
    private struct ChunkResults {
        let raw: UnsafeMutablePointer<Double>, value: UnsafeMutablePointer<Double>, exact: UnsafeMutablePointer<UInt8>
    }

    /// Closes the blocks of the chunk at `i` (`m` entries) that `blocks` did not store.
    @inline(__always)
    private func closeChunk(_ i: Int, _ m: Int, _ results: ChunkResults, _ now: Double, _ kind: NativeLane,
                            _ transitions: inout [(Int32, LifeState)]) {
        BatchKernel.forEachLeft(results.exact, m) { b in
            closeLeft(i &+ b, results.raw + b, results.value + b, results.exact[b >> 2], now, kind, &transitions)
        }
    }

    /// Runs `range` of a `kind` lane through `blocks` a chunk at a time and
    /// closes the blocks it did not store (`closeLeft`). A chunk with a few
    /// left blocks (a quarter of its blocks at most) is closed after the
    /// next chunk has run (in entry order still: the two touch different
    /// entries), so that what `prefetchLeft` asked for has arrived. When
    /// more blocks are left, they are closed at once: closing them one after
    /// another overlaps their misses already, and the search would cost
    /// more than it hides. The lane is a value, not closures: what runs per
    /// entry is called directly, with no context to retain and release (an
    /// optional closure escapes, and made the mixed frame 27 % slower).
    @inline(__always)
    private func native(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)], _ kind: NativeLane,
                        _ blocks: NativeBlocks) {
        let chunk = BatchKernel.nativeChunk
        // Two sets of results: the chunk running and the one waiting to be closed.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * chunk) { buffer in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk / 2) { bytes in
            let d = buffer.baseAddress!, e = bytes.baseAddress!
            var current = ChunkResults(raw: d, value: d + chunk, exact: e)
            var spare = ChunkResults(raw: d + 2 * chunk, value: d + 3 * chunk, exact: e + chunk / 4)
            var waiting: (start: Int, count: Int)? = nil  // in `spare`
            var lane = nativeLane
            var i = range.lowerBound
            let end = range.upperBound
            while i &+ 4 <= end {
                let m = Swift.min(chunk, (end &- i) & ~3)
                let left = blocks(&lane, i, m, now, current.raw, current.value, current.exact)
                if let w = waiting {
                    closeChunk(w.start, w.count, spare, now, kind, &transitions)
                    waiting = nil
                }
                if left > 0 && left <= m / 16 {  // at most a quarter of the chunk's m / 4 blocks
                    prefetchLeft(i, m, current.raw, current.exact)
                    waiting = (i, m)
                    swap(&current, &spare)
                } else if left > 0 {
                    closeChunk(i, m, current, now, kind, &transitions)
                }
                i &+= m
            }
            if let w = waiting { closeChunk(w.start, w.count, spare, now, kind, &transitions) }
            if i < end { loop(i..<end, now, &transitions) { k, x, _ in ease(kind, k, x) } }
        }}
    }
}
