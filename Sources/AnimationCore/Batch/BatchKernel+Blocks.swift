/// The batch loop four entries at a time, for the linear, Bézier and
/// C-function lanes.
///
/// One entry's evaluation is a chain of dependent steps (a division, a
/// table look-up, two cubics, a Newton step with its division, the
/// interpolation), so one entry at a time the processor mostly waits. Here
/// four entries go through each step together as `SIMD4<Double>` lanes, in
/// straight-line code without branches. Each lane does the operations of
/// the one-at-a-time loop, in the same order (`UnitBezier.solveT`: the guess
/// table's cubic, then one Newton step unless the piece is trusted), and
/// Swift never fuses a multiply and an add, so the results are the same to
/// the bit. That loop stays the reference (`BatchPath.reference`) and takes
/// what a block leaves: a block with complex timing, an entry that
/// `solveT` would not finish in one Newton step or that sits on an end of
/// [0, 1] (`UnitBezier.solveT` for that entry), and the tail of the range.
/// A lane whose curve is a C function calls it once per entry, between the
/// progress and the closing of its block.
extension BatchKernel {
    typealias Lanes = SIMD4<Double>

    @inline(__always)
    func lanes(_ column: UnsafeMutablePointer<Double>, _ i: Int) -> Lanes {
        UnsafeRawPointer(column + i).loadUnaligned(as: Lanes.self)
    }

    /// The progress of entries i ..< i + 4 with simple timing, raw and
    /// clamped to [0, 1] as `Swift.min(Swift.max(raw, 0), 1)` does (NaN stays NaN).
    @inline(__always)
    func progress(_ i: Int, _ now: Double) -> (raw: Lanes, x: Lanes) {
        let raw = (Lanes(repeating: now) - lanes(begin, i)) / lanes(duration, i)
        let x = raw.replacing(with: 0, where: raw .<= 0)
        return (raw, x.replacing(with: 1, where: x .> 1))
    }

    /// Per lane, entry i + lane's curve coefficients `q[offset]`.
    @inline(__always)
    private func coefficient(_ q: (UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>, UnsafePointer<Double>),
                             _ offset: Int) -> Lanes {
        Lanes(q.0[offset], q.1[offset], q.2[offset], q.3[offset])
    }

    /// t(x) for entries i ..< i + 4 as `UnitBezier.solveT` finds it on its
    /// usual way (the guess table's cubic and, where the piece is not
    /// trusted alone, one Newton step), and y(t); `exact` marks the lanes
    /// that leave that way (an end of [0, 1] or NaN, a flat slope, a step
    /// too large to stop after): their t must come from `solveT`.
    @inline(__always)
    private func bezier(_ i: Int, _ x: Lanes) -> (y: Lanes, exact: SIMDMask<SIMD4<Int64>>) {
        let n = GuessTable.intervals
        let inside = (x .> 0) .& (x .< 1)
        // Only lanes inside (0, 1) are kept; the others index piece 0, so
        // the conversions below cannot trap.
        let s = (x * Double(n)).replacing(with: 0, where: .!inside)
        let c0 = Int(curve[i]), c1 = Int(curve[i &+ 1]), c2 = Int(curve[i &+ 2]), c3 = Int(curve[i &+ 3])
        let k0 = Swift.min(Int(s[0]), n &- 1), k1 = Swift.min(Int(s[1]), n &- 1)
        let k2 = Swift.min(Int(s[2]), n &- 1), k3 = Swift.min(Int(s[3]), n &- 1)
        let u = s - Lanes(Double(k0), Double(k1), Double(k2), Double(k3))
        let w = GuessTable.stride
        let p = (tables[c0] + k0 &* w, tables[c1] + k1 &* w, tables[c2] + k2 &* w, tables[c3] + k3 &* w)
        let guess = ((coefficient(p, 0) * u + coefficient(p, 1)) * u + coefficient(p, 2)) * u + coefficient(p, 3)
        let trusted = coefficient(p, 4) .!= 0
        let q = (UnsafePointer(coefficients + c0 &* 6), UnsafePointer(coefficients + c1 &* 6),
                 UnsafePointer(coefficients + c2 &* 6), UnsafePointer(coefficients + c3 &* 6))
        let ax = coefficient(q, 0), bx = coefficient(q, 1), cx = coefficient(q, 2)
        // solveT's first Newton iteration, in every lane.
        let d = (3 * ax * guess + 2 * bx) * guess + cx
        let step = (((ax * guess + bx) * guess + cx) * guess - x) / d
        // |d| >= minDerivative and |step| < newtonStepEpsilon (false for NaN).
        let (m, e) = (UnitBezier.minDerivative, UnitBezier.newtonStepEpsilon)
        let converged = ((d .>= m) .| (d .<= -m)) .& (step .< e) .& (step .> -e)
        let t = (guess - step).replacing(with: guess, where: trusted)
        let y = ((coefficient(q, 3) * t + coefficient(q, 4)) * t + coefficient(q, 5)) * t
        return (y, .!inside .| .!(trusted .| converged))
    }

