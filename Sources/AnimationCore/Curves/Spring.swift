/// A damped harmonic oscillator, as `CASpringAnimation` defines it.
///
/// The value runs from 0 to 1: `value(at:)` is the fraction of the from→to
/// distance covered after `t` seconds. The closed form follows WebKit's
/// SpringSolver: under-damped springs oscillate, and a damping ratio ≥ 1 is
/// evaluated as critically damped unless `allowsOverdamping` is set, in which
/// case the true two-exponential over-damped solution is used.
public struct Spring: Hashable, Sendable, Codable {
    /// Mass, > 0. Defaults to 1.
    public var mass: Double
    /// Stiffness, > 0. Defaults to 100.
    public var stiffness: Double
    /// Damping, ≥ 0. Defaults to 10.
    public var damping: Double
    /// Initial velocity in from→to distances per second; positive moves
    /// toward the target. Defaults to 0.
    public var initialVelocity: Double
    /// Whether a damping ratio above 1 is truly over-damped (Core Animation's
    /// default is false: treated as critically damped).
    public var allowsOverdamping: Bool

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                initialVelocity: Double = 0, allowsOverdamping: Bool = false) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
        self.initialVelocity = initialVelocity; self.allowsOverdamping = allowsOverdamping
    }

    /// SwiftUI's `Spring(response:dampingRatio:)`: k = (2π/response)²·m and
    /// c = 4π·ζ·m / response.
    public init(response: Double, dampingRatio: Double, mass: Double = 1, initialVelocity: Double = 0) {
        let k = (2 * Double.pi / response) * (2 * Double.pi / response) * mass
        let c = 4 * Double.pi * dampingRatio * mass / response
        self.init(mass: mass, stiffness: k, damping: c, initialVelocity: initialVelocity,
                  allowsOverdamping: dampingRatio > 1)
    }

    /// The perceptual initialiser (`duration`, `bounce`): ζ = 1 − bounce for
    /// bounce ≥ 0, 1 / (1 + bounce) below 0; k = (2π/duration)², m = 1.
    public init(duration: Double, bounce: Double, initialVelocity: Double = 0) {
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(response: duration, dampingRatio: zeta, mass: 1, initialVelocity: initialVelocity)
        allowsOverdamping = true
    }

    /// Checks the documented ranges.
    public func validate() throws(AnimrtError) {
        try requireFinite(mass, "spring mass")
        try requireFinite(stiffness, "spring stiffness")
        try requireFinite(damping, "spring damping")
        try requireFinite(initialVelocity, "spring initialVelocity")
        guard mass > 0 else { throw AnimrtError(.outOfRange, "spring mass is \(mass); it must be greater than 0") }
        guard stiffness > 0 else { throw AnimrtError(.outOfRange, "spring stiffness is \(stiffness); it must be greater than 0") }
        guard damping >= 0 else { throw AnimrtError(.outOfRange, "spring damping is \(damping); it must be 0 or more") }
        // Finite settings can still make the closed form overflow (k/m or
        // k·m beyond the doubles): such a spring cannot be evaluated.
        let ratio = stiffness / mass, product = stiffness * mass
        guard ratio.isFinite, ratio >= .leastNormalMagnitude, product.isFinite, product >= .leastNormalMagnitude else {
            throw AnimrtError(.outOfRange, "spring mass \(mass) and stiffness \(stiffness) are too far apart: stiffness/mass and stiffness×mass must both lie within the normal doubles")
        }
        for (name, v) in coefficients where !v.isFinite {
            throw AnimrtError(.outOfRange, "this spring cannot be evaluated: its \(name) is \(v) (mass \(mass), stiffness \(stiffness), damping \(damping), initial velocity \(initialVelocity))")
        }
    }

    /// The constants of the closed form `displacement(at:)` uses, named.
    private var coefficients: [(String, Double)] {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        var list = [("natural frequency", w0), ("damping ratio", zeta)]
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            list += [("damped frequency", wd), ("sine coefficient", (zeta * w0 - v0) / wd), ("decay rate", zeta * w0)]
        } else if zeta == 1 || !allowsOverdamping {
            list.append(("velocity term", w0 - v0))
        } else {
            let (r1, r2) = overdampedRates
            list += [("slow rate", r1), ("fast rate", r2), ("fast coefficient", (-v0 - r1) / (r2 - r1))]
        }
        return list
    }

    /// The two rates of an over-damped spring (ζ > 1), −ω0(ζ ∓ √(ζ² − 1)):
    /// the slow one as −ω0 / (ζ + √(ζ² − 1)), the same number without the
    /// cancellation of ζ − √(ζ² − 1) (which loses all its digits by ζ = 10^8,
    /// where the spring would then never move). √(ζ² − 1) is √((ζ − 1)(ζ + 1)),
    /// which loses no digits just above 1, and ζ itself from 10^150 on, where
    /// the two are the same double and the product would overflow.
    var overdampedRates: (slow: Double, fast: Double) {
        let w0 = naturalFrequency, zeta = dampingRatio
        let sum = zeta + (zeta < 1e150 ? ((zeta - 1) * (zeta + 1)).squareRoot() : zeta)
        return (-w0 / sum, -w0 * sum)
    }

    /// Undamped angular frequency ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// Damping ratio ζ = c / (2√(k·m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Fraction of the distance covered at `t` seconds (0 at t = 0, → 1).
    public func value(at t: Double) -> Double {
        1 - displacement(at: t)
    }

    /// Remaining displacement x(t) with x(0) = 1 and x'(0) = −v0.
    public func displacement(at t: Double) -> Double {
        if t <= 0 { return 1 }
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return _exp(-zeta * w0 * t) * (_cos(wd * t) + b * _sin(wd * t))
        }
        if zeta == 1 || !allowsOverdamping {
            // (1 + (ω0 − v0)·t)·e^(−ω0·t), each term taken with the
            // exponential first: ω0·t or (ω0 − v0)·t can pass the largest
            // double where the product is small (∞ · 0 is NaN at t = 10^308;
            // v0 = −10^307 gave ∞ from t = 18 s, where x is 10^221).
            let e = _exp(-w0 * t)
            return e + (w0 - v0) * e * t
        }
        let (r1, r2) = overdampedRates
        let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * _exp(r1 * t) + c2 * _exp(r2 * t)
    }

    /// Core Animation's `settlingDuration`, estimated. Under-damped: the time
    /// at which the decay envelope of the displacement falls below 8e-4, the
    /// lower of e^(−ζω0t)·√(1 + B²) and e^(−ζω0t)·(1 + |ζω0 − v0|·t).
    /// Otherwise: the last time |x| is at least 8e-4 (on a grid of 1 ms, or
    /// of 10^5 points for slow springs).
    ///
    /// Apple does not document its algorithm. This threshold reproduces both
    /// published anchors (m=1, k=100: c=5 → 2.87 s, "approximately 2.85";
    /// c=15 → 1.01 s, "just over 1 second"); docs/timing.md says more.
    public var settlingDuration: Double {
        let epsilon = 8e-4
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            let amplitude = (1 + b * b).squareRoot()
            let envelope = max(0, _log(amplitude / epsilon) / (zeta * w0))
            // |B sin ωd t| ≤ |B| ωd t = |ζω0 − v0| t as well: near critical
            // damping B grows without bound while this envelope tends to the
            // critical spring's, and it is the lower one there.
            return min(envelope, Spring.boundCrossing(rate: zeta * w0, slope: abs(zeta * w0 - v0), epsilon: epsilon))
        }
        // Non-oscillating: the last point of a grid at which |x| is at least
        // epsilon, searched back from a time past which it never is again.
        // The grid is a millisecond, coarser for slow springs (at most 10^5
        // points), so that however slow the spring nothing is cut off.
        let rate: Double
        if zeta == 1 || !allowsOverdamping { rate = w0 } else { rate = -overdampedRates.slow }
        let end = Spring.boundCrossing(rate: rate, slope: abs(rate - v0), epsilon: epsilon)
        guard end.isFinite else { return .infinity }
        let step = max(0.001, end / 100_000)
        var i = (end / step).rounded(.up)
        while i > 0 && abs(displacement(at: i * step)) < epsilon { i -= 1 }
        return i * step
    }

    /// When (1 + slope·t)·e^(−rate·t), which bounds |x(t)| for every damping
    /// (rate: the slowest decay, slope: |rate − v0|), last equals `epsilon`
    /// (< 1): the one root of the concave ln(1 + slope·t) − rate·t − ln ε.
    /// +∞ when it never falls that low (no decay). Taken in logarithms where
    /// a product overflows (an initial velocity of 10^307 makes slope·t
    /// infinite long before the bound is small): the search then still ends
    /// where the bound falls below ε, not at the largest double.
    static func boundCrossing(rate: Double, slope: Double, epsilon: Double) -> Double {
        func g(_ t: Double) -> Double {
            let decay = rate * t
            guard decay.isFinite else { return -.infinity }  // e^(−∞): far below ε
            let p = slope * t
            return (p.isFinite ? _log(1 + p) : _log(slope) + _log(t)) - decay - _log(epsilon)
        }
        var lo = 0.0, hi = -_log(epsilon) / rate
        while hi.isFinite && g(hi) >= 0 { lo = hi; hi *= 2 }
        guard hi.isFinite else { return .infinity }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            guard mid > lo && mid < hi else { break }
            if g(mid) >= 0 { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// How long an animation paced by this spring runs when it runs until it
    /// settles: `settlingDuration`, at least a millisecond. A spring that
    /// never settles (no damping, or parameters so extreme that the estimate
    /// is not a finite number) is refused, since it would never end.
    public func runningDuration() throws(AnimrtError) -> Double {
        let d = settlingDuration
        guard d.isFinite else {
            throw AnimrtError(.outOfRange, "the spring never settles (mass \(mass), stiffness \(stiffness), damping \(damping)): "
                + (damping > 0 ? "its slowest motion decays too slowly for a double to count the time (over-damped that far, it barely moves); give it less damping, or a duration of its own"
                               : "give it some damping, or a duration of its own"))
        }
        return max(d, Spring.shortestRunningDuration)
    }

    /// The shortest duration `runningDuration()` returns (one millisecond):
    /// a stiff spring whose estimate rounds to 0 still runs, and 0 would mean
    /// "the default duration".
    public static let shortestRunningDuration = 0.001

    /// WebKit Web Inspector's settling time (`WI.Spring.calculateDuration`):
    /// step t on a 0.1 s grid until |x| is below `epsilon` and has not risen
    /// above it again since it first fell below.
    public func inspectorSettlingDuration(epsilon: Double = 1e-4) -> Double {
        var i = 0
        var current = 0.0, minimum = Double.infinity
        // 10^6 steps is 27 hours of spring time: a bound for pathological input.
        while (current >= epsilon || minimum >= epsilon) && i < 1_000_000 {
            current = abs(displacement(at: Double(i) / 10))
            if minimum < epsilon && current >= epsilon { minimum = .infinity }
            else if current < minimum { minimum = current }
            i += 1
        }
        return Double(i) / 10
    }
}
