import AnimationCore
import FoundationEssentials

/// An instance as data: its definition, configuration, copy, context, active
/// states, timers (with their due times), requests, parts (model and
/// presentation values, layer timing) and the animations it started (description, begin
/// time, duration, captured value, lifecycle). Names rather than ids; times
/// absolute on the runtime clock, so a restore at the same time continues
/// to the bit.
struct MachineSnapshot: Codable {
    static let format = "animrt machine snapshot 1"
    var format = MachineSnapshot.format
    var definition: String
    var time: Double?
    var config: [String: MachineValue]
    var locale: String
    var texts: [String]
    var context: [String: MachineValue]
    var leaf: String
    var finished: Bool
    /// The last request number its runtime had issued (numbers are unique
    /// in a runtime): a runtime it is restored into issues later ones.
    var lastRequestID: UInt64
    var requests: [String: Request]
    /// Active states whose `done` has not come yet.
    var waitingForDone: [String]
    var timers: [Timer]
    var parts: [Part]
    var animations: [StartedAnimation]

    struct Request: Codable { var latest: UInt64; var open: Bool }

    /// An `after` timer (state, index), a started one (name, event, payload;
    /// no event: it measures time), or the window of a throttled event
    /// (throttle, payload: the event waiting for the window's end).
    struct Timer: Codable {
        var time: Double
        /// The rank among the instance's timers (ties fire in this order).
        var sequence: UInt64
        var state: String?
        var index: Int?
        var name: String?
        var event: String?
        var payload: [MachineValue]?
        var throttle: String?
    }

    struct Part: Codable {
        var name: String
        var values: [Value]
        /// false when no tick had shown the part yet (made since the last
        /// tick): its presentation follows its model at once until the next
        /// tick. Absent: it had been shown.
        var shown: Bool?
        /// The layer timing the host set on the part (`animrt_layer_set_timing`
        /// and the layer timing setters). Absent: the default timing.
        var timing: Timing?
        /// true when the part's timing or parent changed since the last
        /// tick: at the next tick its animations' lifecycles follow the
        /// time sampled then, not the times the layer went through since
        /// the last tick (not known after such a change). Absent: neither
        /// changed.
        var retimed: Bool?
        struct Value: Codable { var property: String; var model: AnimatableValue; var presentation: AnimatableValue }

        /// A layer's media timing, each field present only where it is not
        /// the default (`MediaTiming()`), to the bit: a part the host left
        /// alone has no timing, and its snapshot's text is as it was.
        /// `fillMode` and `direction` are the numbers of `animrt_fill_mode`
        /// and `animrt_direction` (read as any number, so that 1.5 is refused
        /// in words of its own); `iterations` and `iterationDuration` are
        /// present when set, whatever their value.
        struct Timing: Codable, Equatable {
            var beginTime: Double?, duration: Double?, speed: Double?, timeOffset: Double?
            var repeatCount: Double?, repeatDuration: Double?, autoreverses: Bool?, fillMode: Double?
            var iterationStart: Double?, endDelay: Double?, direction: Double?, delay: Double?
            var iterations: Double?, iterationDuration: Double?

            private enum CodingKeys: String, CodingKey, CaseIterable {
                case beginTime, duration, speed, timeOffset, repeatCount, repeatDuration, autoreverses, fillMode
                case iterationStart, endDelay, direction, delay, iterations, iterationDuration
            }

            /// The timing of a part as read from its layer; nil when it is the default.
            init?(_ t: MediaTiming) {
                let d = MediaTiming()
                func differs(_ x: Double, _ y: Double) -> Double? { x.bitPattern == y.bitPattern ? nil : x }
                beginTime = differs(t.beginTime, d.beginTime); duration = differs(t.duration, d.duration)
                speed = differs(t.speed, d.speed); timeOffset = differs(t.timeOffset, d.timeOffset)
                repeatCount = differs(t.repeatCount, d.repeatCount); repeatDuration = differs(t.repeatDuration, d.repeatDuration)
                autoreverses = t.autoreverses == d.autoreverses ? nil : t.autoreverses
                fillMode = t.fillMode == d.fillMode ? nil : Double(t.fillMode.rawValue)
                iterationStart = differs(t.iterationStart, d.iterationStart); endDelay = differs(t.endDelay, d.endDelay)
                direction = t.direction == d.direction ? nil : Double(t.direction.rawValue)
                delay = differs(t.delay, d.delay)
                iterations = t.iterations; iterationDuration = t.iterationDuration
                if self == Timing() { return nil }
            }

            init() {}

