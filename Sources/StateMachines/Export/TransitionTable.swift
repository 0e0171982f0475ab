import AnimationCore

/// What a state does with an event, read from the definition alone.
public enum StaticOutcome: Equatable, Sendable {
    /// Transitions that may take it (document order; guards decide at run time).
    case transitions([(target: String?, guard: String?, from: String)])
    case ignored
    case rejected

    public static func == (l: StaticOutcome, r: StaticOutcome) -> Bool {
        switch (l, r) {
        case (.ignored, .ignored), (.rejected, .rejected): return true
        case (.transitions(let a), .transitions(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.target == $1.target && $0.guard == $1.guard && $0.from == $1.from }
        default: return false
        }
    }

    /// Whether a guard may refuse the event at run time (every transition is guarded).
    public var mayBeRefused: Bool {
        if case .transitions(let list) = self { return list.allSatisfy { $0.guard != nil } }
        return self == .rejected
    }
}

extension MachineDefinition {
    /// The events the host may send (every declared event but `error.execution`).
    public var hostEvents: [Int] { events.indices.filter { events[$0].name != DefinitionLoader.builtinErrorEvent } }

    /// The states an instance can rest in: atomic and final states.
    public var leafStates: [Int] { states.indices.filter { states[$0].kind != .compound } }

    /// What leaf state `s` does with event `e`: the transitions of the first
    /// state, from `s` outwards, that handles or ignores it.
    public func outcome(of e: Int, in s: Int) -> StaticOutcome {
        var a = s
        while a >= 0 {
            let list = states[a].on[e]
            if !list.isEmpty {
                return .transitions(list.map { ($0.target.map { states[$0].name }, $0.guardExpression?.text, states[a].name) })
            }
            if states[a].ignored.contains(e) { return .ignored }
            a = states[a].parent
        }
        return .rejected
    }

    /// The full transition table as Markdown: one row per leaf state, one
    /// column per event; then the state's timers, done, eventless and
    /// onFinal transitions. Generated from the definition, so it cannot drift.
    public func transitionTable() -> String {
        let evs = hostEvents
        var out = "| state | " + evs.map { "`\(events[$0].name)`" }.joined(separator: " | ") + " | automatic |\n"
        out += "|---|" + String(repeating: "---|", count: evs.count + 1) + "\n"
        for s in leafStates {
            var row = "| `\(states[s].name)`\(states[s].kind == .final ? " (final)" : "") |"
            for e in evs { row += " " + cell(outcome(of: e, in: s), in: s) + " |" }
            row += " " + automatic(s) + " |"
            out += row + "\n"
        }
        out += "\nA cell lists the transitions that may take the event, in the order they are tried "
        out += "(→ target, `[guard]`; `·` stays in the state); *ignored* is accepted and dropped; "
        out += "*refused* is ANIMRT_E_STATE with nothing changed. A transition inherited from an ancestor names it (`via`).\n"
        return out
    }

    private func cell(_ o: StaticOutcome, in s: Int) -> String {
        switch o {
        case .ignored: return "*ignored*"
        case .rejected: return "*refused*"
        case .transitions(let list):
            let text = list.map { t in
                var text = t.target.map { "→ `\($0)`" } ?? "·"
                if let g = t.guard { text += " `[\(MachineDefinition.markdownCell(g))]`" }
                return text
            }.joined(separator: "; ")
            guard let from = list.first?.from, from != states[s].name else { return text }
            return text + " (via `\(from)`)"
        }
    }

    /// after / done / always / onFinal transitions of `s` and its ancestors.
    private func automatic(_ s: Int) -> String {
        var parts: [String] = []
        for a in ancestry(s) {
            let st = states[a]
            let via = a == s ? "" : " (via `\(st.name)`)"
            for t in st.after { parts.append("after `\(MachineDefinition.markdownCell(t.delay.text))` s → \(target(t.transition))\(via)") }
            for d in st.done { parts.append("done → \(target(d))\(via)") }
            for t in st.always { parts.append("always → \(target(t))\(via)") }
            if let f = st.onFinal, a != s { parts.append("onFinal → \(target(f))\(via)") }
        }
        return parts.isEmpty ? "" : parts.joined(separator: "; ")
    }

    /// Text for one cell of a Markdown table. A cell ends at a '|' and its
    /// row at a line break: a '|' is escaped (GFM reads "\\|" as '|', in
    /// code too) and a line break is written as <br>.
    static func markdownCell(_ s: String) -> String {
        s.replacing("|", with: "\\|").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "<br>")
    }

    private func target(_ t: Transition) -> String {
        var text = t.target.map { "`\(states[$0].name)`" } ?? "·"
        if let g = t.guardExpression { text += " `[\(MachineDefinition.markdownCell(g.text))]`" }
        return text
    }
}
