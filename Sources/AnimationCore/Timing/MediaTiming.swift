/// Core Animation's media timing (`CAMediaTiming`), with Web Animations'
/// own vocabulary (`delay`, exact `iterations` and `iterationDuration`,
/// `iterationStart`, `endDelay`, `direction`) so that both map onto one
/// implementation: `TimingModel`.
///
/// Time mapping: `t = (parentTime − beginTime) × speed + timeOffset`.
/// A positive speed plays forwards from `beginTime`; a negative speed plays
/// the active interval backwards from its end, starting at `beginTime`;
/// speed 0 freezes local time at `timeOffset`. `timeOffset` wraps around the
/// active duration instead of shifting the window (the animation still plays
/// for its full length). See docs/timing.md.
public struct MediaTiming: Hashable, Sendable, Codable {
    /// When the object starts, in its parent's time. 0 on an animation added
    /// to a layer means "now" (stamped at the next tick).
    public var beginTime: Double = 0
    /// The basic duration of one iteration; 0 means `defaultDuration`.
    public var duration: Double = 0
    /// Rate of local time relative to parent time.
    public var speed: Double = 1
    /// Offset into the active interval (not scaled by speed).
    public var timeOffset: Double = 0
    /// Number of repeats, fractional allowed; 0 means once; +∞ forever.
    public var repeatCount: Double = 0
    /// Active duration in seconds, instead of a count; 0 means unused.
    public var repeatDuration: Double = 0
    /// Plays backwards after each forward iteration (a repeat is both).
    public var autoreverses: Bool = false
    /// Behaviour outside the active interval.
    public var fillMode: FillMode = .removed
    /// Web Animations: where in the first iteration playback starts.
    public var iterationStart: Double = 0
    /// Web Animations: time after the active interval before the end.
    public var endDelay: Double = 0
    /// Web Animations: direction of each iteration.
    public var direction: PlaybackDirection = .normal
    /// Web Animations' start delay: local time between `beginTime` and the
    /// active interval (negative starts part-way in).
    public var delay: Double = 0
    /// Web Animations' iteration count, exactly: 0 is zero iterations, +∞
    /// forever. When set it replaces `repeatCount` and `repeatDuration`, and
    /// `autoreverses` alternates iterations without doubling the count.
    public var iterations: Double? = nil
    /// Web Animations' iteration duration, exactly: 0 is a zero-length
    /// iteration. When set it replaces `duration` and its 0.25 s default.
    public var iterationDuration: Double? = nil

    /// What a zero duration means (`CALayer add(_:forKey:)`).
    public static let defaultDuration = 0.25

    public init() {}

    /// Core Animation's parameters.
    public init(beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
                repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                fillMode: FillMode = .removed) {
        self.beginTime = beginTime; self.duration = duration; self.speed = speed; self.timeOffset = timeOffset
        self.repeatCount = repeatCount; self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses; self.fillMode = fillMode
    }

    /// Web Animations' `EffectTiming`, exactly: zero iterations and zero
    /// durations keep their Web Animations meaning; `playbackRate` is
    /// `speed`; the animation's start time is `beginTime` (0: when added).
    public static func webAnimations(duration: Double, iterations: Double = 1, iterationStart: Double = 0,
                                     direction: PlaybackDirection = .normal, fill: FillMode = .removed,
                                     delay: Double = 0, endDelay: Double = 0, playbackRate: Double = 1) -> MediaTiming {
        var t = MediaTiming(speed: playbackRate, fillMode: fill)
        t.iterationDuration = duration; t.iterations = iterations; t.delay = delay
        t.iterationStart = iterationStart; t.endDelay = endDelay; t.direction = direction
        return t
    }

    /// The iteration duration used for evaluation: `iterationDuration` when
    /// set, else `duration` (0 → 0.25 s).
    @inlinable public var effectiveDuration: Double {
        iterationDuration ?? (duration > 0 ? duration : MediaTiming.defaultDuration)
    }

    /// The equivalent Web Animations model in local time.
    public var model: TimingModel {
        let d = effectiveDuration
        let iterations: Double
        if let n = self.iterations { iterations = n }
        else if repeatDuration > 0 { iterations = d > 0 ? repeatDuration / d : .infinity }
        else { iterations = (repeatCount > 0 ? repeatCount : 1) * (autoreverses ? 2 : 1) }
        var dir = direction
        if autoreverses { dir = (direction == .reverse || direction == .alternateReverse) ? .alternateReverse : .alternate }
        return TimingModel(iterationDuration: d, iterationCount: iterations, iterationStart: iterationStart,
                           direction: dir, fill: fillMode, delay: delay, endDelay: endDelay)
    }

