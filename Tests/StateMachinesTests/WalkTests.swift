import AnimationCore
@testable import StateMachines
import Testing

/// A payload every field of `e` accepts: defaults, else the minimum or 0,
/// false, "" (a result's request id is 1).
func samplePayload(_ d: MachineDefinition, _ e: Int) -> [TaggedValue] {
    d.events[e].payload.enumerated().map { i, f in
        if d.events[e].resultOf != nil && i == 0 { return .number(1) }
        if let v = f.defaultValue { return v.tagged }
        switch f.type {
        case .bool: return .bool(false)
        case .string: return .string("")
        default: return .number(f.minimum ?? 0)
        }
    }
}

/// `a`'s guarded transitions fall through to `p` when their guards fail:
/// `p` takes `go` to `c` and ignores `stop`; `b` has no `go` of its own.
let fallThroughMachine = """
{"name": "fallthrough", "events": {"go": {}, "stop": {}}, "context": {"n": {"type": "number", "initial": 0}},
 "initial": "p",
 "states": {"p": {"initial": "a", "ignore": ["stop"], "on": {"go": [{"guard": "context.n > 5", "target": "c"}, {"target": "c"}]},
                  "states": {"a": {"on": {"go": {"guard": "context.n > 0", "target": "b"},
                                          "stop": {"guard": "context.n > 0", "target": "b"}}},
                             "b": {}}},
            "c": {}}}
"""

struct WalkCase: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    var testDescription: String { name }
}

let walkedDefinitions: [WalkCase] = [
    .init(name: "order", json: orderMachine), .init(name: "celebration", json: timerMachine),
    .init(name: "choreography", json: doneMachine), .init(name: "fetcher", json: fetchMachine),
    .init(name: "counter", json: GuardTests().machine), .init(name: "fallthrough", json: fallThroughMachine),
] + MachineHost.shippedNames.map { WalkCase(name: $0, json: MachineHost.shippedDefinition(named: $0)!) }

@Suite("R3.0.1 every (state, event) pair is defined: a transition, ignored, or refused with a status")
struct WalkTests {
    @Test("the walk visits every leaf state and every event; each answer matches the table", arguments: walkedDefinitions)
    func walk(_ w: WalkCase) throws {
        let h = Harness()
        let dh = try h.host.load(w.json)
        let d = try h.host.definition(dh)
        var pairs = 0
        for s in d.leafStates {
            for e in d.hostEvents {
                let m = try h.host.create(dh)
                try h.host.place(m, in: s, openRequests: 1)
                let expected = d.outcome(of: e, in: s)
                let finished = try h.host.isFinished(m)
                do throws(AnimrtError) {
                    let got = try h.host.send(m, event: e, payload: samplePayload(d, e))
                    switch expected {
                    case .ignored: #expect(got == .ignored, "\(d.states[s].name) × \(d.events[e].name)")
                    case .transitions(_, let ignoredBy):
                        #expect(got == .taken || (got == .ignored && ignoredBy != nil), "\(d.states[s].name) × \(d.events[e].name)")
                    case .rejected: Issue.record("\(d.states[s].name) × \(d.events[e].name): refused in the table, \(got) here")
                    }
                    #expect(!finished)
                } catch {
                    #expect(error.status == .state, "\(d.states[s].name) × \(d.events[e].name): \(error)")
                    #expect(expected.mayBeRefused || finished, "\(d.states[s].name) × \(d.events[e].name): \(error.message)")
                }
                try h.host.destroy(m)
                pairs += 1
            }
        }
        #expect(pairs == d.leafStates.count * d.hostEvents.count)
        #expect(pairs > 0)
    }

    @Test("the Markdown table lists every leaf state and event, and the refusals")
    func table() throws {
        let h = Harness()
        let d = try h.load(GuardTests().machine)
        let t = d.transitionTable()
        #expect(t.hasPrefix("| state | `add` | `name` | `noise` | `reset` | automatic |"))
        #expect(t.contains("| `counting` | → `full` `[context.count + event.amount >= config.limit]`; · | · | *ignored* | *refused* |  |"))
        #expect(t.contains("| `full` | · `[event.amount == 0]` | *refused* | *refused* | → `counting` |  |"))
    }

