/// Families of timing functions from outside the core: a plugin's or the
/// host's "bounce" and "elastic", usable as "bounce", "bounce(4)" or
/// "elastic(0.3, 2)" wherever a curve name is.
extension TimingFunctionRegistry {
    /// Names the functional syntax already uses.
    static let reservedNames: Set<String> = ["cubic-bezier", "steps", "linear"]

    /// Checks a family name: a letter or '_' first, then letters, digits,
    /// '_', '-' or '.', so that "name(…)" parses back to the family.
    public static func checkFamilyName(_ name: String) throws(AnimrtError) {
        guard let first = name.unicodeScalars.first else {
            throw AnimrtError(.invalidArgument, "a timing function name cannot be empty")
        }
        let isLetter = { (c: Unicode.Scalar) in ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        guard isLetter(first) || first == "_",
              name.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }) else {
            throw AnimrtError(.invalidArgument, "timing function name '\(name)' must start with a letter or '_' and hold only letters, digits, '_', '-' and '.'")
        }
        guard !reservedNames.contains(name) else {
            throw AnimrtError(.exists, "'\(name)' is a built-in timing function syntax (\(name)(…)); choose another name")
        }
    }

    /// Registers `family`: its name alone is the member with the defaults,
    /// "name(p1, …)" any other member. A name is registered once.
    public mutating func register(family: TimingFunctionFamily) throws(AnimrtError) {
        try Self.checkFamilyName(family.name)
        try checkRoom()
        guard byName[family.name] == nil else { throw nameTaken(family.name) }
        try register(.custom(family.defaultFunction), as: family.name)
        families[family.name] = family
    }

    /// Refuses one more family past `TimingFunctionFamily.maximumCount`
    /// (a bind asks before it opens a library).
    public func checkRoom() throws(AnimrtError) {
        guard families.count < TimingFunctionFamily.maximumCount else {
            throw AnimrtError(.outOfRange, "\(TimingFunctionFamily.maximumCount) timing functions are registered already, the most a runtime holds")
        }
    }

    /// The family registered under `name`, if any.
    public func family(named name: String) -> TimingFunctionFamily? { families[name] }

    /// Forgets `family` (registered under its name): the name no longer
    /// resolves, and the registry holds no reference to it. Functions
    /// already made from it keep working. Returns the slot its default
    /// member had, for `restore(_:at:)`.
    public mutating func unregister(family: TimingFunctionFamily) -> ID? {
        guard families[family.name] === family, let id = byName[family.name] else { return nil }
        families[family.name] = nil
        byName[family.name] = nil
        registered.removeAll { $0 == family.name }
        // The slot no longer refers to the family (unless another name
        // shares it); the next function registered takes it, unless
        // `restore(_:at:)` puts the family back first.
        if !byName.values.contains(id) {
            interned[functions[Int(id)]] = nil
            functions[Int(id)] = .linear
            freeSlots.append(id)
        }
        return id
    }

    /// Puts back a family `unregister(family:)` removed: in the same slot,
    /// or in another if a function registered since has taken that one.
    public mutating func restore(_ family: TimingFunctionFamily, at id: ID) {
        let f = TimingFunction.custom(family.defaultFunction)
        if let k = freeSlots.firstIndex(of: id) {
            freeSlots.remove(at: k)
            functions[Int(id)] = f
            interned[f] = id
            byName[family.name] = id
        } else {
            byName[family.name] = intern(f)
        }
        registered.append(family.name)
        families[family.name] = family
    }

    /// Parses "name(p1, p2, …)" for a registered family `name`; nil if
    /// `text` does not name a family.
    func member(named text: String) throws(AnimrtError) -> TimingFunction? {
        guard !families.isEmpty, let open = text.firstIndex(of: "("), text.last == ")" else { return nil }
        guard let family = families[String(text[..<open].trimmingSpaces)] else { return nil }
        let inside = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingSpaces
        var parameters: [Double] = []
        if !inside.isEmpty {
            for (i, a) in inside.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                guard let v = Double(a.trimmingSpaces) else {
                    throw AnimrtError(.invalidArgument, "'\(text)': parameter \(i + 1) of '\(family.name)' is '\(a.trimmingSpaces)', not a number")
                }
                parameters.append(v)
            }
        }
        return .custom(try family.function(parameters))
    }
}
