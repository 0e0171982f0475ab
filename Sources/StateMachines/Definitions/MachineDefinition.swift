import AnimationCore

/// A machine definition, checked and frozen: names resolved to indices,
/// expressions parsed and typed, targets resolved, the transition table built.
/// Immutable and shared by every instance made from it.
public final class MachineDefinition: @unchecked Sendable {
    /// The machine's name ("networkButton").
    public let name: String
    public let summary: String
    public let config: [ConfigParameter]
    public let context: [ContextField]
    /// Events the host (and the machine itself) may send, by id.
    public let events: [EventDeclaration]
    /// Events the machine reports to the host with `emit`, by id.
    public let emits: [EventDeclaration]
    /// Operations the host performs for the machine (`request`), by id.
    public let requests: [EventDeclaration]
    public let states: [StateNode]
    /// The top-level initial state.
    public let initial: Int
    public let parts: [PartDeclaration]
    let templates: [String: Template]
    /// Copy: for each locale, one text per key (missing keys fall back to
    /// the default locale).
    public let stringKeys: [String]
    public let locales: [String: [String?]]
    public let defaultLocale: String
    /// Named timers (`after` entries with a name, `startTimer`), by index.
    public let timerNames: [String]
    /// The most microsteps one macrostep may take before it is stopped.
    public let maxMicrosteps: Int
    /// Whether any state has eventless transitions (if none, a macrostep
    /// never looks for them).
    let hasEventless: Bool
    /// Whether any event is throttled.
    let hasThrottles: Bool
    /// The id of `error.execution`.
    let errorEvent: Int
    /// The JSON text it was loaded from (snapshots and traces carry it).
    public let source: String
    /// The machine functions and the timing function families from outside
    /// the core it resolved when it loaded, each once: what it holds of the
    /// runtime's extensions (`MachineHost.holders(of:)`).
    let functions: [MachineFunction]
    let families: [TimingFunctionFamily]

    init(name: String, summary: String, config: [ConfigParameter], context: [ContextField], events: [EventDeclaration],
         emits: [EventDeclaration], requests: [EventDeclaration], states: [StateNode], initial: Int, parts: [PartDeclaration],
         templates: [String: Template], stringKeys: [String], locales: [String: [String?]], defaultLocale: String,
         timerNames: [String], maxMicrosteps: Int, source: String, functions: [MachineFunction],
         families: [TimingFunctionFamily]) {
        self.name = name; self.summary = summary; self.config = config; self.context = context; self.events = events
        self.emits = emits; self.requests = requests; self.states = states; self.initial = initial; self.parts = parts
        self.templates = templates; self.stringKeys = stringKeys; self.locales = locales; self.defaultLocale = defaultLocale
        self.timerNames = timerNames; self.maxMicrosteps = maxMicrosteps; self.source = source
        self.functions = functions; self.families = families
        hasEventless = states.contains { !$0.always.isEmpty }
        hasThrottles = events.contains { $0.throttle != nil }
        errorEvent = events.firstIndex { $0.name == DefinitionLoader.builtinErrorEvent } ?? -1
    }

    /// The id of the state with full name `name` ("completed.celebrating").
    public func stateID(_ name: String) -> Int? { states.firstIndex { $0.name == name } }
    /// The names of the events a host sends (the machine raises `error.*`
    /// itself), as messages list them.
    public var hostEventNames: [String] { events.map(\.name).filter { !$0.hasPrefix("error.") } }
    /// The id of the event named `name`.
    public func eventID(_ name: String) -> Int? { events.firstIndex { $0.name == name } }
    /// The index of the context field named `name`.
    public func contextID(_ name: String) -> Int? { context.firstIndex { $0.name == name } }
    /// The index of the part named `name`.
    public func partID(_ name: String) -> Int? { parts.firstIndex { $0.name == name } }

    /// The names of the events state `s` accepts (takes a transition for, at
    /// some level, or ignores), for messages and tables.
    public func acceptedEvents(in s: Int) -> [String] {
        var names: Set<String> = []
        var a = s
        while a >= 0 {
            for (e, list) in states[a].on.enumerated() where !list.isEmpty { names.insert(events[e].name) }
            for e in states[a].ignored { names.insert(events[e].name) }
            a = states[a].parent
        }
        return names.sorted()
    }

