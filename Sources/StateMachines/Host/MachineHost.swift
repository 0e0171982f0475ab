import AnimationCore
import FoundationEssentials

/// The machines of one runtime: loaded definitions, running instances and
/// the functions definitions may call. Every call happens on the thread
/// that owns the runtime (the C layer holds its lock), like `Runtime` itself.
///
/// Machines use only the runtime's public vocabulary: their parts are
/// layers, their `after` and named timers are runtime timers, a state's
/// `done` waits on a runtime barrier, and what they report is queued as
/// runtime events, in order with animation events.
public final class MachineHost {
    public let runtime: Runtime
    /// Functions definitions may name in guards, expressions and `call`.
    public var functions = FunctionRegistry()
    /// Definitions that load by name (`load(named:)`): the host's and plugins'.
    public internal(set) var library: [String: String] = [:]

    let definitions: SlotTable<MachineDefinition?>
    let instances: SlotTable<MachineInstance?>
    /// The last request number issued in this runtime. Numbers are unique
    /// across instances: a late result meant for an instance destroyed since
    /// (or for another one) never matches a request of this one; it is stale.
    var lastRequestNumber: UInt64 = 0
    /// Request numbers travel as doubles (a result's `request` field): past
    /// 2^53 they would no longer be exact, so none is issued beyond it.
    static let maxRequestNumber: UInt64 = 1 << 53

    public init(runtime: Runtime) {
        self.runtime = runtime
        definitions = SlotTable(kind: .definition, tag: runtime.tag, placeholder: nil)
        instances = SlotTable(kind: .machine, tag: runtime.tag, placeholder: nil)
    }

    // MARK: Definitions

    /// Loads a definition from JSON text (docs/machines.md).
    public func load(_ json: String) throws(AnimrtError) -> Handle {
        let d = try DefinitionLoader.load(json, properties: runtime.properties, curves: runtime.timingFunctions, functions: functions)
        return try definitions.insert(d)
    }

    /// Loads a definition from a file.
    public func load(contentsOf path: String) throws(AnimrtError) -> Handle {
        try load(try definitionText(contentsOf: path), from: path)
    }

    /// The text of a definition file.
    public func definitionText(contentsOf path: String) throws(AnimrtError) -> String {
        let data = try FileContents.read(path, what: "the definition file", limit: DefinitionLimits.maxBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            // The parser and the validation agree on what UTF-8 is; should they
            // not, the message still comes, without the byte.
            let at = FileContents.firstNonUTF8(data).offset
            let byte = data.indices.contains(at) ? " (0x" + String(data[at], radix: 16, uppercase: true) + ")" : ""
            throw AnimrtError(.invalidArgument, "the definition file '\(path)' is not valid UTF-8 at byte offset \(at)\(byte); save it as UTF-8")
        }
        return text
    }

    /// Loads a definition's text read from `source`, which errors name.
    public func load(_ json: String, from source: String) throws(AnimrtError) -> Handle {
        do throws(AnimrtError) { return try load(json) }
        catch { throw AnimrtError(error.status, "\(source): \(error.message)") }
    }

    /// Makes `json` loadable by `name` (a definition shipped by a plugin or the host).
    public func register(definition json: String, as name: String) throws(AnimrtError) {
        try check(definition: json, as: name, curves: runtime.timingFunctions, functions: functions)
        library[name] = json
    }

    /// Refuses a name a definition cannot be registered under: a name as
    /// the definitions' own are written (the shipped ones are too), one a
    /// host can type, print and look up again.
    static func checkLibraryName(_ name: String) throws(AnimrtError) {
        guard Parser.isName(name), name.utf8.count <= DefinitionLimits.maxNameLength else {
            let shown = name.utf8.count <= DefinitionLimits.maxNameLength ? "'\(name)'" : "a name of \(name.utf8.count) bytes"
            throw AnimrtError(.invalidArgument, "a definition is registered under 1 to \(DefinitionLimits.maxNameLength) ASCII letters, digits and '_', not starting with a digit; \(shown) is not one")
        }
    }

