/// Named timing functions.
///
/// Every runtime owns one registry, seeded with Core Animation's named curves
/// (`linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`) and the CSS
/// aliases (`ease`, `ease-in`, `ease-out`, `ease-in-out`). Plugins add theirs
/// with `register(_:as:)`. Anonymous curves (a custom cubic-bezier set on one
/// animation) are not kept here: they live as long as what uses them.
public struct TimingFunctionRegistry: Sendable {
    /// Index of a function in `functions`.
    public typealias ID = Int32

    /// The registered functions (a name may share one with another name).
    public internal(set) var functions: [TimingFunction] = []
    var byName: [String: ID] = [:]
    var interned: [TimingFunction: ID] = [:]
    /// Names in registration order: Core Animation's first, then plugins'.
    var registered: [String] = []
    /// Families of functions from outside the core, by name (see +Families).
    var families: [String: TimingFunctionFamily] = [:]
    /// Slots of unregistered families that no name refers to, taken again
    /// by the next function registered: loading and unloading a plugin over
    /// and over keeps the table its size.
    var freeSlots: [ID] = []
    /// CSS name → Core Animation name.
    private var aliases: [String: String] = [:]
    /// CSS keywords with no Core Animation name (step-start, step-end).
    private var cssKeywords: [String] = []

    /// A registry of the standard curves; registries share its storage
    /// until one registers a function of its own (a runtime is cheap to create).
    public init() { self = TimingFunctionRegistry.standard }

