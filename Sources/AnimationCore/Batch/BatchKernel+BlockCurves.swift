/// The lane of block curves: C functions that ease an array of progress
/// values in one call (`animrt_curve_block_fn`).
///
/// A curve called once per entry costs a call, its arguments and its
/// return for every animation on every frame, and the compiler of the
/// plugin sees one value at a time. Here the lane goes a chunk of entries at
/// a time: the clamped progress of the whole chunk (four entries at a time,
/// as `fours` finds it), then one call per run of consecutive entries on
/// the same curve, then the values and the closing, four at a time
/// (`closeBlock`). A block with complex timing and the tail of the range go
/// one at a time through `loop`, calling the function with one value, as
/// the reference path (`BatchPath.reference`) does for every entry. A block
/// curve's y[i] depends on x[i] alone (the header's rule), so a run gives
/// what its entries give one by one, and every path and thread count shows
/// the same bits.
extension BatchKernel {
    /// Entries per chunk: their progress and eased values stay in the first-level cache.
    static let blockChunk = 256

    /// Entry `i`'s block curve at progress `x`, alone (a call with one value);
    /// a non-finite result counts as 0, as `CustomTimingFunction` does.
    @inline(__always)
    func blockEase(_ i: Int, _ x: Double) -> Double {
        let n = natives + Int(curve[i])
        var x = x, y = 0.0
        n.pointee.block(&x, &y, 1, n.pointee.parameters, n.pointee.context)
        return y.isFinite ? y : 0
    }

    @inline(__always)
    private func store(_ v: Lanes, _ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self)
    }

    /// Eases entries first ..< first + count, whose progress is in `x`,
    /// into `y`: one call per run of entries on one curve.
    @inline(__always)
    func callRuns(_ first: Int, _ count: Int, _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        var s = 0
        while s < count {
            let c = curve[first &+ s]
            var e = s &+ 1
            while e < count && curve[first &+ e] == c { e &+= 1 }
            let n = natives + Int(c)
            n.pointee.block(x + s, y + s, e &- s, n.pointee.parameters, n.pointee.context)
            s = e
        }
    }

    func blockCurveRuns(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        let chunk = BatchKernel.blockChunk
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * chunk) { buffer in
            let raw = buffer.baseAddress!, x = raw + chunk, y = x + chunk
            var i = range.lowerBound
            let end = range.upperBound
            while i &+ 4 <= end {
                let m = Swift.min(chunk, (end &- i) & ~3)
                // The progress of the chunk. A block with complex timing gets
                // x = 0 (its duration column holds no duration, and the curve
                // only ever sees [0, 1]); `loop` evaluates it below. y starts
                // at 0, so a value the function leaves unwritten is 0 on every path.
                for b in stride(from: 0, to: m, by: 4) {
                    let j = i &+ b
                    var p = (raw: Lanes(repeating: 0), x: Lanes(repeating: 0))
                    if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 == 0 { p = progress(j, now) }
                    store(p.raw, raw + b); store(p.x, x + b); store(Lanes(repeating: 0), y + b)
                }
                callRuns(i, m, x, y)
                // The values, shown and closed four at a time.
                for b in stride(from: 0, to: m, by: 4) {
                    let j = i &+ b
                    if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                        loop(j..<(j &+ 4), now, &transitions) { k, x, _ in blockEase(k, x) }
                        continue
                    }
                    var eased = lanes(y, b)
                    eased = eased.replacing(with: 0, where: .!(eased - eased .== 0))  // x - x is 0 for finite x only
                    let from = lanes(self.from, j)
                    closeBlock(j, lanes(raw, b), from + (lanes(to, j) - from) * eased, &transitions)
                }
                i &+= m
            }
            if i < end { loop(i..<end, now, &transitions) { k, x, _ in blockEase(k, x) } }
        }
    }
}
