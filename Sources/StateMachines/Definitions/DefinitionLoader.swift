import AnimationCore

/// Turns a definition's JSON into a checked `MachineDefinition`, or an
/// error naming the JSON path (and the column, inside an expression).
///
/// Names a definition refers to are checked here: key paths against the
/// runtime's properties, timing functions against its registry, functions
/// against its machine functions. So a definition that loads can run.
final class DefinitionLoader {
    var properties: PropertyRegistry
    let curves: TimingFunctionRegistry
    let functions: FunctionRegistry

    // Declarations, by name → (index, …).
    var configFields: [String: Field] = [:]
    var config: [ConfigParameter] = []
    var contextFields: [String: Field] = [:]
    var context: [ContextField] = []
    /// Computed context fields, parsed once every name is known.
    var computedNodes: [(field: Int, node: JSONNode)] = []
    var events: [EventDeclaration] = []
    var eventIDs: [String: Int] = [:]
    var emits: [EventDeclaration] = []
    var emitIDs: [String: Int] = [:]
    var requests: [EventDeclaration] = []
    var requestIDs: [String: Int] = [:]
    var stringKeys: [String] = []
    var stringIDs: [String: Int] = [:]
    var locales: [String: [String?]] = [:]
    var defaultLocale = "en"
    var timerNames: [String] = []
    var timerIDs: [String: Int] = [:]
    var partIDs: [String: Int] = [:]
    var parts: [PartDeclaration] = []
    var templateNodes: [String: JSONNode] = [:]
    var templates: [String: Template] = [:]
    var templatesInProgress: Set<String> = []

    // States: full name → id, and the JSON of each.
    var stateNames: [String] = []
    var stateIDs: [String: Int] = [:]
    /// The ids of the states whose full name ends in each last part ("celebrating"), in id order.
    var stateIDsByLastName: [String: [Int]] = [:]
    var stateJSON: [JSONNode] = []
    var stateParents: [Int] = []
    /// Each state's children, in id order (made with `stateParents`).
    var stateChildren: [[Int]] = []
    /// The machine functions and the timing function families from outside
    /// the core that the definition resolved, each once: what it holds of
    /// the runtime's extensions (`MachineDefinition.functions` and `families`).
    var usedFunctions: [MachineFunction] = []
    var usedFamilies: [TimingFunctionFamily] = []
    private var used: Set<ObjectIdentifier> = []

    static let builtinErrorEvent = "error.execution"

    init(properties: PropertyRegistry, curves: TimingFunctionRegistry, functions: FunctionRegistry) {
        self.properties = properties; self.curves = curves; self.functions = functions
    }

    /// Loads a definition from JSON text.
    static func load(_ text: String, properties: PropertyRegistry, curves: TimingFunctionRegistry,
                     functions: FunctionRegistry) throws(AnimrtError) -> MachineDefinition {
        guard text.utf8.count <= DefinitionLimits.maxBytes else {
            throw AnimrtError(.outOfRange, "the definition is \(text.utf8.count) bytes; at most \(DefinitionLimits.maxBytes) are accepted")
        }
        let json: JSONValue
        do throws(AnimrtErrorBox) { json = try JSONValue.parse(Array(text.utf8)) }
        catch { throw AnimrtError(error.status, message: error.message) }
        let loader = DefinitionLoader(properties: properties, curves: curves, functions: functions)
        return try loader.definition(JSONNode(value: json, path: ""), source: text)
    }