    @inline(__always)
    func exactValue(_ i: Int, _ x: Double) -> Double {
        let c = Int(curve[i])
        let k = coefficients + c &* 6
        let t = UnitBezier.solveT(x, ax: k[0], bx: k[1], cx: k[2], table: tables[c])
        return from[i] + (to[i] - from[i]) * UnitBezier.y(at: t, x: x, ay: k[3], by: k[4], cy: k[5])
    }

    @inline(__always)
    func close(_ i: Int, _ raw: Double, _ value: Double, _ transitions: inout [(Int32, LifeState)]) {
        let newState: UInt8 = (raw >= 0 ? 1 : 0) &+ (raw >= 1 ? 1 : 0)
        let inEffect = (flags[i] >> (BatchStorage.effectShift &+ newState)) & 1 != 0
        finish(i, out: Int(slot[i]), value: value, inEffect: inEffect, newState: newState, &transitions)
    }

    /// Closes entries i ..< i + 4. When all four are mid-flight (and in
    /// effect there), were already, and have finite values, `close` would
    /// only store the values: the block does just that.
    @inline(__always)
    func closeBlock(_ i: Int, _ raw: Lanes, _ value: Lanes, _ transitions: inout [(Int32, LifeState)]) {
        if all((raw .>= 0) .& (raw .< 1) .& (value - value .== 0)) && wereRunning(i) {  // x - x is 0 for finite x only
            store(i, value[0], value[1], value[2], value[3])
            return
        }
        close(i, raw[0], value[0], &transitions)
        close(i &+ 1, raw[1], value[1], &transitions)
        close(i &+ 2, raw[2], value[2], &transitions)
        close(i &+ 3, raw[3], value[3], &transitions)
    }

    /// Whether entries i ..< i + 4 were all running and are in effect while they run.
    @inline(__always)
    func wereRunning(_ i: Int) -> Bool {
        let running = LifeState.running.rawValue, active: UInt32 = 0x0101_0101 &* UInt32(1 << (BatchStorage.effectShift &+ running))
        return UnsafeRawPointer(state + i).loadUnaligned(as: UInt32.self) == 0x0101_0101 &* UInt32(running)
            && UnsafeRawPointer(flags + i).loadUnaligned(as: UInt32.self) & active == active
    }

    /// Shows the values of entries i ..< i + 4.
    @inline(__always)
    func store(_ i: Int, _ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        presentation[Int(slot[i])] = a; presentation[Int(slot[i &+ 1])] = b
        presentation[Int(slot[i &+ 2])] = c; presentation[Int(slot[i &+ 3])] = d
    }

    /// Runs `range` four entries at a time: `value` gives the values of a
    /// block with simple timing from their clamped progress; a block with
    /// complex timing and the tail go one at a time with `ease`.
    @inline(__always)
    private func fours(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)],
                       ease: (Int, Double) -> Double, value: (Int, Lanes) -> Lanes) {
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ 4 <= end {
            if UnsafeRawPointer(flags + i).loadUnaligned(as: UInt32.self) & 0x0808_0808 != 0 {  // complex timing
                loop(i..<(i &+ 4), now, &transitions) { k, x, _ in ease(k, x) }
            } else {
                let (raw, x) = progress(i, now)
                closeBlock(i, raw, value(i, x), &transitions)
            }
            i &+= 4
        }
        if i < end { loop(i..<end, now, &transitions) { k, x, _ in ease(k, x) } }
    }

    /// A lane whose curve is one call per entry (linear: none; the C
    /// functions of plugins and hosts): the progress and the closing go
    /// four entries at a time around four calls of `ease`.
    @inline(__always)
    func callBlocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)],
                    _ ease: (Int, Double) -> Double) {
        fours(range, now, &transitions, ease: ease) { i, x in
            let from = lanes(self.from, i)
            return from + (lanes(to, i) - from) * Lanes(ease(i, x[0]), ease(i &+ 1, x[1]), ease(i &+ 2, x[2]), ease(i &+ 3, x[3]))
        }
    }

    /// The Bézier lane four entries at a time.
    @inline(__always)
    func blocks(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)]) {
        fours(range, now, &transitions, ease: bezierEase) { i, x in
            let from = lanes(self.from, i)
            let (y, exact) = bezier(i, x)
            var value = from + (lanes(to, i) - from) * y
            if any(exact) {
                for j in 0..<4 where exact[j] { value[j] = exactValue(i &+ j, x[j]) }
            }
            return value
        }
    }
}
