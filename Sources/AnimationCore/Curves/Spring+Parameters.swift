/// The other ways to name a spring: SwiftUI's `Spring(response:
/// dampingRatio:)` and the perceptual `Spring(duration:bounce:)` (Core
/// Animation's `CASpringAnimation(perceptualDuration:bounce:)`), checked,
/// and read back from any spring.
extension Spring {
    /// `Spring(response:dampingRatio:)` with mass 1, checked: response > 0,
    /// damping ratio ≥ 0, both finite, and the resulting stiffness and
    /// damping finite. Over-damping is true above a ratio of 1.
    public static func checked(response: Double, dampingRatio: Double, initialVelocity: Double = 0) throws(AnimrtError) -> Spring {
        try requireFinite(response, "spring response")
        try requireFinite(dampingRatio, "spring dampingRatio")
        guard response > 0 else { throw AnimrtError(.outOfRange, "spring response is \(response); it must be greater than 0") }
        guard dampingRatio >= 0 else {
            throw AnimrtError(.outOfRange, "spring dampingRatio is \(dampingRatio); it must be 0 (undamped) or more")
        }
        let s = Spring(response: response, dampingRatio: dampingRatio, initialVelocity: initialVelocity)
        try s.validate()
        return s
    }

    /// The perceptual spring (`duration`, `bounce`), checked: duration > 0
    /// and finite, bounce in (−1, 1] (SwiftUI: "up to a maximum of 1.0
    /// (corresponding to undamped oscillation), and negative values
    /// indicate overdamped springs with a minimum value of −1.0", which
    /// itself would be an infinite damping ratio). Over-damping is true, as
    /// `CASpringAnimation(perceptualDuration:bounce:)` sets it.
    public static func checked(perceptualDuration: Double, bounce: Double, initialVelocity: Double = 0) throws(AnimrtError) -> Spring {
        try requireFinite(perceptualDuration, "spring perceptual duration")
        try requireFinite(bounce, "spring bounce")
        guard perceptualDuration > 0 else {
            throw AnimrtError(.outOfRange, "spring perceptual duration is \(perceptualDuration); it must be greater than 0")
        }
        guard bounce > -1 && bounce <= 1 else {
            throw AnimrtError(.outOfRange, "spring bounce is \(bounce); it must be in (-1, 1] (1: undamped, 0: critically damped, below 0: over-damped)")
        }
        let s = Spring(duration: perceptualDuration, bounce: bounce, initialVelocity: initialVelocity)
        try s.validate()
        return s
    }

    /// The response (SwiftUI) and perceptual duration (Core Animation):
    /// the undamped period 2π/ω0 = 2π√(m/k).
    public var response: Double { 2 * Double.pi / naturalFrequency }

    /// The bounce: 1 − ζ up to critical damping, 1/ζ − 1 above it (the
    /// inverse of the perceptual initialiser).
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    /// One number of the spring by name (`animrt_spring_param`).
    public subscript(parameter: SpringParameter) -> Double {
        switch parameter {
        case .mass: mass
        case .stiffness: stiffness
        case .damping: damping
        case .initialVelocity: initialVelocity
        case .dampingRatio: dampingRatio
        case .response, .perceptualDuration: response
        case .bounce: bounce
        case .settlingDuration: settlingDuration
        }
    }
}

/// The numbers of a spring that can be read (`animrt_spring_param`; raw
/// values are part of the C ABI).
public enum SpringParameter: Int32, Sendable, CaseIterable {
    case mass = 0, stiffness, damping, initialVelocity, dampingRatio, response, perceptualDuration, bounce, settlingDuration
}