    @Test("R3.0.1 a cell follows the selection outwards past guards that may all fail: the ancestor's transitions, or its ignore")
    func tableFallsThrough() throws {
        let h = Harness()
        let d = try h.load(fallThroughMachine)
        let a = d.stateID("p.a")!, go = d.eventID("go")!, stop = d.eventID("stop")!
        #expect(d.outcome(of: go, in: a) == .transitions([("p.b", "context.n > 0", "p.a"), ("c", "context.n > 5", "p"), ("c", nil, "p")]))
        #expect(d.outcome(of: stop, in: a) == .transitions([("p.b", "context.n > 0", "p.a")], ignoredBy: "p"))
        #expect(!d.outcome(of: stop, in: a).mayBeRefused)
        let t = d.transitionTable()
        #expect(t.contains("| `p.a` | → `p.b` `[context.n > 0]`; → `c` `[context.n > 5]`; → `c` (via `p`) | → `p.b` `[context.n > 0]`; else *ignored* (via `p`) |"))
        #expect(t.contains("| `p.b` | → `c` `[context.n > 5]`; → `c` (via `p`) | *ignored* |"))
        // What the engine does with n = 0: p's go, and p's ignore.
        let m = try h.machine(fallThroughMachine)
        #expect(try h.send(m, "stop") == .ignored)
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "c")
    }

    @Test("the DOT export has a node per leaf, a cluster per compound state and an edge per transition")
    func dot() throws {
        let h = Harness()
        let d = try h.load(orderMachine)
        let g = d.dot()
        #expect(g.hasPrefix("digraph \"order\" {"))
        #expect(g.contains("subgraph \"cluster_a\""))
        #expect(g.contains("\"a.a1\" [label=\"a1\"];"))
        #expect(g.contains("\"a.a1\" -> \"b.b1\" [label=\"go\", lhead=\"cluster_b\"];"))
        #expect(g.contains("\"a.a1\" -> \"a.a2\" [label=\"inner\", ltail=\"cluster_a\"];"))
        let edges = g.split(separator: "\n").filter { $0.contains(" -> ") && !$0.contains("__start") }
        #expect(edges.count == 5)
    }

    @Test("the exported page writes colours as a definition would; a '|' or a line break stays inside its cell")
    func markdownCells() throws {
        let h = Harness()
        let d = try h.load("""
        {"name": "cells", "config": {"tint": {"type": "color", "default": "#ff8000"}, "shade": {"type": "color", "default": "#00000080"},
                                     "sep": {"type": "string", "default": "a|b", "oneOf": ["a|b", "c"]}},
         "strings": {"en": {"title": "Line one\\nLine two"}},
         "events": {"go": {"payload": [{"name": "mark", "type": "string", "default": "x|y"}]}},
         "context": {"n": {"type": "number", "initial": 0}, "far": {"type": "bool", "computed": "context.n > 1 || context.n < -1"}},
         "initial": "a", "states": {"a": {"on": {"go": {"target": "a", "guard": "context.n > 1 or\\ncontext.n < -1"}}}}}
        """)
        let page = d.markdown()
        let rows = page.split(separator: "\n").map(String.init)
        func row(_ prefix: String) -> String { rows.first { $0.hasPrefix(prefix) } ?? "(no row \(prefix))" }
        #expect(row("| `tint` |") == "| `tint` | color | `#ff8000` |  |  |")
        #expect(row("| `shade` |") == "| `shade` | color | `#00000080` |  |  |")
        #expect(row("| `sep` |") == #"| `sep` | string | `'a\|b'` | `a\|b`, `c` |  |"#)
        #expect(row("| `go` |") == #"| `go` | `mark`: string = 'x\|y' |  |"#)
        #expect(row("| `far` |") == #"| `far` | bool | computed: `context.n > 1 \|\| context.n < -1` |  |"#)
        #expect(row("| `title` |") == "| `title` | Line one<br>Line two |")
        // A line break inside code is a space, as CommonMark shows it (a <br> there would be text).
        #expect(row("| `a` |") == "| `a` | → `a` `[context.n > 1 or context.n < -1]` |  |")
    }

    @Test("the DOT export escapes a double quote in an edge's label")
    func dotQuotes() throws {
        let h = Harness()
        let d = try h.load(#"{"name": "q", "context": {"s": {"type": "string", "initial": "''"}}, "events": {"go": {}}, "initial": "a", "states": {"a": {"on": {"go": {"target": "b", "guard": "context.s == \"x\""}}}, "b": {}}}"#)
        #expect(d.dot().contains(#""a" -> "b" [label="go [context.s == \"x\"]"];"#))
    }
}
