/// The numeric timing fields of an animation, numbered as the C ABI numbers
/// them (`animrt_timing_param`). Raw values are part of the ABI: never
/// renumber, only append (a test compares them with include/animrt.h).
public enum TimingParameter: Int32, Sendable, CaseIterable {
    case beginTime = 0, duration, speed, timeOffset, repeatCount, repeatDuration, iterationStart, endDelay

    /// The `MediaTiming` field the parameter reads and writes.
    public var field: WritableKeyPath<MediaTiming, Double> {
        switch self {
        case .beginTime: \.beginTime
        case .duration: \.duration
        case .speed: \.speed
        case .timeOffset: \.timeOffset
        case .repeatCount: \.repeatCount
        case .repeatDuration: \.repeatDuration
        case .iterationStart: \.iterationStart
        case .endDelay: \.endDelay
        }
    }
}
