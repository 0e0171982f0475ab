/// A function from linear progress to eased progress.
///
/// Built-in curves and plugin curves are all values of this type and are
/// looked up by name in a `TimingFunctionRegistry`; nothing outside the
/// registry special-cases the named curves.
public enum TimingFunction: Hashable, Sendable {
    /// y = x.
    case linear
    /// A cubic Bézier from (0,0) to (1,1). Out of line: its solver's
    /// coefficients are a hundred bytes, and a timing function is copied
    /// with every description (which then takes a pointer, not the curve).
    indirect case cubicBezier(UnitBezier)
    /// CSS `steps(n, position)`.
    case steps(StepsFunction)
    /// CSS Easing 2 `linear(...)` with stops.
    case piecewiseLinear(PiecewiseLinear)
    /// A host or plugin function, called for every evaluation.
    case custom(CustomTimingFunction)

    /// Core Animation's `kCAMediaTimingFunctionEaseIn`: (0.42, 0, 1, 1).
    public static let easeIn = TimingFunction.cubicBezier(UnitBezier(0.42, 0, 1, 1))
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0, 0.58, 1).
    public static let easeOut = TimingFunction.cubicBezier(UnitBezier(0, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = TimingFunction.cubicBezier(UnitBezier(0.42, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1, 0.25, 1), CSS `ease`.
    public static let `default` = TimingFunction.cubicBezier(UnitBezier(0.25, 0.1, 0.25, 1))

    /// A validated cubic Bézier. The x coordinates must be in [0, 1] so that
    /// the curve is a function of x; y may overshoot in either direction.
    /// A curve whose control points lie on the diagonal is exactly linear.
    public static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(AnimrtError) -> TimingFunction {
        for (name, v) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] where !v.isFinite {
            throw AnimrtError(.invalidArgument, "cubic-bezier \(name) is \(v); control points must be finite")
        }
        guard (0...1).contains(x1), (0...1).contains(x2) else {
            throw AnimrtError(.outOfRange, "cubic-bezier x1 = \(x1), x2 = \(x2): x coordinates must be in [0, 1] (y may be anything)")
        }
        if x1 == y1 && x2 == y2 { return .linear }
        // y(t) is summed from 3·y1 and 3·(y2 − y1) − 3·y1: y values so far
        // apart that these overflow give NaN at every x, though the curve
        // itself may stay finite. Refused, as values that cannot be evaluated are.
        let b = UnitBezier(x1, y1, x2, y2)
        guard (Swift.abs(b.ay) + Swift.abs(b.by) + Swift.abs(b.cy)).isFinite else {
            throw AnimrtError(.outOfRange, "cubic-bezier y1 = \(y1), y2 = \(y2): the curve's polynomial overflows a double, so it cannot be evaluated; keep |y1| and |y2| at most 1e306")
        }
        return .cubicBezier(b)
    }

    /// A validated `steps(count, position)`.
    public static func steps(_ count: Int, _ position: StepPosition = .jumpEnd) throws(AnimrtError) -> TimingFunction {
        let minimum = position == .jumpNone ? 2 : 1
        guard count >= minimum else {
            throw AnimrtError(.outOfRange, "steps(\(count), \(position.name)): the count must be at least \(minimum)")
        }
        return .steps(StepsFunction(count: count, position: position))
    }

    /// Eased progress for `x`. `beforeFlag` only matters to step functions.
    @inlinable
    public func evaluate(_ x: Double, beforeFlag: Bool = false) -> Double {
        switch self {
        case .linear: return x
        case .cubicBezier(let b): return b.solve(x)
        case .steps(let s): return s.solve(x, beforeFlag: beforeFlag)
        case .piecewiseLinear(let p): return p.evaluate(x)
        case .custom(let f): return f.evaluate(x)
        }
    }

    /// The function as text the registry parses back: Core Animation's name
    /// for its named curves, else the CSS form (`cubic-bezier(…)`,
    /// `steps(…)`, `linear(…)`), or a plugin function's name.
    public var name: String {
        switch self {
        case .linear: return "linear"
        case .cubicBezier(let b):
            for (named, n) in [(TimingFunction.default, "default"), (.easeIn, "easeIn"), (.easeOut, "easeOut"),
                               (.easeInEaseOut, "easeInEaseOut")] where named == self { return n }
            return "cubic-bezier(\(shortNumber(b.x1)), \(shortNumber(b.y1)), \(shortNumber(b.x2)), \(shortNumber(b.y2)))"
        case .steps(let s): return "steps(\(s.count), \(s.position.name))"
        case .piecewiseLinear(let p): return p.cssText
        case .custom(let f): return f.name
        }
    }
}
