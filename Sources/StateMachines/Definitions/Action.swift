import AnimationCore

/// A value for a key path of a known kind: one expression of that kind (a
/// number for scalars), or one number expression per component.
enum ValueSlot: Sendable {
    case expression(Expression)
    case components([Expression])
}

/// Executable content: what entry, exit and transition actions do. Each
/// action has the JSON path where it is written, for error messages.
struct Action: Sendable {
    /// Indirect: actions are copied as they run, and a template is large.
    indirect enum Body: Sendable {
        /// Assigns every field from values computed first (order-free).
        case assign([(field: Int, value: Expression)])
        /// Adds an animation built from `template` to part `part`.
        case animate(part: Int, key: String?, template: Template, joinsStateBarrier: Bool)
        case remove(part: Int, key: String)
        case removeAll(part: Int)
        /// Sets a part's model value.
        case set(part: Int, keyPath: String, kind: ValueKind, value: ValueSlot)
        /// Reports an event to the host; one expression per declared field
        /// (nil: the field's default).
        case emit(Int, [Expression?])
        /// Queues an event for the machine itself, behind the current one.
        case raise(Int, [Expression?])
        /// Issues a new request id for an operation the host performs.
        case request(Int, [Expression?])
        /// Forgets the outstanding request: its result will be stale.
        case cancelRequest(Int)
        /// Starts (or restarts) a named timer that sends `event` when it
        /// fires; without an event it only measures time (`timerActive`).
        case startTimer(timer: Int, delay: Expression, event: Int?, payload: [Expression?])
        case cancelTimer(Int)
        /// Calls a registered function for its effect.
        case call(MachineFunction, [Expression])
    }

    let body: Body
    let path: String
}

/// An animation template of a definition, with expressions where the C API
/// takes numbers. Evaluated into an `Animation` when an `animate` action runs.
struct Template: Sendable {
    enum Kind: String, Sendable { case basic, keyframe, spring, group }
    var kind: Kind
    var keyPath: String?
    var valueKind: ValueKind?
    var from: ValueSlot?
    var to: ValueSlot?
    var by: ValueSlot?
    var values: [ValueSlot]?
    var keyTimes: [Expression]?
    var timingFunctions: [TimingFunction]?
    var calculationMode: CalculationMode?
    var tension: [Expression]?
    var continuity: [Expression]?
    var bias: [Expression]?
    var spring: [SpringField: Expression] = [:]
    var timing: [TimingField: Expression] = [:]
    var flags: [FlagField: Expression] = [:]
    var fillMode: FillMode?
    var direction: PlaybackDirection?
    var timingFunction: TimingFunction?
    var children: [Template] = []

    enum TimingField: String, CaseIterable, Sendable {
        case beginTime, duration, speed, timeOffset, repeatCount, repeatDuration, iterationStart, endDelay
    }
    enum FlagField: String, CaseIterable, Sendable {
        case autoreverses, removedOnCompletion, additive, cumulative, fromPresentation, allowsOverdamping
        /// Springs: run for the spring's settling duration instead of `duration` (ANIMRT_FLAG_SETTLING_DURATION).
        case usesSettlingDuration
    }
    enum SpringField: String, CaseIterable, Sendable {
        case mass, stiffness, damping, initialVelocity
    }
}