    /// Loads the definition named `name`: one that comes with animrt
    /// (`MachineHost.shippedNames`) or one registered.
    public func load(named name: String) throws(AnimrtError) -> Handle {
        guard let json = library[name] ?? MachineHost.shippedDefinition(named: name) else {
            var message = "no machine definition is named '\(name)'"
            if let near = closestMatch(to: name, in: libraryNames) { message += "; did you mean '\(near)'?" }
            else { message += " (known: \(libraryNames.joined(separator: ", ")))" }
            throw AnimrtError(.notFound, message: message)
        }
        return try load(json)
    }

    public func definition(_ h: Handle) throws(AnimrtError) -> MachineDefinition { definitions[try definitions.index(of: h)]! }

    /// Forgets a definition handle; instances made from it keep running.
    public func unload(_ h: Handle) throws(AnimrtError) { definitions.remove(at: try definitions.index(of: h)) }

    // MARK: Instances

    /// What an instance is created with, beyond its definition's defaults.
    public struct Options: Sendable {
        public var config: [String: MachineValue]
        /// The copy's locale (nil: the definition's default).
        public var locale: String?
        /// Per-instance replacements of copy, by key.
        public var strings: [String: String]
        public init(config: [String: MachineValue] = [:], locale: String? = nil, strings: [String: String] = [:]) {
            self.config = config; self.locale = locale; self.strings = strings
        }
    }

    /// Creates an instance: builds its parts under `parent` (nil: as roots),
    /// computes its context, and enters its initial states. A refused call
    /// creates nothing.
    public func create(_ definitionHandle: Handle, parent: Handle? = nil, options: Options = Options()) throws(AnimrtError) -> Handle {
        let d = try definition(definitionHandle)
        if let parent { _ = try runtime.parent(of: parent) }
        var config = d.config.map(\.defaultValue)
        for name in options.config.keys.sorted() {
            guard let i = d.config.firstIndex(where: { $0.name == name }) else {
                var message = "'\(d.name)' has no config parameter '\(name)'"
                if let near = closestMatch(to: name, in: d.config.map(\.name)) { message += "; did you mean '\(near)'?" }
                else if d.config.isEmpty { message += "; it has no config parameters" }
                else { message += " (parameters: \(d.config.map(\.name).joined(separator: ", ")))" }
                throw AnimrtError(.notFound, message: message)
            }
            var v = options.config[name]!
            // Before the value is read as a colour or a choice: those
            // refusals quote it.
            if case .string(let text) = v { try DefinitionLimits.checkString(text, at: "config.\(name)", as: "a config string") }
            // A colour may be written as text; text stays text where the parameter is a string.
            if case .string(let text) = v, case .vector(.color) = d.config[i].type {
                guard let c = DefinitionLoader.hexColor(text) else {
                    throw AnimrtError(.kind, "config '\(name)' is '\(text)', which is not a colour: write \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] from 0 to 1")
                }
                v = .vector(c)
            }
            // JSON cannot tell a rect from a colour, or a point from a size.
            if case .vector(let x) = v, case .vector(let k) = d.config[i].type, x.kind != k, x.kind.componentCount == k.componentCount {
                v = .vector(AnimatableValue(kind: k, lanes: x.lanes))
            }
            try ConfigParameter.check(d.config[i], v, at: JSONNode(value: .null, path: ""), as: "config '\(name)'")
            config[i] = v
        }
        let locale = options.locale ?? d.defaultLocale
        if d.locales.isEmpty, let l = options.locale {
            throw AnimrtError(.notFound, "'\(d.name)' has no strings, so locale '\(l)' has nothing to choose")
        }
        guard d.locales.isEmpty || d.locales[locale] != nil else {
            throw AnimrtError(.notFound, "'\(d.name)' has no strings for locale '\(locale)' (locales: \(d.locales.keys.sorted().joined(separator: ", ")))")
        }
        var texts = d.stringKeys.indices.map { d.locales[locale]?[$0] ?? d.locales[d.defaultLocale]?[$0] ?? "" }
        // In name order, as config is: a dictionary's order changes from
        // run to run, and with two unknown keys the refusal would name
        // either one.
        for key in options.strings.keys.sorted() {
            let text = options.strings[key]!
            guard let i = d.stringKeys.firstIndex(of: key) else {
                throw AnimrtError(.notFound, "'\(d.name)' has no string '\(key)'" + unknownName(key, among: d.stringKeys, "strings"))
            }
            // Copy given here is held to the bound on the strings an
            // expression makes (text() hands it to expressions as it is).
            try DefinitionLimits.checkString(text, at: "strings.\(key)", as: "a per-instance string")
            texts[i] = text
        }
        let instance = MachineInstance(definition: d, host: self, config: config, context: [], texts: texts, locale: locale)
        // Initial values may use config and the instance's copy (text()).
        var c = EvaluationContext(config: config, context: [], event: [], host: instance)
        var context: [MachineValue] = []
        for f in d.context {
            // A join past the string limit or a registered function that
            // fails: the message names the field whose initial value it was.
            let v: MachineValue
            do throws(AnimrtError) { v = try Evaluator.evaluate(f.initial, &c) }
            catch { throw AnimrtError(error.status, "context.\(f.name) (its initial value, \(f.initial.text)): \(error.message)") }
            guard v.isFinite else { throw AnimrtError(.invalidArgument, "context.\(f.name) would start as \(v); context numbers must be finite") }
            context.append(v)
        }
        try MachineHost.checkContextStrings(context)
        instance.context = context
        try instance.prepareThrottles()
        let counts = try MachineHost.partCounts(d, config: config, texts: texts)
        // Parts: layers with their initial values; undone if anything fails,
        // and their handles with them: none was seen outside, so the tables
        // go back as they were (a refused create spends no generation).
        // Ended before the machine starts: what its entry actions make is theirs.
        let handles = runtime.beginHandleJournal(also: [instances])
        do throws(AnimrtError) {
            try makeParts(of: instance, counts: counts, parent: parent) { layer, p, copy, _ throws(AnimrtError) in
                c.index = Double(copy)
                for (path, slot) in p.properties {
                    let kind = try runtime.properties.resolve(path).kind
                    let v = try instance.value(slot, kind: kind, &c, what: "part '\(p.name)\(p.isRepeated ? "[\(copy)]" : "")' \(path)")
                    try runtime.setModelValue(v, forKeyPath: path, of: layer)
                }
            }
        } catch {
            handles.rewind()
            throw error
        }
        handles.end()
        instance.start()
        return instance.handle
    }