    /// The context fields reported with a change into state `s`: the
    /// `values` of its ancestors and its own, outermost first, each once.
    public func associatedValues(of s: Int) -> [Int] {
        var fields: [Int] = []
        for a in ancestry(s).reversed() { for f in states[a].values where !fields.contains(f) { fields.append(f) } }
        return fields
    }

    /// `s` and its ancestors, innermost first.
    func ancestry(_ s: Int) -> [Int] {
        var out: [Int] = []
        var a = s
        while a >= 0 { out.append(a); a = states[a].parent }
        return out
    }

    /// Whether `a` is `d` or one of its ancestors.
    func isAncestor(_ a: Int, of d: Int) -> Bool {
        var x = d
        while x >= 0 { if x == a { return true }; x = states[x].parent }
        return false
    }
}

/// A typed configuration parameter with its default and allowed range.
public struct ConfigParameter: Sendable {
    public let name: String
    public let type: MachineType
    public let defaultValue: MachineValue
    public let minimum: Double?
    public let maximum: Double?
    /// For strings: the allowed values (empty: any).
    public let choices: [String]
    public let summary: String
}

/// A context field: a stored value with its initial value (an expression
/// over config), or a computed one, whose expression is evaluated each time
/// it is read (by the host or by another expression).
public struct ContextField: Sendable {
    public let name: String
    public let type: MachineType
    let initial: Expression
    /// For a computed field: its expression (nil for a stored field).
    var computed: Expression?
    public var summary = ""
    public var isComputed: Bool { computed != nil }
}

/// A payload field of an event: its type, the range of numbers, whether
/// out-of-range numbers are clamped instead of refused, whether a number
/// must be whole, and a default that makes it optional.
public final class PayloadField: Sendable {
    public let name: String
    public let type: MachineType
    public let minimum: Double?
    public let maximum: Double?
    public let clamps: Bool
    /// Numbers must be whole (a count of days): any other is refused, even
    /// by a field that clamps (a clamp bounds the range; it never rounds).
    public let isInteger: Bool
    public let defaultValue: MachineValue?

    init(name: String, type: MachineType, minimum: Double?, maximum: Double?, clamps: Bool, isInteger: Bool = false,
         defaultValue: MachineValue?) {
        self.name = name; self.type = type; self.minimum = minimum; self.maximum = maximum
        self.clamps = clamps; self.isInteger = isInteger; self.defaultValue = defaultValue
    }

    /// What a whole-number field's values must be within, said where one past is refused.
    static let int64Range = "a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"

    /// Whether `x` is within the int64_t a whole-number field is read as (-2^63 is; 2^63 is not).
    static func holdsInt64(_ x: Double) -> Bool { x >= -0x1p63 && x < 0x1p63 }

    /// `v` as the host reads it (an event's payload in C, in Python): a
    /// whole-number field's number as an integer (ANIMRT_TYPE_INTEGER, whose
    /// `number` the C form fills with the same value), any other as it is.
    /// Every such number is whole and within an int64_t (`MachineHost.check`,
    /// which every payload passes); one that is not stays a number, never a trap.
    func tagged(_ v: MachineValue) -> TaggedValue {
        if isInteger, case .number(let x) = v, let i = Int64(exactly: x) { return .integer(i) }
        return v.tagged
    }
}

/// An event the machine accepts, emits or requests, with its payload.
public final class EventDeclaration: Sendable {
    public let name: String
    public let payload: [PayloadField]
    /// For a result event: the request operation whose latest id it must
    /// carry in its first payload field ("request").
    public let resultOf: Int?
    /// A partial result (progress) leaves its request open; a final one,
    /// once taken, closes it, so that a second final result is stale.
    public let isPartial: Bool
    /// The shortest time between two of these events being processed, in
    /// seconds (an expression over config; nil: not throttled). Sent faster,
    /// the latest one waits for the interval to end (the last value is
    /// always processed).
    public let throttle: Expression?
    public let summary: String

