/// Web Animations' phases of an animation effect. Raw values are the C
/// ABI's `animrt_phase`.
public enum Phase: Int32, Sendable, CaseIterable {
    case before = 0, active, after
    /// The local time is unresolved (only computed timing reports it).
    case idle
}

/// One end of a group's iteration, where the group holds its children
/// (filling, or turning back): `MediaTiming.sample(at:heldAt:)`.
public enum IterationEdge: Sendable {
    case start, end

    /// Where a group at directed progress `progress` holds its children:
    /// progress 0 is its iteration's start, 1 its end.
    @inlinable static func holding(progress: Double) -> IterationEdge? {
        progress == 1 ? .end : progress == 0 ? .start : nil
    }

    /// This edge as a child playing at `speed` meets it: the same edge
    /// forwards, the other one backwards (its time falls as its parent's
    /// rises), and none while paused (its time no longer follows).
    @inlinable func seen(atSpeed speed: Double) -> IterationEdge? {
        speed > 0 ? self : speed < 0 ? (self == .end ? .start : .end) : nil
    }
}

/// How an effect behaves outside its active interval. Core Animation's
/// `removed` is Web Animations' `none`.
public enum FillMode: Int32, Sendable, CaseIterable {
    case removed = 0, forwards, backwards, both

    @inlinable var fillsBackwards: Bool { self == .backwards || self == .both }
    @inlinable var fillsForwards: Bool { self == .forwards || self == .both }
    /// This fill with the forwards (else the backwards) one added.
    @inlinable func adding(fillsForwards forwards: Bool) -> FillMode {
        let f = fillsForwards || forwards, b = fillsBackwards || !forwards
        return f ? (b ? .both : .forwards) : .backwards
    }

    public var name: String {
        switch self { case .removed: "removed"; case .forwards: "forwards"; case .backwards: "backwards"; case .both: "both" }
    }
    /// Accepts Core Animation's names and Web Animations' `none`.
    public init?(name: String) {
        switch name {
        case "removed", "none": self = .removed
        case "forwards": self = .forwards
        case "backwards": self = .backwards
        case "both": self = .both
        default: return nil
        }
    }
}

/// Web Animations' playback direction. Core Animation's `autoreverses` is
/// `alternate` with the iteration count doubled.
public enum PlaybackDirection: Int32, Sendable, CaseIterable {
    case normal = 0, reverse, alternate, alternateReverse
}

/// The result of sampling an effect's timing at one local time.
public struct TimingSample: Equatable, Sendable {
    public var phase: Phase
    /// Active time, or nil when the effect is not in effect.
    public var activeTime: Double?
    /// Overall progress (iterations completed, fractional), or nil.
    public var overallProgress: Double?
    /// Progress within the current iteration in [0, 1], or nil.
    public var simpleIterationProgress: Double?
    /// Index of the current iteration (may be +∞), or nil.
    public var currentIteration: Double?
    /// Iteration progress after the direction is applied, or nil.
    public var directedProgress: Double?
    /// Whether the step easing's before flag is set.
    public var beforeFlag: Bool
    /// Whether the current iteration plays forwards (directed progress
    /// grows with active time).
    public var playsForwards: Bool = true

    /// Whether the effect contributes a value.
    public var isInEffect: Bool { directedProgress != nil }
}

/// The Web Animations 1 timing model (§4.8–4.10), used verbatim for the part
/// that Core Animation's media timing shares with it.
public struct TimingModel: Equatable, Sendable {
    public var iterationDuration: Double
    public var iterationCount: Double
    public var iterationStart: Double
    public var direction: PlaybackDirection
    public var fill: FillMode
    public var delay: Double
    public var endDelay: Double

    public init(iterationDuration: Double, iterationCount: Double = 1, iterationStart: Double = 0,
                direction: PlaybackDirection = .normal, fill: FillMode = .removed,
                delay: Double = 0, endDelay: Double = 0) {
        self.iterationDuration = iterationDuration; self.iterationCount = iterationCount
        self.iterationStart = iterationStart; self.direction = direction; self.fill = fill
        self.delay = delay; self.endDelay = endDelay
    }

    /// Iteration duration × iteration count, 0 if either is 0.
    @inlinable public var activeDuration: Double {
        iterationDuration == 0 || iterationCount == 0 ? 0 : iterationDuration * iterationCount
    }
    @inlinable public var endTime: Double { max(delay + activeDuration + endDelay, 0) }
    /// Where the active interval starts and ends in local time, bounded by
    /// 0 and the end time (a negative end delay can clip it).
    @inlinable public var activeStart: Double { max(min(delay, endTime), 0) }
    @inlinable public var activeEnd: Double { max(min(delay + activeDuration, endTime), 0) }

