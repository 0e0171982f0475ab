/// A cubic Bézier timing curve from (0,0) to (1,1) with control points
/// (x1, y1) and (x2, y2), solved for y at a given x.
///
/// The solver follows WebKit's UnitBezier and CSS Easing: the polynomial
/// coefficients are precomputed and evaluated with Horner's rule; an initial
/// guess for t comes from a table; Newton–Raphson refines it; bisection
/// finishes the job where the derivative is too flat. Outside [0, 1] the
/// curve is extended by its end tangents.
///
/// The table is what makes the batch fast: t(x) is sampled exactly at
/// `GuessTable.intervals + 1` evenly spaced x, with its exact slope 1/x'(t),
/// and each interval holds the cubic Hermite piece through its ends. When
/// the table is built, every piece is checked against the exact solution;
/// where it is within `GuessTable.trustedError` of t(x) everywhere in its
/// interval, its value is the answer (y is then within ~1e-11). Elsewhere
/// the piece is the initial guess for Newton.
///
/// Next to an end where x'(t) vanishes (easeIn at 1, easeOut at 0), t(x)
/// behaves like a square root, which no cubic piece follows: from a piece's
/// guess, Newton needs up to eight steps in the last piece and fell through
/// to bisection (a microsecond a value). There, before bisecting, t is
/// guessed again from the curve's expansion at that end (`endGuess`), and
/// Newton finishes in one to three steps.
public struct UnitBezier: Hashable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    @usableFromInline let ax: Double, bx: Double, cx: Double
    @usableFromInline let ay: Double, by: Double, cy: Double
    @usableFromInline let startGradient: Double, endGradient: Double
    @usableFromInline let table: GuessTable

    /// Newton steps tried before falling back to bisection.
    @usableFromInline static let maxNewtonIterations = 4
    /// Pieces of the table, at each end, where a flat end's expansion is
    /// the second guess (`endGuess`).
    @usableFromInline static let endPieces = 16
    /// Newton stops once a step on t is this small: quadratic convergence
    /// puts the remaining error far below 1e-12.
    @usableFromInline static let newtonStepEpsilon = 1e-7
    /// Derivatives flatter than this make a Newton step unreliable.
    @usableFromInline static let minDerivative = 1e-6
    /// Bisection stops when the bracket on t is this narrow.
    @usableFromInline static let bisectionEpsilon = 1e-13

    /// Creates a curve. `x1` and `x2` must lie in [0, 1] (validated by
    /// `TimingFunction.cubicBezier`); `y1` and `y2` are unbounded.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        let cx = 3 * x1, bx = 3 * (x2 - x1) - 3 * x1, ax = 1 - 3 * x1 - (3 * (x2 - x1) - 3 * x1)
        self.cx = cx; self.bx = bx; self.ax = ax
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        if x1 > 0 { startGradient = y1 / x1 }
        else if y1 == 0 && x2 > 0 { startGradient = y2 / x2 }
        else if y1 == 0 && y2 == 0 { startGradient = 1 }
        else { startGradient = 0 }
        if x2 < 1 { endGradient = (y2 - 1) / (x2 - 1) }
        else if y2 == 1 && x1 < 1 { endGradient = (y1 - 1) / (x1 - 1) }
        else if y2 == 1 && y1 == 1 { endGradient = 1 }
        else { endGradient = 0 }
        table = GuessTable(ax: ax, bx: bx, cx: cx)
    }

    public static func == (l: UnitBezier, r: UnitBezier) -> Bool {
        l.x1 == r.x1 && l.y1 == r.y1 && l.x2 == r.x2 && l.y2 == r.y2
    }
    public func hash(into h: inout Hasher) { h.combine(x1); h.combine(y1); h.combine(x2); h.combine(y2) }

    @inline(__always) @usableFromInline func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }

    /// y at `t`, solved for `x`, from the coefficients: exactly 1 at x = 1,
    /// the curve's end (1, 1). Horner's sum there, ay + by + cy, is an ulp
    /// off 1 for about one curve in six, and a forwards fill would end an
    /// ulp off its value (for y values past 2^53 it loses the 1 entirely).
    /// Every evaluator of a Bézier lane goes through this, so all agree.
    @inline(__always) @usableFromInline
    static func y(at t: Double, x: Double, ay: Double, by: Double, cy: Double) -> Double {
        x == 1 ? 1 : ((ay * t + by) * t + cy) * t
    }

    /// The parameter t in [0, 1] with x(t) = x, for x in [0, 1].
    @inlinable
    public func solveT(_ x: Double) -> Double {
        UnitBezier.solveT(x, ax: ax, bx: bx, cx: cx, table: UnsafePointer(table.pieces))
    }

    /// The solver on raw coefficients and a table, shared by `solve` and the
    /// batch evaluator so that both give bit-identical results.
    @inline(__always) @inlinable
    static func solveT(_ x: Double, ax: Double, bx: Double, cx: Double, table: UnsafePointer<Double>) -> Double {
        // The ends are exact, and filling animations sit on them; some curves
        // (easeIn at 1, easeOut at 0) have x'(t) = 0 there, where Newton cannot run.
        if !(x > 0) { return 0 }  // also NaN, which must never reach Int(_:)
        if x >= 1 { return 1 }
        let n = GuessTable.intervals
        let s = x * Double(n)
        var k = Int(s)
        if k >= n { k = n - 1 } else if k < 0 { k = 0 }
        let u = s - Double(k)
        let p = table + k &* GuessTable.stride
        let t = ((p[0] * u + p[1]) * u + p[2]) * u + p[3]
        if p[4] != 0 { return t }
        // The first Newton step, as the batch takes it.
        let d = (3 * ax * t + 2 * bx) * t + cx
        if !(abs(d) >= minDerivative) { return finishT(x, ax: ax, bx: bx, cx: cx, piece: k, from: t, steps: 0, table: table) }
        let step = (((ax * t + bx) * t + cx) * t - x) / d
        if abs(step) < newtonStepEpsilon { return t - step }
        return finishT(x, ax: ax, bx: bx, cx: cx, piece: k, from: t - step, steps: maxNewtonIterations - 1, table: table)
    }

    /// `solveT` where the piece's guess did not converge in one Newton step
    /// (rare: kept out of line, so that the loops that inline `solveT` stay
    /// small). Newton goes on from `t` for `steps` more steps (none where
    /// x'(t) was too flat); next to a flat end, where it crawls, it starts
    /// again from the end's expansion. Bisection between the piece's knots
    /// finishes what Newton does not.
    @inline(never) @usableFromInline
    static func finishT(_ x: Double, ax: Double, bx: Double, cx: Double, piece k: Int, from t: Double, steps: Int,
                        table: UnsafePointer<Double>) -> Double {
        if let t = newton(x, ax: ax, bx: bx, cx: cx, from: t, steps: steps) { return t }
        if let atStart = flatEnd(k, ax: ax, bx: bx, cx: cx),
           let t = newton(x, ax: ax, bx: bx, cx: cx, from: endGuess(x, ax: ax, bx: bx, cx: cx, atStart: atStart),
                          steps: maxNewtonIterations, compensated: true) { return t }
        // x(t) is monotonic on [0, 1], and the table's knots are exact, so
        // the answer lies between the knots around x: bisect on t there.
        let p = table + k &* GuessTable.stride
        var lo = p[3], hi = (p + GuessTable.stride)[3]
        if k == GuessTable.intervals - 1 { hi = 1 }
        var t = (lo + hi) * 0.5
        while hi - lo > bisectionEpsilon {
            if compensatedOffset(t, x, ax: ax, bx: bx, cx: cx) < 0 { lo = t } else { hi = t }
            t = (lo + hi) * 0.5
        }
        return t
    }

    /// Newton from `start`: at most `steps` steps, stopped where x'(t) is
    /// too flat; the t it converges to, else nil. `compensated` evaluates
    /// x(t) − x by `compensatedOffset`: next to a flat end x'(t) may be as
    /// small as `minDerivative`, and the plain residual's rounding (~1e-16,
    /// x being near 1) divided by it would leave t off by ~1e-10.
    @inline(__always) @usableFromInline
    static func newton(_ x: Double, ax: Double, bx: Double, cx: Double, from start: Double, steps: Int,
                       compensated: Bool = false) -> Double? {
        var t = start
        for _ in 0..<steps {
            let d = (3 * ax * t + 2 * bx) * t + cx
            if abs(d) < minDerivative { return nil }
            let offset = compensated ? compensatedOffset(t, x, ax: ax, bx: bx, cx: cx) : ((ax * t + bx) * t + cx) * t - x
            let step = offset / d
            t -= step
            if abs(step) < newtonStepEpsilon { return t }
        }
        return nil
    }

    /// For piece `k` among the `endPieces` next to an end that is flat
    /// (x' below 1e-2 there) and bends so that its expansion has a real
    /// root (convex at 0, concave at 1): whether that end is 0; else nil.
    @inline(__always) @usableFromInline
    static func flatEnd(_ k: Int, ax: Double, bx: Double, cx: Double) -> Bool? {
        if k < endPieces { return cx < 1e-2 && bx > 0 ? true : nil }
        if k >= GuessTable.intervals - endPieces { return 3 * ax + 2 * bx + cx < 1e-2 && 3 * ax + bx < 0 ? false : nil }
        return nil
    }

    /// t(x) near an end of the curve, from x(t)'s expansion there to second
    /// order: at 0, x ≈ cx·t + bx·t²; at 1, with s = 1 − t,
    /// 1 − x ≈ x'(1)·s − (3ax + bx)·s². Each quadratic is solved in the form
    /// that does not divide by its leading coefficient, so a vanishing slope
    /// or curvature is no special case; where `flatEnd` allows it, the root
    /// is real and the denominator positive.
    @inline(__always) @usableFromInline
    static func endGuess(_ x: Double, ax: Double, bx: Double, cx: Double, atStart: Bool) -> Double {
        if atStart { return 2 * x / (cx + (cx * cx + 4 * bx * x).squareRoot()) }
        let r = 1 - x, slope = 3 * ax + 2 * bx + cx, q = -(3 * ax + bx)
        return 1 - 2 * r / (slope + (slope * slope + 4 * q * r).squareRoot())
    }

    /// x(t) − x by compensated Horner (Graillat, Langlou and Louvet): as if
    /// evaluated in twice double precision. Bisection needs the sign right
    /// where x'(t) vanishes inside the curve (cubic-bezier(1, y1, 0, y2) at
    /// t = ½): there, plain doubles leave t uncertain by ~5e-6.
    @inlinable
    static func compensatedOffset(_ t: Double, _ x: Double, ax: Double, bx: Double, cx: Double) -> Double {
        var s = ax, c = 0.0
        for coefficient in [bx, cx, -x] {
            let p = s * t
            let pe = s.multipliedFullWidthError(t, product: p)
            let sum = p + coefficient
            let z = sum - p
            let se = (p - (sum - z)) + (coefficient - z)
            c = c * t + (pe + se)
            s = sum
        }
        return s + c
    }

    /// y for a given x; linear extrapolation by the end tangents outside [0, 1].
    /// A flat tangent stays at its end however far x goes, infinity too
    /// (where 0 · ∞ would give NaN).
    @inlinable
    public func solve(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        if x < 0 { return startGradient == 0 ? 0 : startGradient * x }
        if x > 1 { return endGradient == 0 ? 1 : 1 + endGradient * (x - 1) }
        return UnitBezier.y(at: solveT(x), x: x, ay: ay, by: by, cy: cy)
    }
}

