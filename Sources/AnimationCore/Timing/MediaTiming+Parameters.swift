/// The numeric timing parameters by number, as the C ABI names them
/// (`animrt_timing_param`; raw values are part of the ABI). Core Animation's
/// and Web Animations' names for the same quantity replace each other: the
/// last one set wins.
public enum TimingParameter: Int32, Sendable, CaseIterable {
    case beginTime = 0, duration, speed, timeOffset, repeatCount, repeatDuration, iterationStart, endDelay
    /// Web Animations' start delay.
    case delay
    /// Web Animations' exact iteration count (0 allowed).
    case iterations
    /// Web Animations' exact iteration duration (0 allowed).
    case iterationDuration

    public var name: String {
        switch self {
        case .beginTime: "beginTime"; case .duration: "duration"; case .speed: "speed"; case .timeOffset: "timeOffset"
        case .repeatCount: "repeatCount"; case .repeatDuration: "repeatDuration"; case .iterationStart: "iterationStart"
        case .endDelay: "endDelay"; case .delay: "delay"; case .iterations: "iterations"
        case .iterationDuration: "iterationDuration"
        }
    }
}

extension MediaTiming {
    /// A parameter's value as the timing model uses it: `iterations` and
    /// `iterationDuration` read the effective count and duration whichever
    /// vocabulary set them; the others read what was set.
    public subscript(parameter: TimingParameter) -> Double {
        switch parameter {
        case .beginTime: beginTime
        case .duration: duration
        case .speed: speed
        case .timeOffset: timeOffset
        case .repeatCount: repeatCount
        case .repeatDuration: repeatDuration
        case .iterationStart: iterationStart
        case .endDelay: endDelay
        case .delay: delay
        case .iterations: model.iterationCount
        case .iterationDuration: effectiveDuration
        }
    }

    /// Sets one parameter and validates the result; on error nothing changes.
    /// Setting `duration` drops an exact `iterationDuration`, and setting
    /// `repeatCount` or `repeatDuration` drops exact `iterations`.
    public mutating func set(_ parameter: TimingParameter, _ value: Double) throws(AnimrtError) {
        var t = self
        switch parameter {
        case .beginTime: t.beginTime = value
        case .duration: t.duration = value; t.iterationDuration = nil
        case .speed: t.speed = value
        case .timeOffset: t.timeOffset = value
        case .repeatCount: t.repeatCount = value; t.iterations = nil
        case .repeatDuration: t.repeatDuration = value; t.iterations = nil
        case .iterationStart: t.iterationStart = value
        case .endDelay: t.endDelay = value
        case .delay: t.delay = value
        case .iterations: t.iterations = value
        case .iterationDuration: t.iterationDuration = value
        }
        try t.validate()
        self = t
    }
}