    func definition(_ root: JSONNode, source: String) throws(AnimrtError) -> MachineDefinition {
        let top = try root.object(allowed: DefinitionKeys.top, required: ["name", "initial", "states"])
        let name = try top["name"]!.name("the machine name")
        let summary = try top["description"]?.string() ?? ""
        var maxMicrosteps = DefinitionLimits.defaultMicrosteps
        if let m = top["maxMicrosteps"] {
            let v = try m.number()
            guard v >= 1, v <= Double(DefinitionLimits.maxMicrosteps), v == v.rounded() else {
                throw m.error(.outOfRange, "maxMicrosteps is \(NumberText.given(v)); it must be a whole number from 1 to \(DefinitionLimits.maxMicrosteps)")
            }
            maxMicrosteps = Int(v)
        }
        if let c = top["config"] { try loadConfig(c) }
        if let r = top["requests"] { requests = try declarations(r, "request", ids: &requestIDs) }
        if let e = top["events"] { events = try declarations(e, "event", ids: &eventIDs) }
        addBuiltinEvents()
        if let e = top["emits"] { emits = try declarations(e, "emitted event", ids: &emitIDs) }
        try loadStrings(top["strings"], locale: top["locale"])
        if let c = top["context"] { try loadContext(c) }
        try collectStates(top["states"]!, parent: nil, prefix: "", depth: 1)
        try collectTimers()
        try loadComputedFields()
        if let p = top["parts"] { try loadParts(p, parent: -1) }
        if let a = top["animations"] {
            for (n, node) in try a.members() {
                try JSONNode.checkName(n, "animation template name", node)
                templateNodes[n] = node
            }
            for n in templateNodes.keys.sorted() { _ = try template(named: n, at: templateNodes[n]!, depth: 1) }
        }
        let states = try buildStates()
        let initial = try resolveTarget(top["initial"]!, from: -1)
        guard states[initial].parent == -1 else {
            throw top["initial"]!.error(.invalidArgument, "the initial state '\(stateNames[initial])' must be a top-level state")
        }
        return MachineDefinition(name: name, summary: summary, config: config, context: context, events: events, emits: emits,
                                 requests: requests, states: states, initial: initial, parts: parts, templates: templates,
                                 stringKeys: stringKeys, locales: locales, defaultLocale: defaultLocale,
                                 timerNames: timerNames, maxMicrosteps: maxMicrosteps, source: source,
                                 functions: usedFunctions, families: usedFamilies)
    }

    /// Notes that the definition holds `f`.
    func using(_ f: MachineFunction) {
        if used.insert(ObjectIdentifier(f)).inserted { usedFunctions.append(f) }
    }

    /// Notes that the definition holds a member of `family`.
    func using(_ family: TimingFunctionFamily) {
        if used.insert(ObjectIdentifier(family)).inserted { usedFamilies.append(family) }
    }

    // MARK: Declarations

    func loadConfig(_ node: JSONNode) throws(AnimrtError) {
        let members = try node.members()
        try checkCount(members.count, "config parameters", node)
        for (n, item) in members {
            try JSONNode.checkName(n, "config parameter name", item)
            let o = try item.object(allowed: DefinitionKeys.config, required: ["type", "default"],
                                    example: "a config parameter is written {\"type\": \"number\", \"default\": 0}")
            let type = try machineType(o["type"]!, allowed: MachineType.allNames)
            let minimum = try o["min"]?.number(), maximum = try o["max"]?.number()
            if (minimum != nil || maximum != nil) && type != .number {
                throw item.error(.invalidArgument, "min and max apply to numbers; '\(n)' is a \(type)")
            }
            if let lo = minimum, let hi = maximum, lo > hi {
                throw item.error(.outOfRange, "min (\(NumberText.given(lo))) is greater than max (\(NumberText.given(hi)))")
            }
            var choices: [String] = []
            if let c = o["oneOf"] {
                guard type == .string else { throw c.error(.invalidArgument, "oneOf applies to strings; '\(n)' is a \(type)") }
                for e in try c.array() { choices.append(try e.string()) }
            }
            let value = try literal(o["default"]!, type: type)
            let parameter = ConfigParameter(name: n, type: type, defaultValue: value, minimum: minimum, maximum: maximum,
                                            choices: choices, summary: try o["description"]?.string() ?? "")
            try ConfigParameter.check(parameter, value, at: o["default"]!, as: "the default")
            configFields[n] = Field(index: config.count, type: type)
            config.append(parameter)
        }
    }