            init(from decoder: any Decoder) throws {
                // A member the timing does not have (a misspelt "sped") is
                // refused: read past, the part would run at the default.
                let c = try decoder.members(CodingKeys.self, of: "a layer's timing")
                beginTime = try c.decodeIfPresent(Double.self, forKey: .beginTime)
                duration = try c.decodeIfPresent(Double.self, forKey: .duration)
                speed = try c.decodeIfPresent(Double.self, forKey: .speed)
                timeOffset = try c.decodeIfPresent(Double.self, forKey: .timeOffset)
                repeatCount = try c.decodeIfPresent(Double.self, forKey: .repeatCount)
                repeatDuration = try c.decodeIfPresent(Double.self, forKey: .repeatDuration)
                autoreverses = try c.decodeIfPresent(Bool.self, forKey: .autoreverses)
                fillMode = try c.decodeIfPresent(Double.self, forKey: .fillMode)
                iterationStart = try c.decodeIfPresent(Double.self, forKey: .iterationStart)
                endDelay = try c.decodeIfPresent(Double.self, forKey: .endDelay)
                direction = try c.decodeIfPresent(Double.self, forKey: .direction)
                delay = try c.decodeIfPresent(Double.self, forKey: .delay)
                iterations = try c.decodeIfPresent(Double.self, forKey: .iterations)
                iterationDuration = try c.decodeIfPresent(Double.self, forKey: .iterationDuration)
            }

            /// The media timing it stands for, checked as the layer timing
            /// setters check theirs: what they refuse is refused here, in
            /// their words.
            func mediaTiming() throws(AnimrtError) -> MediaTiming {
                var t = MediaTiming()
                if let v = beginTime { t.beginTime = v }
                if let v = duration { t.duration = v }
                if let v = speed { t.speed = v }
                if let v = timeOffset { t.timeOffset = v }
                if let v = repeatCount { t.repeatCount = v }
                if let v = repeatDuration { t.repeatDuration = v }
                if let v = autoreverses { t.autoreverses = v }
                if let v = fillMode {
                    t.fillMode = try Self.constant(v, "fillMode", "an animrt_fill_mode: 0 (removed), 1 (forwards), 2 (backwards) or 3 (both)")
                }
                if let v = iterationStart { t.iterationStart = v }
                if let v = endDelay { t.endDelay = v }
                if let v = direction {
                    t.direction = try Self.constant(v, "direction", "an animrt_direction: 0 (normal), 1 (reverse), 2 (alternate) or 3 (alternate reverse)")
                }
                if let v = delay { t.delay = v }
                t.iterations = iterations
                t.iterationDuration = iterationDuration
                try Runtime.checkLayerTiming(t)
                return t
            }

            /// `v` as the constant of `E` it numbers, or a refusal naming
            /// `field` and saying which numbers it takes (`cases`).
            private static func constant<E: RawRepresentable>(_ v: Double, _ field: String, _ cases: String) throws(AnimrtError) -> E
                where E.RawValue == Int32 {
                guard let e = Int32(exactly: v).flatMap(E.init(rawValue:)) else {
                    throw AnimrtError(.invalidArgument, "\(field) is \(Int32(exactly: v).map(String.init) ?? "\(v)"); it must be \(cases)")
                }
                return e
            }
        }
    }

    struct StartedAnimation: Codable {
        var part: String
        var key: String?
        /// The state whose `done` waits for it.
        var joined: String?
        var animation: Animation
        var beginTime: Double?
        var duration: Double
        var captured: AnimatableValue?
        /// A group's: what each of its animations took when it was added,
        /// depth first (absent in older snapshots: taken when restored).
        var capturedChildren: [AnimatableValue?]?
        var phase: UInt8
        /// Whether a tick had evaluated it (absent in older snapshots: it had).
        var evaluated: Bool?
    }
}

