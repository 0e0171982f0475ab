import AnimationCore

extension MachineDefinition {
    /// The statechart as Graphviz DOT: compound states as clusters, initial
    /// states marked by a dot, final states as double circles, an edge per
    /// transition labelled `event [guard]`, `after 3 s`, `done`, `always`
    /// or `onFinal`.
    public func dot() -> String {
        var out = "digraph \"\(name)\" {\n  compound=true;\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
        out += "  \"__start\" [shape=point, width=0.15];\n"
        func id(_ s: Int) -> String { "\"\(states[s].name)\"" }
        /// Edges of a compound state leave from and arrive at its initial leaf, clipped to the cluster.
        func anchor(_ s: Int) -> Int { var a = s; while let i = states[a].initial { a = i }; return a }
        func emit(_ s: Int, indent: String) {
            let st = states[s]
            if st.kind == .compound {
                out += "\(indent)subgraph \"cluster_\(st.name)\" {\n\(indent)  label=\"\(st.shortName)\"; style=rounded;\n"
                out += "\(indent)  \"__start_\(st.name)\" [shape=point, width=0.1];\n"
                for c in st.children { emit(c, indent: indent + "  ") }
                out += "\(indent)}\n"
            } else {
                out += "\(indent)\(id(s)) [label=\"\(st.shortName)\"\(st.kind == .final ? ", shape=doublecircle" : "")];\n"
            }
        }
        for s in states.indices where states[s].parent == -1 { emit(s, indent: "  ") }
        out += "  \"__start\" -> \(id(anchor(initial))) [lhead=\(states[initial].kind == .compound ? "\"cluster_\(states[initial].name)\"" : "\"\"")];\n"
        for s in states.indices where states[s].kind == .compound {
            out += "  \"__start_\(states[s].name)\" -> \(id(anchor(states[s].initial!)));\n"
        }
        func edge(_ t: Transition, _ label: String) {
            let from = anchor(t.source)
            let to = t.target.map(anchor) ?? from
            var attrs = ["label=\"\(MachineDefinition.dotString(label))\""]
            if states[t.source].kind == .compound { attrs.append("ltail=\"cluster_\(states[t.source].name)\"") }
            if let tg = t.target, states[tg].kind == .compound, !isAncestor(tg, of: t.source) { attrs.append("lhead=\"cluster_\(states[tg].name)\"") }
            if t.target == nil { attrs.append("style=dashed") }
            out += "  \(id(from)) -> \(id(to)) [\(attrs.joined(separator: ", "))];\n"
        }
        for (s, st) in states.enumerated() {
            for (e, list) in st.on.enumerated() {
                for t in list { edge(t, events[e].name + (t.guardExpression.map { " [\($0.text)]" } ?? "")) }
            }
            for a in st.after { edge(a.transition, "after \(a.delay.text) s" + (a.transition.guardExpression.map { " [\($0.text)]" } ?? "")) }
            for d in st.done { edge(d, "done" + (d.guardExpression.map { " [\($0.text)]" } ?? "")) }
            for t in st.always { edge(t, "always" + (t.guardExpression.map { " [\($0.text)]" } ?? "")) }
            if let f = st.onFinal { edge(f, "onFinal") }
            _ = s
        }
        out += "}\n"
        return out
    }

    /// Text for the inside of a DOT string that Graphviz shows as written. In
    /// a quoted string a '"' ends it and a backslash escapes what follows; in
    /// a label `\n`, `\l`, `\N` and the like are line breaks and names. So a
    /// backslash is written `\\`, a '"' `\"` and a line break `\n` (a guard
    /// may hold any of them: `context.s == "a\"b" or\n…`).
    static func dotString(_ s: String) -> String {
        s.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") }
            .joined(separator: "\\n")
    }
}
