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

    /// A template's "direction" and "fillMode" are Core Animation's: reverse
    /// plays 0 → 1 from its end (0.75 a quarter of the way in); alternate
    /// with two iterations comes back (0.5 at 1.5 s, as at 0.5 s); forwards
    /// keeps the last frame after the end (R1.1, R3.0). Two iterations each.
    @Test("a template's direction and fillMode take effect on the part", arguments: [
        ("reverse", "removed", [0.25: 0.75, 0.5: 0.5, 0.9: 0.1]),
        ("alternate", "removed", [0.25: 0.25, 1.25: 0.75, 1.5: 0.5]),
        ("alternate-reverse", "removed", [0.25: 0.75, 1.25: 0.25]),
        ("normal", "forwards", [0.25: 0.25, 3: 1]),
        ("reverse", "forwards", [0.25: 0.75, 3: 0]),
    ])
    func templateDirection(_ c: (String, String, [Double: Double])) throws {
        let h = Harness()
        h.tick(0)
        let json = """
        {"name": "d", "parts": [{"name": "p", "properties": {"opacity": 0.5}}], "events": {"go": {}},
         "animations": {"a": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 1,
                              "repeatCount": 2, "direction": "\(c.0)", "fillMode": "\(c.1)", "removedOnCompletion": false}},
         "initial": "idle", "states": {"idle": {"on": {"go": "on"}}, "on": {"entry": [{"animate": "a", "part": "p"}]}}}
        """
        let m = try h.machine(json)
        try h.send(m, "go")
        h.tick(0)   // it begins at the first tick after it is added
        let p = try h.host.part("p", of: m)
        for (t, expected) in c.2.sorted(by: { $0.key < $1.key }) {
            h.tick(t)
            let v = try h.runtime.presentationValue(forKeyPath: "opacity", of: p).components[0]
            #expect(abs(v - expected) < 1e-12, "\(c.0) \(c.1) at \(t): \(v)")
        }
    }

    /// A template's "iterationStart", "endDelay" and "cumulative" reach the
    /// part's animation. Starting half way into the first of one iteration,
    /// 0 → 1 over 1 s shows 0.75 at 0.25 s, wraps to 0.25 at 0.75 s and
    /// holds 0.5 after its end; cumulative 0 → 0.25 repeated is 0.25 + 0.125
    /// half way into its second iteration; an end delay of -0.5 s cuts a
    /// 1 s animation short at 0.5 s, when the state's `done` is taken.
    @Test("a template's iterationStart, endDelay and cumulative take effect on the part")
    func templateIterationStartEndDelayCumulative() throws {
        let h = Harness()
        h.tick(0)
        let json = """
        {"name": "d", "parts": [{"name": "p", "properties": {"opacity": 0.5}}, {"name": "q", "properties": {"opacity": 0.5}},
                                {"name": "r", "properties": {"opacity": 0.5}}], "events": {"go": {}},
         "animations": {"started": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 1, "iterationStart": 0.5,
                                    "fillMode": "forwards", "removedOnCompletion": false},
                        "summed": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 0.25, "duration": 1, "repeatCount": 2,
                                   "cumulative": true},
                        "cut": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 1, "endDelay": -0.5}},
         "initial": "idle", "states": {"idle": {"on": {"go": "on"}},
                                       "on": {"entry": [{"animate": "started", "part": "p", "join": false},
                                                        {"animate": "summed", "part": "r", "join": false},
                                                        {"animate": "cut", "part": "q"}], "done": "over"},
                                       "over": {}}}
        """
        let m = try h.machine(json)
        try h.send(m, "go")
        h.tick(0)   // they begin at the first tick after they are added
        let p = try h.host.part("p", of: m), r = try h.host.part("r", of: m)
        func opacity(_ layer: Handle) throws -> Double { try h.runtime.presentationValue(forKeyPath: "opacity", of: layer).components[0] }
        h.tick(0.25)
        #expect(abs(try opacity(p) - 0.75) < 1e-12)
        #expect(h.state(m) == "on")
        h.tick(0.75)
        #expect(abs(try opacity(p) - 0.25) < 1e-12)
        #expect(h.state(m) == "over", "the end delay ends the joined animation at 0.5 s")
        h.tick(1.25)
        #expect(abs(try opacity(p) - 0.5) < 1e-12)
        h.tick(1.5)
        #expect(abs(try opacity(r) - 0.375) < 1e-12)
    }

    @Test("an unknown direction, fill mode, animation type or group member is refused by name, with the nearest", arguments: [
        (#"{"type": "basic", "keyPath": "opacity", "to": 0, "direction": "alternated"}"#, Status.invalidArgument,
         "animations.a.direction: unknown direction 'alternated' (normal, reverse, alternate, alternate-reverse); did you mean 'alternate'?"),
        (#"{"type": "basic", "keyPath": "opacity", "to": 0, "fillMode": "forward"}"#, .invalidArgument,
         "animations.a.fillMode: unknown fillMode 'forward' (removed, forwards, backwards, both); did you mean 'forwards'?"),
        (#"{"type": "basics", "keyPath": "opacity", "to": 0}"#, .invalidArgument,
         "animations.a.type: unknown animation type 'basics' (basic, keyframe, spring, group); did you mean 'basic'?"),
        (#"{"type": "group", "animations": ["fad"]}"#, .notFound,
         "animations.a.animations[0]: no animation template named 'fad'; did you mean 'fade'?"),
    ])
    func templateRefusals(_ c: (String, Status, String)) {
        let json = """
        {"name": "d", "parts": [{"name": "p"}], "events": {"go": {}},
         "animations": {"a": \(c.0), "fade": {"type": "basic", "keyPath": "opacity", "to": 0}},
         "initial": "idle", "states": {"idle": {}}}
        """
        do { _ = try Harness().load(json); Issue.record("loaded") }
        catch { #expect(error.status == c.1 && error.message == c.2, "\(error.message)") }
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