// Every object of a snapshot is read through `members(_:of:)`: one a
// snapshot edited by hand misspells ("begintime") is refused by name and
// place, where the decoder the compiler writes would read past it and the
// restored instance differ from the one handed over. Their `CodingKeys` are
// those the compiler would write, which the encoder uses. (The decoders are
// written in extensions, so that the memberwise initialisers stay.)
extension MachineSnapshot {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, definition, time, config, locale, texts, context, leaf, finished, lastRequestID, requests
        case waitingForDone, timers, parts, animations
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a machine snapshot")
        format = try c.decode(String.self, forKey: .format)
        definition = try c.decode(String.self, forKey: .definition)
        time = try c.decodeIfPresent(Double.self, forKey: .time)
        config = try c.decode([String: MachineValue].self, forKey: .config)
        locale = try c.decode(String.self, forKey: .locale)
        texts = try c.decode([String].self, forKey: .texts)
        context = try c.decode([String: MachineValue].self, forKey: .context)
        leaf = try c.decode(String.self, forKey: .leaf)
        finished = try c.decode(Bool.self, forKey: .finished)
        lastRequestID = try c.decode(UInt64.self, forKey: .lastRequestID)
        requests = try c.decode([String: Request].self, forKey: .requests)
        waitingForDone = try c.decode([String].self, forKey: .waitingForDone)
        timers = try c.decode([Timer].self, forKey: .timers)
        parts = try c.decode([Part].self, forKey: .parts)
        animations = try c.decode([StartedAnimation].self, forKey: .animations)
    }

    /// The format a snapshot says it has, read alone: one of another format
    /// is refused for that, not for a member this library does not know.
    struct Format: Decodable { var format: String }
}

extension MachineSnapshot.Request {
    enum CodingKeys: String, CodingKey, CaseIterable { case latest, open }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a request")
        latest = try c.decode(UInt64.self, forKey: .latest)
        open = try c.decode(Bool.self, forKey: .open)
    }
}

extension MachineSnapshot.Timer {
    enum CodingKeys: String, CodingKey, CaseIterable { case time, sequence, state, index, name, event, payload, throttle }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a timer")
        time = try c.decode(Double.self, forKey: .time)
        sequence = try c.decode(UInt64.self, forKey: .sequence)
        state = try c.decodeIfPresent(String.self, forKey: .state)
        index = try c.decodeIfPresent(Int.self, forKey: .index)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        event = try c.decodeIfPresent(String.self, forKey: .event)
        payload = try c.decodeIfPresent([MachineValue].self, forKey: .payload)
        throttle = try c.decodeIfPresent(String.self, forKey: .throttle)
        // A timer is of one kind, told by the member that names it: read as
        // the first kind the restore tries, a timer that says two would drop
        // the other without a word ("state" and "throttle": the throttle's
        // window never reopened). What another kind of timer carries is
        // refused as well, since it would never be used.
        func refuse(_ what: String) -> DecodingError { .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: what)) }
        let kinds = [("state", state != nil), ("name", name != nil), ("throttle", throttle != nil)].filter(\.1).map(\.0)
        guard kinds.count <= 1 else {
            throw refuse("a timer is an after timer (state, index), a started timer (name, event, payload) or a throttle's window "
                + "(throttle, payload); this one has \(kinds.joined(separator: " and "))")
        }
        let (kind, takes) = state != nil ? ("an after timer", ["index"]) : throttle != nil ? ("a throttle's window", ["payload"])
                                                                                            : ("a started timer", ["event", "payload"])
        for (member, present) in [("index", index != nil), ("event", event != nil), ("payload", payload != nil)]
        where present && !takes.contains(member) {
            throw refuse("\(kind) has no \(member) (it has " + (["time", "sequence", kinds.first ?? "name"] + takes).joined(separator: ", ") + ")")
        }
        // A started timer that sends no event has an empty payload (as
        // written); one with values would never deliver them.
        if name != nil, event == nil, let p = payload, !p.isEmpty {
            throw refuse("a started timer that sends no event has no payload to send; this one has \(p.count) value\(p.count == 1 ? "" : "s")")
        }
    }
}

extension MachineSnapshot.Part {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, values, shown, timing, retimed }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a part")
        name = try c.decode(String.self, forKey: .name)
        values = try c.decode([Value].self, forKey: .values)
        shown = try c.decodeIfPresent(Bool.self, forKey: .shown)
        timing = try c.decodeIfPresent(Timing.self, forKey: .timing)
        retimed = try c.decodeIfPresent(Bool.self, forKey: .retimed)
    }
}

extension MachineSnapshot.Part.Value {
    enum CodingKeys: String, CodingKey, CaseIterable { case property, model, presentation }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a part's value")
        property = try c.decode(String.self, forKey: .property)
        model = try c.decode(AnimatableValue.self, forKey: .model)
        presentation = try c.decode(AnimatableValue.self, forKey: .presentation)
    }
}

extension MachineSnapshot.StartedAnimation {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case part, key, joined, animation, beginTime, duration, captured, capturedChildren, phase, evaluated
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a started animation")
        part = try c.decode(String.self, forKey: .part)
        key = try c.decodeIfPresent(String.self, forKey: .key)
        joined = try c.decodeIfPresent(String.self, forKey: .joined)
        animation = try c.decode(Animation.self, forKey: .animation)
        beginTime = try c.decodeIfPresent(Double.self, forKey: .beginTime)
        duration = try c.decode(Double.self, forKey: .duration)
        captured = try c.decodeIfPresent(AnimatableValue.self, forKey: .captured)
        capturedChildren = try c.decodeIfPresent([AnimatableValue?].self, forKey: .capturedChildren)
        phase = try c.decode(UInt8.self, forKey: .phase)
        evaluated = try c.decodeIfPresent(Bool.self, forKey: .evaluated)
    }
}

