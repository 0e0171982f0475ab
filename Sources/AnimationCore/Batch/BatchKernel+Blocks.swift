/// The batch loop four entries at a time, for the linear and Bézier lanes.
///
/// One entry's evaluation is a chain of dependent steps (a division, a
/// table look-up, two cubics, the interpolation), so one entry at a time the
/// processor mostly waits. Here four entries go through each step together,
/// in straight-line code without branches, so that their chains overlap. The
/// operations are those of the one-at-a-time loop, in the same order, so the
/// results are the same to the bit; that loop stays the reference
/// (`vectorised: false`) and takes what a block leaves: a block with complex
/// timing, a curve piece that needs Newton's method or the ends of [0, 1]
/// (`UnitBezier.solveT` for that entry), and the tail of the range.
extension BatchKernel {
    /// The first steps of one entry with simple timing: its local progress,
    /// clamped, and the guess table's cubic for t(x) (nil-free: `exact`
    /// says whether t must come from `UnitBezier.solveT` instead).
    @inline(__always)
    private func head(_ i: Int, _ now: Double, bezier: Bool) -> (raw: Double, x: Double, t: Double, exact: Bool) {
        let raw = (now - begin[i]) / duration[i]
        let x = Swift.min(Swift.max(raw, 0), 1)
        guard bezier else { return (raw, x, x, false) }
        let n = GuessTable.intervals
        let s = x * Double(n)
        // s is in [0, n] (x is clamped; NaN is sent to `solveT`), so the
        // conversion cannot trap.
        let k = Swift.min(Int(s.isNaN ? 0 : s), n &- 1)
        let u = s - Double(k)
        let p = tables[Int(curve[i])] + k &* GuessTable.stride
        let t = ((p[0] * u + p[1]) * u + p[2]) * u + p[3]
        return (raw, x, t, !(x > 0) || x >= 1 || p[4] == 0)
    }

    /// y(t) on entry `i`'s curve, and its value.
    @inline(__always)
    private func tail(_ i: Int, _ t: Double, bezier: Bool) -> Double {
        var y = t
        if bezier {
            let k = coefficients + Int(curve[i]) &* 6
            y = ((k[3] * t + k[4]) * t + k[5]) * t
        }
        return from[i] + (to[i] - from[i]) * y
    }

    @inline(__always)
    private func exactT(_ i: Int, _ x: Double) -> Double {
        let c = Int(curve[i])
        let k = coefficients + c &* 6
        return UnitBezier.solveT(x, ax: k[0], bx: k[1], cx: k[2], table: tables[c])
    }

    @inline(__always)
    private func close(_ i: Int, _ raw: Double, _ value: Double, _ transitions: inout [(Int32, LifeState)]) {
        let newState: UInt8 = (raw >= 0 ? 1 : 0) &+ (raw >= 1 ? 1 : 0)
        let inEffect = (flags[i] >> (BatchStorage.effectShift &+ newState)) & 1 != 0
        finish(i, out: Int(slot[i]), value: value, inEffect: inEffect, newState: newState, &transitions)
    }

    @inline(__always)
    func blocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)], bezier: Bool) {
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ 4 <= end {
            if UnsafeRawPointer(flags + i).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                if bezier { loop(i..<(i &+ 4), now, &transitions) { k, x, _ in bezierEase(k, x) } }
                else { loop(i..<(i &+ 4), now, &transitions) { _, x, _ in x } }
                i &+= 4
                continue
            }
            let a = head(i, now, bezier: bezier), b = head(i &+ 1, now, bezier: bezier)
            let c = head(i &+ 2, now, bezier: bezier), d = head(i &+ 3, now, bezier: bezier)
            var ta = a.t, tb = b.t, tc = c.t, td = d.t
            if a.exact || b.exact || c.exact || d.exact {
                if a.exact { ta = exactT(i, a.x) }
                if b.exact { tb = exactT(i &+ 1, b.x) }
                if c.exact { tc = exactT(i &+ 2, c.x) }
                if d.exact { td = exactT(i &+ 3, d.x) }
            }
            let va = tail(i, ta, bezier: bezier), vb = tail(i &+ 1, tb, bezier: bezier)
            let vc = tail(i &+ 2, tc, bezier: bezier), vd = tail(i &+ 3, td, bezier: bezier)
            close(i, a.raw, va, &transitions)
            close(i &+ 1, b.raw, vb, &transitions)
            close(i &+ 2, c.raw, vc, &transitions)
            close(i &+ 3, d.raw, vd, &transitions)
            i &+= 4
        }
        if i < end {
            if bezier { loop(i..<end, now, &transitions) { k, x, _ in bezierEase(k, x) } }
            else { loop(i..<end, now, &transitions) { _, x, _ in x } }
        }
    }
}
