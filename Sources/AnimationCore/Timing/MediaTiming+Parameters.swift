/// The numeric timing parameters by number, as the C ABI names them
/// (`animrt_timing_param`; raw values are part of the ABI). Core Animation's
/// and Web Animations' names for the same quantity replace each other: the
/// last one set wins, and the one it replaced reads as unset.
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
    /// `repeatCount` or `repeatDuration` drops exact `iterations`; the other
    /// way, setting `iterations` sets `repeatCount` and `repeatDuration` back
    /// to 0 and `iterationDuration` does `duration`, so that no name reads a
    /// value the timing model no longer uses.
    public mutating func set(_ parameter: TimingParameter, _ value: Double) throws(AnimrtError) {
        try MediaTiming.check(parameter, value)
        assign(parameter, value)
    }

    /// Checks a value for one parameter on its own (every parameter's rule
    /// is independent of the others), with `validate`'s message.
    public static func check(_ parameter: TimingParameter, _ value: Double) throws(AnimrtError) {
        if accepts(parameter, value) { return }
        var t = MediaTiming()
        t.assign(parameter, value)
        try t.validate()
    }

    /// Whether `check` accepts `value` for `parameter`, without a message:
    /// the test each setter and each value of a bulk add's columns makes
    /// (`check` says why not). `>= 0` is false for NaN; the counts may be +inf.
    @inline(__always)
    static func accepts(_ parameter: TimingParameter, _ value: Double) -> Bool {
        switch parameter {
        case .beginTime, .speed, .timeOffset, .endDelay, .delay: value.isFinite
        case .duration, .repeatDuration, .iterationStart, .iterationDuration: value.isFinite && value >= 0
        case .repeatCount, .iterations: value >= 0
        }
    }

    /// Sets one parameter in place, unchecked (see `check`).
    @inline(__always)
    mutating func assign(_ parameter: TimingParameter, _ value: Double) {
        switch parameter {
        case .beginTime: beginTime = value
        case .duration: duration = value; iterationDuration = nil
        case .speed: speed = value
        case .timeOffset: timeOffset = value
        case .repeatCount: repeatCount = value; iterations = nil
        case .repeatDuration: repeatDuration = value; iterations = nil
        case .iterationStart: iterationStart = value
        case .endDelay: endDelay = value
        case .delay: delay = value
        case .iterations: iterations = value; repeatCount = 0; repeatDuration = 0
        case .iterationDuration: iterationDuration = value; duration = 0
        }
    }
}
