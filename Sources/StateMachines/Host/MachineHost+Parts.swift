import AnimationCore

/// Parts by name: "ring" for a part, "arc[2]" for a copy of a repeated part.
extension MachineHost {
    /// The layer of the part named `name`; a copy of a repeated part is
    /// named with its index, "arc[2]".
    public func part(_ name: String, of h: Handle) throws(AnimrtError) -> Handle {
        let m = try live(h)
        let (p, copy) = try m.partReference(name)
        let n = m.partCount[p]
        if let copy {
            guard m.definition.parts[p].isRepeated else {
                throw AnimrtError(.invalidArgument, "'\(m.definition.parts[p].name)' is not a repeated part; name it without an index")
            }
            guard copy < n else {
                throw AnimrtError(.outOfRange, "'\(name)': part '\(m.definition.parts[p].name)' has \(counted(n, "copy", plural: "copies"))\(n > 0 ? " (0 to \(n - 1))" : "")")
            }
            return m.parts[m.partStart[p] + copy]
        }
        guard !m.definition.parts[p].isRepeated else {
            throw AnimrtError(.invalidArgument, "'\(name)' is a repeated part with \(counted(n, "copy", plural: "copies")); name one with its index, '\(name)[0]'")
        }
        return m.parts[m.partStart[p]]
    }

    /// The names of every layer of the instance's parts, in order: "ring",
    /// and "arc[0]", "arc[1]" … for the copies of a repeated part.
    public func layerNames(of h: Handle) throws(AnimrtError) -> [String] {
        let m = try live(h)
        return m.parts.indices.map { m.partName(ofLayer: $0) }
    }

    /// How many layers the part named `name` has in this instance: its
    /// number of copies (1 for a part that is not repeated).
    public func partCount(_ name: String, of h: Handle) throws(AnimrtError) -> Int {
        let m = try live(h)
        let (p, copy) = try m.partReference(name)
        guard copy == nil else { throw AnimrtError(.invalidArgument, "'\(name)': give the part's name without an index") }
        return m.partCount[p]
    }
}

extension MachineHost {
    /// How many layers each part of `d` has for this configuration: its
    /// count for a repeated part (a whole number from 0 to the item limit),
    /// else 1.
    /// `texts`: the instance's strings, which `text()` reads (a part per
    /// letter of a title, say).
    static func partCounts(_ d: MachineDefinition, config: [MachineValue], texts: [String]) throws(AnimrtError) -> [Int] {
        let strings = CountStrings(texts)
        var c = EvaluationContext(config: config, context: [], event: [], host: strings)
        var counts: [Int] = []
        for p in d.parts {
            guard let e = p.count else { counts.append(1); continue }
            let n = try Evaluator.evaluate(e, &c).number ?? .nan
            if let refusal = countRefusal(n, of: p, d.config) { throw AnimrtError(.outOfRange, message: refusal) }
            counts.append(Int(n))
        }
        return counts
    }

    /// Why `n` cannot be the count of part `p` (whose count expression
    /// gave it), or nil when it can: a count is a whole number from 0 to
    /// the item limit. Creation and the loader (for a count the config's
    /// defaults give) refuse with the same words.
    static func countRefusal(_ n: Double, of p: PartDeclaration, _ config: [ConfigParameter]) -> String? {
        guard let e = p.count, !(n >= 0 && n <= Double(DefinitionLimits.maxItems) && n == n.rounded()) else { return nil }
        return "part '\(p.name)' would have \(NumberText.format(n)) copies (\(e.text)); " + countRange(e, config)
    }

    /// What a count reads of its instance: its strings. Nothing else of the
    /// machine exists yet (the loader refuses `in()`, `timerActive()`,
    /// context and `now()` in a count).
    private final class CountStrings: ExpressionHost {
        let texts: [String]
        init(_ texts: [String]) { self.texts = texts }
        func text(_ key: Int) -> String { key < texts.count ? texts[key] : "" }
        func isActive(_ state: Int) -> Bool { false }
        func isTimerActive(_ timer: Int) -> Bool { false }
        var clock: Double { 0 }
        func computed(_ field: Int) throws(AnimrtError) -> MachineValue { .number(0) }
    }

