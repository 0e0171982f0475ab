import AnimationCore

extension DefinitionLoader {
    // MARK: The state tree

    /// First pass: every state's full name, parent and JSON. Ids are the
    /// positions of the full names in sorted order, so they do not depend on
    /// the order of keys in the JSON (a parent's id is below its children's).
    func collectStates(_ node: JSONNode, parent: String?, prefix: String, depth: Int) throws(AnimrtError) {
        guard depth <= DefinitionLimits.maxDepth else {
            throw node.error(.outOfRange, "states are nested more than \(DefinitionLimits.maxDepth) deep")
        }
        let members = try node.members()
        guard !members.isEmpty else { throw node.error(.invalidArgument, "a \"states\" object needs at least one state") }
        for (n, s) in members {
            try JSONNode.checkName(n, "state name", s)
            let full = prefix + n
            stateNames.append(full)
            try checkCount(stateNames.count, "states", s)
            stateJSON.append(s)
            if case .object(let o) = s.value, let children = o["states"] {
                try collectStates(s.child("states", children), parent: full, prefix: full + ".", depth: depth + 1)
            }
        }
        guard parent == nil else { return }
        let order = stateNames.indices.sorted { stateNames[$0] < stateNames[$1] }
        stateNames = order.map { stateNames[$0] }
        stateJSON = order.map { stateJSON[$0] }
        for (i, n) in stateNames.enumerated() {
            stateIDs[n] = i
            stateIDsByLastName[String(n[(n.lastIndex(of: ".").map { n.index(after: $0) } ?? n.startIndex)...]), default: []].append(i)
        }
        stateParents = stateNames.map { name in
            guard let dot = name.lastIndex(of: ".") else { return -1 }
            return stateIDs[String(name[..<dot])]!
        }
        // Each state's children at once: searching all states for a state's
        // children, state by state, made a large definition's load quadratic.
        stateChildren = Array(repeating: [], count: stateNames.count)
        for (i, p) in stateParents.enumerated() where p >= 0 { stateChildren[p].append(i) }
    }

    /// Every timer name: `after` entries with a name, and `startTimer` actions.
    ///
    /// A name is one timer: `cancelTimer` and `timerActive` see one runtime
    /// timer under it. So two `after` entries that can run at once (of one
    /// state, or of a state and its ancestor) may not share a name, nor may
    /// an `after` and a `startTimer` (a started timer runs in any state):
    /// the one started last would hide the other, which would still fire
    /// after `cancelTimer`, or be dropped without a word. States that are
    /// never active together may reuse a name.
    func collectTimers() throws(AnimrtError) {
        var afterOwners: [String: [Int]] = [:]
        var started: [String: JSONNode] = [:]
        func note(_ name: String, _ at: JSONNode) throws(AnimrtError) {
            try JSONNode.checkName(name, "timer name", at)
            if timerIDs[name] == nil { timerIDs[name] = timerNames.count; timerNames.append(name) }
        }
        // An action is an item of a list under "entry", "exit" or "actions"
        // (the lists `actions` reads): only there does "startTimer" start a
        // timer. Elsewhere it is a name the author chose (a context field an
        // assign sets, a payload field an emit fills), its value an expression.
        func walk(_ v: JSONValue, _ at: JSONNode, key: String?, depth: Int) throws(AnimrtError) {
            guard depth < 64 else { return }
            switch v {
            case .object(let o):
                for (k, c) in o where k != "states" { try walk(c, at.child(k, c), key: k, depth: depth + 1) }
            case .array(let a):
                let actions = key == "entry" || key == "exit" || key == "actions"
                for (i, c) in a.enumerated() {
                    let item = at.element(i, c)
                    if actions, case .object(let action) = c, case .string(let t)? = action["startTimer"] {
                        try note(t, item)
                        if started[t] == nil { started[t] = item }
                    }
                    try walk(c, item, key: nil, depth: depth + 1)
                }
            default: break
            }
        }
        for (id, s) in stateJSON.enumerated() {
            guard case .object(let o) = s.value else { continue }
            if let after = o["after"] {
                for entry in s.child("after", after).list() {
                    guard case .object(let e) = entry.value, case .string(let n)? = e["name"] else { continue }
                    let at = entry.child("name", .string(n))
                    try note(n, at)
                    if let other = afterOwners[n, default: []].first(where: { isAncestor($0, of: id) || isAncestor(id, of: $0) }) {
                        let whose = other == id ? "another 'after' of '\(stateNames[id])'" : "an 'after' of '\(stateNames[other])', active with '\(stateNames[id])'"
                        throw at.error(.invalidArgument, "the timer name '\(n)' is taken by \(whose): both could run at once, and cancelTimer and timerActive would see only one; give each its own name")
                    }
                    afterOwners[n, default: []].append(id)
                }
            }
            try walk(s.value, s, key: nil, depth: 0)
        }
        for (name, at) in started.sorted(by: { $0.key < $1.key }) {
            if let owner = afterOwners[name]?.first {
                throw at.error(.invalidArgument, "the timer name '\(name)' is taken by an 'after' of '\(stateNames[owner])'; a started timer runs in any state, so both could run at once under one name: give each its own name")
            }
        }
        try checkCount(timerNames.count, "timers", JSONNode(value: .null, path: "states"))
    }

