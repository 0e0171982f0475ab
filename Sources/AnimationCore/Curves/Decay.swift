/// Inertia: motion that starts with a velocity and slows down by a constant
/// fraction per millisecond, as a scroll view decelerates
/// (`UIScrollView.DecelerationRate`) and Pop's decay animation does.
///
/// With rate r per millisecond the velocity is v(t) = v0 · r^(1000 t), so
/// with the decay constant k = −1000 ln r the position is its integral,
/// x(t) = x0 + v0 (1 − e^(−k t)) / k, which comes to rest at x0 + v0 / k.
/// (Pop and Apple's projection formula sum the per-millisecond steps
/// instead, v0/1000 · r / (1 − r): 0.1 % further at r = 0.998.) The duration
/// is derived: the time at which the speed |v(t)| falls to `restVelocity`.
public struct Decay: Hashable, Sendable, Codable {
    /// The fraction of its velocity the motion keeps each millisecond, in
    /// (0, 1). `normal` (0.998) and `fast` (0.99) are UIScrollView's.
    public var decelerationRate: Double
    /// The speed (units per second, over all components) below which the
    /// motion counts as stopped; > 0.
    public var restVelocity: Double

    public static let normal = 0.998
    public static let fast = 0.99
    /// Half a unit per second: for points, motion no one can see.
    public static let defaultRestVelocity = 0.5

    public init(decelerationRate: Double = Decay.normal, restVelocity: Double = Decay.defaultRestVelocity) {
        self.decelerationRate = decelerationRate; self.restVelocity = restVelocity
    }

    public func validate() throws(AnimrtError) {
        try requireFinite(decelerationRate, "decay decelerationRate")
        try requireFinite(restVelocity, "decay restVelocity")
        guard decelerationRate > 0 && decelerationRate < 1 else {
            throw AnimrtError(.outOfRange, "decay decelerationRate is \(decelerationRate); it must be between 0 and 1, both excluded (0.998 normal, 0.99 fast)")
        }
        guard restVelocity > 0 else {
            throw AnimrtError(.outOfRange, "decay restVelocity is \(restVelocity); it must be greater than 0 (the motion would never stop)")
        }
    }

    /// k = −1000 ln r: the velocity is v0 · e^(−k t).
    public var decayConstant: Double { -1000 * _log(decelerationRate) }

    /// Seconds until a motion starting at `speed` slows to `restVelocity`
    /// (0 when it starts slower).
    public func duration(initialSpeed speed: Double) -> Double {
        // A difference of logarithms: the ratio itself can overflow.
        duration(logSpeed: _log(speed))
    }

    /// `duration(initialSpeed:)` from the speed's logarithm (0 at or
    /// below the rest velocity, and for a speed of 0, whose logarithm is −∞).
    func duration(logSpeed: Double) -> Double {
        let rest = _log(restVelocity)
        return logSpeed > rest ? (logSpeed - rest) / decayConstant : 0
    }

    /// The derived duration for a vector velocity: its length is the
    /// initial speed, taken as ln(largest) + ½ ln(Σ (c / largest)²), since
    /// the length itself can be past the largest double when no component
    /// is ((1.5e308, 1.5e308) comes to rest in 355 s, not never).
    public func duration(initialVelocity v: AnimatableValue) -> Double {
        let n = v.kind.componentCount
        var largest = 0.0
        for i in 0..<n { largest = max(largest, abs(v.lanes[i])) }
        guard largest > 0 else { return 0 }
        var sum = 0.0
        for i in 0..<n { let x = v.lanes[i] / largest; sum += x * x }
        return duration(logSpeed: _log(largest) + 0.5 * _log(sum))
    }

    /// The fraction of the whole travel v0 / k covered after `t` seconds:
    /// 1 − e^(−k t).
    public func travelled(at t: Double) -> Double { t > 0 ? 1 - _exp(-decayConstant * t) : 0 }

    /// The velocity factor e^(−k t) (v(t) = v0 times it).
    public func velocityFactor(at t: Double) -> Double { t > 0 ? _exp(-decayConstant * t) : 1 }
}