    func loadContext(_ node: JSONNode) throws(AnimrtError) {
        let members = try node.members()
        try checkCount(members.count, "context fields", node)
        var scope = ExpressionScope()
        scope.config = configFields
        scope.functions = functions
        scope.strings = stringIDs
        scope.noEvent = "context initial values are computed when the instance is created"
        scope.readsMachine = false  // a computed field reads the others
        for (n, item) in members {
            try JSONNode.checkName(n, "context field name", item)
            let o = try item.object(allowed: DefinitionKeys.context, required: ["type"],
                                    example: "a context field is written {\"type\": \"number\", \"initial\": 0}")
            let type = try machineType(o["type"]!, allowed: ["number", "bool", "string"])
            let summary = try o["description"]?.string() ?? ""
            switch (o["initial"], o["computed"]) {
            case (let i?, nil):
                let initial = try expression(i, scope: scope, type: type)
                contextFields[n] = Field(index: context.count, type: type)
                context.append(ContextField(name: n, type: type, initial: initial, computed: nil, summary: summary))
            case (nil, let c?):
                let placeholder: MachineValue = type == .number ? .number(0) : type == .bool ? .bool(false) : .string("")
                contextFields[n] = Field(index: context.count, type: type, isComputed: true)
                computedNodes.append((context.count, c))
                context.append(ContextField(name: n, type: type, initial: Expression(constant: placeholder, text: "\(placeholder)"),
                                            computed: nil, summary: summary))
            case (_?, _?):
                throw item.error(.invalidArgument, "a context field has an \"initial\" value (stored) or a \"computed\" expression, not both")
            case (nil, nil):
                throw item.error(.invalidArgument, "a context field needs an \"initial\" value (stored) or a \"computed\" expression")
            }
        }
    }

    /// Parses computed fields (they may read config, context, in(),
    /// timerActive(), text() and now()) and refuses cycles among them.
    func loadComputedFields() throws(AnimrtError) {
        guard !computedNodes.isEmpty else { return }
        let s = scope(event: nil, note: "a computed field is evaluated whenever it is read, whatever event led there")
        var uses: [Int: [Int]] = [:]
        for (field, node) in computedNodes {
            let e = try expression(node, scope: s, type: context[field].type)
            context[field].computed = e
            uses[field] = e.root.computedFields
        }
        // Depth-first search for a cycle (1 = on the path, 2 = done), and for
        // chains deeper than the nesting limit (reading one evaluates them all).
        var mark: [Int: Int] = [:]
        var height: [Int: Int] = [:]  // the longest chain from a field that is done
        let nodes = Dictionary(computedNodes.map { ($0.field, $0.node) }, uniquingKeysWith: { a, _ in a })
        func visit(_ f: Int, _ path: [Int]) throws(AnimrtError) {
            let node = nodes[f]!
            if mark[f] == 1 {
                let cycle = path[path.firstIndex(of: f)!...].map { "'\(context[$0].name)'" } + ["'\(context[f].name)'"]
                throw node.error(.invalidArgument, "computed fields depend on each other in a cycle: \(cycle.joined(separator: " → "))")
            }
            guard path.count + (height[f] ?? 1) <= DefinitionLimits.maxDepth else {
                throw nodes[path.first ?? f]!.error(.outOfRange, "computed fields read each other more than \(DefinitionLimits.maxDepth) deep (from '\(context[path.first ?? f].name)')")
            }
            if mark[f] == 2 { return }
            mark[f] = 1
            var h = 1
            for g in uses[f] ?? [] {
                try visit(g, path + [f])
                h = max(h, 1 + height[g]!)
            }
            height[f] = h
            mark[f] = 2
        }
        for (field, _) in computedNodes { try visit(field, []) }
    }

