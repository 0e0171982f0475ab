import AnimationCore
@testable import StateMachines
import Testing

/// A machine with one of each thing the diagram and the table draw: a
/// compound state inside a compound state, a final state and its onFinal,
/// a transition with actions only, a guarded timer, guarded done
/// transitions, an eventless transition, a throttled event and a payload
/// field with a range.
let diagramMachine = """
{"name": "diagram", "parts": [{"name": "dot", "properties": {"opacity": 0}}],
 "animations": {"fade": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 0.5}},
 "context": {"n": {"type": "number", "initial": 0}},
 "events": {"bump": {"throttle": 0.25, "payload": [{"name": "by", "type": "number", "min": 1, "max": 9}]}, "quit": {}},
 "initial": "outer",
 "states": {
   "outer": {"initial": "inner", "onFinal": "gone",
             "on": {"quit": "outer.over"},
             "after": [{"delay": "2 + context.n", "guard": "context.n < 3", "target": "gone"}],
             "states": {
               "inner": {"initial": "fading",
                         "states": {"fading": {"entry": [{"animate": "fade", "part": "dot", "key": "f"}],
                                               "done": [{"guard": "context.n > 1", "target": "outer.over"}, {"target": "outer.inner.counting"}]},
                                    "counting": {"on": {"bump": {"actions": [{"assign": {"n": "context.n + event.by"}}]}},
                                                 "always": [{"guard": "context.n >= 5", "target": "outer.over"}]}}},
               "over": {"type": "final"}}},
   "gone": {}}}
"""

@Suite("The exported diagram and transition table say what the definition does")
struct DiagramAndTableTests {
    @Test("DOT: clusters are labelled by their own name, a final state is a double circle, and every kind of edge is drawn as it runs")
    func dotEdges() throws {
        let h = Harness()
        let g = try h.load(diagramMachine).dot()
        let lines = Set(g.split(separator: "\n").map { String($0.drop { $0 == " " }) })
        for line in [
            #"subgraph "cluster_outer" {"#, #"label="outer"; style=rounded;"#,
            #"subgraph "cluster_outer.inner" {"#, #"label="inner"; style=rounded;"#,
            #""outer.over" [label="over", shape=doublecircle];"#,
            #""outer.inner.counting" [label="counting"];"#,
            #""gone" [label="gone"];"#,
            // A transition with actions only stays: dashed, on its own state.
            #""outer.inner.counting" -> "outer.inner.counting" [label="bump", style=dashed];"#,
            // The timer, with its unit and its guard, from the compound state's cluster.
            #""outer.inner.fading" -> "gone" [label="after 2 + context.n s [context.n < 3]", ltail="cluster_outer"];"#,
            // Both done transitions, each with its guard (or none).
            #""outer.inner.fading" -> "outer.over" [label="done [context.n > 1]"];"#,
            #""outer.inner.fading" -> "outer.inner.counting" [label="done"];"#,
            #""outer.inner.counting" -> "outer.over" [label="always [context.n >= 5]"];"#,
            #""outer.inner.fading" -> "gone" [label="onFinal", ltail="cluster_outer"];"#,
            #""outer.inner.fading" -> "outer.over" [label="quit", ltail="cluster_outer"];"#,
            #""__start" -> "outer.inner.fading" [lhead="cluster_outer"];"#,
            #""__start_outer" -> "outer.inner.fading";"#,
            #""__start_outer.inner" -> "outer.inner.fading";"#,
        ] {
            #expect(lines.contains(line), "\(line)\n\(g)")
        }
        #expect(g.split(separator: "\n").filter { $0.contains(" -> ") }.count == 10)
    }