    private static let standard: TimingFunctionRegistry = {
        var r = TimingFunctionRegistry(empty: ())
        for (name, f) in [("linear", TimingFunction.linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
                          ("easeInEaseOut", .easeInEaseOut), ("default", .default)] {
            try! r.register(f, as: name)
        }
        for (alias, name) in [("ease", "default"), ("ease-in", "easeIn"), ("ease-out", "easeOut"),
                              ("ease-in-out", "easeInEaseOut")] {
            r.byName[alias] = r.byName[name]
            r.aliases[alias] = name
        }
        // CSS Easing: step-start is steps(1, start), step-end is steps(1, end).
        for (name, position) in [("step-start", StepPosition.jumpStart), ("step-end", .jumpEnd)] {
            r.byName[name] = r.intern(.steps(StepsFunction(count: 1, position: position)))
            r.cssKeywords.append(name)
        }
        return r
    }()

    private init(empty: ()) {}

    /// The refusal of a name already in the registry: one of the built-in
    /// curves is said to be built in (a host registering "easeIn" would
    /// otherwise look for who registered it).
    public func nameTaken(_ name: String) -> AnimrtError {
        if TimingFunctionRegistry.standard.byName[name] != nil {
            return AnimrtError(.exists, "'\(name)' is a built-in timing function; register yours under another name")
        }
        return AnimrtError(.exists, "a timing function named '\(name)' is already registered")
    }

    /// The names known to the registry, sorted.
    public var names: [String] { byName.keys.sorted() }

    /// Registers `function` under `name`. A name can be registered once.
    @discardableResult
    public mutating func register(_ function: TimingFunction, as name: String) throws(AnimrtError) -> ID {
        guard !name.isEmpty else { throw AnimrtError(.invalidArgument, "a timing function name cannot be empty") }
        try requireNameLength(name, "timing function name")
        guard byName[name] == nil else { throw nameTaken(name) }
        let id = intern(function)
        byName[name] = id
        registered.append(name)
        return id
    }

    /// The index of `function` in `functions`, adding it if it is new.
    mutating func intern(_ function: TimingFunction) -> ID {
        if let id = interned[function] { return id }
        let id: ID
        if let free = freeSlots.popLast() {
            id = free
            functions[Int(id)] = function
        } else {
            id = ID(functions.count)
            functions.append(function)
        }
        interned[function] = id
        return id
    }

    /// The function registered under `name`; `steps(n, position)`,
    /// `cubic-bezier(x1, y1, x2, y2)`, `linear(stop, …)` and members of
    /// registered families (`elastic(0.3)`) are parsed as well.
    public func function(named name: String) throws(AnimrtError) -> TimingFunction {
        if let id = byName[name] { return functions[Int(id)] }
        if let member = try member(named: name) { return member }
        if let parsed = try Self.parseFunctional(name) { return parsed }
        // Functional notations (linear() may hold 10 000 stops) have their
        // own limits; a name is at most `Limits.nameBytes`.
        try requireNameLength(name, "timing function name")
        // The suggestion and the list of names are made when the message is
        // read (after the C layer's lock is released).
        let (names, aliases, registered, css) = (self.names, self.aliases, self.registered, self.cssKeywords)
        throw AnimrtError(.notFound, "no timing function named '\(name)'") {
            // "…'bouncy'; known: …", or "…'easeInOut'; did you mean 'easeInEaseOut'? Known: …".
            var ending = "; known: "
            if let near = Self.suggestion(for: name, names: names, aliases: aliases) { ending = "; did you mean '\(near)'? Known: " }
            return ending + registered.joined(separator: ", ")
                + " (CSS: " + (aliases.keys.sorted() + css).joined(separator: ", ") + ")"
                + ", cubic-bezier(x1, y1, x2, y2), steps(n[, jump-start|jump-end|jump-none|jump-both]), linear(stop, …)"
        }
    }

    /// The known name closest to a misspelt one. Core Animation's names are
    /// preferred: a near miss of a CSS alias suggests the name it stands for
    /// ("easeInOut" → "easeInEaseOut"), unless the word is written the CSS
    /// way, with hyphens.
    func suggestion(for name: String) -> String? { Self.suggestion(for: name, names: names, aliases: aliases) }

    static func suggestion(for name: String, names: [String], aliases: [String: String]) -> String? {
        // Core Animation's constants as Objective-C and Swift write them
        // (kCAMediaTimingFunctionEaseIn, CAMediaTimingFunctionName.easeIn,
        // .easeIn) name the function after their prefix.
        for prefix in ["kCAMediaTimingFunction", "CAMediaTimingFunctionName.", "."] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if let first = rest.first, names.contains(first.lowercased() + rest.dropFirst()) {
                return first.lowercased() + rest.dropFirst()
            }
        }
        guard let near = closestMatch(to: name, in: names) else { return nil }
        if let canonical = aliases[near], !name.contains("-") { return canonical }
        return near
    }

    /// Parses `cubic-bezier(a, b, c, d)`, `steps(n[, position])` and
    /// `linear(stop, …)` (CSS Easing 2).
    static func parseFunctional(_ text: String) throws(AnimrtError) -> TimingFunction? {
        guard let open = text.firstIndex(of: "("), text.last == ")" else { return nil }
        let head = text[..<open].trimmingSpaces
        let args = text[text.index(after: open)..<text.index(before: text.endIndex)]
            .split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        switch head {
        case "cubic-bezier":
            let numbers = args.compactMap { Double($0) }
            guard numbers.count == 4, args.count == 4 else {
                throw AnimrtError(.invalidArgument, "'\(text)': cubic-bezier takes four numbers")
            }
            return try TimingFunction.cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
        case "steps":
            guard (1...2).contains(args.count), let n = Int(args[0]) else {
                throw AnimrtError(.invalidArgument, "'\(text)': steps takes a count and an optional position")
            }
            var position = StepPosition.jumpEnd
            if args.count == 2 {
                guard let p = StepPosition(name: String(args[1])) else {
                    throw AnimrtError(.invalidArgument,
                        "'\(text)': unknown step position '\(args[1])' (jump-start, jump-end, jump-none, jump-both, start, end)")
                }
                position = p
            }
            return try TimingFunction.steps(n, position)
        case "linear":
            return .piecewiseLinear(try PiecewiseLinear.parse(args, text: text))
        default:
            return nil
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
