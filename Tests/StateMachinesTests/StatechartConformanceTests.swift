import AnimationCore
@testable import StateMachines
import Testing

/// Logs which of `names` are active (`in()`), as "where: a b" ("where: -"
/// when none is).
func LIn(_ place: String, _ names: [String]) -> String {
    let parts = names.map { "(in('\($0)') ? ' \($0)' : '')" }.joined(separator: " + ")
    return #"{"call": "log", "args": ["'\#(place):' + \#(parts)"]}"#
}

/// The points of SCXML's interpretation algorithm where engines usually
/// differ, each pinned with the trace it must give: which transition is
/// selected, what is active while a microstep runs, the order of assigns,
/// eventless transitions reaching a fixed point, final children, and the
/// order of internal and external events.
@Suite("R3.0.2 SCXML's algorithm: selection, the configuration within a microstep, eventless fixed points, final children")
struct StatechartConformanceTests {
    @Test("R3.0.2 a child's transition for an event preempts its parent's; when the child's guards all fail, the parent's is taken")
    func descendantPreemptsAncestor() throws {
        let h = Harness()
        let json = """
        {"name": "preempt", "events": {"go": {}},
         "context": {"open": {"type": "bool", "initial": true}},
         "initial": "p",
         "states": {"p": {\(traced("p")), "initial": "a", "on": {"go": {"target": "out", "actions": [\(L("parent"))]}},
                          "states": {"a": {\(traced("a")), "on": {"go": [{"guard": "context.open", "target": "p.b", "actions": [\(L("child"))]}]}},
                                     "b": {\(traced("b"))}}},
                    "out": {\(traced("out"))}}}
        """
        let open = try h.machine(json)
        h.clearLog()
        #expect(try h.send(open, "go") == .taken)
        #expect(h.log == ["exit a", "child", "enter b"])
        #expect(h.state(open) == "p.b")
        // From p.b (no transition for go) the parent's is taken: the exit
        // set is every active state below the domain, innermost first.
        h.clearLog()
        #expect(try h.send(open, "go") == .taken)
        #expect(h.log == ["exit b", "exit p", "parent", "enter out"])
        #expect(h.state(open) == "out")

        let closed = try h.machine(json.replacing(#""initial": true"#, with: #""initial": false"#))
        h.clearLog()
        #expect(try h.send(closed, "go") == .taken)
        #expect(h.log == ["exit a", "exit p", "parent", "enter out"])
        #expect(h.state(closed) == "out")
    }

    @Test("R3.0.2 within a microstep, in() sees a state until its exit actions have run and from its entry actions on (SCXML's configuration)")
    func configurationDuringMicrostep() throws {
        let h = Harness()
        let names = ["p", "p.a", "q", "q.b"]
        let m = try h.machine("""
        {"name": "inside", "events": {"go": {}},
         "initial": "p",
         "states": {"p": {"initial": "a", "exit": [\(LIn("exit p", names))],
                          "states": {"a": {"exit": [\(LIn("exit a", names))],
                                           "on": {"go": {"target": "q", "actions": [\(LIn("go", names))]}}}}},
                    "q": {"initial": "b", "entry": [\(LIn("enter q", names))],
                          "states": {"b": {"entry": [\(LIn("enter b", names))]}}}}}
        """)
        h.clearLog()
        try h.send(m, "go")
        #expect(h.log == ["exit a: p p.a", "exit p: p", "go:", "enter q: q", "enter b: q q.b"])
        #expect(h.state(m) == "q.b")
    }

    @Test("R3.0.2 assigns of one microstep apply in its order: exit actions, the transition's actions, entry actions; guards read the context before any")
    func assignOrder() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "assigns", "events": {"go": {}},
         "context": {"n": {"type": "number", "initial": 0}, "seen": {"type": "number", "initial": -1}},
         "initial": "a",
         "states": {"a": {"exit": [{"assign": {"n": "context.n * 10 + 1"}}],
                          "on": {"go": [{"guard": "context.n == 1", "target": "c"},
                                        {"guard": "context.n == 0", "target": "b",
                                         "actions": [{"assign": {"seen": "context.n"}}, {"assign": {"n": "context.n * 10 + 2"}}]}]}},
                    "b": {"entry": [{"assign": {"n": "context.n * 10 + 3"}}], "values": ["n"]},
                    "c": {}}}
        """)
        _ = h.events()
        try h.send(m, "go")
        #expect(h.state(m) == "b")
        #expect(h.context(m, "seen") == .number(1))   // the exit action's assign is visible to the transition's
        #expect(h.context(m, "n") == .number(123))
        // The change is reported after the transition's actions, before the entry's.
        let changes = h.events().filter { $0.type == .machineStateChanged }
        #expect(changes.count == 1)
        #expect(changes.first?.payload == [.number(12)])
    }

    @Test("R3.0.2 eventless transitions are tried after every microstep until none is enabled: a targetless counter reaches its fixed point")
    func eventlessFixedPoint() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "fixedPoint", "events": {"go": {}},
         "context": {"n": {"type": "number", "initial": 0}},
         "initial": "idle",
         "states": {"idle": {"on": {"go": "count"}},
                    "count": {\(traced("count")),
                              "always": [{"guard": "context.n >= 3", "target": "full", "actions": [\(L("full"))]},
                                         {"guard": "context.n < 3", "actions": [{"assign": {"n": "context.n + 1"}}, \(L("tick"))]}]},
                    "full": {\(traced("full"))}}}
        """)
        h.clearLog(); _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        // A targetless eventless transition exits nothing: the entry ran once.
        #expect(h.log == ["enter count", "tick", "tick", "tick", "exit count", "full", "enter full"])
        #expect(h.context(m, "n") == .number(3))
        #expect(h.state(m) == "full")
        #expect(h.machineEvents(m) == ["state idle -> count", "state count -> full"])
    }

    @Test("R3.0.2 an eventless transition with nothing to stop it is stopped by maxMicrosteps: one error event, the send returns, the machine is usable")
    func eventlessLoopBounded() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "spin", "events": {"go": {}, "halt": {}}, "maxMicrosteps": 10,
         "context": {"n": {"type": "number", "initial": 0}},
         "initial": "idle",
         "states": {"idle": {"on": {"go": "spin"}},
                    "spin": {"always": {"actions": [{"assign": {"n": "context.n + 1"}}]}, "on": {"halt": "idle"}}}}
        """)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        // The send's own transition is the first of the 10 microsteps.
        #expect(h.context(m, "n") == .number(9))
        let events = h.machineEvents(m)
        #expect(events.count == 2)
        #expect(events.first == "state idle -> spin")
        #expect(events.last?.contains("the macrostep was stopped after 10 microsteps in state 'spin'") == true)
        #expect(try h.send(m, "halt") == .taken)
        #expect(h.state(m) == "idle")
    }

    @Test("R3.0.2 a final child takes no transitions itself, but its ancestors' transitions and eventless transitions still apply")
    func finalChildKeepsAncestorsTransitions() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "finalChild", "events": {"finish": {}, "back": {}, "arm": {}},
         "context": {"armed": {"type": "bool", "initial": false}},
         "initial": "p",
         "states": {"p": {\(traced("p")), "initial": "a",
                          "on": {"back": {"target": "p.a", "type": "internal"}, "arm": {"actions": [{"assign": {"armed": "true"}}]}},
                          "always": {"guard": "context.armed", "target": "out"},
                          "states": {"a": {\(traced("a")), "on": {"finish": "p.f"}}, "f": {"type": "final", \(traced("f"))}}},
                    "out": {\(traced("out"))}}}
        """)
        try h.send(m, "finish")
        #expect(h.state(m) == "p.f")
        h.clearLog()
        #expect(try h.send(m, "back") == .taken)
        #expect(h.log == ["exit f", "enter a"])
        try h.send(m, "finish")
        h.clearLog()
        #expect(try h.send(m, "arm") == .taken)
        #expect(h.log == ["exit f", "exit p", "enter out"])
        #expect(h.state(m) == "out")
    }

    @Test("R3.0.2 entering a final child queues onFinal behind the events its entry raised (SCXML raises done.state after the final state's onentry)")
    func onFinalAfterEntryEvents() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "doneOrder", "events": {"go": {}, "note": {}},
         "initial": "idle",
         "states": {"idle": {"on": {"go": "p"}},
                    "p": {"initial": "f", "onFinal": {"target": "out", "actions": [\(L("onFinal"))]},
                          "on": {"note": {"actions": [\(L("note"))]}},
                          "states": {"f": {"type": "final", "entry": [{"raise": "note"}, \(L("enter f"))]}}},
                    "out": {"on": {"note": {"actions": [\(L("note in out"))]}}}}}
        """)
        h.clearLog(); _ = h.events()
        // p's initial child is final: entering p completes it at once.
        #expect(try h.send(m, "go") == .taken)
        #expect(h.log == ["enter f", "note", "onFinal"])
        #expect(h.state(m) == "out")
        #expect(h.machineEvents(m) == ["state idle -> p.f", "state p.f -> out"])
    }

    @Test("R3.0.2 a compound state's initial final child at creation completes it in the creating macrostep")
    func onFinalAtCreation() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "doneAtStart", "events": {"go": {}},
         "initial": "p",
         "states": {"p": {\(traced("p")), "initial": "f", "onFinal": "out",
                          "states": {"f": {"type": "final", \(traced("f"))}}},
                    "out": {\(traced("out")), "on": {"go": "end"}},
                    "end": {"type": "final", \(traced("end"))}}}
        """)
        #expect(h.log == ["enter p", "enter f", "exit f", "exit p", "enter out"])
        #expect(h.state(m) == "out")
        h.clearLog()
        #expect(try h.send(m, "go") == .taken)
        // A top-level final state finishes the machine: its exit actions run
        // after its entry, and later sends are refused.
        #expect(h.log == ["exit out", "enter end", "exit end"])
        expectError(.state, ["has finished", "final state 'end'"]) { () throws(AnimrtError) in try h.send(m, "go") }
    }

    @Test("R3.0.2 raised events are processed before an event the host sent during the macrostep (run-to-completion)")
    func internalBeforeExternal() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine("""
        {"name": "rtcQueues", "events": {"go": {}, "internal": {}, "external": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [\(hostSend("external")), {"raise": "internal"}]}}},
                    "b": {"on": {"internal": {"target": "c", "actions": [\(L("internal"))]},
                                 "external": {"target": "x", "actions": [\(L("external in b"))]}}},
                    "c": {"on": {"external": {"target": "d", "actions": [\(L("external"))]}}},
                    "d": {}, "x": {}}}
        """)
        sender.machine = m
        #expect(try h.send(m, "go") == .taken)
        #expect(sender.outcomes == ["queued"])
        #expect(h.log == ["internal", "external"])
        #expect(h.state(m) == "d")
    }

    @Test("R3.0.2 an internal transition of an ancestor exits only the active states below it, however deep, and keeps its timer")
    func internalFromAncestor() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "deepInternal", "events": {"dive": {}, "reset": {}},
         "initial": "p",
         "states": {"p": {\(traced("p")), "initial": "a", "after": [{"delay": 1, "target": "late"}],
                          "on": {"reset": {"target": "p.b", "type": "internal", "actions": [\(L("reset"))]}},
                          "states": {"a": {\(traced("a")), "initial": "a1",
                                           "states": {"a1": {\(traced("a1")), "on": {"dive": "p.a.a2"}}, "a2": {\(traced("a2"))}}},
                                     "b": {\(traced("b"))}}},
                    "late": {\(traced("late"))}}}
        """)
        h.tick(0)
        try h.send(m, "dive")
        #expect(h.state(m) == "p.a.a2")
        h.clearLog()
        h.tick(0.5)
        #expect(try h.send(m, "reset") == .taken)
        #expect(h.log == ["exit a2", "exit a", "reset", "enter b"])
        h.clearLog()
        h.tick(1)   // p was never exited: its timer, started at 0, fires at 1
        #expect(h.log == ["exit b", "exit p", "enter late"])
        #expect(h.state(m) == "late")
    }

    @Test("R3.0.2 timers due at one time fire in the order they started: a parent's (entered first) before its child's, whose state it exits")
    func parentTimerBeforeChildsAtOneTime() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "tie", "events": {},
         "initial": "p",
         "states": {"p": {"initial": "a", "after": [{"delay": 1, "target": "x", "actions": [\(L("parent"))]}],
                          "states": {"a": {"after": [{"delay": 1, "target": "y", "actions": [\(L("child"))]}]}}},
                    "x": {}, "y": {}}}
        """)
        h.tick(1)
        #expect(h.log == ["parent"])
        #expect(h.state(m) == "x")
        #expect(h.runtime.pendingTimerCount == 0)
    }

    @Test("R3.0.2 each timer is a macrostep of its own: what one raises is processed before the next timer due in the same tick")
    func timerMacrostepsRunToCompletion() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "timerRtc", "events": {"note": {}},
         "initial": "a",
         "states": {"a": {"after": [{"delay": 1, "actions": [\(L("first")), {"raise": "note"}]},
                                    {"delay": 1, "actions": [\(L("second"))]}],
                          "on": {"note": {"actions": [\(L("note"))]}}}}}
        """)
        h.tick(5)
        #expect(h.log == ["first", "note", "second"])
        #expect(h.state(m) == "a")
    }

    @Test("R3.0.2 a guard that fails counts as false: the next transition in document order is taken, and error.execution, queued while selecting, comes before what the transition raised")
    func failingGuardThenNext() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": [{"guard": "context.r > 0", "target": "c", "actions": [\#(L("first"))]},
                                       {"target": "b", "actions": [\#(L("second")), {"raise": "fix"}]}]}},
                   "b": {"on": {"error.execution": {"actions": [\#(L("error"))]}, "fix": {"target": "c", "actions": [\#(L("fix"))]}}},
                   "c": {}}
        """#))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.log == ["second", "error", "fix"])
        #expect(h.state(m) == "c")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 1)
        #expect(errors.first?.event == "go")
        #expect(errors.first?.message.contains("guard of states.a.on.go[0]") == true)
    }

    @Test("R3.0.2 a compound state's self-transition from its second child exits both and enters its initial child, not the child it left")
    func compoundSelfTransitionEntersInitial() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "compoundSelf", "events": {"next": {}, "again": {}},
         "initial": "p",
         "states": {"p": {\(traced("p")), "initial": "a", "on": {"again": {"target": "p", "actions": [\(L("again"))]}},
                          "states": {"a": {\(traced("a")), "on": {"next": "p.b"}}, "b": {\(traced("b"))}}}}}
        """)
        try h.send(m, "next")
        #expect(h.state(m) == "p.b")
        h.clearLog(); _ = h.events()
        #expect(try h.send(m, "again") == .taken)
        #expect(h.log == ["exit b", "exit p", "again", "enter p", "enter a"])
        #expect(h.state(m) == "p.a")
        #expect(h.machineEvents(m) == ["state p.b -> p.a"])
    }
}