    /// Makes `m`'s part layers, `counts[i]` copies of part `i` (a part's
    /// copies are children of its parent part's first copy, or of `parent`),
    /// each given its values by `values` (its layer, its part, its copy
    /// number, its index among all the layers) as soon as it is made, and
    /// enters `m` in the table of instances. If anything fails, the layers
    /// made are destroyed (their handles are the caller's to rewind) and
    /// the error is passed on.
    func makeParts(of m: MachineInstance, counts: [Int], parent: Handle?,
                   values: (Handle, PartDeclaration, Int, Int) throws(AnimrtError) -> Void) throws(AnimrtError) {
        var created: [Handle] = []
        var starts: [Int] = []
        do throws(AnimrtError) {
            for (i, p) in m.definition.parts.enumerated() {
                starts.append(created.count)
                for copy in 0..<counts[i] {
                    let layer = try runtime.createLayer(parent: p.parent >= 0 ? created[starts[p.parent]] : parent)
                    // Counted as made before its values are written: values
                    // that are refused undo it with the others. The machine
                    // owns it: the host cannot destroy it from under the
                    // machine (its snapshots, actions and teardown use it).
                    created.append(layer)
                    try runtime.own(layer, by: m, rank: Int32(created.count - 1))
                    try values(layer, p, copy, created.count - 1)
                }
            }
            m.parts = created
            m.partStart = starts
            m.partCount = counts
            m.handle = try instances.insert(m)
        } catch {
            for layer in created.reversed() { try? runtime.destroyLayer(layer, by: m) }
            throw error
        }
    }

