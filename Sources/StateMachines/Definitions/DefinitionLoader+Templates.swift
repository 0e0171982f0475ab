import AnimationCore

extension DefinitionLoader {
    // MARK: Parts

    func loadParts(_ node: JSONNode, parent: Int, depth: Int = 1) throws(AnimrtError) {
        guard depth <= DefinitionLimits.maxDepth else { throw node.error(.outOfRange, "parts are nested more than \(DefinitionLimits.maxDepth) deep") }
        var s = ExpressionScope()
        s.config = configFields
        s.strings = stringIDs
        s.functions = functions
        s.noEvent = "part values are set when the instance is created"
        s.allowsIndex = true
        s.readsMachine = false
        for p in try node.array() {
            let o = try p.object(allowed: DefinitionKeys.part, required: ["name"])
            let name = try o["name"]!.name("part name")
            guard partIDs[name] == nil else { throw o["name"]!.error(.exists, "a part named '\(name)' is declared already") }
            let index = parts.count
            partIDs[name] = index
            try checkCount(parts.count + 1, "parts", p)
            var props: [(keyPath: String, value: ValueSlot)] = []
            if let pr = o["properties"] {
                for (path, v) in try pr.members() {
                    let kp: KeyPath
                    do throws(AnimrtError) { kp = try properties.resolve(path) } catch { throw v.error(error.status, error.message) }
                    props.append((path, try valueSlot(v, kind: kp.kind, scope: s)))
                }
            }
            var count: Expression?
            if let c = o["count"] {
                var cs = s
                cs.allowsIndex = false
                cs.noEvent = "the number of copies is computed when the instance is created"
                cs.noClock = "the number of copies is fixed when the instance is created, and a restored one must have as many"
                count = try expression(c, scope: cs, type: .number)
                if let children = o["parts"] {
                    throw children.error(.invalidArgument, "a repeated part ('\(name)') has no child parts; give its copies siblings instead")
                }
            }
            let part = PartDeclaration(name: name, parent: parent, properties: props, count: count,
                                       summary: try o["description"]?.string() ?? "")
            if let c = o["count"] { try checkDefaultCount(of: part, at: c) }
            parts.append(part)
            if let children = o["parts"] { try loadParts(children, parent: index, depth: depth + 1) }
        }
    }

    /// Refuses a repeated part whose count, computed from the config's
    /// defaults, is no count: a creation that keeps the defaults would be
    /// refused, and where the count is one config parameter whose declared
    /// range holds no count (0.2 to 0.8, at least 5000) so would every
    /// other, since a default lies in its range. Only a count that reads
    /// nothing but constants and config is computed here; one that reads
    /// copy (`text()`) or calls a registered function is left to creation.
    func checkDefaultCount(of p: PartDeclaration, at node: JSONNode) throws(AnimrtError) {
        guard let e = p.count, e.root.readsOnlyConfig else { return }
        var c = EvaluationContext(config: config.map(\.defaultValue), context: [], event: [], host: nil)
        // A count that fails to compute from the defaults (a join past the
        // string limit) fails at creation, with that error: left to it.
        guard let n = try? Evaluator.evaluate(e, &c).number, let refusal = MachineHost.countRefusal(n, of: p, config) else { return }
        throw node.error(.outOfRange, (e.constantValue == nil ? "with the config's defaults, " : "") + refusal)
    }

    /// A value for a key path of `kind`: a number or number expression for
    /// scalars; for the others an expression of the kind, an array with one
    /// number expression per component, or a "#rrggbb[aa]" colour.
    func valueSlot(_ node: JSONNode, kind: ValueKind, scope s: ExpressionScope) throws(AnimrtError) -> ValueSlot {
        if kind == .scalar { return .expression(try expression(node, scope: s, type: .number)) }
        if case .array(let items) = node.value {
            guard items.count == kind.componentCount else {
                throw node.error(.kind, "a \(kind.name) has \(kind.componentCount) components; \(items.count) \(items.count == 1 ? "is" : "are") given")
            }
            return .components(try items.enumerated().map { (i, v) throws(AnimrtError) in
                try expression(node.element(i, v), scope: s, type: .number)
            })
        }
        return .expression(try expression(node, scope: s, type: .vector(kind)))
    }

    // MARK: Templates

    /// The template named `name`, checked once (groups may name other templates).
    func template(named name: String, at node: JSONNode, depth: Int) throws(AnimrtError) -> Template {
        if let t = templates[name] { return t }
        guard !templatesInProgress.contains(name) else {
            throw node.error(.invalidArgument, "the animation template '\(name)' contains itself")
        }
        templatesInProgress.insert(name)
        defer { templatesInProgress.remove(name) }
        var s = scope(event: nil, note: "templates are shared by every state; pass event values through context, or override the field in the animate action")
        s.allowsIndex = true
        let t = try template(node, scope: s, base: nil, depth: depth)
        templates[name] = t
        return t
    }