    /// What a count may be, said for the count `e`. A count that is one
    /// config parameter is bounded by the range that parameter declares as
    /// well as by the library's limit: the message gives the bounds that
    /// hold, each with where it comes from, since the host chose the
    /// parameter's value by its declared range and 0 to 4096 alone would
    /// send it looking for a bound its definition does not state.
    static func countRange(_ e: Expression, _ config: [ConfigParameter]) -> String {
        let limit = Double(DefinitionLimits.maxItems)
        let library = "a count is a whole number from 0 to \(DefinitionLimits.maxItems)"
        guard case .config(let i) = e.root, config[i].minimum != nil || config[i].maximum != nil else { return library }
        let p = config[i]
        let declared = switch (p.minimum, p.maximum) {
        case (let lo?, let hi?): "\(NumberText.format(lo)) to \(NumberText.format(hi))"
        case (let lo?, nil): "at least \(NumberText.format(lo))"
        default: "at most \(NumberText.format(p.maximum!))"
        }
        // The whole numbers both allow; the library's bound is named only
        // where it is the tighter one.
        let lo = max(0, (p.minimum ?? 0).rounded(.up)), hi = min(limit, (p.maximum ?? limit).rounded(.down))
        let libraryTighter = (p.minimum ?? -1) < 0 || (p.maximum ?? .infinity) > limit
        let source = "config.\(p.name) declares \(declared)" + (libraryTighter ? ", and the library's limit is 0 to \(DefinitionLimits.maxItems)" : "")
        guard lo <= hi else { return "\(source), so no value of it is a count" }
        return "a count is a whole number from \(NumberText.format(lo)) to \(NumberText.format(hi)) (\(source))"
    }
}

extension MachineInstance {
    /// The part and copy `name` refers to: "ring" → (ring, nil), "arc[2]" → (arc, 2).
    func partReference(_ name: String) throws(AnimrtError) -> (part: Int, copy: Int?) {
        var base = Substring(name)
        var copy: Int?
        if name.hasSuffix("]"), let open = name.firstIndex(of: "[") {
            base = name[..<open]
            let digits = name[name.index(after: open)..<name.index(before: name.endIndex)]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw AnimrtError(.invalidArgument, "'\(name)': the copy index is a whole number, as in '\(base)[0]'")
            }
            // One name per copy: "arc[01]" is not another way to write "arc[1]".
            if digits.count > 1, digits.first == "0" {
                let plain = digits.drop(while: { $0 == "0" })
                throw AnimrtError(.invalidArgument, "'\(name)': a copy index is written without leading zeros, as in '\(base)[\(plain.isEmpty ? "0" : plain)]'")
            }
            // More digits than any count has (at most 4096 copies) name a
            // copy past the last: refused as any such copy is, with the count.
            copy = digits.count <= 9 ? Int(digits) : Int.max
        }
        guard let p = definition.partID(String(base)) else {
            throw AnimrtError(.notFound, "'\(definition.name)' has no part '\(base)'"
                              + unknownName(String(base), among: definition.parts.map(\.name), "parts"))
        }
        return (p, copy)
    }
}

/// A machine owns its part layers: the host reads, animates and moves them
/// like any layer, but they live as long as the machine, which destroys
/// them when it is destroyed (a part destroyed from under it would leave
/// its snapshots, actions and teardown naming a stale layer).
extension MachineInstance: LayerOwner {
    func refusal(toDestroy layer: Handle) -> String {
        let part = parts.firstIndex(of: layer).map { "part '\(partName(ofLayer: $0))'" } ?? "a part"
        return "\(layer) is \(part) of \(handle) ('\(definition.name)'): a part lives as long as its machine; "
            + "destroy the machine instead (animrt_machine_destroy), which destroys its parts"
    }
}