    /// The phase at `localTime`; `backwards` is the animation direction
    /// (playback rate < 0), which decides the boundary cases.
    public func phase(at localTime: Double, backwards: Bool) -> Phase {
        let beforeActive = activeStart, activeAfter = activeEnd
        if localTime < beforeActive || (backwards && localTime == beforeActive) { return .before }
        if localTime > activeAfter || (!backwards && localTime == activeAfter) { return .after }
        return .active
    }

    /// Samples the model at `localTime` (WA1 §4.8.3 onwards).
    public func sample(at localTime: Double, backwards: Bool = false) -> TimingSample {
        let phase = phase(at: localTime, backwards: backwards)
        return progress(phase: phase, activeTime: activeTime(phase: phase, localTime: localTime))
    }

    /// The active time (WA1 §4.8.3), or nil when the effect is not in effect.
    @inlinable
    public func activeTime(phase: Phase, localTime: Double) -> Double? {
        switch phase {
        case .before: return fill.fillsBackwards ? max(localTime - delay, 0) : nil
        case .active: return localTime - delay
        case .after: return fill.fillsForwards ? max(min(localTime - delay, activeDuration), 0) : nil
        case .idle: return nil
        }
    }

    /// Whether iteration number `iteration` plays forwards (its directed
    /// progress grows with active time).
    @inlinable
    public func playsForwards(iteration: Double) -> Bool {
        switch direction {
        case .normal: return true
        case .reverse: return false
        case .alternate, .alternateReverse:
            if iteration.isInfinite { return true }
            return positiveRemainder(direction == .alternateReverse ? iteration + 1 : iteration, 2) == 0
        }
    }

    /// The directed progress while the overall progress goes through
    /// `o0 ... o1` (o0 ≤ o1): the range each iteration crossed goes
    /// through, one or two of them (a whole iteration in between goes
    /// through every progress, and the partial ones lie within it). The end
    /// an iteration runs into counts as reached, though at the boundary
    /// itself the next iteration has begun.
    func directedProgressPieces(from o0: Double, to o1: Double) -> [(lower: Double, upper: Double)] {
        let first = o0.rounded(.down)
        let last = max(o1.rounded(.up) - 1, first)
        if last - first >= 2 { return [(0, 1)] }
        func piece(_ j: Double) -> (lower: Double, upper: Double) {
            let s0 = max(o0 - j, 0), s1 = min(o1 - j, 1)
            return playsForwards(iteration: j) ? (s0, s1) : (1 - s1, 1 - s0)
        }
        return last > first ? [piece(first), piece(last)] : [piece(first)]
    }

    /// The progress stages from an already-computed active time.
    public func progress(phase: Phase, activeTime: Double?) -> TimingSample {
        // Extreme finite inputs (a timeOffset near 1e308, say) can overflow
        // to a NaN time; such a sample is "not in effect", never NaN output.
        guard let active = activeTime, !active.isNaN else {
            return TimingSample(phase: phase, activeTime: nil, overallProgress: nil, simpleIterationProgress: nil,
                                currentIteration: nil, directedProgress: nil, beforeFlag: false)
        }
        var overall: Double
        if iterationDuration == 0 {
            overall = phase == .before ? 0 : iterationCount
        } else {
            overall = active / iterationDuration
        }
        overall += iterationStart
        if overall.isNaN {
            return TimingSample(phase: phase, activeTime: nil, overallProgress: nil, simpleIterationProgress: nil,
                                currentIteration: nil, directedProgress: nil, beforeFlag: false)
        }
        var simple = overall.isInfinite ? positiveRemainder(iterationStart, 1) : positiveRemainder(overall, 1)
        if simple == 0 && (phase == .active || phase == .after) && active == activeDuration && iterationCount != 0 {
            simple = 1
        }
        let iteration: Double
        if phase == .after && iterationCount.isInfinite { iteration = .infinity }
        else if simple == 1 { iteration = overall.rounded(.down) - 1 }
        else { iteration = overall.rounded(.down) }
        let forwards = playsForwards(iteration: iteration)
        let directed = forwards ? simple : 1 - simple
        let beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)
        return TimingSample(phase: phase, activeTime: active, overallProgress: overall, simpleIterationProgress: simple,
                            currentIteration: iteration, directedProgress: directed, beforeFlag: beforeFlag,
                            playsForwards: forwards)
    }
}
