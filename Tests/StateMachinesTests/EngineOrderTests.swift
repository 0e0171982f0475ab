import AnimationCore
@testable import StateMachines
import Testing

/// What the engine promises about order and about what a macrostep leaves
/// behind, each at a point where another answer was plausible: which
/// eventless transition wins, which queued send goes first, what a stopped
/// macrostep drops, what an `after` or an `onFinal` does with its guard, and
/// what finishing reports and cancels.
@Suite("R3.0.2 selection and queue order, the bound's drop, and what leaving a state or finishing takes along")
struct EngineOrderTests {
    @Test("R3.0.2 the active child's eventless transition preempts its parent's (selection goes from the atomic state outwards)")
    func eventlessInnermostFirst() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "nestedAlways", "events": {"go": {}},
         "context": {"armed": {"type": "bool", "initial": false}},
         "initial": "idle",
         "states": {"idle": {"on": {"go": {"target": "p", "actions": [{"assign": {"armed": "true"}}]}}},
                    "p": {"initial": "x", "always": {"guard": "context.armed", "target": "z", "actions": [\(L("parent"))]},
                          "states": {"x": {"always": {"guard": "context.armed", "target": "p.y",
                                                      "actions": [{"assign": {"armed": "false"}}, \(L("child"))]}},
                                     "y": {}}},
                    "z": {}}}
        """)
        #expect(try h.send(m, "go") == .taken)
        // p.x's transition is taken first; it disarms p's, which never runs.
        #expect(h.log == ["child"])
        #expect(h.state(m) == "p.y")
        #expect(h.context(m, "armed") == .bool(false))
    }

    @Test("R3.0.1 an onFinal whose guard is false is not taken: the machine stays in the final child")
    func onFinalGuard() throws {
        let h = Harness()
        let json = """
        {"name": "finalGuard", "events": {"go": {}, "arm": {}},
         "context": {"open": {"type": "bool", "initial": false}},
         "initial": "p",
         "states": {"p": {"initial": "a", "onFinal": {"guard": "context.open", "target": "out", "actions": [\(L("onFinal"))]},
                          "on": {"arm": {"actions": [{"assign": {"open": "true"}}]}},
                          "states": {"a": {"on": {"go": "p.f"}}, "f": {"type": "final"}}},
                    "out": {}}}
        """
        let closed = try h.machine(json)
        _ = h.events()
        #expect(try h.send(closed, "go") == .taken)
        #expect(h.state(closed) == "p.f")
        #expect(h.log.isEmpty)
        #expect(h.machineEvents(closed) == ["state p.a -> p.f"])   // a guard that keeps it is no error
        let open = try h.machine(json)
        try h.send(open, "arm")
        try h.send(open, "go")
        #expect(h.state(open) == "out")
        #expect(h.log == ["onFinal"])
    }

    @Test("R3.0.2 the internal events a macrostep stopped by the bound left are dropped: the next macrostep does not process them")
    func boundDropsTheQueue() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "leftover", "maxMicrosteps": 3, "events": {"go": {}, "x": {}, "poke": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [{"raise": "x"}, {"raise": "x"}, {"raise": "x"}]}}},
                    "b": {"on": {"x": {"actions": [\(L("x"))]}, "poke": {"actions": [\(L("poke"))]}}}}}
        """)
        _ = h.events()
        try h.send(m, "go")    // go, x, x: three microsteps; the third x is past the bound
        #expect(h.log == ["x", "x"])
        #expect(h.machineEvents(m) == ["state a -> b",
                                       "error 'the macrostep was stopped after 3 microsteps in state 'b' (an eventless loop?); the machine stays there'"])
        try h.send(m, "poke")
        #expect(h.log == ["x", "x", "poke"])
        #expect(h.machineEvents(m).isEmpty)
    }

    @Test("R3.2.4 leaving a state ends its named after timer: timerActive() is false in the next state's entry")
    func namedAfterEndsOnExit() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "leaveNamed", "events": {"check": {}, "next": {}},
         "context": {"before": {"type": "bool", "initial": false}, "after": {"type": "bool", "initial": true}},
         "initial": "x",
         "states": {"x": {"after": [{"delay": 5, "name": "timeout", "target": "z"}],
                          "on": {"check": {"actions": [{"assign": {"before": "timerActive('timeout')"}}]}, "next": "y"}},
                    "y": {"entry": [{"assign": {"after": "timerActive('timeout')"}}]}, "z": {}}}
        """)
        try h.send(m, "check")
        #expect(h.context(m, "before") == .bool(true))
        try h.send(m, "next")
        #expect(h.context(m, "after") == .bool(false))
        #expect(h.runtime.pendingTimerCount == 0)
        h.tick(10)
        #expect(h.state(m) == "y")
    }

    @Test("R0.4 an after whose delay is refused is an error; the state's other after timers start and its done still comes")
    func badDelayLeavesTheRest() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "twoAfters", "context": {"d": {"type": "number", "initial": -1}}, "events": {"go": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": "b"}},
                    "b": {"after": [{"delay": "context.d", "target": "a"}, {"delay": 1, "target": "c"}]}, "c": {}}}
        """)
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        #expect(machineErrors(h.events(), of: d).map(\.message) ==
                ["the delay of states.b.after[0] is -1; it must be a finite number of seconds, 0 or more"])
        #expect(h.runtime.pendingTimerCount == 1)
        h.tick(1)
        #expect(h.state(m) == "c")

        let done = try h.machine("""
        {"name": "badAfterDone", "context": {"d": {"type": "number", "initial": -1}}, "events": {"go": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": "b"}},
                    "b": {"after": [{"delay": "context.d", "target": "a"}], "done": "c"}, "c": {}}}
        """)
        try h.send(done, "go")   // b joined nothing: it is done in the same macrostep
        #expect(h.state(done) == "c")
    }

    @Test("R3.0.1 a refusal after two failing guards names the first failure; both are reported")
    func refusalNamesTheFirstFailure() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "twoFailures", "events": {"go": {}},
         "context": {"x": {"type": "number", "initial": 0},
                     "r": {"type": "number", "computed": "1 / context.x"}, "s": {"type": "number", "computed": "-1 / context.x"}},
         "initial": "a",
         "states": {"a": {"on": {"go": [{"guard": "context.r > 1", "target": "b"}, {"guard": "context.s > 1", "target": "b"}]}}, "b": {}}}
        """)
        let d = try h.host.definition(of: m)
        _ = h.events()
        let message = expectError(.state, ["no guard of its transitions passed", "context.r computes to inf"]) { () throws(AnimrtError) in
            try h.send(m, "go")
        }
        #expect(!message.contains("context.s"), "\(message)")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 2)
        #expect(errors.first?.message.contains("context.r computes to inf") == true)
        #expect(errors.last?.message.contains("context.s computes to -inf") == true)
        #expect(h.state(m) == "a")
    }

    @Test("R3.0.2 host sends queued during a macrostep are processed in the order they were sent")
    func queuedSendsInOrder() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine("""
        {"name": "fifo", "events": {"go": {}, "first": {}, "second": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"actions": [\(hostSend("first")), \(hostSend("second"))]},
                                 "first": {"target": "b", "actions": [\(L("first"))]}}},
                    "b": {"on": {"second": {"target": "c", "actions": [\(L("second"))]}}}, "c": {}}}
        """)
        sender.machine = m
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(sender.outcomes == ["queued", "queued"])
        #expect(h.log == ["first", "second"])
        #expect(h.state(m) == "c")
        #expect(h.machineEvents(m) == ["state a -> b", "state b -> c"])
    }

    @Test("R3.0.1 an assign of several fields whose last value fails writes none of them; its error names the action")
    func assignAllOrNothing() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "assignAll", "events": {"go": {}, "fix": {}},
         "context": {"a": {"type": "number", "initial": 0}, "b": {"type": "number", "initial": 0},
                     "zero": {"type": "number", "initial": 0}},
         "initial": "s",
         "states": {"s": {"on": {"go": {"actions": [{"assign": {"a": 1, "b": "1 / context.zero"}}]},
                                 "fix": {"actions": [{"assign": {"zero": 2}}]}}}}}
        """)
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.context(m, "a") == .number(0) && h.context(m, "b") == .number(0))
        #expect(machineErrors(h.events(), of: d).map(\.message) == ["states.s.on.go.actions[0]: context.b would be inf; context numbers must be finite"])
        try h.send(m, "fix")
        try h.send(m, "go")
        #expect(h.context(m, "a") == .number(1) && h.context(m, "b") == .number(0.5))
    }

    @Test("R3.2.5 an ignored throttled event opens no interval: the next one, where it is taken, is processed at once")
    func ignoredOpensNoInterval() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine, config: ["perSecond": .number(10)])
        try h.send(m, "pause")
        #expect(try h.send(m, "level", [.number(1)]) == .ignored)
        #expect(h.runtime.pendingTimerCount == 0)
        try h.send(m, "resume")
        #expect(try h.send(m, "level", [.number(2)]) == .taken)
        #expect(h.log == ["2"])
        #expect(try h.send(m, "level", [.number(3)]) == .throttled)   // 2 opened the interval
    }
}

