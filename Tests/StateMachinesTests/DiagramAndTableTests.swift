import AnimationCore
@testable import StateMachines
import Testing

@Suite("The exported diagram and transition table say what the definition does")
struct DiagramAndTableTests {
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
        #expect(Array(rows[(at + 1)...(at + 4)]) == ["| key | en | fr\\|ca |", "|---|---|---|", "| `a\\|b` | one | un |", "| `two<br>lines` | two |  |"])
    }
}