    /// Destroys an instance: its timers are cancelled, its barriers dropped,
    /// its part layers destroyed (their animations stop); nothing of it
    /// fires afterwards and its handle becomes stale.
    public func destroy(_ h: Handle) throws(AnimrtError) {
        let i = try instances.index(of: h)
        let m = instances[i]!
        instances.remove(at: i)
        m.alive = false
        m.tearDown()
    }

    func instance(_ h: Handle) -> MachineInstance? {
        guard let i = try? instances.index(of: h) else { return nil }
        return instances[i]
    }

    func live(_ h: Handle) throws(AnimrtError) -> MachineInstance { instances[try instances.index(of: h)]! }

    /// Makes every instance inert before the runtime goes away, so that
    /// nothing of a machine runs while the runtime stops its animations.
    public func shutdown() {
        for i in 0..<instances.capacity where instances.isLive(i) {
            instances[i]?.alive = false
        }
    }

    /// The first of these ever done, as a message says it: a definition
    /// loaded or registered, an instance made; nil while none was.
    public var firstUse: String? {
        if definitions.capacity != 0 { return "a machine definition was loaded" }
        if instances.capacity != 0 { return "a machine was created" }
        if !library.isEmpty { return "a machine definition was registered (animrt_definition_register)" }
        return nil
    }

    /// How many instances are alive.
    public var instanceCount: Int { instances.count }

    // MARK: Events

    /// Sends event `event` (an id of the instance's definition) with its
    /// payload fields in declaration order (trailing fields with defaults
    /// may be left out). An event no active state takes is `.state`, and
    /// nothing changes.
    @discardableResult
    public func send(_ h: Handle, event: Int, payload: [TaggedValue]) throws(AnimrtError) -> SendOutcome {
        try send(h, event: event, count: payload.count) { (i: Int) throws(AnimrtError) in payload[i] }
    }

    /// `send` with the payload read through `value(i)` for i in 0..<count
    /// (the C layer reads the host's array in place).
    public func send(_ h: Handle, event: Int, count: Int,
                     _ value: (Int) throws(AnimrtError) -> TaggedValue) throws(AnimrtError) -> SendOutcome {
        let m = try live(h)
        let d = m.definition
        // The ids a host sends: every event but error.execution, the
        // machine's own, which comes last. The range said is theirs (with
        // the last id counted in, a host reading "0 to 6" would send 6 and
        // be refused again).
        if d.errorEvent == d.events.count - 1, event < 0 || event > d.errorEvent {
            let n = d.errorEvent
            let own = "id \(n) is \(DefinitionLoader.builtinErrorEvent), which the machine raises itself"
            throw AnimrtError(.outOfRange, n == 0
                ? "event id \(event) is out of range: '\(d.name)' has no event a host can send (\(own))"
                : "event id \(event) is out of range (0 to \(n - 1)): '\(d.name)' has \(n) event\(n == 1 ? "" : "s") a host can send (\(own))")
        }
        try d.checkID(event, .event)
        let declaration = d.events[event]
        guard event != d.errorEvent else {
            throw AnimrtError(.invalidArgument, "'\(declaration.name)' is raised by the machine itself; the host cannot send it")
        }
        let fields = declaration.payload
        guard count <= fields.count else {
            throw AnimrtError(.invalidArgument, "'\(declaration.name)' has \(counted(fields.count, "payload field")); \(given(count, "value"))")
        }
        var values: [MachineValue] = []
        values.reserveCapacity(fields.count)
        for i in 0..<fields.count {
            let field = fields[i]
            guard i < count else {
                guard let v = field.defaultValue else {
                    throw AnimrtError(.invalidArgument, "'\(declaration.name)' needs its field '\(field.name)' (field \(i))\(MachineHost.whatField(field, of: declaration)); \(given(count, "value"))")
                }
                values.append(v)
                continue
            }
            let given = try value(i)
            let v: MachineValue
            switch (field.type, given) {
            case (.number, .number(let x)): v = .number(x)
            case (.number, .integer(let x)):
                // A whole-number field is a count: one no double holds (2^53 + 1) would arrive as
                // another (2^53), changed without a word. Other number fields take the nearest double.
                if field.isInteger, Double(exactly: x) == nil {
                    throw MachineHost.noDoubleHolds(String(x), field: field.name, of: declaration.name)
                }
                v = .number(Double(x))
            case (.bool, .bool(let b)): v = .bool(b)
            case (.string, .string(let s)):
                // Here, not in `check`: a payload the machine makes itself
                // may carry a definition's own string, which its size bounds.
                try DefinitionLimits.checkString(s, at: "field '\(field.name)' of '\(declaration.name)'", as: "a payload string")
                v = .string(s)
            default:
                throw AnimrtError(.kind, "field '\(field.name)' of '\(declaration.name)' is a \(field.type); a \(given.tag.name) was given")
            }
            values.append(try MachineHost.check(v, field, of: declaration))
        }
        return try m.send(event, payload: values)
    }