    func declarations(_ node: JSONNode, _ what: String, ids: inout [String: Int]) throws(AnimrtError) -> [EventDeclaration] {
        let members = try node.members()
        try checkCount(members.count, "\(what)s", node)
        var out: [EventDeclaration] = []
        for (n, item) in members {
            guard DefinitionLoader.isEventName(n), n.utf8.count <= DefinitionLimits.maxNameLength else {
                throw item.error(.invalidArgument, "\(what) name '\(n)' must be 1 to \(DefinitionLimits.maxNameLength) ASCII letters, digits, '_', '-' and '.', starting with a letter or '_'")
            }
            if n == DefinitionLoader.builtinErrorEvent {
                throw item.error(.exists, "'\(n)' is the built-in event raised when an action fails; it is declared already")
            }
            let allowed = what == "event" ? DefinitionKeys.event : DefinitionKeys.declaration
            let o = try item.object(allowed: allowed)
            var fields: [PayloadField] = []
            var resultOf: Int?
            if let r = o["resultOf"] {
                let op = try r.string()
                guard let id = requestIDs[op] else {
                    throw r.error(.notFound, "no request named '\(op)'\(suggestion(op, Array(requestIDs.keys)))")
                }
                resultOf = id
                fields.append(PayloadField(name: "request", type: .number, minimum: 0, maximum: nil, clamps: false, isInteger: true, defaultValue: nil))
            }
            if let p = o["payload"] {
                let list = try p.array()
                try checkCount(list.count, "payload fields", p)
                for f in list {
                    let fo = try f.object(allowed: DefinitionKeys.payloadField, required: ["name", "type"])
                    let fname = try fo["name"]!.name("payload field name")
                    guard !fields.contains(where: { $0.name == fname }) else {
                        throw fo["name"]!.error(.exists, "payload field '\(fname)' is declared twice\(resultOf != nil && fname == "request" ? " (a result event has a 'request' field already)" : "")")
                    }
                    let type = try machineType(fo["type"]!, allowed: ["number", "bool", "string"])
                    let lo = try fo["min"]?.number(), hi = try fo["max"]?.number()
                    if (lo != nil || hi != nil || fo["clamp"] != nil || fo["integer"] != nil) && type != .number {
                        throw f.error(.invalidArgument, "min, max, clamp and integer apply to numbers; '\(fname)' is a \(type)")
                    }
                    if let lo, let hi, lo > hi { throw f.error(.outOfRange, "min is greater than max") }
                    let clamps = try fo["clamp"]?.bool() ?? false
                    if clamps && lo == nil && hi == nil { throw fo["clamp"]!.error(.invalidArgument, "clamp needs a min or a max") }
                    let integer = try fo["integer"]?.bool() ?? false
                    // A whole-number field that clamps to a bound that is not
                    // whole would deliver the very value it refuses from a send.
                    if integer && clamps, let b = [lo, hi].compactMap({ $0 }).first(where: { $0.rounded(.towardZero) != $0 }) {
                        throw fo["clamp"]!.error(.invalidArgument, "'\(fname)' is a whole number and clamps to \(NumberText.given(b)), which is not one")
                    }
                    // Nor one past the int64_t the host reads it as (a send clamped to 1e19 would be refused).
                    if integer && clamps, let b = [lo, hi].compactMap({ $0 }).first(where: { !PayloadField.holdsInt64($0) }) {
                        throw fo["clamp"]!.error(.outOfRange, "'\(fname)' clamps to \(NumberText.given(b)); \(PayloadField.int64Range)")
                    }
                    // And it must take some value: a whole number in its range and within an int64_t.
                    if integer {
                        let least = max((lo ?? -0x1p63).rounded(.up), -0x1p63), most = min((hi ?? 0x1p63).rounded(.down), 0x1p63 - 1024)
                        if least > most {
                            let range = [lo.map { "min \(NumberText.given($0))" }, hi.map { "max \(NumberText.given($0))" }].compactMap { $0 }
                            throw f.error(.outOfRange, "'\(fname)' is a whole number with \(range.joined(separator: " and ")): no int64_t is in that range, so no send could give it a value")
                        }
                    }
                    let def = try fo["default"].map { (d: JSONNode) throws(AnimrtError) in try literal(d, type: type) }
                    // A field left out takes its default unchecked (the C
                    // interface's trailing fields): it must be a value a send could give.
                    if case .number(let x)? = def {
                        if let lo, x < lo { throw fo["default"]!.error(.outOfRange, "the default of '\(fname)' is \(NumberText.given(x)); the minimum is \(NumberText.given(lo))") }
                        if let hi, x > hi { throw fo["default"]!.error(.outOfRange, "the default of '\(fname)' is \(NumberText.given(x)); the maximum is \(NumberText.given(hi))") }
                        if integer, x.rounded(.towardZero) != x {
                            throw fo["default"]!.error(.outOfRange, "the default of '\(fname)' is \(NumberText.given(x)); it must be a whole number")
                        }
                        if integer, !PayloadField.holdsInt64(x) {
                            throw fo["default"]!.error(.outOfRange, "the default of '\(fname)' is \(NumberText.given(x)); \(PayloadField.int64Range)")
                        }
                    }
                    fields.append(PayloadField(name: fname, type: type, minimum: lo, maximum: hi, clamps: clamps, isInteger: integer,
                                               defaultValue: def))
                }
            }
            ids[n] = out.count
            let partial = try o["partial"]?.bool() ?? false
            if partial && resultOf == nil {
                throw o["partial"]!.error(.invalidArgument, "\"partial\" marks a result that leaves its request open; it needs \"resultOf\"")
            }
            var throttle: Expression?
            if let t = o["throttle"] {
                if resultOf != nil && !partial {
                    throw t.error(.invalidArgument, "a final result is processed once; only events and partial results can be throttled")
                }
                var scope = ExpressionScope()
                scope.config = configFields
                scope.functions = functions
                scope.noEvent = "the throttle interval is computed when the instance is created"
                scope.readsMachine = false
                throttle = try expression(t, scope: scope, type: .number)
            }
            out.append(EventDeclaration(name: n, payload: fields, resultOf: resultOf, isPartial: partial, throttle: throttle,
                                        summary: try o["description"]?.string() ?? ""))
        }
        return out
    }