    /// Reads a template (or, with `base`, the fields `only` of an animate
    /// action that override a template's).
    func template(_ node: JSONNode, scope s: ExpressionScope, base: Template?, depth: Int,
                  only: Set<String>? = nil) throws(AnimrtError) -> Template {
        guard depth <= DefinitionLimits.maxDepth else { throw node.error(.outOfRange, "animation groups are nested more than \(DefinitionLimits.maxDepth) deep") }
        var o = try node.object(allowed: base == nil ? DefinitionKeys.template
                                : DefinitionKeys.template + ["animate", "part", "key", "join"],
                                required: base == nil ? ["type"] : [])
        if let only { o = o.filter { only.contains($0.key) } }
        var t: Template
        if let base { t = base } else {
            let typeName = try o["type"]!.string()
            guard let kind = Template.Kind(rawValue: typeName) else {
                throw o["type"]!.error(.invalidArgument, "unknown animation type '\(typeName)' (basic, keyframe, spring, group)\(suggestion(typeName, ["basic", "keyframe", "spring", "group"]))")
            }
            t = Template(kind: kind)
            if kind == .group {
                if let k = o["keyPath"] { throw k.error(.invalidArgument, "a group has no key path; its animations have theirs") }
            } else {
                guard let k = o["keyPath"] else { throw node.error(.invalidArgument, "a \(typeName) animation needs a keyPath") }
                let path = try k.string()
                do throws(AnimrtError) { t.valueKind = try properties.resolve(path).kind } catch { throw k.error(error.status, error.message) }
                t.keyPath = path
            }
        }
        func needs(_ key: String, _ kinds: [Template.Kind]) throws(AnimrtError) {
            if let n = o[key], !kinds.contains(t.kind) {
                let names = kinds.map(\.rawValue)
                let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names[0]
                throw n.error(.invalidArgument, "'\(key)' applies to \(list) animations, not \(t.kind.rawValue)")
            }
        }
        for key in ["from", "to", "by"] { try needs(key, [.basic, .spring]) }
        for key in ["values", "keyTimes", "timingFunctions", "calculationMode", "tension", "continuity", "bias"] { try needs(key, [.keyframe]) }
        for key in Template.SpringField.allCases.map(\.rawValue) + ["allowsOverdamping", "usesSettlingDuration"] { try needs(key, [.spring]) }
        try needs("animations", [.group])
        // What a group or a keyframe animation would ignore (AnimationFlag.check).
        try needs("fromPresentation", [.basic, .spring])
        for key in ["additive", "cumulative"] { try needs(key, [.basic, .keyframe, .spring]) }
        if let k = t.valueKind {
            if let v = o["from"] { t.from = try valueSlot(v, kind: k, scope: s) }
            if let v = o["to"] { t.to = try valueSlot(v, kind: k, scope: s) }
            if let v = o["by"] { t.by = try valueSlot(v, kind: k, scope: s) }
            if let v = o["values"] {
                let items = try v.array()
                guard !items.isEmpty else { throw v.error(.invalidArgument, "a keyframe animation needs at least one value") }
                try checkCount(items.count, "keyframe values", v)
                t.values = try items.map { (i: JSONNode) throws(AnimrtError) in try valueSlot(i, kind: k, scope: s) }
            }
        }
        func numbers(_ key: String) throws(AnimrtError) -> [Expression]? {
            guard let v = o[key] else { return nil }
            let items = try v.array()
            try checkCount(items.count, key, v)
            return try items.map { (i: JSONNode) throws(AnimrtError) in try expression(i, scope: s, type: .number) }
        }
        if let v = try numbers("keyTimes") { t.keyTimes = v }
        if let v = try numbers("tension") { t.tension = v }
        if let v = try numbers("continuity") { t.continuity = v }
        if let v = try numbers("bias") { t.bias = v }
        if let v = o["timingFunctions"] {
            let items = try v.array()
            try checkCount(items.count, "timingFunctions", v)
            t.timingFunctions = try items.map { (i: JSONNode) throws(AnimrtError) in try curve(i) }
        }
        if let v = o["calculationMode"] {
            let name = try v.string()
            let modes: [String: CalculationMode] = ["linear": .linear, "discrete": .discrete, "paced": .paced, "cubic": .cubic, "cubicPaced": .cubicPaced]
            guard let m = modes[name] else { throw v.error(.invalidArgument, "unknown calculationMode '\(name)'\(suggestion(name, Array(modes.keys))) (linear, discrete, paced, cubic, cubicPaced)") }
            t.calculationMode = m
        }
        for f in Template.SpringField.allCases { if let v = o[f.rawValue] { t.spring[f] = try expression(v, scope: s, type: .number) } }
        for f in Template.TimingField.allCases { if let v = o[f.rawValue] { t.timing[f] = try expression(v, scope: s, type: .number) } }
        for f in Template.FlagField.allCases { if let v = o[f.rawValue] { t.flags[f] = try expression(v, scope: s, type: .bool) } }
        // Refused now when both are true whatever the context; expressions
        // are checked when the animation is added (AnimationFlag.check). An
        // animate action may set one over a template that has the other:
        // the error names the one this object holds.
        if t.flags[.additive]?.constantValue == .bool(true), t.flags[.fromPresentation]?.constantValue == .bool(true) {
            throw (o["fromPresentation"] ?? o["additive"] ?? node).error(.invalidArgument, AnimationFlag.additiveFromPresentation)
        }
        if let v = o["fillMode"] {
            let name = try v.string()
            guard let m = FillMode(name: name) else { throw v.error(.invalidArgument, "unknown fillMode '\(name)' (removed, forwards, backwards, both)\(suggestion(name, ["removed", "forwards", "backwards", "both"]))") }
            t.fillMode = m
        }
        if let v = o["direction"] {
            let name = try v.string()
            let all: [String: PlaybackDirection] = ["normal": .normal, "reverse": .reverse, "alternate": .alternate, "alternate-reverse": .alternateReverse]
            guard let d = all[name] else { throw v.error(.invalidArgument, "unknown direction '\(name)' (normal, reverse, alternate, alternate-reverse)\(suggestion(name, Array(all.keys)))") }
            t.direction = d
        }
        if let v = o["timingFunction"] { t.timingFunction = try curve(v) }
        if let v = o["animations"] {
            let items = try v.array()
            guard items.count <= Limits.groupSize else { throw groupTooLarge(v) }
            t.children = try items.map { (i: JSONNode) throws(AnimrtError) -> Template in
                if case .string(let name) = i.value {
                    guard let n = templateNodes[name] else {
                        throw i.error(.notFound, "no animation template named '\(name)'\(suggestion(name, Array(templateNodes.keys)))")
                    }
                    return try template(named: name, at: n, depth: depth + 1)
                }
                return try template(i, scope: s, base: nil, depth: depth + 1)
            }
            try checkGroupSize(t.children, v)
        }
        if t.kind == .keyframe, let values = t.values { try checkKeyframeCounts(t, values.count, node) }
        return t
    }