extension Double {
    /// The rounding error of `self * t` given its rounded `product` (exact,
    /// by fused multiply-add).
    @inlinable
    func multipliedFullWidthError(_ t: Double, product: Double) -> Double {
        (-product).addingProduct(self, t)
    }
}

/// Piecewise-cubic guesses for t(x): for interval k, coefficients of
/// t ≈ ((a·u + b)·u + c)·u + d with u the position inside the interval (d is
/// the exact t at the interval's start), and a flag that is 1 when the piece
/// was verified to be within `trustedError` of the exact t(x) throughout.
/// A final entry holds t(1) = 1. Immutable after creation and shared by
/// copies of the curve.
public final class GuessTable: @unchecked Sendable {
    /// Intervals over x in [0, 1].
    @usableFromInline static let intervals = 256
    /// Doubles per interval: four coefficients and the trusted flag.
    @usableFromInline static let stride = 5
    /// A piece this close to t(x) needs no Newton step.
    static let trustedError = 1e-11
    /// A piece is checked at j / checkPoints of its interval, j = 1 … checkPoints − 1
    /// (7 points: its ends are the exact knots).
    static let checkPoints = 8
    @usableFromInline let pieces: UnsafeMutablePointer<Double>

    init(ax: Double, bx: Double, cx: Double) {
        let n = GuessTable.intervals, w = GuessTable.stride
        pieces = .allocate(capacity: w * (n + 1))
        func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
        /// t with x(t) = target, to the last bit: Newton from `guess` where
        /// x'(t) is healthy, else bisection with compensated evaluation.
        func exact(_ target: Double, guess: Double) -> Double {
            var t = guess
            for _ in 0..<8 {
                let d = dx(t)
                if abs(d) < 1e-3 || t < 0 || t > 1 { break }
                let step = (x(t) - target) / d
                t -= step
                if abs(step) < 1e-15 { return t }
            }
            var lo = 0.0, hi = 1.0
            for _ in 0..<64 {
                let m = (lo + hi) / 2
                if UnitBezier.compensatedOffset(m, target, ax: ax, bx: bx, cx: cx) < 0 { lo = m } else { hi = m }
            }
            return (lo + hi) / 2
        }
        var knots = [Double](repeating: 0, count: n + 1)
        for k in 0...n { knots[k] = k == 0 ? 0 : k == n ? 1 : exact(Double(k) / Double(n), guess: knots[k - 1]) }
        let h = 1.0 / Double(n)
        for k in 0..<n {
            let t0 = knots[k], t1 = knots[k + 1]
            let d0 = dx(t0), d1 = dx(t1)
            var c: (Double, Double, Double, Double)
            if d0 > 1e-3 && d1 > 1e-3 {
                // Hermite in u ∈ [0, 1]: slopes dt/du = h / x'(t).
                let m0 = h / d0, m1 = h / d1
                c = (2 * t0 - 2 * t1 + m0 + m1, -3 * t0 + 3 * t1 - 2 * m0 - m1, m0, t0)
            } else {
                // Near a vertical tangent the slope is unbounded: interpolate linearly.
                c = (0, 0, t1 - t0, t0)
            }
            var worst = 0.0
            for j in 1..<GuessTable.checkPoints {
                let u = Double(j) / Double(GuessTable.checkPoints)
                let guess = ((c.0 * u + c.1) * u + c.2) * u + c.3
                worst = max(worst, abs(guess - exact((Double(k) + u) * h, guess: guess)))
            }
            // Trusted only with a wide margin, and never next to a flat x'(t).
            let trusted = worst * 8 < GuessTable.trustedError && d0 > 1e-2 && d1 > 1e-2
            let p = pieces + w * k
            p[0] = c.0; p[1] = c.1; p[2] = c.2; p[3] = c.3; p[4] = trusted ? 1 : 0
        }
        let last = pieces + w * n
        last[0] = 0; last[1] = 0; last[2] = 0; last[3] = 1; last[4] = 1
    }

    deinit { pieces.deallocate() }
}