    /// `error.execution`: raised inside the machine when an action fails.
    func addBuiltinEvents() {
        eventIDs[DefinitionLoader.builtinErrorEvent] = events.count
        events.append(EventDeclaration(name: DefinitionLoader.builtinErrorEvent,
                                       payload: [PayloadField(name: "message", type: .string, minimum: nil, maximum: nil,
                                                              clamps: false, defaultValue: .string(""))],
                                       resultOf: nil, summary: "raised by the machine when an action fails"))
    }

    static func isEventName(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first, f == "_" || (f >= "a" && f <= "z") || (f >= "A" && f <= "Z") else { return false }
        return s.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "." || $0 == "-" || ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9")
        }
    }

    func loadStrings(_ node: JSONNode?, locale: JSONNode?) throws(AnimrtError) {
        guard let node else {
            if let locale { throw locale.error(.invalidArgument, "a default locale needs a \"strings\" table") }
            return
        }
        let tables = try node.members()
        guard !tables.isEmpty else { throw node.error(.invalidArgument, "the strings table has no locale") }
        if let locale { defaultLocale = try locale.string() } else { defaultLocale = tables.contains { $0.0 == "en" } ? "en" : tables[0].0 }
        guard let base = tables.first(where: { $0.0 == defaultLocale }) else {
            throw (locale ?? node).error(.notFound, "the default locale '\(defaultLocale)' has no strings table (tables: \(tables.map(\.0).joined(separator: ", ")))")
        }
        for (key, _) in try base.1.members() {
            stringIDs[key] = stringKeys.count
            stringKeys.append(key)
        }
        for (loc, table) in tables {
            var texts = [String?](repeating: nil, count: stringKeys.count)
            for (key, text) in try table.members() {
                guard let i = stringIDs[key] else {
                    throw text.error(.notFound, "'\(key)' is not a key of the default locale '\(defaultLocale)'\(suggestion(key, stringKeys))")
                }
                texts[i] = try text.instanceString()
            }
            locales[loc] = texts
        }
    }

    // MARK: Helpers

    func checkCount(_ n: Int, _ what: String, _ at: JSONNode) throws(AnimrtError) {
        guard n <= DefinitionLimits.maxItems else {
            throw at.error(.outOfRange, "\(n) \(what); at most \(DefinitionLimits.maxItems) are accepted")
        }
    }

    static let typeAliases = ["str": "string", "text": "string", "int": "number", "integer": "number", "float": "number",
                              "double": "number", "boolean": "bool"]

    func machineType(_ node: JSONNode, allowed: [String]) throws(AnimrtError) -> MachineType {
        let s = try node.string()
        guard allowed.contains(s), let t = MachineType(name: s) else {
            // Other languages' names for the same types are too far from
            // ours for the spelling suggestion ("str" is 3 edits from "string").
            let hint = DefinitionLoader.typeAliases[s.lowercased()].flatMap { allowed.contains($0) ? "; did you mean '\($0)'?" : nil }
            throw node.error(.invalidArgument, "unknown type '\(s)'\(hint ?? suggestion(s, allowed)) (types here: \(allowed.joined(separator: ", ")))")
        }
        return t
    }

    func suggestion(_ word: String, _ candidates: [String]) -> String {
        closestMatch(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The message for an event a transition names that `events` does not
    /// declare: the closest declared one, else where to declare it.
    func undeclaredEvent(_ name: String) -> String {
        let near = suggestion(name, Array(eventIDs.keys))
        return "'\(name)' is not a declared event" + (near.isEmpty ? "; declare it in the top-level \"events\": {\"\(name)\": {}}" : near)
    }

    /// A literal of `type`: a JSON number, boolean or string (taken as
    /// text, not as an expression), or a colour "#rrggbb[aa]" or an array
    /// of numbers for vectors.
    func literal(_ node: JSONNode, type: MachineType) throws(AnimrtError) -> MachineValue {
        switch (type, node.value) {
        case (.number, .number(let d)): return .number(d)
        case (.bool, .bool(let b)): return .bool(b)
        case (.string, .string): return .string(try node.instanceString())
        case (.vector(let k), .string(let s)) where k == .color:
            guard let c = DefinitionLoader.hexColor(s) else { throw node.error(.invalidArgument, "'\(s)' is not a colour; write \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a]") }
            return .vector(c)
        case (.vector(let k), .array(let items)):
            var components: [Double] = []
            for (i, item) in items.enumerated() {
                guard case .number(let d) = item else { throw node.element(i, item).wrongType("a number") }
                components.append(d)
            }
            do throws(AnimrtError) { return .vector(try AnimatableValue(kind: k, components: components)) }
            catch { throw node.error(error.status, error.message) }
        default:
            throw node.error(.kind, "expected a \(type) literal, found \(node.value.kindName)")
        }
    }

    /// "#rrggbb" or "#rrggbbaa" as a colour with components in [0, 1].
    static func hexColor(_ s: String) -> AnimatableValue? {
        let digits = Array(s.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        // Each digit by hand: integer parsing takes a sign ("+f" is 15),
        // and "#+f+f+f" is no colour.
        func nibble(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var c: [Double] = []
        var i = 1
        while i < digits.count {
            guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
            c.append(Double(high * 16 + low) / 255)
            i += 2
        }
        if c.count == 3 { c.append(1) }
        return .color(c[0], c[1], c[2], c[3])
    }

    /// An expression from a JSON number, boolean or string (a string is
    /// parsed as an expression: text literals are quoted inside it).
    /// A timer's delay: a number expression; one that is constant must be a
    /// delay a timer can run (at run time a computed one that is not is
    /// reported, and its timer does not start).
    func delayExpression(_ node: JSONNode, scope: ExpressionScope) throws(AnimrtError) -> Expression {
        let delay: Expression
        do throws(AnimrtError) { delay = try expression(node, scope: scope, type: .number) }
        catch {
            // "2s" or "500ms", as CSS writes durations: say that a delay is seconds, without a unit.
            guard case .string(let text) = node.value, let hint = DefinitionLoader.delayUnitHint(text) else { throw error }
            throw AnimrtError(error.status, message: error.message + hint)
        }
        if case .number(let d)? = delay.constantValue, !(d.isFinite && d >= 0) {
            throw node.error(.outOfRange, "the delay is \(NumberText.given(d)); it must be a finite number of seconds, 0 or more")
        }
        return delay
    }

    /// For a delay written as a number with a unit ("2s", "500 ms"): what
    /// to write instead, as "; …"; nil for anything else.
    static func delayUnitHint(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }  // "500 ms" as "500ms"
        guard let split = compact.firstIndex(where: { $0.isLetter && $0 != "e" && $0 != "E" }) else { return nil }
        let unit = compact[split...].lowercased()
        guard let number = Double(compact[..<split]), number.isFinite else { return nil }
        let seconds: Double
        switch unit {
        case "s", "sec", "secs", "second", "seconds": seconds = number
        case "ms", "millisecond", "milliseconds": seconds = number / 1000
        default: return nil
        }
        return "; a delay is a number of seconds, without a unit: write \(NumberText.format(seconds))"
    }

    func expression(_ node: JSONNode, scope: ExpressionScope, type: MachineType?) throws(AnimrtError) -> Expression {
        switch node.value {
        case .number(let d):
            if let type, type != .number { throw node.error(.kind, "a number is given where a \(type) is needed") }
            return Expression(constant: .number(d), text: NumberText.format(d))
        case .bool(let b):
            if let type, type != .bool { throw node.error(.kind, "a boolean is given where a \(type) is needed") }
            return Expression(constant: .bool(b), text: b ? "true" : "false")
        case .string(let text):
            guard text.utf8.count <= DefinitionLimits.maxExpressionLength else {
                throw node.error(.outOfRange, "the expression is \(text.utf8.count) bytes; at most \(DefinitionLimits.maxExpressionLength) are accepted")
            }
            if case .vector(.color)? = type, let c = DefinitionLoader.hexColor(text) {
                return Expression(constant: .vector(c), text: text)
            }
            do throws(ExpressionError) {
                let e = try Parser.parse(text, scope: scope, expected: type)
                for f in e.program.functions { using(f) }
                return e
            } catch {
                var message = error.message
                if type == .string, message.hasPrefix("unknown name") {
                    message += " (text is written in quotes inside the expression: \"'\(text)'\")"
                }
                throw node.error(error.status, "column \(error.column): \(message)")
            }
        default:
            throw node.error(.invalidArgument, "expected a number, a boolean or an expression string, found \(node.value.kindName)")
        }
    }
}

extension ConfigParameter {
    /// Checks a value against the parameter's type, range and choices.
    /// `subject` is what the message calls the value (the parameter's name
    /// in quotes unless given): where `node`'s path names the parameter
    /// already, the message says "the default", and a host's value is
    /// "config 'width'" with no path, so that neither names it twice.
    static func check(_ p: ConfigParameter, _ value: MachineValue, at node: JSONNode, as subject: String? = nil) throws(AnimrtError) {
        let it = subject ?? "'\(p.name)'"
        guard value.type == p.type else { throw node.error(.kind, "\(it) is a \(p.type); a \(value.type) was given") }
        guard value.isFinite else { throw node.error(.invalidArgument, "\(it) must be finite") }
        if case .number(let d) = value {
            if let lo = p.minimum, d < lo { throw node.error(.outOfRange, "\(it) is \(NumberText.given(d)); the minimum is \(NumberText.given(lo))") }
            if let hi = p.maximum, d > hi { throw node.error(.outOfRange, "\(it) is \(NumberText.given(d)); the maximum is \(NumberText.given(hi))") }
        }
        if case .string(let s) = value, !p.choices.isEmpty, !p.choices.contains(s) {
            throw node.error(.outOfRange, "\(it) is '\(s)'; it must be one of \(p.choices.map { "'\($0)'" }.joined(separator: ", "))")
        }
    }
}