    init(name: String, payload: [PayloadField], resultOf: Int?, isPartial: Bool = false, throttle: Expression? = nil, summary: String) {
        self.name = name; self.payload = payload; self.resultOf = resultOf; self.isPartial = isPartial; self.throttle = throttle
        self.summary = summary
    }

    /// Whether `field` is the request number a result carries (its field
    /// "request"), which the machine issued: not the host's to choose.
    func carriesRequest(in field: PayloadField) -> Bool { resultOf != nil && field.name == "request" }

    /// A payload of this event as the host reads it: each value tagged by its field.
    func tagged(_ payload: [MachineValue]) -> [TaggedValue] {
        zip(self.payload, payload).map { field, v in field.tagged(v) }
    }
}

/// A layer an instance owns, with its initial property values; a repeated
/// part is that many layers (copies), told apart by `index`.
public struct PartDeclaration: Sendable {
    public let name: String
    /// Index of the parent part, or -1 for a part under the instance's parent layer.
    public let parent: Int
    let properties: [(keyPath: String, value: ValueSlot)]
    /// For a repeated part: how many copies (a number expression over config).
    let count: Expression?
    public var summary = ""
    public var isRepeated: Bool { count != nil }
}

/// A state of the chart (a class: states are read on every event, and
/// copying one would retain each of its tables).
public final class StateNode: Sendable {
    public enum Kind: Sendable { case atomic, compound, final }
    /// The full dotted name ("completed.celebrating").
    public let name: String
    public let kind: Kind
    /// The parent state, or -1 at the top level.
    public let parent: Int
    public let children: [Int]
    /// For a compound state, the child entered with it.
    public let initial: Int?
    public let depth: Int
    let entry: [Action]
    let exit: [Action]
    /// Transitions per event id (document order within an event).
    let on: [[Transition]]
    let after: [AfterTransition]
    /// Taken (the first whose guard passes) when the state's barrier drains.
    let done: [Transition]
    let always: [Transition]
    let onFinal: Transition?
    /// Event ids accepted and dropped here.
    let ignored: Set<Int>
    /// Context fields reported with a change into this state.
    public let values: [Int]
    public let summary: String

    /// The last component of the name.
    public var shortName: Substring { name.split(separator: ".").last ?? Substring(name) }

    init(name: String, kind: Kind, parent: Int, children: [Int], initial: Int?, depth: Int, entry: [Action], exit: [Action],
         on: [[Transition]], after: [AfterTransition], done: [Transition], always: [Transition], onFinal: Transition?,
         ignored: Set<Int>, values: [Int], summary: String) {
        self.name = name; self.kind = kind; self.parent = parent; self.children = children; self.initial = initial
        self.depth = depth; self.entry = entry; self.exit = exit; self.on = on; self.after = after; self.done = done
        self.always = always; self.onFinal = onFinal; self.ignored = ignored; self.values = values; self.summary = summary
    }
}

/// A transition: an optional guard, actions, an optional target.
final class Transition: Sendable {
    enum Trigger: Sendable, Equatable { case event(Int), after(Int), done, always, onFinal }
    let source: Int
    let trigger: Trigger
    /// nil: targetless (no state is exited or entered).
    let target: Int?
    let guardExpression: Expression?
    let actions: [Action]
    /// Internal: a compound source whose target is its descendant is not exited.
    let isInternal: Bool
    /// Where it is written ("states.loading.on.fetched[0]"), for messages.
    let path: String

    init(source: Int, trigger: Trigger, target: Int?, guardExpression: Expression?, actions: [Action], isInternal: Bool, path: String) {
        self.source = source; self.trigger = trigger; self.target = target; self.guardExpression = guardExpression
        self.actions = actions; self.isInternal = isInternal; self.path = path
    }
}

/// A transition taken when a timer started on entry fires.
struct AfterTransition: Sendable {
    let delay: Expression
    /// Index in `timerNames` if named (then `cancelTimer` and `timerActive` see it).
    let timer: Int?
    let transition: Transition
}