@Suite("R3.0.2 finishing reports only what was never processed, once, and leaves no interval running")
struct FinishReportTests {
    @Test("R3.0.2 a raised event processed in the macrostep that finishes the machine is not reported as dropped")
    func processedIsNotDropped() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "finRaised", "events": {"go": {}, "r": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [{"raise": "r"}]}}},
                    "b": {"on": {"r": {"target": "f", "actions": [\(L("r"))]}}}, "f": {"type": "final"}}}
        """)
        _ = h.events()
        try h.send(m, "go")
        #expect(h.log == ["r"])
        #expect(try h.host.isFinished(m))
        #expect(h.machineEvents(m) == ["state a -> b", "state b -> f"])
    }

    @Test("R3.0.2 an error.execution queued when the machine finishes was reported when it failed, and is not reported again")
    func errorExecutionReportedOnce() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "finFails", "events": {"go": {}},
         "context": {"zero": {"type": "number", "initial": 0}, "n": {"type": "number", "initial": 0}},
         "initial": "a",
         "states": {"a": {"on": {"go": "f"}},
                    "f": {"type": "final", "entry": [{"assign": {"n": "1 / context.zero"}}]}}}
        """)
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.map(\.event) == ["go"])
        #expect(errors.first?.message == "states.f.entry[0]: context.n would be inf; context numbers must be finite")
        #expect(try h.host.isFinished(m))
    }

    @Test("R3.2.5 finishing cancels an open throttle interval with nothing waiting: no timer of the machine is left")
    func openIntervalCancelled() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "finWindow", "events": {"level": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}, "quit": {}},
         "initial": "a",
         "states": {"a": {"on": {"level": {}, "quit": "f"}}, "f": {"type": "final"}}}
        """)
        #expect(try h.send(m, "level", [.number(1)]) == .taken)
        #expect(h.runtime.pendingTimerCount == 1)
        try h.send(m, "quit")
        #expect(h.runtime.pendingTimerCount == 0)
        _ = h.events()
        h.tick(2)
        #expect(h.events().isEmpty)
    }
}
