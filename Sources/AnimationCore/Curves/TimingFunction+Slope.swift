extension TimingFunction {
    /// dy/dx at `x`: how fast eased progress moves with linear progress
    /// (for velocities). Steps are flat; a plugin function is differentiated
    /// numerically.
    public func slope(_ x: Double) -> Double {
        guard !x.isNaN else { return 0 }
        switch self {
        case .linear: return 1
        case .cubicBezier(let b): return b.slope(x)
        case .steps: return 0
        case .piecewiseLinear(let p): return p.slope(x)
        case .custom(let f):
            // A central difference, one-sided at the ends: the function is
            // asked for nothing outside [0, 1].
            let c = min(max(x, 0), 1), h = 1e-6
            let a = max(c - h, 0), b = min(c + h, 1)
            let d = (f.evaluate(b) - f.evaluate(a)) / (b - a)
            return d.isFinite ? d : 0
        }
    }
}

extension UnitBezier {
    /// dy/dx = y'(t) / x'(t) at the t solving x; the end tangents outside
    /// [0, 1]. Where x'(t) vanishes (easeIn at 1, cubic-bezier(1, y, 0, y)
    /// at ½) the ratio is taken from a one-sided difference of y(x) instead.
    public func slope(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        if x < 0 { return startGradient }
        if x > 1 { return endGradient }
        let t = solveT(x)
        let dx = (3 * ax * t + 2 * bx) * t + cx
        if dx > 1e-9 { return ((3 * ay * t + 2 * by) * t + cy) / dx }
        let h = 1e-7
        return x >= h ? (solve(x) - solve(x - h)) / h : (solve(x + h) - solve(x)) / h
    }
}
