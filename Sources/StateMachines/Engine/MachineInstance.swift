import AnimationCore

/// One running machine: its configuration (the active states), context,
/// timers, barriers, requests and part layers. Lives in a `MachineHost`;
/// all its work happens on the thread that owns the runtime.
final class MachineInstance: ExpressionHost {
    let definition: MachineDefinition
    unowned let host: MachineHost
    var handle = Handle(raw: 0)
    var config: [MachineValue]
    @exclusivity(unchecked) var context: [MachineValue]
    /// The active atomic (or final) state; its ancestors are active too.
    @exclusivity(unchecked) var leaf = -1
    /// Per state: the serial of its current activation, 0 when inactive.
    /// Timers and barrier notifications carry the serial of the activation
    /// that started them, so nothing of an exited state can act later.
    @exclusivity(unchecked) var activations: [UInt64]
    var serial: UInt64 = 0
    /// Per state: the runtime timers of its `after` transitions.
    var afterTimers: [[(index: Int, timer: Handle)]]
    /// Per state: whether its `done` is still waiting for its barrier.
    var donePending: [Bool]
    /// Per state: the barrier its `done` transition waits on.
    var stateBarriers: [Handle?]
    /// Per named timer: the runtime timer while it runs, its serial, and
    /// for a started timer (not an `after`) the event it sends (nil event:
    /// it only measures time).
    var namedTimers: [(timer: Handle, serial: UInt64, sends: (event: Int?, payload: [MachineValue])?)?]
    /// Per request operation: the latest number issued (by the host:
    /// `MachineHost.lastRequestNumber`) and whether a result is awaited.
    @exclusivity(unchecked) var requests: [(latest: UInt64, open: Bool)]
    /// The part layers, copies of a repeated part side by side: part `p`
    /// is `parts[partStart[p] ..< partStart[p] + partCount[p]]`.
    var parts: [Handle] = []
    /// The animations the machine added, in order: what a snapshot carries
    /// (with the state whose barrier each joined). Entries of animations
    /// that have gone are dropped as the list grows.
    var started: [StartedAnimation] = []
    /// The length of `started` after its last sweep, and how many sweeps
    /// there were (Engine/Actions.swift, `noteStarted`).
    var startedAfterSweep = 0
    var startedSweeps = 0

    struct StartedAnimation {
        var handle: Handle
        var animation: Animation
        /// The layer's index in `parts` (a copy of a repeated part has its own).
        var layer: Int
        var key: String?
        var joined: Int?
    }
    var partStart: [Int] = []
    var partCount: [Int] = []

    /// The name of layer `layer` of `parts`: "ring", or "arc[2]" for a copy.
    func partName(ofLayer layer: Int) -> String {
        for (p, part) in definition.parts.enumerated() where layer >= partStart[p] && layer < partStart[p] + partCount[p] {
            return part.isRepeated ? "\(part.name)[\(layer - partStart[p])]" : part.name
        }
        return ""
    }
    /// Per event id: its throttle interval in seconds (0: none), and the
    /// open window with the event waiting for its end (Engine/Throttle.swift).
    var throttleIntervals: [Double] = []
    var throttleWindows: [ThrottleWindow?] = []
    /// The copy in the instance's locale, with per-instance overrides.
    var texts: [String]
    var locale: String
    @exclusivity(unchecked) var internalQueue: [Pending] = []
    @exclusivity(unchecked) var internalHead = 0
    @exclusivity(unchecked) var externalQueue: [Pending] = []
    @exclusivity(unchecked) var busy = false
    /// The event being processed (-1: none, or a timer's, barrier's or
    /// onFinal's transition): what an error event names.
    @exclusivity(unchecked) var currentEvent: Int32 = -1
    @exclusivity(unchecked) var alive = true
    /// A top-level final state was entered: the machine takes no more events.
    @exclusivity(unchecked) var finished = false

    /// An event waiting to be processed.
    struct Pending {
        enum Kind {
            case event(Int)
            case after(state: Int, index: Int, activation: UInt64)
            case done(state: Int, activation: UInt64)
            case onFinal(state: Int, activation: UInt64)
            /// A started timer without an event ran out (`timerActive` changed).
            case ranOut(timer: Int)
        }
        var kind: Kind
        var payload: [MachineValue]
        /// Where it came from, for messages ("raised by …", "timer 'x'").
        var origin: Origin = .machine

        enum Origin { case host, machine, timer, throttle }
    }

    init(definition: MachineDefinition, host: MachineHost, config: [MachineValue], context: [MachineValue],
         texts: [String], locale: String) {
        self.definition = definition; self.host = host; self.config = config; self.context = context
        self.texts = texts; self.locale = locale
        let n = definition.states.count
        activations = [UInt64](repeating: 0, count: n)
        afterTimers = .init(repeating: [], count: n)
        donePending = .init(repeating: false, count: n)
        stateBarriers = [Handle?](repeating: nil, count: n)
        namedTimers = .init(repeating: nil, count: definition.timerNames.count)
        requests = .init(repeating: (0, false), count: definition.requests.count)
    }

    var runtime: Runtime { host.runtime }

    // Properties marked @exclusivity(unchecked) are touched on every event.
    // An instance is used by one thread at a time (the runtime's lock), and
    // none of them is read while it is being modified.

    // MARK: ExpressionHost

    func isActive(_ state: Int) -> Bool { activations[state] != 0 }
    func isTimerActive(_ timer: Int) -> Bool { namedTimers[timer] != nil }
    func text(_ key: Int) -> String { texts[key] }
    var clock: Double { runtime.currentTime ?? 0 }

    /// Evaluates computed context field `field` (no event; `in()` sees the
    /// active states). Its value must be finite.
    func computed(_ field: Int) throws(AnimrtError) -> MachineValue {
        guard let e = definition.context[field].computed else { return context[field] }
        var c = evaluationContext(event: [])
        let v = try Evaluator.evaluate(e, &c)
        guard v.isFinite else {
            throw AnimrtError(.invalidArgument, "context.\(definition.context[field].name) computes to \(v) (\(e.text)); computed numbers must be finite")
        }
        return v
    }

    func evaluationContext(event payload: [MachineValue]) -> EvaluationContext {
        EvaluationContext(config: config, context: context, event: payload, host: self)
    }
}