    /// What a refusal to send `name`, which is no event of `d`, goes on
    /// with. A request of the machine, or an event it emits, is named in the
    /// events a host sees, so a host new to the machine sends it back: the
    /// message says what it is and, for a request, which events answer it.
    /// Any other name gets the closest event, or the list of them.
    static func notAnEvent(_ name: String, of d: MachineDefinition) -> String {
        if let r = d.requests.firstIndex(where: { $0.name == name }) {
            let results = d.events.filter { $0.resultOf == r }.map { "'\($0.name)'" }
            guard let last = results.last else {
                return ": it is a request the machine makes of the host, and no event of the machine answers it"
            }
            let listed = results.count == 1 ? last : results.dropLast().joined(separator: ", ") + " or " + last
            return ": it is a request the machine makes of the host; answer it by sending \(listed) with the request's "
                + "id in the field 'request'"
        }
        if d.emits.contains(where: { $0.name == name }) {
            return ": it is an event the machine emits for the host to read, not one it takes"
        }
        return unknownName(name, among: d.hostEventNames, "events")
    }

    /// Sends an event by name with a payload given as a JSON object
    /// (fields by name; nil or "{}" for none).
    @discardableResult
    public func send(_ h: Handle, event name: String, json: String?) throws(AnimrtError) -> SendOutcome {
        let m = try live(h)
        let d = m.definition
        guard let e = d.eventID(name) else {
            throw AnimrtError(.notFound, "'\(d.name)' has no event '\(name)'" + MachineHost.notAnEvent(name, of: d))
        }
        var members: [String: JSONValue] = [:]
        if let json, !json.isEmpty {
            let v: JSONValue
            do throws(AnimrtErrorBox) { v = try JSONValue.parse(Array(json.utf8)) } catch { throw AnimrtError(error.status, "payload: \(error.message)") }
            guard case .object(let o) = v else { throw AnimrtError(.invalidArgument, "the payload must be a JSON object, not \(v.kindName)") }
            members = o
        }
        let fields = d.events[e].payload
        for k in members.keys.sorted() where !fields.contains(where: { $0.name == k }) {
            var message = "'\(name)' has no payload field '\(k)'"
            if fields.isEmpty { message += ": it takes no payload" }
            else if let near = closestMatch(to: k, in: fields.map(\.name)) { message += "; did you mean '\(near)'?" }
            else { message += " (fields: \(fields.map(\.name).joined(separator: ", ")))" }
            throw AnimrtError(.notFound, message: message)
        }
        // From 2^52 the parse into doubles has rounded a number to a whole
        // neighbour (2^53 + 1 to 2^53, 2^52 + 0.5 to 2^52): a whole-number
        // field reads such a member's text exactly (`ExactLiteral`), so that a
        // number that is not whole, or one no double holds, is refused
        // rather than changed.
        var exact: [String: ExactLiteral] = [:]
        if let json, fields.contains(where: { f in
            guard f.isInteger, case .number(let x)? = members[f.name] else { return false }
            return x.magnitude >= 0x1p52
        }) {
            exact = (try? JSONDecoder().decode([String: ExactLiteral].self, from: Data(json.utf8))) ?? [:]
        }
        var payload: [TaggedValue] = []
        for f in fields {
            guard let v = members[f.name] else {
                guard let dv = f.defaultValue else {
                    throw AnimrtError(.invalidArgument, "'\(name)' needs its field '\(f.name)'\(MachineHost.whatField(f, of: d.events[e]))")
                }
                payload.append(dv.tagged)
                continue
            }
            switch v {
            case .number(let x):
                if f.isInteger, let literal = exact[f.name]?.value {
                    payload.append(try ExactLiteral.whole(literal, field: f.name, of: name))
                } else {
                    payload.append(.number(x))
                }
            case .bool(let b): payload.append(.bool(b))
            case .string(let s): payload.append(.string(s))
            default: throw AnimrtError(.kind, "field '\(f.name)' of '\(name)' is a \(f.type); JSON \(v.kindName) was given")
            }
        }
        return try send(h, event: e, payload: payload)
    }

