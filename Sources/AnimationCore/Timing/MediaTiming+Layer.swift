/// A layer's media timing (CALayer adopts CAMediaTiming). Without a duration
/// a layer's time is unbounded: `(parentTime − beginTime) × speed +
/// timeOffset`, the CAMediaTiming.h formula. With a duration (or an exact
/// iteration duration) the layer is timed like an animation group: its
/// animations and sublayers see its iteration time, repeated, reversed and
/// filled as an animation's would be, and nothing of it is in effect
/// outside its active interval without a fill.
extension MediaTiming {
    /// No duration: the layer's time runs forever, unclipped.
    @inlinable public var isUnbounded: Bool { duration == 0 && iterationDuration == nil }

    /// Whether a layer with this timing shows its parent's time unchanged.
    @inlinable public var isLayerIdentity: Bool { isUnbounded && beginTime == 0 && speed == 1 && timeOffset == 0 }

    /// The layer's local time (what `convertTime` gives): CAMediaTiming's
    /// `(parentTime − beginTime) × speed + timeOffset`; a timed layer playing
    /// backwards counts down from its end time.
    public func layerLocalTime(_ parentTime: Double) -> Double {
        if isUnbounded { return (parentTime - beginTime) * speed + timeOffset }
        return localTime(at: parentTime, model: model) + timeOffset
    }

    /// The time the layer shows its animations and sublayers, or nil when it
    /// is unresolved (a timed layer outside its active interval, no fill).
    public func layerChildTime(_ parentTime: Double) -> Double? {
        if isUnbounded { return (parentTime - beginTime) * speed + timeOffset }
        guard let p = sample(at: parentTime).directedProgress else { return nil }
        return p * effectiveDuration
    }

    /// How fast the child time runs per unit of parent time at `parentTime`:
    /// ±speed inside the active interval (minus in reversed iterations), 0
    /// while filling or unresolved.
    public func layerChildRate(_ parentTime: Double) -> Double {
        if isUnbounded { return speed }
        let s = sample(at: parentTime)
        guard s.phase == .active, s.isInEffect else { return 0 }
        return s.playsForwards ? speed : -speed
    }

    /// The parent time at which the layer's local time is `local` (the
    /// inverse of `layerLocalTime`), or nil for a paused layer (speed 0).
    public func layerParentTime(forLocal local: Double) -> Double? {
        guard speed != 0 else { return nil }
        let l = local - timeOffset
        if isUnbounded || speed > 0 { return l / speed + beginTime }
        return (l - model.endTime) / speed + beginTime
    }

    /// A parameter as a layer reads it: an unbounded layer has one iteration
    /// of infinite duration.
    public func layerParameter(_ parameter: TimingParameter) -> Double {
        if isUnbounded && parameter == .iterationDuration { return .infinity }
        if isUnbounded && parameter == .iterations { return 1 }
        return self[parameter]
    }
}