    /// The active duration in local seconds (may be +∞).
    public var activeDuration: Double { model.activeDuration }

    /// Local time before wrapping: where in the active interval the object is
    /// at `parentTime`, counting from its start (or from its end if speed < 0).
    @inlinable
    func localTime(at parentTime: Double, model: TimingModel) -> Double {
        if speed == 0 { return 0 }
        let scaled = (parentTime - beginTime) * speed
        return speed > 0 ? scaled : model.endTime + scaled
    }

    /// Samples the timing at `parentTime`. `heldAt` (the children of a
    /// group held at one end of its iteration) makes the exact end of a
    /// play its last frame, and the exact start its first, whatever the
    /// fill: see below.
    public func sample(at parentTime: Double, heldAt edge: IterationEdge? = nil) -> TimingSample {
        var model = self.model
        let ad = model.activeDuration
        let local = localTime(at: parentTime, model: model)
        var phase = model.phase(at: local, backwards: speed < 0)
        if let edge = edge?.seen(atSpeed: speed), phase != .active {
            // A group clips its children to its duration and, filling
            // forwards, holds them at its end: a child that ends with the
            // group (one that inherits its duration, say) then shows its last
            // frame, as Core Animation's `fillMode = forwards` on the group
            // alone does; likewise at its start, where it fills backwards, a
            // child whose play starts there shows its first frame (only a
            // zero-length one can be outside its interval then). A forward
            // play starts at the active interval's start and ends at its
            // end, a backwards one (speed < 0) the other way round; the
            // frame is the one a fill on that side holds. A child that ends
            // or starts elsewhere follows its own fill, its end exclusive
            // like any animation's. Seen from the child, a backwards play
            // meets its parent's end at its own start.
            let activeEndSide = edge == .end
            if local == (activeEndSide ? model.activeEnd : model.activeStart) {
                phase = activeEndSide ? .after : .before
                model.fill = model.fill.adding(fillsForwards: activeEndSide)
            }
        }
        // WA1's active time. A Web Animations animation that has played
        // through holds its current time at the end it reached (the end time
        // forwards, 0 backwards); local time here runs on, so it is held at
        // that boundary. A negative endDelay thereby cuts the interval short
        // and the fill keeps the value where it was cut.
        var held = local
        if speed > 0 && phase == .after { held = min(local, model.endTime) }
        if speed < 0 && phase == .before { held = max(local, 0) }
        var active = model.activeTime(phase: phase, localTime: held)
        if timeOffset != 0, phase != .after, var a = active {
            a += timeOffset
            if ad.isFinite && ad > 0 && speed == 0 && phase == .active && a > 0 && positiveRemainder(a, ad) == 0 {
                // Paused on the end: CAMediaTiming's local time is the end
                // of the active duration, so the object is past its active
                // interval and its fill decides, as for a paused layer.
                phase = .after
                active = model.activeTime(phase: .after, localTime: min(model.delay + ad, model.endTime))
            } else {
                if ad.isFinite && ad > 0 {
                    // The offset wraps around the active interval. The boundary
                    // belongs to the side playback reaches first: [0, AD) playing
                    // forwards, (0, AD] playing backwards, so the first frame of
                    // a backwards play at timeOffset = AD is the end, not the
                    // start. A backwards fill holds the limit from inside the
                    // interval at local time 0, which is the forward wrap.
                    a = speed < 0 && phase == .active ? ad - positiveRemainder(ad - a, ad) : positiveRemainder(a, ad)
                }
                active = a
            }
        }
        return model.progress(phase: phase, activeTime: active)
    }

    /// The time into the iteration at directed progress `progress` of
    /// sample `s` (what a group's children and a timed layer's animations
    /// see), in the iteration's direction. Where the iteration is a plain
    /// one it is taken from the active time itself, less the iterations
    /// before it: progress × duration can round a time that lands exactly
    /// on a tick to the other side of it (1.8 / 3 × 3 is 1.7999999999999998,
    /// so a child beginning at 1.8 s of a 3 s group was not seen to begin on
    /// the tick at 1.8). The ends stay the exact products: an iteration's
    /// holder compares its children's time with their ends (`IterationEdge`).
    public func iterationTime(_ s: TimingSample, progress: Double) -> Double {
        let d = effectiveDuration
        guard progress > 0 && progress < 1, iterationStart == 0, let a = s.activeTime,
              let it = s.currentIteration, it.isFinite else { return progress * d }
        let into = a - it * d
        // Only a time inside the iteration stands for it (rounding in a late
        // iteration, or a zero-length one, leaves the product).
        guard into >= 0 && into <= d else { return progress * d }
        return s.playsForwards ? into : d - into
    }