    /// What a missing field is, where the host cannot guess it: a result's
    /// `request` is the number the machine gave its request.
    static func whatField(_ field: PayloadField, of declaration: EventDeclaration) -> String {
        guard declaration.carriesRequest(in: field) else { return "" }
        return ": the number of the request it answers, which came with the machine's request event (its token in C, its id in Python)"
    }

    /// The refusal of whole number `text` for a whole-number field: no
    /// double holds it, and another would arrive in its place.
    static func noDoubleHolds(_ text: String, field: String, of event: String) -> AnimrtError {
        AnimrtError(.outOfRange, "field '\(field)' of '\(event)' is \(text), which no double holds exactly (whole numbers are exact up to 2^53); a machine's numbers are doubles")
    }

    /// The refusal of whole number `text` for a whole-number field past the
    /// 64-bit integer (ANIMRT_TYPE_INTEGER) the host reads it as.
    static func pastInt64(_ text: String, field: String, of event: String) -> AnimrtError {
        AnimrtError(.outOfRange, "field '\(field)' of '\(event)' is \(text); \(PayloadField.int64Range)")
    }

    /// Refuses a context whose strings hold more than
    /// `DefinitionLimits.maxTotalStringBytes` together.
    static func checkContextStrings(_ context: [MachineValue]) throws(AnimrtError) {
        var bytes = 0
        for v in context { bytes += v.stringBytes }
        guard bytes <= DefinitionLimits.maxTotalStringBytes else {
            throw AnimrtError(.outOfRange, "the context's strings would hold \(bytes) bytes together; an instance's context strings are at most \(DefinitionLimits.maxTotalStringBytes) bytes together")
        }
    }

    /// Checks a payload value against its field: finite numbers, whole ones
    /// where declared (within a 64-bit integer), the range (clamped when the
    /// field says so).
    static func check(_ v: MachineValue, _ field: PayloadField, of declaration: EventDeclaration) throws(AnimrtError) -> MachineValue {
        guard case .number(let x) = v else { return v }
        guard x.isFinite else {
            throw AnimrtError(.invalidArgument, "field '\(field.name)' of '\(declaration.name)' is \(x); it must be a finite number")
        }
        // A result's request number is a token the machine issued: one that
        // no request could have had is the host's mistake, not a stale result
        // (said as such, before the checks of any whole-number field).
        if declaration.carriesRequest(in: field), x.rounded(.towardZero) != x || x > 9_007_199_254_740_992 {
            throw AnimrtError(.outOfRange, "field 'request' of '\(declaration.name)' is \(NumberText.given(x)); it must be a request number, a whole number (the token of the ANIMRT_EVENT_MACHINE_REQUEST it answers)")
        }
        // Before the range: a clamp bounds a value, it does not round one.
        if field.isInteger, x.rounded(.towardZero) != x {
            throw AnimrtError(.outOfRange, "field '\(field.name)' of '\(declaration.name)' is \(NumberText.given(x)); it must be a whole number")
        }
        if let lo = field.minimum, x < lo {
            if field.clamps { return .number(lo) }
            throw AnimrtError(.outOfRange, "field '\(field.name)' of '\(declaration.name)' is \(NumberText.given(x)); the minimum is \(NumberText.given(lo))")
        }
        if let hi = field.maximum, x > hi {
            if field.clamps { return .number(hi) }
            throw AnimrtError(.outOfRange, "field '\(field.name)' of '\(declaration.name)' is \(NumberText.given(x)); the maximum is \(NumberText.given(hi))")
        }
        // The host reads a whole-number field as an int64_t: a whole double
        // past it (1e19) would have no such value. -2^63 is one; 2^63 is not.
        if field.isInteger, !PayloadField.holdsInt64(x) {
            throw pastInt64(NumberText.given(x), field: field.name, of: declaration.name)
        }
        return v
    }

