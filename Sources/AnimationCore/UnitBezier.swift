/// A cubic Bézier timing curve from (0,0) to (1,1) with control points
/// (x1, y1) and (x2, y2), solved for y at a given x.
///
/// The solver follows WebKit's UnitBezier and CSS Easing: the polynomial
/// coefficients are precomputed, evaluation uses Horner's rule, an initial
/// guess comes from a table of samples of x(t), a few Newton–Raphson steps
/// refine it and bisection finishes the job when the derivative is too flat.
/// Outside [0, 1] the curve is extended by its end tangents.
public struct UnitBezier: Hashable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    @usableFromInline let ax: Double, bx: Double, cx: Double
    @usableFromInline let ay: Double, by: Double, cy: Double
    @usableFromInline let startGradient: Double, endGradient: Double
    /// x(t) at t = i / (sampleCount - 1); the bracket for the initial guess.
    @usableFromInline let samples: SampleTable

    /// Newton steps tried before falling back to bisection.
    @usableFromInline static let maxNewtonIterations = 4
    /// Newton stops when its step on t is below this.
    @usableFromInline static let newtonStepEpsilon = 1e-9
    /// Derivatives flatter than this make a Newton step unreliable.
    @usableFromInline static let minDerivative = 1e-7
    /// Bisection stops when the bracket on t is this narrow.
    @usableFromInline static let bisectionEpsilon = 1e-12

    /// Creates a curve. `x1` and `x2` must lie in [0, 1] (validated by
    /// `TimingFunction.cubicBezier`); `y1` and `y2` are unbounded.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        if x1 > 0 { startGradient = y1 / x1 }
        else if y1 == 0 && x2 > 0 { startGradient = y2 / x2 }
        else if y1 == 0 && y2 == 0 { startGradient = 1 }
        else { startGradient = 0 }
        if x2 < 1 { endGradient = (y2 - 1) / (x2 - 1) }
        else if y2 == 1 && x1 < 1 { endGradient = (y1 - 1) / (x1 - 1) }
        else if y2 == 1 && y1 == 1 { endGradient = 1 }
        else { endGradient = 0 }
        var table = SampleTable()
        let (a, b, c) = (ax, bx, cx)
        for i in 0..<SampleTable.count {
            let t = Double(i) / Double(SampleTable.count - 1)
            table[i] = ((a * t + b) * t + c) * t
        }
        samples = table
    }

    public static func == (l: UnitBezier, r: UnitBezier) -> Bool {
        l.x1 == r.x1 && l.y1 == r.y1 && l.x2 == r.x2 && l.y2 == r.y2
    }
    public func hash(into h: inout Hasher) { h.combine(x1); h.combine(y1); h.combine(x2); h.combine(y2) }

    @inline(__always) @usableFromInline func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) @usableFromInline func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) @usableFromInline func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The parameter t in [0, 1] with x(t) = x, for x in [0, 1].
    @inlinable
    public func solveT(_ x: Double) -> Double {
        // Initial guess: linear interpolation inside the bracketing sample interval.
        let scaled = x * Double(SampleTable.count - 1)
        var i = Int(scaled)
        if i >= SampleTable.count - 1 { i = SampleTable.count - 2 }
        if i < 0 { i = 0 }
        let x0 = samples[i], x1 = samples[i + 1]
        let step = 1.0 / Double(SampleTable.count - 1)
        var t = Double(i) * step
        if x1 > x0 { t += (x - x0) / (x1 - x0) * step }
        for _ in 0..<UnitBezier.maxNewtonIterations {
            let error = sampleX(t) - x
            let d = sampleDerivativeX(t)
            if abs(d) < UnitBezier.minDerivative { break }
            let step = error / d
            t -= step
            // Newton converges quadratically: once a step is this small, t is
            // exact to well below 1e-12 and so is y.
            if abs(step) < UnitBezier.newtonStepEpsilon { return t }
        }
        // Bisection on the whole unit interval, where x(t) is monotonic. It
        // narrows t itself (not x), which keeps y accurate where the curve is
        // vertical and a tiny error in x hides a large one in y.
        var lo = 0.0, hi = 1.0
        t = x
        while hi - lo > UnitBezier.bisectionEpsilon {
            if sampleX(t) < x { lo = t } else { hi = t }
            t = (lo + hi) * 0.5
        }
        return t
    }

    /// y for a given x; linear extrapolation by the end tangents outside [0, 1].
    @inlinable
    public func solve(_ x: Double) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        return sampleY(solveT(x))
    }
}

/// Fixed-size inline storage for the x(t) samples (no heap allocation).
public struct SampleTable: Sendable {
    @usableFromInline static let count = 11
    @usableFromInline var s: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    @inlinable subscript(i: Int) -> Double {
        get { withUnsafeBytes(of: s) { $0.load(fromByteOffset: i &* 8, as: Double.self) } }
        set { withUnsafeMutableBytes(of: &s) { $0.storeBytes(of: newValue, toByteOffset: i &* 8, as: Double.self) } }
    }
}