    @Test("DOT: a guard's double quotes, backslashes and line breaks are escaped, so the label parses and shows the guard as written; other text is kept")
    func dotEscapes() throws {
        let h = Harness()
        // The guard's text: context.s == "say \"hi\"" or context.s == 'a\nb' or⏎context.s == '名'
        let d = try h.load(#"""
        {"name": "q", "context": {"s": {"type": "string", "initial": "''"}}, "events": {"go": {}}, "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "guard": "context.s == \"say \\\"hi\\\"\" or context.s == 'a\\nb' or\ncontext.s == '名'"}}}, "b": {}}}
        """#)
        let g = d.dot()
        let edge = #"  "a" -> "b" [label="go [context.s == \"say \\\"hi\\\"\" or context.s == 'a\\nb' or\ncontext.s == '名']"];"#
        #expect(g.split(separator: "\n").map(String.init).contains(edge), "\(g)")
        // Read back as Graphviz reads a quoted string (only \" is an escape), then as a label (\\ is a backslash, \n a line break).
        let quoted = String(edge.split(separator: "label=\"", maxSplits: 1)[1].dropLast(3))
        var label = "", i = quoted.startIndex
        while i < quoted.endIndex {
            let c = quoted[i]
            i = quoted.index(after: i)
            if c == "\\", i < quoted.endIndex {
                let e = quoted[i]
                i = quoted.index(after: i)
                label.append(e == "n" ? "\n" : e)
            } else {
                #expect(c != "\"", "the string ends early: \(quoted)")
                label.append(c)
            }
        }
        #expect(label == "go [" + d.states[d.stateID("a")!].on[d.eventID("go")!][0].guardExpression!.text + "]")
        #expect(!g.contains("\r") && g.split(separator: "\n").allSatisfy { !$0.hasPrefix("context") })
    }

    @Test("the page's copy table keeps a locale or a key with a '|' or a line break inside its cell")
    func copyCells() throws {
        let h = Harness()
        let d = try h.load(#"""
        {"name": "copy", "strings": {"en": {"a|b": "one", "two\nlines": "two"}, "fr|ca": {"a|b": "un"}},
         "context": {"t": {"type": "string", "computed": "text('a|b')"}}, "initial": "a", "states": {"a": {}}}
        """#)
        let rows = d.markdown().split(separator: "\n").map(String.init)
        let at = rows.firstIndex(of: "## Copy")!
        #expect(Array(rows[(at + 1)...(at + 4)]) == ["| key | en | fr\\|ca |", "|---|---|---|", "| `a\\|b` | one | un |", "| `two lines` | two |  |"])
    }

    @Test("code in a cell keeps its backticks as text: its fence is longer than any run of them inside")
    func codeSpans() throws {
        let cases: [(String, String)] = [
            ("a", "`a`"), ("s == '`'", "``s == '`'``"), ("`x`", "`` `x` ``"), ("a``b", "```a``b```"),
            ("a|b", "`a\\|b`"), ("a\nb", "`a b`"), (" a ", "`  a  `"), (" ", "` `"), ("", "``"),
        ]
        for (text, span) in cases { #expect(MachineDefinition.codeCell(text) == span, "\(text)") }
        let h = Harness()
        let d = try h.load(#"""
        {"name": "ticks", "config": {"mark": {"type": "string", "default": "`", "oneOf": ["`", "``x"]}},
         "context": {"s": {"type": "string", "initial": "'`'"}},
         "events": {"go": {"throttle": "0.5"}}, "initial": "a",
         "states": {"a": {"on": {"go": {"target": "a", "guard": "context.s == '`'"}}}}}
        """#)
        let rows = d.markdown().split(separator: "\n").map(String.init)
        func row(_ prefix: String) -> String { rows.first { $0.hasPrefix(prefix) } ?? "(no row \(prefix))" }
        #expect(row("| `mark` |") == "| `mark` | string | ``'`'`` | `` ` ``, ``` ``x ``` |  |")
        #expect(row("| `s` |") == "| `s` | string | ``'`'`` |  |")
        #expect(row("| `go` |") == "| `go` |  | throttled: at most one per `0.5` s |")
        #expect(row("| `a` |") == "| `a` | → `a` ``[context.s == '`']`` |  |")
    }

    @Test("the table marks final states and names the ancestor an inherited timer, done or onFinal comes from")
    func tableAutomatic() throws {
        let h = Harness()
        let t = try h.load(diagramMachine).transitionTable()
        let rows = t.split(separator: "\n").map(String.init)
        #expect(rows[0] == "| state | `bump` | `quit` | automatic |")
        #expect(rows.contains("| `outer.inner.fading` | *refused* | → `outer.over` (via `outer`) | done → `outer.over` `[context.n > 1]`; done → `outer.inner.counting`; after `2 + context.n` s → `gone` `[context.n < 3]` (via `outer`); onFinal → `gone` (via `outer`) |"), "\(t)")
        // A final child is no final machine: its parent's transitions still take events.
        #expect(rows.contains("| `outer.over` (final) | *refused* | → `outer.over` (via `outer`) | after `2 + context.n` s → `gone` `[context.n < 3]` (via `outer`); onFinal → `gone` (via `outer`) |"), "\(t)")
        #expect(rows.contains("| `gone` | *refused* | *refused* |  |"), "\(t)")
    }

    @Test("the page gives a payload field's range and says an event is throttled")
    func pageEvents() throws {
        let h = Harness()
        let page = try h.load(diagramMachine).markdown()
        #expect(page.contains("| `bump` | `by`: number in [1, 9] | throttled: at most one per `0.25` s |"), "\(page)")
        #expect(page.contains("| `quit` |  |  |"), "\(page)")
    }
}
