/// Web Animations' `getComputedTiming()` for an attached animation, with its
/// phase. Times are in the animation's local time (seconds); nil is Web
/// Animations' null (unresolved).
public struct ComputedTiming: Equatable, Sendable {
    /// before, active or after; idle while the local time is unresolved (the
    /// begin time waits to be stamped at the next tick, or the layer's time
    /// is unresolved).
    public var phase: Phase
    /// The local time before `timeOffset` (from beginTime, scaled by speed;
    /// playing backwards it counts down from the end time).
    public var localTime: Double?
    /// The active time after `timeOffset`, or nil when not in effect.
    public var activeTime: Double?
    public var activeDuration: Double
    /// delay + active duration + endDelay, at least 0.
    public var endTime: Double
    /// The current iteration (0 first; may be +∞), or nil when not in effect.
    public var currentIteration: Double?
    /// Web Animations' iteration progress: the transformed progress (after
    /// direction and the timing function), or nil when not in effect.
    public var progress: Double?

    public init(phase: Phase = .idle, localTime: Double? = nil, activeTime: Double? = nil, activeDuration: Double,
                endTime: Double, currentIteration: Double? = nil, progress: Double? = nil) {
        self.phase = phase; self.localTime = localTime; self.activeTime = activeTime
        self.activeDuration = activeDuration; self.endTime = endTime
        self.currentIteration = currentIteration; self.progress = progress
    }

    /// Whether the animation contributes a value.
    public var isInEffect: Bool { progress != nil }
}
