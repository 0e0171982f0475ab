import AnimationCore
@testable import StateMachines
import Testing

@Suite("Vocabulary the shipped machines brought to every definition")
struct VocabularyTests {
    @Test("sin and cos are built-ins (radians), folded when constant", arguments: [
        ExpressionCase(text: "sin(0)", value: .number(0)),
        ExpressionCase(text: "cos(0)", value: .number(1)),
        ExpressionCase(text: "sin(pi / 2)", value: .number(1)),
        ExpressionCase(text: "cos(pi)", value: .number(-1)),
        ExpressionCase(text: "round(1000 * sin(context.a))", value: .number(909)),
        ExpressionCase(text: "sin(inf) == sin(inf)", value: .bool(false)),   // NaN, as IEEE says
    ])
    func trigonometry(_ c: ExpressionCase) throws {
        #expect(try eval(c.text) == c.value)
    }

    @Test("done may list guarded transitions: the first whose guard passes is taken")
    func guardedDone() throws {
        let h = Harness()
        h.tick(0)
        let json = """
        {"name": "pick", "context": {"bad": {"type": "bool", "initial": false}},
         "parts": [{"name": "p"}], "animations": {"a": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 0.2}},
         "events": {"go": {"payload": [{"name": "bad", "type": "bool"}]}}, "initial": "idle",
         "states": {"idle": {"on": {"go": {"target": "working", "actions": [{"assign": {"bad": "event.bad"}}]}}},
                    "working": {"entry": [{"animate": "a", "part": "p"}],
                                "done": [{"guard": "context.bad", "target": "failed"}, {"target": "succeeded"}]},
                    "failed": {"on": {"go": "idle"}}, "succeeded": {"on": {"go": "idle"}}}}
        """
        let m = try h.machine(json)
        try h.send(m, "go", [.bool(true)])
        h.tick(0.1); h.tick(0.35)   // begins at the first tick, ends 0.2 s later
        #expect(h.state(m) == "failed")
        try h.send(m, "go", [.bool(false)])
        try h.send(m, "go", [.bool(false)])
        h.tick(0.4); h.tick(0.65)
        #expect(h.state(m) == "succeeded")
        let t = try h.load(json).transitionTable()
        #expect(t.contains("done → `failed` `[context.bad]`; done → `succeeded`"))
    }

    @Test("a timer without an event measures time: timerActive() is true until it runs out; restarting extends it")
    func measuringTimer() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "fresh", "events": {"loaded": {}, "appear": {}}, "initial": "a",
         "states": {"a": {"on": {"loaded": {"actions": [{"startTimer": "fresh", "delay": 300}]},
                                 "appear": [{"guard": "timerActive('fresh')", "actions": [\(L("fresh"))]}, {"actions": [\(L("refresh"))]}]}}}}
        """)
        try h.send(m, "appear")
        try h.send(m, "loaded")
        h.tick(299.9)
        try h.send(m, "appear")
        try h.send(m, "loaded")   // restarted at 299.9
        h.tick(500)
        try h.send(m, "appear")
        h.tick(599.9)
        try h.send(m, "appear")
        #expect(h.log == ["refresh", "fresh", "fresh", "refresh"])
        #expect(h.events().allSatisfy { $0.type != .machineError })
        let bad = """
        {"name": "x", "events": {"e": {}}, "initial": "a", "states": {"a": {"entry": [{"startTimer": "t", "delay": 1, "payload": {"x": 1}}]}}}
        """
        expectError(.invalidArgument, ["states.a.entry[0].payload", "goes with an \"event\""]) { () throws(AnimrtError) in _ = try h.load(bad) }
    }
}