    /// A target written as a full name ("completed.celebrating") or, when
    /// it is unique, the last part of one ("celebrating").
    func resolveTarget(_ node: JSONNode, from source: Int) throws(AnimrtError) -> Int {
        let name = try node.string()
        if let id = stateIDs[name] { return id }
        // By the last part of the name, from a table made once: a definition
        // of 4 MiB may hold hundreds of thousands of targets, and a search of
        // every state for each took minutes.
        let matches = stateIDsByLastName[name] ?? []
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw node.error(.invalidArgument, "the target '\(name)' is ambiguous: \(matches.map { "'\(stateNames[$0])'" }.joined(separator: ", ")); write the full name")
        }
        throw node.error(.notFound, "no state named '\(name)'\(suggestion(name, stateNames))")
    }

    func scope(event: Int?, note: String) -> ExpressionScope {
        var s = ExpressionScope()
        s.config = configFields
        s.context = contextFields
        s.states = stateIDs
        s.timers = timerIDs
        s.strings = stringIDs
        s.functions = functions
        if let event {
            var fields: [String: Field] = [:]
            for (i, f) in events[event].payload.enumerated() { fields[f.name] = Field(index: i, type: f.type) }
            s.event = fields
            s.eventName = events[event].name
        }
        s.noEvent = note
        return s
    }

    // MARK: States

    func buildStates() throws(AnimrtError) -> [StateNode] {
        var out: [StateNode] = []
        for id in stateNames.indices { out.append(try buildState(id)) }
        return out
    }

    private func buildState(_ id: Int) throws(AnimrtError) -> StateNode {
        let node = stateJSON[id]
        // XState's onDone is taken when a final child is entered: that is onFinal
        // here, and the nearest key, done, waits for animations instead.
        if case .object(let raw) = node.value, let onDone = raw["onDone"] {
            throw node.child("onDone", onDone).error(.invalidArgument, "unknown key 'onDone': XState's onDone (taken when a final child is entered) is \"onFinal\" here; \"done\" is taken when the animations the state's entry actions started have stopped")
        }
        // XState's history and parallel states carry keys of their own
        // ("history", "target"): the type is named before any of them is
        // refused as unknown, so that the message says what is missing.
        if case .object(let raw) = node.value, let t = raw["type"], case .string(let kind) = t, kind == "parallel" || kind == "history" {
            throw node.child("type", t).error(.invalidArgument, unknownStateType(kind))
        }
        let o = try node.object(allowed: DefinitionKeys.state)
        let children = stateChildren[id]
        var kind: StateNode.Kind = children.isEmpty ? .atomic : .compound
        if let t = o["type"] {
            switch try t.string() {
            case "final":
                guard children.isEmpty else { throw t.error(.invalidArgument, "a final state cannot have child states") }
                kind = .final
            case "atomic":
                guard children.isEmpty else { throw t.error(.invalidArgument, "an atomic state cannot have child states") }
            case "compound":
                guard !children.isEmpty else { throw t.error(.invalidArgument, "a compound state needs child states") }
            case let other:
                throw t.error(.invalidArgument, unknownStateType(other))
            }
        }
        if kind == .final {
            for key in ["on", "after", "done", "always", "onFinal", "ignore"] where o[key] != nil {
                throw o[key]!.error(.invalidArgument, "a final state takes no transitions ('\(key)'): the machine stops there or its parent's onFinal is taken")
            }
        }
        var initial: Int?
        if kind == .compound {
            if let i = o["initial"] {
                // A compound state's initial names one of its children: its own
                // name ("celebrating", as XState writes it) is looked up among
                // them first, so a top-level state or another compound's child
                // of that name neither hides it nor makes it ambiguous.
                let childNames = children.map { String(stateNames[$0].split(separator: ".").last!) }
                let name = try i.string()
                if let k = childNames.firstIndex(of: name) {
                    initial = children[k]
                } else {
                    let t: Int
                    do throws(AnimrtError) { t = try resolveTarget(i, from: id) } catch {
                        guard error.status == .notFound else { throw error }
                        throw i.error(.notFound, "'\(stateNames[id])' has no child state named '\(name)'\(suggestion(name, childNames)) (its children: \(childNames.map { "'\($0)'" }.joined(separator: ", ")))")
                    }
                    guard stateParents[t] == id else {
                        throw i.error(.invalidArgument, "the initial state '\(stateNames[t])' is not a child of '\(stateNames[id])' (its children: \(childNames.map { "'\($0)'" }.joined(separator: ", ")))")
                    }
                    initial = t
                }
            } else if children.count == 1 {
                initial = children[0]
            } else {
                throw node.error(.invalidArgument, "the compound state '\(stateNames[id])' needs an \"initial\" child (one of \(children.map { "'\(stateNames[$0].split(separator: ".").last!)'" }.joined(separator: ", ")))")
            }
        } else if let i = o["initial"] {
            throw i.error(.invalidArgument, "\"initial\" needs child states")
        }
        if o["onFinal"] != nil && !children.contains(where: isWrittenFinal) {
            throw o["onFinal"]!.error(.invalidArgument, "onFinal is taken when a final child is entered; '\(stateNames[id])' has no final child")
        }
        let noEvent = scope(event: nil, note: "entry and exit actions run whatever event led here; read event fields in a transition's actions and assign them to context")
        let entry = try actions(o["entry"], scope: noEvent, source: id, joins: true)
        let exit = try actions(o["exit"], scope: noEvent, source: id, joins: false)
        var on = [[Transition]](repeating: [], count: events.count)
        if let onNode = o["on"] {
            for (ename, tnode) in try onNode.members() {
                guard let e = eventIDs[ename] else {
                    throw tnode.error(.notFound, undeclaredEvent(ename))
                }
                if case .array(let items) = tnode.value, items.isEmpty {
                    throw tnode.error(.invalidArgument, "an empty list of transitions takes no '\(ename)': give it a transition (a target, or {} to take it and do nothing), or list it under \"ignore\" to drop it here")
                }
                let s = scope(event: e, note: "")
                on[e] = try tnode.list().map { (t: JSONNode) throws(AnimrtError) in try transition(t, source: id, trigger: .event(e), scope: s) }
            }
        }
        // An empty list under "after", "done" or "always" says nothing, as one under an event of "on" does: most
        // likely a list emptied by mistake, so it is refused as that one is (the key left out says the same).
        if let a = o["after"], case .array(let items) = a.value, items.isEmpty {
            throw a.error(.invalidArgument, "an empty list of 'after' timers starts none: give it a timer ({\"delay\": seconds, \"target\": state}), or leave \"after\" out")
        }
        if let d = o["done"], case .array(let items) = d.value, items.isEmpty {
            throw d.error(.invalidArgument, "an empty list of transitions takes no 'done': give it a transition (a target, or {} to take it and do nothing), or leave \"done\" out")
        }
        if let w = o["always"], case .array(let items) = w.value, items.isEmpty {
            throw w.error(.invalidArgument, "an empty list of eventless transitions takes none: give 'always' a transition, or leave \"always\" out")
        }
        var after: [AfterTransition] = []
        if let a = o["after"] {
            let s = scope(event: nil, note: "an 'after' transition is taken when its timer fires; no event carries a payload")
            for (i, entry) in a.list().enumerated() {
                // XState writes `after: {1000: "idle"}` (milliseconds to targets): say what this format wants.
                if case .object(let members) = entry.value, let first = members.keys.sorted().first,
                   members.keys.allSatisfy({ Double($0) != nil }) {
                    throw entry.error(.invalidArgument, "an 'after' timer is an object {\"delay\": seconds, \"target\": state} (a list of them for several), not a map from delays to targets: write [{\"delay\": \(first), \"target\": …}], the delay in seconds")
                }
                let eo = try entry.object(allowed: DefinitionKeys.after, required: ["delay"])
                let delay = try delayExpression(eo["delay"]!, scope: s)
                let timer = try eo["name"].map { (n: JSONNode) throws(AnimrtError) in timerIDs[try n.string()]! }
                let t = try transition(entry, source: id, trigger: .after(i), scope: s, extraKeys: ["delay", "name"])
                after.append(AfterTransition(delay: delay, timer: timer, transition: t))
            }
        }
        let plain = scope(event: nil, note: "this transition is not triggered by an event with a payload")
        let done = try (o["done"]?.list() ?? []).map { (n: JSONNode) throws(AnimrtError) in
            try transition(n, source: id, trigger: .done, scope: plain)
        }
        let always = try (o["always"]?.list() ?? []).map { (n: JSONNode) throws(AnimrtError) in
            try transition(n, source: id, trigger: .always, scope: plain)
        }
        let onFinal = try o["onFinal"].map { (n: JSONNode) throws(AnimrtError) in try transition(n, source: id, trigger: .onFinal, scope: plain) }
        var ignored: Set<Int> = []
        if let ig = o["ignore"] {
            let names = try ig.array()
            if names.isEmpty { throw ig.error(.invalidArgument, "an empty 'ignore' list ignores no event: name the events to ignore, or leave \"ignore\" out") }
            for n in names {
                let ename = try n.string()
                guard let e = eventIDs[ename] else { throw n.error(.notFound, undeclaredEvent(ename)) }
                guard on[e].isEmpty else { throw n.error(.invalidArgument, "'\(ename)' is both ignored and handled in '\(stateNames[id])'") }
                ignored.insert(e)
            }
        }
        var values: [Int] = []
        if let v = o["values"] {
            for n in try v.array() {
                let f = try n.string()
                guard let field = contextFields[f] else { throw n.error(.notFound, "no context field named '\(f)'\(suggestion(f, Array(contextFields.keys)))") }
                guard !field.isComputed else {
                    throw n.error(.invalidArgument, "'\(f)' is computed; a state reports stored fields with its changes (the host reads computed ones when it draws)")
                }
                values.append(field.index)
            }
        }
        var depth = 1, a = stateParents[id]
        while a >= 0 { depth += 1; a = stateParents[a] }
        return StateNode(name: stateNames[id], kind: kind, parent: stateParents[id], children: children, initial: initial, depth: depth,
                         entry: entry, exit: exit, on: on, after: after, done: done, always: always, onFinal: onFinal,
                         ignored: ignored, values: values, summary: try o["description"]?.string() ?? "")
    }

    /// The refusal of a state type other than atomic, compound and final.
    private func unknownStateType(_ other: String) -> String {
        let unsupported = other == "parallel" || other == "history"
            ? "; parallel and history states are not supported (docs/machines.md, \"Differences from SCXML and XState\")" : ""
        return "unknown state type '\(other)' (atomic, compound, final)\(suggestion(other, ["atomic", "compound", "final"]))\(unsupported)"
    }

    /// A transition: a target name, or an object with target, guard, actions and type.
    func transition(_ node: JSONNode, source: Int, trigger: Transition.Trigger, scope s: ExpressionScope,
                    extraKeys: [String] = []) throws(AnimrtError) -> Transition {
        if case .string = node.value {
            return Transition(source: source, trigger: trigger, target: try resolveTarget(node, from: source), guardExpression: nil,
                              actions: [], isInternal: false, path: node.path)
        }
        // XState v5 re-enters a transition's source only with `reenter`;
        // here, as in SCXML, a transition is external unless it says
        // otherwise: say how to write what `reenter` meant, not only that
        // the key is unknown.
        if case .object(let raw) = node.value, let r = raw["reenter"] {
            throw node.child("reenter", r).error(.invalidArgument, "unknown key 'reenter': transitions are external by default here, as in SCXML (XState's reenter: true); for XState's default, reenter: false, write \"type\": \"internal\" (to a descendant) or leave the target out (to stay in the state: nothing is exited)")
        }
        let o = try node.object(allowed: DefinitionKeys.transition + extraKeys)
        var target: Int?
        if let t = o["target"], t.value != .null { target = try resolveTarget(t, from: source) }
        let guardExpression = try o["guard"].map { (g: JSONNode) throws(AnimrtError) in try expression(g, scope: s, type: .bool) }
        let list = try actions(o["actions"], scope: s, source: source, joins: false)
        var isInternal = false
        if let t = o["type"] {
            switch try t.string() {
            case "external": break
            case "internal":
                guard let target, target != source, isAncestor(source, of: target) else {
                    throw t.error(.invalidArgument, "an internal transition goes from a compound state to one of its descendants; '\(stateNames[source])' → \(target.map { "'\(stateNames[$0])'" } ?? "no target")")
                }
                isInternal = true
            case let other:
                throw t.error(.invalidArgument, "unknown transition type '\(other)' (external, internal)\(suggestion(other, ["external", "internal"]))")
            }
        }
        return Transition(source: source, trigger: trigger, target: target, guardExpression: guardExpression, actions: list,
                          isInternal: isInternal, path: node.path)
    }

    /// Whether the JSON of state `id` says `"type": "final"`.
    func isWrittenFinal(_ id: Int) -> Bool {
        if case .object(let o) = stateJSON[id].value, case .string("final")? = o["type"] { return true }
        return false
    }

    func isAncestor(_ a: Int, of d: Int) -> Bool {
        var x = d
        while x >= 0 { if x == a { return true }; x = stateParents[x] }
        return false
    }

    // MARK: Actions

    static let actionVerbs = DefinitionKeys.actions.keys.sorted()

    func actions(_ node: JSONNode?, scope s: ExpressionScope, source: Int, joins: Bool) throws(AnimrtError) -> [Action] {
        guard let node else { return [] }
        return try node.array().map { (a: JSONNode) throws(AnimrtError) in try action(a, scope: s, source: source, joins: joins) }
    }

    private func action(_ node: JSONNode, scope s: ExpressionScope, source: Int, joins: Bool) throws(AnimrtError) -> Action {
        guard case .object(let raw) = node.value else { throw node.wrongType("an action object (one of \(DefinitionLoader.actionVerbs.joined(separator: ", ")))") }
        let verbs = raw.keys.filter { DefinitionLoader.actionVerbs.contains($0) }.sorted()
        guard verbs.count == 1 else {
            if verbs.isEmpty {
                let guess = raw.keys.sorted().compactMap { closestMatch(to: $0, in: DefinitionLoader.actionVerbs) }.first
                throw node.error(.invalidArgument, "an action needs one verb: \(DefinitionLoader.actionVerbs.joined(separator: ", "))\(guess.map { "; did you mean '\($0)'?" } ?? "")")
            }
            throw node.error(.invalidArgument, "an action has one verb; this one has \(verbs.joined(separator: " and "))")
        }
        let verb = verbs[0]
        func payload(_ fields: [PayloadField], _ p: JSONNode?, _ what: String) throws(AnimrtError) -> [Expression?] {
            var members: [String: JSONNode] = [:]
            if let p { for (k, v) in try p.members() { members[k] = v } }
            for k in members.keys.sorted() where !fields.contains(where: { $0.name == k }) {
                throw members[k]!.error(.notFound, "\(what) has no payload field '\(k)'\(suggestion(k, fields.map(\.name)))")
            }
            return try fields.map { (f: PayloadField) throws(AnimrtError) -> Expression? in
                guard let v = members[f.name] else {
                    if f.defaultValue == nil { throw (p ?? node).error(.invalidArgument, "\(what) needs its payload field '\(f.name)' (it has no default)") }
                    return nil
                }
                return try expression(v, scope: s, type: f.type)
            }
        }
        let body: Action.Body
        switch verb {
        case "assign":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            var list: [(field: Int, value: Expression)] = []
            for (k, v) in try o["assign"]!.members() {
                guard let f = contextFields[k] else { throw v.error(.notFound, "no context field named '\(k)'\(suggestion(k, Array(contextFields.keys)))") }
                guard !f.isComputed else { throw v.error(.invalidArgument, "context.\(k) is computed from its expression; it cannot be assigned") }
                list.append((f.index, try expression(v, scope: s, type: f.type)))
            }
            body = .assign(list)
        case "animate":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!, required: ["part"])
            let part = try partIndex(o["part"]!)
            let key = try o["key"]?.string()
            let join = try o["join"]?.bool() ?? joins
            if join && !joins {
                throw o["join"]!.error(.invalidArgument, "only entry actions join the state's barrier (the one its 'done' waits for)")
            }
            var s = s
            s.allowsIndex = true
            let base: Template
            let a = o["animate"]!
            if case .string(let name) = a.value {
                guard let node = templateNodes[name] else {
                    throw a.error(.notFound, "no animation template named '\(name)'\(suggestion(name, Array(templateNodes.keys)))")
                }
                base = try template(named: name, at: node, depth: 1)
            } else {
                base = try template(a, scope: s, base: nil, depth: 1)
            }
            let overrides = o.filter { !["animate", "part", "key", "join"].contains($0.key) }
            let merged = overrides.isEmpty ? base : try template(node, scope: s, base: base, depth: 1, only: Set(overrides.keys))
            body = .animate(part: part, key: key, template: merged, joinsStateBarrier: join)
        case "remove":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!, required: ["part"])
            body = .remove(part: try partIndex(o["part"]!), key: try o["remove"]!.string())
        case "removeAll":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            body = .removeAll(part: try partIndex(o["removeAll"]!))
        case "set":
            // {"set": {"opacity": 1}}, as a setter object is often written:
            // say how this one is, before a missing 'value' would.
            if case .object(let m) = node.value, let given = m["set"], case .object(let fields) = given {
                let path = fields.keys.sorted().first ?? "opacity"
                throw node.child("set", given).error(.invalidArgument,
                    "'set' names one key path, its value beside it: {\"set\": \"\(path)\", \"value\": …, \"part\": …}"
                    + (fields.count > 1 ? "; one 'set' action for each key path" : ""))
            }
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!, required: ["part", "value"])
            let path = try o["set"]!.string()
            var s = s
            s.allowsIndex = true
            let kp: KeyPath
            do throws(AnimrtError) { kp = try properties.resolve(path) } catch { throw o["set"]!.error(error.status, error.message) }
            body = .set(part: try partIndex(o["part"]!), keyPath: path, kind: kp.kind, value: try valueSlot(o["value"]!, kind: kp.kind, scope: s))
        case "emit", "raise", "request":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            let name = try o[verb]!.string()
            let table = verb == "emit" ? emitIDs : verb == "raise" ? eventIDs : requestIDs
            let decls = verb == "emit" ? emits : verb == "raise" ? events : requests
            let what = verb == "emit" ? "emitted event" : verb == "raise" ? "event" : "request"
            guard let id = table[name] else {
                throw o[verb]!.error(.notFound, "no \(what) named '\(name)' is declared\(suggestion(name, Array(table.keys)))")
            }
            if verb == "raise" && decls[id].resultOf != nil {
                throw o[verb]!.error(.invalidArgument, "'\(name)' is the result of a request; only the host sends it, with the request's id")
            }
            let p = try payload(decls[id].payload, o["payload"], "'\(name)'")
            body = verb == "emit" ? .emit(id, p) : verb == "raise" ? .raise(id, p) : .request(id, p)
        case "cancelRequest":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            let name = try o["cancelRequest"]!.string()
            guard let id = requestIDs[name] else { throw o["cancelRequest"]!.error(.notFound, "no request named '\(name)'\(suggestion(name, Array(requestIDs.keys)))") }
            body = .cancelRequest(id)
        case "startTimer":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!, required: ["delay"])
            let timer = timerIDs[try o["startTimer"]!.string()]!
            let delay = try delayExpression(o["delay"]!, scope: s)
            guard let en = o["event"] else {
                // A timer with no event measures time: timerActive() is true until it runs out.
                if let p = o["payload"] { throw p.error(.invalidArgument, "a payload goes with an \"event\"; this timer sends none") }
                body = .startTimer(timer: timer, delay: delay, event: nil, payload: [])
                break
            }
            let ename = try en.string()
            guard let e = eventIDs[ename] else { throw en.error(.notFound, undeclaredEvent(ename)) }
            if events[e].resultOf != nil {
                throw en.error(.invalidArgument, "'\(ename)' is the result of a request; only the host sends it")
            }
            body = .startTimer(timer: timer, delay: delay, event: e, payload: try payload(events[e].payload, o["payload"], "'\(ename)'"))
        case "cancelTimer":
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            let name = try o["cancelTimer"]!.string()
            guard let t = timerIDs[name] else {
                throw o["cancelTimer"]!.error(.notFound, "no timer named '\(name)' (timers are named by 'after' entries and startTimer)\(suggestion(name, timerNames))")
            }
            body = .cancelTimer(t)
        default:
            let o = try node.object(allowed: [verb] + DefinitionKeys.actions[verb]!)
            let name = try o["call"]!.string()
            guard let f = functions[name] else {
                throw o["call"]!.error(.notFound, "no machine function named '\(name)' is registered\(suggestion(name, Array(functions.functions.keys)))")
            }
            using(f)
            let args = try o["args"]?.array() ?? []
            guard args.count == f.parameters.count else {
                throw node.error(.invalidArgument, "\(f.signature) takes \(counted(f.parameters.count, "argument")), not \(args.count)")
            }
            var exprs: [Expression] = []
            for (a, t) in zip(args, f.parameters) { exprs.append(try expression(a, scope: s, type: t)) }
            body = .call(f, exprs)
        }
        return Action(body: body, path: node.path)
    }

    func partIndex(_ node: JSONNode) throws(AnimrtError) -> Int {
        let name = try node.string()
        guard let i = partIDs[name] else {
            throw node.error(.notFound, "no part named '\(name)'\(suggestion(name, Array(partIDs.keys)))")
        }
        return i
    }
}