    /// Whether `validate` accepts this timing, in one pass and without a
    /// message: every add tests its description, and almost every one is
    /// valid (`validate` says why one is not).
    @inline(__always)
    public var isValid: Bool {
        // Each field by the rule a setter applies to it (`accepts`), then the one rule between fields.
        Self.accepts(.beginTime, beginTime) && Self.accepts(.duration, duration) && Self.accepts(.speed, speed)
            && Self.accepts(.timeOffset, timeOffset) && Self.accepts(.iterationStart, iterationStart)
            && Self.accepts(.endDelay, endDelay) && Self.accepts(.repeatCount, repeatCount)
            && Self.accepts(.repeatDuration, repeatDuration) && Self.accepts(.delay, delay)
            && (iterations.map { Self.accepts(.iterations, $0) } ?? true)
            && (iterationDuration.map { Self.accepts(.iterationDuration, $0) } ?? true)
            && (iterations != nil || !(repeatCount > 0 && repeatDuration > 0))
    }

    /// Checks every field; the message names the field and its bad value.
    public func validate() throws(AnimrtError) {
        if isValid { return }
        try checkEachField()
    }

    /// `validate`'s checks one by one, each with its message (what `isValid`
    /// answers at once; a test holds the two to the same answer).
    func checkEachField() throws(AnimrtError) {
        try requireFinite(beginTime, "beginTime")
        try requireFinite(duration, "duration")
        try requireFinite(speed, "speed")
        try requireFinite(timeOffset, "timeOffset")
        try requireFinite(iterationStart, "iterationStart")
        try requireFinite(endDelay, "endDelay")
        guard !repeatCount.isNaN else { throw AnimrtError(.invalidArgument, "repeatCount is NaN") }
        try requireFinite(repeatDuration, "repeatDuration")
        try requireFinite(delay, "delay")
        if let n = iterations {
            guard !n.isNaN else { throw AnimrtError(.invalidArgument, "iterations is NaN") }
            guard n >= 0 else { throw AnimrtError(.outOfRange, "iterations is \(n); it must be 0 or more (+inf repeats forever)") }
        }
        if let d = iterationDuration {
            try requireFinite(d, "iterationDuration")
            guard d >= 0 else { throw AnimrtError(.outOfRange, "iterationDuration is \(d); it must be 0 or more") }
        }
        guard duration >= 0 else { throw AnimrtError(.outOfRange, "duration is \(duration); it must be 0 (default 0.25 s) or more") }
        guard repeatCount >= 0 else { throw AnimrtError(.outOfRange, "repeatCount is \(repeatCount); it must be 0 or more (+inf repeats forever)") }
        guard repeatDuration >= 0 else { throw AnimrtError(.outOfRange, "repeatDuration is \(repeatDuration); it must be 0 or more") }
        guard iterationStart >= 0 else { throw AnimrtError(.outOfRange, "iterationStart is \(iterationStart); it must be 0 or more") }
        try checkRepeatCombination()
    }

    /// Refuses repeatCount and repeatDuration set together (Core Animation
    /// leaves the result undefined), unless exact `iterations` replace both.
    public func checkRepeatCombination() throws(AnimrtError) {
        guard iterations == nil, repeatCount > 0, repeatDuration > 0 else { return }
        throw AnimrtError(.invalidArgument, "repeatCount (\(repeatCount)) and repeatDuration (\(repeatDuration)) are both set; Core Animation leaves that undefined: set one of them, the other 0")
    }
}

/// The time transform of a layer: `t = (parentTime − beginTime) × speed +
/// timeOffset`, unclipped (a layer's duration is infinite).
public struct LayerTiming: Hashable, Sendable {
    public var beginTime: Double = 0
    public var speed: Double = 1
    public var timeOffset: Double = 0

    public init(beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0) {
        self.beginTime = beginTime; self.speed = speed; self.timeOffset = timeOffset
    }

    public var isIdentity: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }

    @inlinable public func localTime(_ parentTime: Double) -> Double { (parentTime - beginTime) * speed + timeOffset }
    /// The inverse mapping (for speed ≠ 0).
    @inlinable public func parentTime(_ localTime: Double) -> Double { (localTime - timeOffset) / speed + beginTime }
}
