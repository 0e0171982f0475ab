extension Spring {
    /// The two basic motions of the spring and their rates at `t`: φ starts
    /// displaced by 1 at rest (φ(0) = 1, φ'(0) = 0), ψ starts at 0 moving at
    /// 1 (ψ(0) = 0, ψ'(0) = 1). Every motion is a sum of the two: the
    /// displacement with initial velocity v0 is φ − v0·ψ; a spring carrying a
    /// velocity vector W moves by W·ψ more. The same three regimes as
    /// `displacement(at:)`.
    public func responses(at t: Double) -> (phi: Double, dphi: Double, psi: Double, dpsi: Double) {
        if t <= 0 { return (1, 0, 0, 1) }
        let w0 = naturalFrequency, zeta = dampingRatio
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let e = _exp(-zeta * w0 * t), c = _cos(wd * t), s = _sin(wd * t)
            let b = zeta * w0 / wd
            return (e * (c + b * s), -e * s * w0 * w0 / wd, e * s / wd, e * (c - b * s))
        }
        if zeta == 1 || !allowsOverdamping {
            // The exponential first, as in `displacement(at:)`: ω0²·t
            // overflows (stiffness 10^308 at t = 2) where ω0²·t·e^(−ω0·t) is 0.
            let e = _exp(-w0 * t), we = w0 * e
            return (e + we * t, -(we * w0) * t, t * e, e - we * t)
        }
        let (r1, r2) = overdampedRates
        let e1 = _exp(r1 * t), e2 = _exp(r2 * t)
        let c2 = -r1 / (r2 - r1), c1 = 1 - c2
        return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2, (e1 - e2) / (r1 - r2), (r1 * e1 - r2 * e2) / (r1 - r2))
    }

    /// d/dt of `displacement(at:)`: φ' − v0·ψ'.
    public func displacementRate(at t: Double) -> Double {
        let r = responses(at: t)
        return r.dphi - initialVelocity * r.dpsi
    }
}