extension MachineValue: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case number, bool, string, vector }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a value")
        // A value is of one type: one that says two ({"number": 0, "bool":
        // true}) is refused, not read as the first of them.
        _ = try c.onlyMember(of: "a value")
        if let d = try c.decodeIfPresent(Double.self, forKey: .number) { self = .number(d) }
        else if let b = try c.decodeIfPresent(Bool.self, forKey: .bool) { self = .bool(b) }
        else if let s = try c.decodeIfPresent(String.self, forKey: .string) { self = .string(s) }
        else { self = .vector(try c.decode(AnimatableValue.self, forKey: .vector)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .number(let d): try c.encode(d, forKey: .number)
        case .bool(let b): try c.encode(b, forKey: .bool)
        case .string(let s): try c.encode(s, forKey: .string)
        case .vector(let v): try c.encode(v, forKey: .vector)
        }
    }
}

extension MachineHost {
    /// A snapshot of instance `h` as JSON text (docs/machines.md, "Snapshots").
    public func snapshot(_ h: Handle) throws(AnimrtError) -> String {
        let m = try live(h)
        let d = m.definition
        // Inside a macrostep (a function of the host called by one of the
        // machine's own actions or guards) the active state may be half
        // exited or entered and internal events wait: no restore could
        // continue from there as the instance does.
        guard !m.busy else {
            throw AnimrtError(.state, "\(h) ('\(d.name)') is running a macrostep (the snapshot was asked for from inside one of its actions or guards); take it when the send or tick returns")
        }
        var timers: [MachineSnapshot.Timer] = []
        for s in m.activations.indices where m.activations[s] != 0 {
            for (i, timer) in m.afterTimers[s] {
                guard let due = try? runtime.dueTime(of: timer) else { continue }  // fired already
                timers.append(.init(time: due.time, sequence: due.sequence, state: d.states[s].name, index: i))
            }
        }
        for (t, entry) in m.namedTimers.enumerated() {
            guard let entry, let sends = entry.sends, let due = try? runtime.dueTime(of: entry.timer) else { continue }
            timers.append(.init(time: due.time, sequence: due.sequence, name: d.timerNames[t], event: sends.event.map { d.events[$0].name },
                                payload: sends.payload))
        }
        for (e, window) in m.throttleWindows.enumerated() {
            guard let window, let due = try? runtime.dueTime(of: window.timer) else { continue }
            timers.append(.init(time: due.time, sequence: due.sequence, payload: window.pending, throttle: d.events[e].name))
        }
        timers.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        // Only the order of timers due at the same time matters: keep ranks.
        for i in timers.indices { timers[i].sequence = UInt64(i) }
        var parts: [MachineSnapshot.Part] = []
        for (i, layer) in m.parts.enumerated() {
            let values = try runtime.layerValues(layer).map { MachineSnapshot.Part.Value(property: $0.property, model: $0.model, presentation: $0.presentation) }
            parts.append(.init(name: m.partName(ofLayer: i), values: values, shown: try runtime.isShown(layer: layer) ? nil : false,
                               timing: .init(try runtime.mediaTiming(of: layer)), retimed: try runtime.isRetimed(layer: layer) ? true : nil))
        }
        var animations: [MachineSnapshot.StartedAnimation] = []
        for s in m.started where runtime.isAttached(s.handle) {
            let state = try runtime.attachmentState(s.handle)
            // Joined only while it has not ended and its state is active: an
            // animation kept after it stopped (removedOnCompletion false) has
            // left the barrier, whether its state's done has come or waits
            // for another animation.
            let joined = state.phase == .ended ? nil
                : s.joined.flatMap { j in m.stateBarriers[j] != nil && m.activations[j] != 0 ? d.states[j].name : nil }
            animations.append(.init(part: m.partName(ofLayer: s.layer), key: s.key, joined: joined, animation: s.animation,
                                    beginTime: state.beginTime, duration: state.duration, captured: state.captured,
                                    capturedChildren: state.capturedChildren, phase: state.phase.rawValue,
                                    evaluated: state.evaluated))
        }
        var requests: [String: MachineSnapshot.Request] = [:]
        for (op, r) in m.requests.enumerated() { requests[d.requests[op].name] = .init(latest: r.latest, open: r.open) }
        let snapshot = MachineSnapshot(
            definition: d.source, time: runtime.currentTime,
            config: Dictionary(uniqueKeysWithValues: zip(d.config.map(\.name), m.config)),
            locale: m.locale, texts: m.texts,
            context: Dictionary(uniqueKeysWithValues: zip(d.context.map(\.name), m.context)),
            leaf: d.states[m.leaf].name, finished: m.finished, lastRequestID: lastRequestNumber, requests: requests,
            waitingForDone: m.activations.indices.filter { m.activations[$0] != 0 && m.stateBarriers[$0] != nil && m.donePending[$0] }
                .map { d.states[$0].name },
            timers: timers, parts: parts, animations: animations)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do { return String(decoding: try encoder.encode(snapshot), as: UTF8.self) }
        catch { throw AnimrtError(.invalidArgument, "the snapshot could not be encoded: \(error)") }
    }