    /// Refuses a group the runtime would refuse each time it is played: one
    /// of more than `Limits.groupSize` animations, nested groups' included,
    /// or of more than `Limits.groupDepth` levels of groups (a group of plain
    /// animations is 1; a named template counts where it is used, so a
    /// group naming a deep one is measured whole). Counted as
    /// `Animation.groupMeasure` counts, stopping once past the size limit (a
    /// group may name the same large group many times).
    func checkGroupSize(_ children: [Template], _ at: JSONNode) throws(AnimrtError) {
        var size = 0
        var pending = [(children, 1)]
        while let (list, level) = pending.popLast() {
            size += list.count
            guard size <= Limits.groupSize else { throw groupTooLarge(at) }
            guard level <= Limits.groupDepth else {
                throw at.error(.outOfRange, "the group would nest groups more than \(Limits.groupDepth) deep (a group of plain animations is 1)")
            }
            for c in list where c.kind == .group { pending.append((c.children, level + 1)) }
        }
    }

    /// Refuses a keyframe animation the runtime would refuse each time it is
    /// played, by its lists' lengths against its `n` values (as
    /// `ResolvedKeyframes` counts them): key times other than one per value
    /// (or n + 1 in discrete mode), more timing functions than segments,
    /// more tension, continuity or bias values than values. The paced modes
    /// ignore key times and timing functions.
    func checkKeyframeCounts(_ t: Template, _ n: Int, _ at: JSONNode) throws(AnimrtError) {
        let mode = t.calculationMode ?? .linear
        if !mode.isPaced {
            if let times = t.keyTimes, !mode.keyTimeCounts(values: n).contains(times.count) {
                throw at.error(.invalidArgument, "\(times.count) keyTimes for \(n) values; this calculationMode needs \(mode.keyTimeCountWords(values: n))")
            }
            if let f = t.timingFunctions, f.count > n - 1 {
                throw at.error(.invalidArgument, "\(f.count) timingFunctions for \(n - 1) segments (\(n) values); give at most one per segment")
            }
        }
        for (name, list) in [("tension", t.tension), ("continuity", t.continuity), ("bias", t.bias)] {
            if let list, list.count > n { throw at.error(.invalidArgument, "\(list.count) \(name) values for \(n) keyframes") }
        }
    }

    func groupTooLarge(_ at: JSONNode) -> AnimrtError {
        at.error(.outOfRange, "the group would hold more than \(Limits.groupSize) animations (nested groups' included)")
    }

    /// A timing function by name, resolved now against the runtime's registry.
    func curve(_ node: JSONNode) throws(AnimrtError) -> TimingFunction {
        let name = try node.string()
        let f: TimingFunction
        do throws(AnimrtError) { f = try curves.function(named: name) } catch { throw node.error(error.status, error.message) }
        if let family = f.family { using(family) }
        return f
    }
}

extension Template {
    init(kind: Kind) { self.kind = kind }
}
