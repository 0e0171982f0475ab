/// How the batch evaluates its linear, Bézier and C-function lanes; every
/// path gives the same results to the bit.
enum BatchPath: Sendable {
    /// One entry at a time (`BatchKernel.loop`): the reference.
    case reference
    /// Four entries at a time as `SIMD4<Double>` lanes, in Swift
    /// (`BatchKernel.blocks`, `callBlocks`): the portable path.
    case lanes
    /// The Bézier and linear lanes, and the arithmetic around block curves'
    /// calls, through the AVX2 blocks where the processor has AVX2
    /// (`BatchKernel.nativeBlocks`, `nativeLinear`, `nativeBlockCurves`), else `lanes`.
    case native
}

/// The batch loop over raw columns; one instance is shared by all workers.
struct BatchKernel: @unchecked Sendable {
    let begin, duration, from, to: UnsafeMutablePointer<Double>
    let slot, curve: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<UInt8>
    let owner: UnsafeMutablePointer<Int32>
    let state: UnsafeMutablePointer<UInt8>
    let kinds: UnsafePointer<UInt8>
    let coefficients: UnsafePointer<Double>
    let tables: UnsafePointer<UnsafePointer<Double>>
    let functions: UnsafePointer<TimingFunction>
    let natives: UnsafePointer<NativeCurve>
    let complex: UnsafePointer<MediaTiming>?
    let model: UnsafePointer<Double>
    let presentation: UnsafeMutablePointer<Double>

    /// Evaluates `range` of a lane whose curves are all of `kind`; the
    /// loop is specialised per kind, so it never branches on the curve.
    /// Linear, Bézier and C-function lanes go four entries at a time
    /// (`path`), with results identical to the bit to the one-at-a-time
    /// loop, which stays the reference (`.reference`) and handles what a
    /// block cannot.
    func run(_ range: Range<Int>, now: Double, kind: UInt8, transitions: inout [(Int32, LifeState)],
             path: BatchPath = .native) {
        switch kind {
        case CurveTable.linear:
            if path == .reference { loop(range, now, &transitions) { _, x, _ in x } }
            else if path == .native && BatchKernel.hasNativeBlocks { nativeLinear(range, now, &transitions) }
            else { callBlocks(range, now, &transitions) { _, x in x } }
        case CurveTable.bezier:
            if path == .reference { loop(range, now, &transitions) { i, x, _ in bezierEase(i, x) } }
            else if path == .native && BatchKernel.hasNativeBlocks { nativeBlocks(range, now, &transitions) }
            else { blocks(range, now, &transitions) }
        case CurveTable.native:
            // The plugin's or host's C function, called directly; a
            // non-finite result counts as 0, as `CustomTimingFunction` does.
            let ease = { (i: Int, x: Double) -> Double in
                let n = natives + Int(curve[i])
                let y = n.pointee.function(x, n.pointee.parameters, n.pointee.context)
                return y.isFinite ? y : 0
            }
            if path == .reference { loop(range, now, &transitions) { i, x, _ in ease(i, x) } }
            else { callBlocks(range, now, &transitions, ease) }
        case CurveTable.unary:
            let ease = { (i: Int, x: Double) -> Double in
                let y = natives[Int(curve[i])].unary(x)
                return y.isFinite ? y : 0
            }
            if path == .reference { loop(range, now, &transitions) { i, x, _ in ease(i, x) } }
            else { callBlocks(range, now, &transitions, ease) }
        case CurveTable.block:
            // The reference calls the function with one value at a time;
            // the other paths once per run of entries on one curve.
            if path == .reference { loop(range, now, &transitions) { i, x, _ in blockEase(i, x) } }
            else if path == .native && BatchKernel.hasNativeBlocks { nativeBlockCurves(range, now, &transitions) }
            else { blockCurveRuns(range, now, &transitions) }
        default:
            loop(range, now, &transitions) { i, x, beforeFlag in functions[Int(curve[i])].evaluate(x, beforeFlag: beforeFlag) }
        }
    }

    /// Entry `i`'s Bézier curve at progress `x` in [0, 1], one entry at a time.
    @inline(__always)
    func bezierEase(_ i: Int, _ x: Double) -> Double {
        let c = Int(curve[i])
        let k = coefficients + c &* 6
        let t = UnitBezier.solveT(x, ax: k[0], bx: k[1], cx: k[2], table: tables[c])
        return UnitBezier.y(at: t, x: x, ay: k[3], by: k[4], cy: k[5])
    }

    /// The one-at-a-time loop (the reference): any timing, any curve kind.
    @inline(__always)
    func loop(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)],
                      _ ease: (Int, Double, Bool) -> Double) {
        for i in range {
            let f = flags[i]
            let out = Int(slot[i])
            var x: Double
            var inEffect: Bool
            var newState: UInt8
            var beforeFlag: Bool
            if f & BatchStorage.complexTiming == 0 {
                // Phase without branches: 0 before, 1 active, 2 after.
                let raw = (now - begin[i]) / duration[i]
                newState = (raw >= 0 ? 1 : 0) &+ (raw >= 1 ? 1 : 0)
                x = Swift.min(Swift.max(raw, 0), 1)
                inEffect = (f >> (BatchStorage.effectShift &+ newState)) & 1 != 0
                beforeFlag = newState == 0
            } else {
                let (s, st) = complex![Int(duration[i].bitPattern)].sampleAndState(at: now)
                newState = st.rawValue
                x = s.directedProgress ?? 0
                inEffect = s.directedProgress != nil && !(st == .ended && f & BatchStorage.removedOnCompletion != 0)
                beforeFlag = s.beforeFlag
            }
            // x is in [0, 1] here: the clamp above, or the timing model. An
            // overshooting curve can still overflow: what is shown is finite.
            let value = from[i] + (to[i] - from[i]) * ease(i, x, beforeFlag)
            finish(i, out: out, value: value, inEffect: inEffect, newState: newState, &transitions)
        }
    }

    /// Writes entry `i`'s presentation component (its value when in effect,
    /// shown finite; else the model) and records a lifecycle step forwards.
    /// The model is read only where it shows (or stands in for a NaN).
    @inline(__always)
    func finish(_ i: Int, out: Int, value: Double, inEffect: Bool, newState: UInt8, _ transitions: inout [(Int32, LifeState)]) {
        presentation[out] = inEffect ? (value.isFinite ? value : finiteReplacement(value, fallback: model[out])) : model[out]
        if newState > state[i] {
            state[i] = newState
            transitions.append((owner[i], LifeState(rawValue: newState)!))
        }
    }
}