    /// Restores a snapshot as a new instance under `parent` (nil: its parts
    /// are roots). The runtime must be at the snapshot's time (tick a fresh
    /// runtime to it first); the instance then continues exactly as the
    /// original would have. A refused restore creates nothing.
    public func restore(_ json: String, parent: Handle? = nil) throws(AnimrtError) -> Handle {
        do throws(AnimrtErrorBox) { try JSONValue.checkDepth(Array(json.utf8)) }
        catch { throw AnimrtError(error.status, "not a machine snapshot: \(error.message)") }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        decoder.userInfo[.timingFunctions] = runtime.timingFunctions
        func otherFormat(_ format: String) -> AnimrtError {
            AnimrtError(.invalidArgument, "the snapshot's format is '\(format)'; this library reads '\(MachineSnapshot.format)'")
        }
        let s: MachineSnapshot
        do { s = try decoder.decode(MachineSnapshot.self, from: Data(json.utf8)) }
        catch {
            // A snapshot of another format is refused for that, not for a
            // member it has that this library does not know (or lacks): its
            // format alone is read again, on this path only.
            if let f = try? decoder.decode(MachineSnapshot.Format.self, from: Data(json.utf8)), f.format != MachineSnapshot.format {
                throw otherFormat(f.format)
            }
            // The decoder says only "not valid JSON", with no place, when a
            // number does not fit its field (-1 or 1e30 for a request
            // number): JSON that scans cleanly is not the problem.
            if case DecodingError.dataCorrupted(let c) = error, c.codingPath.isEmpty, JSONSyntax.firstProblem(in: Array(json.utf8)) == nil {
                throw AnimrtError(.invalidArgument, "not a machine snapshot: a number in it does not fit its field (request numbers, counts and indexes are whole numbers, 0 or more)")
            }
            if let p = JSONSyntax.firstProblem(in: Array(json.utf8)) {
                throw AnimrtError(.invalidArgument, "not a machine snapshot: the JSON is malformed at \(p.description)")
            }
            throw AnimrtError(.invalidArgument, "not a machine snapshot: \(DecodingError.plainMessage(of: error))")
        }
        // The decoder keeps one of two members with the same name: an
        // edited snapshot that says a thing twice is refused, not guessed at
        // (and one with a NUL in a string, which C cannot carry).
        if let p = JSONSyntax.firstRefusal(in: Array(json.utf8)) {
            throw AnimrtError(.invalidArgument, "not a machine snapshot: \(JSONValue.refusal(p))")
        }
        guard s.format == MachineSnapshot.format else { throw otherFormat(s.format) }
        guard runtime.currentTime == s.time else {
            let taken = s.time.map { "at time \($0)" } ?? "before the first tick"
            let here = runtime.currentTime.map { "at \($0)" } ?? "not ticked yet"
            // A runtime's time only goes forwards: one already past the
            // snapshot's time can never take it.
            let reachable = runtime.currentTime.map { now in s.time.map { now < $0 } ?? false } ?? true
            let remedy = reachable ? "tick it to the snapshot's time first"
                : "time only goes forwards, so restore it into a new runtime " + (s.time.map { "ticked to \($0)" } ?? "not ticked yet")
            throw AnimrtError(.time, "the snapshot was taken \(taken); this runtime is \(here): \(remedy)")
        }
        if let parent { _ = try runtime.parent(of: parent) }
        let d: MachineDefinition
        do throws(AnimrtError) {
            d = try DefinitionLoader.load(s.definition, properties: runtime.properties, curves: runtime.timingFunctions, functions: functions)
        } catch { throw AnimrtError(error.status, "the snapshot's definition: \(error.message)") }

        // Check everything before anything is made.
        func bad(_ what: String) -> AnimrtError { AnimrtError(.invalidArgument, "the snapshot does not fit '\(d.name)': \(what)") }
        guard let leaf = d.stateID(s.leaf), d.states[leaf].kind != .compound else { throw bad("no leaf state '\(s.leaf)'") }
        let endsMachine = d.states[leaf].kind == .final && d.states[leaf].parent < 0
        guard s.finished == endsMachine else {
            throw bad(s.finished ? "it says finished, but '\(s.leaf)' is not a top-level final state"
                                 : "it is in the top-level final state '\(s.leaf)' but does not say finished")
        }
        guard s.texts.count == d.stringKeys.count else { throw bad("\(s.texts.count) strings for \(d.stringKeys.count) keys") }
        // Its strings are held to the bound a create and a send hold theirs
        // to, each named by its member, before a value is read as a choice
        // (whose refusal quotes it).
        for (i, text) in s.texts.enumerated() {
            try DefinitionLimits.checkString(text, at: "the snapshot's texts[\(i)] (strings.\(d.stringKeys[i]))", as: "a per-instance string")
        }
        for name in s.config.keys.sorted() {
            if case .string(let text) = s.config[name]! { try DefinitionLimits.checkString(text, at: "the snapshot's config.\(name)", as: "a config string") }
        }
        for name in s.context.keys.sorted() {
            if case .string(let text) = s.context[name]! { try DefinitionLimits.checkString(text, at: "the snapshot's context.\(name)", as: "a context string") }
        }
        for (i, t) in s.timers.enumerated() {
            for (j, v) in (t.payload ?? []).enumerated() {
                if case .string(let text) = v { try DefinitionLimits.checkString(text, at: "the snapshot's timers[\(i)].payload[\(j)]", as: "a payload string") }
            }
        }
        var config = d.config.map(\.defaultValue)
        for (name, v) in s.config {
            guard let i = d.config.firstIndex(where: { $0.name == name }), d.config[i].type == v.type else { throw bad("config '\(name)'") }
            // The ranges and choices an instance is created with hold for a restored one.
            do throws(AnimrtError) { try ConfigParameter.check(d.config[i], v, at: JSONNode(value: .null, path: "")) }
            catch { throw bad("config \(error.message)") }
            config[i] = v
        }
        var context: [MachineValue] = []
        for f in d.context {
            guard let v = s.context[f.name], v.type == f.type, v.isFinite else { throw bad("context field '\(f.name)'") }
            context.append(v)
        }
        // A field the definition does not have (a misspelt name, or a field
        // of another machine's) is refused: read past, its value would be
        // dropped without a word.
        if let name = s.context.keys.sorted().first(where: { name in !d.context.contains { $0.name == name } }) {
            throw bad("context field '\(name)' is not one of its fields (" + d.context.map(\.name).joined(separator: ", ") + ")")
        }
        // Held to the total an assign is held to: a restored instance past it
        // could not assign a string again, not even a shorter one.
        do throws(AnimrtError) { try MachineHost.checkContextStrings(context) }
        catch { throw AnimrtError(error.status, "the snapshot's context: \(error.message)") }
        let counts = try MachineHost.partCounts(d, config: config, texts: s.texts)
        let partNames = d.parts.indices.flatMap { p in
            d.parts[p].isRepeated ? (0..<counts[p]).map { "\(d.parts[p].name)[\($0)]" } : [d.parts[p].name]
        }
        guard s.parts.map(\.name) == partNames else { throw bad("parts \(s.parts.map(\.name))") }
        // A part's timing is checked as the layer timing setters check it.
        var timings: [MediaTiming?] = []
        for p in s.parts {
            do throws(AnimrtError) { timings.append(try p.timing?.mediaTiming()) }
            catch { throw bad("the timing of part '\(p.name)': \(error.message)") }
        }
        let active = Set(d.ancestry(leaf))
        // A state waits on one barrier: a copy would make a second (the first
        // never destroyed) and take its done once per copy.
        var waitingSeen = Set<String>()
        for name in s.waitingForDone {
            guard let st = d.stateID(name), active.contains(st), !d.states[st].done.isEmpty else { throw bad("waiting state '\(name)'") }
            guard waitingSeen.insert(name).inserted else { throw bad("the state '\(name)' is said twice to wait for its done") }
        }
        // A payload waiting in a timer or a throttle is delivered as the
        // host's would be: it passes the checks a send makes (type, finite,
        // range), unchanged.
        func fits(_ payload: [MachineValue], _ e: Int) -> Bool {
            let declaration = d.events[e]
            guard payload.count == declaration.payload.count else { return false }
            for (v, field) in zip(payload, declaration.payload) {
                guard v.type == field.type, (try? MachineHost.check(v, field, of: declaration)) == v else { return false }
            }
            return true
        }
        // Each timer is pending once: a copy would fire again.
        var timersSeen = Set<String>()
        for t in s.timers {
            guard t.time.isFinite, t.time >= (runtime.currentTime ?? 0) else { throw bad("a timer due at \(t.time)") }
            let which: String
            if let state = t.state {
                guard let st = d.stateID(state), active.contains(st), let i = t.index, i >= 0, i < d.states[st].after.count
                else { throw bad("timer of state '\(state)'") }
                which = "the timer of state '\(state)' (after \(i))"
            } else if let throttled = t.throttle {
                guard let e = d.eventID(throttled), d.events[e].throttle != nil,
                      t.payload.map({ fits($0, e) }) ?? true else { throw bad("the throttle of '\(throttled)'") }
                which = "the throttle of '\(throttled)'"
            } else {
                guard let name = t.name, let timer = d.timerNames.firstIndex(of: name) else { throw bad("timer '\(t.name ?? "")'") }
                // An after's timer is restored with its state: under its
                // name, a started one would be overwritten by it and dropped.
                guard !d.states.contains(where: { $0.after.contains { $0.timer == timer } }) else {
                    throw bad("timer '\(name)' is an 'after' timer, not a started one (it is restored with its state)")
                }
                if let event = t.event {
                    guard let e = d.eventID(event), let p = t.payload, fits(p, e) else { throw bad("timer '\(name)'") }
                }
                which = "timer '\(name)'"
            }
            guard timersSeen.insert(which).inserted else { throw bad("\(which) is pending twice") }
        }
        // Adding under a key replaces what the key held: a machine's snapshot
        // holds each key of a part once, and a copy would replace the first.
        var keysSeen = Set<[String]>()
        for a in s.animations {
            if let key = a.key, !keysSeen.insert([a.part, key]).inserted {
                throw bad("the animations of part '\(a.part)' hold the key '\(key)' twice")
            }
            // An ended animation has left its state's barrier: joined, it
            // would hold the state's done back for ever.
            if let joined = a.joined, a.phase == Runtime.AttachmentState.Phase.ended.rawValue {
                throw bad("an animation of part '\(a.part)' has ended but is joined to '\(joined)': its done would never come")
            }
            guard partNames.contains(a.part), a.joined.map({ s.waitingForDone.contains($0) }) ?? true,
                  a.phase <= 2, a.duration.isFinite, a.duration > 0, a.beginTime?.isFinite ?? true,
                  a.captured?.components.allSatisfy(\.isFinite) ?? true,
                  a.capturedChildren?.allSatisfy({ $0?.components.allSatisfy(\.isFinite) ?? true }) ?? true
            else { throw bad("an animation of part '\(a.part)'") }
            if let key = a.key, key.utf8.count > Limits.nameBytes {
                throw bad("an animation of part '\(a.part)' has a key of \(key.utf8.count) bytes; keys are at most \(Limits.nameBytes)")
            }
            let keyPath = try runtime.validate(a.animation)
            do throws(AnimrtError) {
                try Runtime.AttachmentState.check(phase: .init(rawValue: a.phase) ?? .waiting, beginTime: a.beginTime)
                try Runtime.check(captured: a.captured, for: keyPath)
                if let children = a.capturedChildren { try runtime.validate(a.animation, capturedChildren: children) }
            }
            catch { throw bad("an animation of part '\(a.part)': \(error.message)") }
        }
        // A state waits for its done only while an animation it joined
        // runs: with none, its done would never come.
        for name in s.waitingForDone where !s.animations.contains(where: { $0.joined == name }) {
            throw bad("the state '\(name)' waits for its done, but no animation joined it: its done would never come")
        }
        // The locale a create would take: one of the definition's (its default when it has none).
        guard d.locales.isEmpty ? s.locale == d.defaultLocale : d.locales[s.locale] != nil else {
            throw bad("locale '\(s.locale)' (\(d.locales.isEmpty ? "it has no strings" : "locales: " + d.locales.keys.sorted().joined(separator: ", ")))")
        }
        guard s.lastRequestID <= MachineHost.maxRequestNumber else { throw bad("the last request number \(s.lastRequestID)") }
        for (op, r) in s.requests {
            guard d.requests.contains(where: { $0.name == op }), r.latest <= s.lastRequestID else { throw bad("request '\(op)'") }
            // A request awaited was issued, so it has a number.
            guard r.latest > 0 || !r.open else { throw bad("request '\(op)' is awaited but was never issued (its latest number is 0)") }
        }

        // Build it. A restore refused from here on is undone, and what the
        // undoing reports (the stops of animations it had restored: the host
        // never heard they started) is taken back with it. So are the handles
        // it made: none was seen outside, so the tables go back as they were,
        // no generation spent (refused restores, however many, retire no slot).
        let events = runtime.eventMark()
        let handles = runtime.beginHandleJournal(also: [instances])
        defer { handles.end() }
        let m = MachineInstance(definition: d, host: self, config: config, context: context, texts: s.texts, locale: s.locale)
        try m.prepareThrottles()
        do throws(AnimrtError) {
            try makeParts(of: m, counts: counts, parent: parent) { layer, _, _, k throws(AnimrtError) in
                try runtime.restoreValues(s.parts[k].values.map { ($0.property, $0.model, $0.presentation) }, of: layer,
                                          shown: s.parts[k].shown ?? true)
                // Before its animations are added: their begin times are in its time.
                if timings[k] != nil || s.parts[k].retimed == true {
                    try runtime.restoreTiming(timings[k] ?? MediaTiming(), of: layer, retimed: s.parts[k].retimed ?? false)
                }
            }
        } catch {
            runtime.withdrawEvents(since: events)
            handles.rewind()
            throw AnimrtError(error.status, "the snapshot could not be restored: \(error.message); nothing was made")
        }
        m.busy = true
        m.leaf = leaf
        m.finished = s.finished
        for (op, r) in s.requests { m.requests[d.requests.firstIndex { $0.name == op }!] = (r.latest, r.open) }
        for st in d.ancestry(leaf).reversed() { m.serial += 1; m.activations[st] = m.serial }
        // What the checks cannot foresee (a runtime table that is full)
        // undoes the restore: nothing of the snapshot is dropped silently.
        do throws(AnimrtError) {
            for name in s.waitingForDone {
                let st = d.stateID(name)!
                m.stateBarriers[st] = try runtime.createBarrier()
                m.donePending[st] = true
            }
            for a in s.animations {
                let joined = a.joined.flatMap(d.stateID)
                let state = Runtime.AttachmentState(beginTime: a.beginTime, duration: a.duration, captured: a.captured,
                                                    phase: Runtime.AttachmentState.Phase(rawValue: a.phase) ?? .waiting,
                                                    evaluated: a.evaluated ?? true, capturedChildren: a.capturedChildren)
                let layer = partNames.firstIndex(of: a.part)!
                let h = try runtime.add(a.animation, to: m.parts[layer], forKey: a.key, joining: joined.flatMap { m.stateBarriers[$0] },
                                        restoring: state)
                m.started.append(.init(handle: h, animation: a.animation, layer: layer, key: a.key, joined: joined))
            }
            for name in s.waitingForDone { m.waitForDone(d.stateID(name)!) }
            // Every kind of timer, a throttle's window included, restores or
            // fails the restore: none is dropped with the restore going on.
            for t in s.timers {
                if let state = t.state, let st = d.stateID(state), let i = t.index {
                    do throws(AnimrtError) { try m.startAfterTimer(state: st, index: i, activation: m.activations[st], due: .at(t.time)) }
                    catch { throw AnimrtError(error.status, "the timer of state '\(state)' (after \(i)) did not start: \(error.message)") }
                } else if let throttled = t.throttle, let e = d.eventID(throttled) {
                    do throws(AnimrtError) { try m.reopenThrottleWindow(e, at: t.time, pending: t.payload) }
                    catch { throw AnimrtError(error.status, "the throttle of '\(throttled)' did not reopen its interval: \(error.message)") }
                } else if let name = t.name, let timer = d.timerNames.firstIndex(of: name) {
                    do throws(AnimrtError) { try m.startNamedTimer(timer, due: .at(t.time), sending: t.event.flatMap(d.eventID), t.payload ?? []) }
                    catch { throw AnimrtError(error.status, "timer '\(name)' did not start: \(error.message)") }
                }
            }
        } catch {
            try? destroy(m.handle)
            runtime.withdrawEvents(since: events)
            handles.rewind()
            throw AnimrtError(error.status, "the snapshot could not be restored: \(error.message); nothing was made")
        }
        // Only a restore that succeeded moves the runtime's request numbers on.
        lastRequestNumber = max(lastRequestNumber, s.lastRequestID)
        m.busy = false
        return m.handle
    }
}