    // MARK: Reading an instance

    /// The active leaf state's id. Between microsteps (whenever the C ABI
    /// or Python can ask) it agrees with `isActive`; a Swift function called
    /// by an action inside a microstep sees the leaf the microstep started
    /// from, while `isActive` follows the exits and entries run so far (a
    /// microstep has no active leaf until its entries are done).
    public func state(of h: Handle) throws(AnimrtError) -> Int { try live(h).leaf }

    /// Whether state `s` is active (the leaf or one of its ancestors); inside
    /// a microstep, a state is active until its exit actions have run and
    /// from its entry actions on.
    public func isActive(_ s: Int, in h: Handle) throws(AnimrtError) -> Bool {
        let m = try live(h)
        try m.definition.checkID(s, .state)
        return m.activations[s] != 0
    }

    /// The value of context field `field` (a computed field is evaluated now).
    public func context(_ field: Int, of h: Handle) throws(AnimrtError) -> MachineValue {
        let m = try live(h)
        try m.definition.checkID(field, .context)
        return try m.computed(field)
    }

    /// The definition an instance runs.
    public func definition(of h: Handle) throws(AnimrtError) -> MachineDefinition { try live(h).definition }

    /// Whether the instance has entered a top-level final state.
    public func isFinished(_ h: Handle) throws(AnimrtError) -> Bool { try live(h).finished }
}

extension MachineInstance {
    /// Cancels everything the instance started and destroys its parts.
    func tearDown() {
        for s in activations.indices where activations[s] != 0 {
            for t in afterTimers[s] { try? runtime.cancelTimer(t.timer) }
            afterTimers[s].removeAll()
            if let b = stateBarriers[s] { try? runtime.destroyBarrier(b); stateBarriers[s] = nil }
        }
        for t in namedTimers.indices { if let n = namedTimers[t] { try? runtime.cancelTimer(n.timer) }; namedTimers[t] = nil }
        closeThrottleWindows()
        for layer in parts.reversed() { try? runtime.destroyLayer(layer, by: self) }
        internalQueue.removeAll(); externalQueue.removeAll()
    }
}

/// A JSON payload member's number as written: to 38 significant digits
/// and within 10^±127, which `Decimal` holds (nil past them, or for a member
/// that is not a number). What a whole-number field's values from 2^52 on
/// are read as (`send(_:event:json:)`).
private struct ExactLiteral: Decodable {
    let value: Decimal?
    init(from decoder: any Decoder) throws { value = try? decoder.singleValueContainer().decode(Decimal.self) }

    /// The payload value of `literal` for a whole-number field: refused if
    /// it is not whole, or if it is past the C integer the host reads it as
    /// (its digits named, not the double nearest them).
    static func whole(_ literal: Decimal, field: String, of event: String) throws(AnimrtError) -> TaggedValue {
        let digits = literal.description
        guard !digits.contains(".") else {
            throw AnimrtError(.outOfRange, "field '\(field)' of '\(event)' is \(digits); it must be a whole number")
        }
        guard let i = Int64(digits) else { throw MachineHost.pastInt64(digits, field: field, of: event) }
        return .integer(i)  // checked as a C integer is: one no double holds is refused
    }
}
