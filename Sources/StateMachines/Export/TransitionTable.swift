import AnimationCore

/// What a state does with an event, read from the definition alone.
public enum StaticOutcome: Equatable, Sendable {
    /// Transitions that may take it, in the order the engine tries them
    /// (guards decide at run time): the first state's that has any, then,
    /// while every one so far is guarded, its ancestors' (when no guard
    /// passes the search goes on outwards). `ignoredBy` names the ancestor
    /// that ignores the event when none of them passes, if one does.
    case transitions([(target: String?, guard: String?, from: String)], ignoredBy: String? = nil)
    case ignored
    case rejected

    public static func == (l: StaticOutcome, r: StaticOutcome) -> Bool {
        switch (l, r) {
        case (.ignored, .ignored), (.rejected, .rejected): return true
        case (.transitions(let a, let x), .transitions(let b, let y)):
            return x == y && a.count == b.count
                && zip(a, b).allSatisfy { $0.target == $1.target && $0.guard == $1.guard && $0.from == $1.from }
        default: return false
        }
    }

    /// Whether a guard may refuse the event at run time (every transition is
    /// guarded and no ancestor ignores the event).
    public var mayBeRefused: Bool {
        if case .transitions(let list, let ignoredBy) = self { return ignoredBy == nil && list.allSatisfy { $0.guard != nil } }
        return self == .rejected
    }
}

extension MachineDefinition {
    /// The events the host may send (every declared event but `error.execution`).
    public var hostEvents: [Int] { events.indices.filter { events[$0].name != DefinitionLoader.builtinErrorEvent } }

    /// The states an instance can rest in: atomic and final states.
    public var leafStates: [Int] { states.indices.filter { states[$0].kind != .compound } }

    /// What leaf state `s` does with event `e`, searched as the engine's
    /// selection does: from `s` outwards, the transitions of each state that
    /// has some, until one without a guard (it always takes the event) or a
    /// state that ignores it. Transitions whose guards may all fail are
    /// followed by their ancestors', as at run time.
    public func outcome(of e: Int, in s: Int) -> StaticOutcome {
        var found: [(target: String?, guard: String?, from: String)] = []
        var a = s
        while a >= 0 {
            for t in states[a].on[e] {
                found.append((t.target.map { states[$0].name }, t.guardExpression?.text, states[a].name))
                if t.guardExpression == nil { return .transitions(found) }
            }
            if states[a].ignored.contains(e) { return found.isEmpty ? .ignored : .transitions(found, ignoredBy: states[a].name) }
            a = states[a].parent
        }
        return found.isEmpty ? .rejected : .transitions(found)
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
        case .transitions(let list, let ignoredBy):
            // One group per state the transitions come from, in order; an
            // inherited group names its state (`via`).
            var groups: [String] = []
            var i = 0
            while i < list.count {
                let from = list[i].from
                var texts: [String] = []
                while i < list.count && list[i].from == from {
                    var text = list[i].target.map { "→ `\($0)`" } ?? "·"
                    if let g = list[i].guard { text += " " + MachineDefinition.codeCell("[\(g)]") }
                    texts.append(text)
                    i += 1
                }
                groups.append(texts.joined(separator: "; ") + (from == states[s].name ? "" : " (via `\(from)`)"))
            }
            if let ignoredBy { groups.append("else *ignored* (via `\(ignoredBy)`)") }
            return groups.joined(separator: "; ")
        }
    }

    /// after / done / always / onFinal transitions of `s` and its ancestors.
    private func automatic(_ s: Int) -> String {
        var parts: [String] = []
        for a in ancestry(s) {
            let st = states[a]
            let via = a == s ? "" : " (via `\(st.name)`)"
            for t in st.after { parts.append("after \(MachineDefinition.codeCell(t.delay.text)) s → \(target(t.transition))\(via)") }
            for d in st.done { parts.append("done → \(target(d))\(via)") }
            for t in st.always { parts.append("always → \(target(t))\(via)") }
            if let f = st.onFinal, a != s { parts.append("onFinal → \(target(f))\(via)") }
        }
        return parts.isEmpty ? "" : parts.joined(separator: "; ")
    }

    /// Text for one cell of a Markdown table. A cell ends at a '|' and its
    /// row at a line break: a '|' is escaped (GFM reads "\\|" as '|', in
    /// code too) and a line break is written as <br>.
    static func markdownCell(_ s: String) -> String { cellLines(s).joined(separator: "<br>") }

    /// The lines of `s` for a table cell, each '|' escaped (GFM reads "\\|"
    /// as '|', in code too).
    private static func cellLines(_ s: String) -> [Substring] {
        s.replacing("|", with: "\\|").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// `s` as a code span in a table cell. Its fence has one backtick more
    /// than the longest run inside, so a backtick stays text (CommonMark's
    /// code spans), with a space inside each fence where `s` begins or ends
    /// with a backtick or is wrapped in spaces (one is stripped from each
    /// side); a '|' is escaped, and a line break is a space, as CommonMark
    /// shows one inside a code span (a <br> there would show as text).
    static func codeCell(_ s: String) -> String {
        let flat = cellLines(s).joined(separator: " ")
        var longest = 0, run = 0
        for c in flat {
            run = c == "`" ? run + 1 : 0
            longest = Swift.max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let spaced = flat.first == " " && flat.last == " " && flat.contains { $0 != " " }
        let pad = flat.first == "`" || flat.last == "`" || spaced ? " " : ""
        return fence + pad + flat + pad + fence
    }

    private func target(_ t: Transition) -> String {
        var text = t.target.map { "`\(states[$0].name)`" } ?? "·"
        if let g = t.guardExpression { text += " " + MachineDefinition.codeCell("[\(g.text)]") }
        return text
    }
}
