import AnimationCore

/// A JSON value and the path where it sits in the definition
/// ("states.loading.on.fetched[0].guard"): every error the loader raises
/// names that path.
struct JSONNode {
    let value: JSONValue
    let path: String

    func child(_ key: String, _ v: JSONValue) -> JSONNode { JSONNode(value: v, path: path.isEmpty ? key : "\(path).\(key)") }
    func element(_ i: Int, _ v: JSONValue) -> JSONNode { JSONNode(value: v, path: "\(path)[\(i)]") }

    func error(_ status: Status, _ message: String) -> AnimrtError {
        AnimrtError(status, message: path.isEmpty ? message : "\(path): \(message)")
    }

    func wrongType(_ wanted: String) -> AnimrtError {
        error(.invalidArgument, "expected \(wanted), found \(value.kindName)")
    }

    /// The object's members, refusing keys outside `allowed` (with a
    /// suggestion) and requiring `required`. `example`, when given, is what
    /// a value that is no object is answered with: how the item is written
    /// (a context field given as its initial value, `"count": 0`).
    func object(allowed: [String], required: [String] = [], example: String? = nil) throws(AnimrtError) -> [String: JSONNode] {
        guard case .object(let members) = value else {
            guard let example else { throw wrongType("an object") }
            throw error(.invalidArgument, "expected an object, found \(value.kindName): \(example)")
        }
        var out: [String: JSONNode] = [:]
        for key in members.keys.sorted() {
            guard allowed.contains(key) else {
                var message = "unknown key '\(key)'"
                if let near = closestMatch(to: key, in: allowed) { message += "; did you mean '\(near)'?" }
                else { message += " (allowed: \(allowed.sorted().joined(separator: ", ")))" }
                throw error(.invalidArgument, message)
            }
            out[key] = child(key, members[key]!)
        }
        for key in required where out[key] == nil {
            throw error(.invalidArgument, "the key '\(key)' is required")
        }
        return out
    }

    /// The members of an object whose keys are names chosen by the author
    /// (states, events, config …), sorted by key.
    func members() throws(AnimrtError) -> [(String, JSONNode)] {
        guard case .object(let members) = value else { throw wrongType("an object") }
        return members.keys.sorted().map { ($0, child($0, members[$0]!)) }
    }

    func array() throws(AnimrtError) -> [JSONNode] {
        guard case .array(let items) = value else { throw wrongType("an array") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// An array, or a single item standing for an array of one.
    func list() -> [JSONNode] {
        if case .array(let items) = value { return items.enumerated().map { element($0.offset, $0.element) } }
        return [self]
    }

    func string() throws(AnimrtError) -> String {
        guard case .string(let s) = value else { throw wrongType("a string") }
        return s
    }

    /// A string a machine instance will hold (copy, a string default): held
    /// to the limit every string entering an instance is, so that whatever
    /// an instance of this definition holds, its snapshot restores.
    func instanceString() throws(AnimrtError) -> String {
        let s = try string()
        try DefinitionLimits.checkString(s, at: path, as: "a definition's string")
        return s
    }

    func number() throws(AnimrtError) -> Double {
        guard case .number(let d) = value else { throw wrongType("a number") }
        return d
    }

    func bool() throws(AnimrtError) -> Bool {
        guard case .bool(let b) = value else { throw wrongType("true or false") }
        return b
    }

    /// A name: letters, digits and '_', not starting with a digit.
    func name(_ what: String) throws(AnimrtError) -> String {
        let s = try string()
        try JSONNode.checkName(s, what, self)
        return s
    }

    static func checkName(_ s: String, _ what: String, _ at: JSONNode) throws(AnimrtError) {
        guard Parser.isName(s), s.utf8.count <= DefinitionLimits.maxNameLength else {
            throw at.error(.invalidArgument, "\(what) '\(s)' must be 1 to \(DefinitionLimits.maxNameLength) ASCII letters, digits and '_', not starting with a digit")
        }
    }
}

/// The documented limits of a definition (docs/machines.md, "Limits").
public enum DefinitionLimits {
    /// The largest definition text, in bytes.
    public static let maxBytes = 4 << 20
    /// The longest name of a state, event, field, part, timer or template.
    public static let maxNameLength = 128
    /// The deepest nesting of states (and of template groups).
    public static let maxDepth = 32
    /// The most states, events, context fields, parts … of each kind.
    public static let maxItems = 4_096
    /// Default and largest bound on microsteps per macrostep.
    public static let defaultMicrosteps = 100
    public static let maxMicrosteps = 100_000
    /// The deepest nesting of objects and arrays in JSON the machines read
    /// (a definition, a payload, options, a snapshot). Decoding recurses
    /// once per level (deep text is decoded on a thread of its own,
    /// `LargeStack`); a definition at every other limit nests about 75 deep.
    public static let maxJSONDepth = 128
    /// The longest expression text, in bytes.
    public static let maxExpressionLength = 4_096
    /// The deepest nesting in an expression: the expression is one level,
    /// and each parenthesis, call, branch of '? :', '-' or 'not' inside it
    /// adds one. Parsing recurses once per level, so this bounds its stack
    /// (a deep expression is parsed on a thread of its own, `LargeStack`).
    /// A chain of operators ("context.r+1+1+…") is one level but as many
    /// operations deep, which `maxExpressionLength` bounds (about 2048):
    /// compiling and releasing the tree walk it without recursion. The
    /// deepest of each loads and runs on a thread of 128 KiB
    /// (test_machines.c, deep_input_on_a_small_stack).
    public static let maxExpressionDepth = 64
    /// The longest string an expression makes by joining two ('+'), in
    /// bytes: a context string that doubles on every event stops here, with
    /// an error, instead of taking the host's memory.
    public static let maxStringBytes = 1 << 20
    /// The most bytes of strings one payload (of an event emitted, raised,
    /// requested or sent by a timer) or one instance's context holds, all
    /// its fields together: each string may be `maxStringBytes` long, and
    /// 4096 fields of them would take gigabytes from a single event.
    public static let maxTotalStringBytes = 16 << 20

    /// Refuses a string that enters an instance from outside its definition
    /// when it is longer than `maxStringBytes` in UTF-8 bytes (exactly the
    /// limit is accepted): a per-instance string or a config value given at
    /// creation, a payload field of a host's send, a string restored from a
    /// snapshot. `place` names where it is ("config.title"), `what` says what
    /// it is ("a config string"). Every door calls this one check, so each
    /// refuses alike, with `.outOfRange`, before anything changes.
    ///
    /// A definition's own strings (its copy, the string defaults of its
    /// config parameters, context fields and payload fields) are checked as
    /// it loads (`JSONNode.instanceString`): a definition may be up to 4 MiB,
    /// and an instance holding a longer string could be snapshotted but not
    /// restored. The string literals of its expressions are inside an
    /// expression of at most `maxExpressionLength` bytes.
    static func checkString(_ s: String, at place: String, as what: String) throws(AnimrtError) {
        let n = s.utf8.count
        guard n <= maxStringBytes else {
            throw AnimrtError(.outOfRange, "\(place) is \(n) bytes; \(what) is at most \(maxStringBytes) bytes, as a string an expression makes is")
        }
    }
}
