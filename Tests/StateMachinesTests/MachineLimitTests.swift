import AnimationCore
@testable import StateMachines
import Testing

/// A machine whose `go` assigns `expression` to context.r (n is 1, b is true).
private func assigning(_ expression: String, guard condition: String = "true") -> String {
    #"{"name": "deep", "context": {"n": {"type": "number", "initial": 1}, "b": {"type": "bool", "initial": true}, "#
        + #""r": {"type": "number", "initial": 0}}, "events": {"go": {}}, "initial": "a", "#
        + #""states": {"a": {"on": {"go": {"guard": "\#(condition)", "actions": [{"assign": {"r": "\#(expression)"}}]}}}}}"#
}

private func nested(_ open: String, _ inner: String, _ close: String, _ n: Int) -> String {
    String(repeating: open, count: n) + inner + String(repeating: close, count: n)
}

@Suite("R0.4 machine limits: what parsing, decoding and running may cost is bounded, at and past each edge")
struct MachineLimitTests {
    @Test("an expression nests at most 64 levels: the deepest loads and runs, one more is refused with its column")
    func expressionDepth() throws {
        let h = Harness()
        // The expression is one level; each parenthesis, call, '-' or 'not' adds one.
        let m = try h.machine(assigning(nested("(", "context.n", ")", 63)))
        try h.send(m, "go")
        #expect(h.context(m, "r") == .number(1))
        let negated = try h.machine(assigning(String(repeating: "-", count: 63) + "context.n", guard: String(repeating: "!", count: 62) + "context.b"))
        try h.send(negated, "go")
        #expect(h.context(negated, "r") == .number(-1))
        for (expression, condition) in [(nested("(", "context.n", ")", 64), "true"),
                                         (nested("abs(", "context.n", ")", 64), "true"),
                                         (String(repeating: "-", count: 64) + "context.n", "true"),
                                         ("1", String(repeating: "not ", count: 64) + "context.b"),
                                         (String(repeating: "context.b ? 1 : ", count: 64) + "2", "true"),
                                         // All 4096 bytes the length limit allows, as parentheses:
                                         // refused at level 65, where parsing once ran out of stack.
                                         (nested("(", "1", ")", 2047), "true")] {
            expectError(.outOfRange, ["nests more than 64 levels deep", "column "]) { () throws(AnimrtError) in
                _ = try h.load(assigning(expression, guard: condition))
            }
        }
    }

    @Test("JSON nests at most 128 levels, in a definition, a payload, options and a snapshot; deeper is refused before it is decoded")
    func jsonDepth() throws {
        let h = Harness()
        // The top object is one level: 127 more pass the limit (and the loader names the stray key).
        expectError(.invalidArgument, ["unknown key 'x'"]) { () throws(AnimrtError) in
            _ = try h.load(#"{"name": "p", "x": "# + nested("[", "", "]", 127) + "}")
        }
        for n in [128, 100_000] {
            let text = #"{"name": "p", "x": "# + nested("[", "", "]", n) + "}"
            expectError(.outOfRange, ["the JSON is too deep at line 1, column 147", "nest more than 128 levels deep"]) { () throws(AnimrtError) in
                _ = try h.load(text)
            }
            let m = try h.machine(assigning("1"))
            expectError(.outOfRange, ["payload: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try h.host.send(m, event: "go", json: text)
            }
            expectError(.outOfRange, ["options: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try MachineHost.Options(json: text)
            }
            expectError(.outOfRange, ["not a machine snapshot: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        // Brackets inside strings do not count.
        #expect(JSONSyntax.firstTooDeep(in: Array(("[\"" + String(repeating: "[", count: 300) + "\\\"\"]").utf8), limit: 2) == nil)
    }
}
