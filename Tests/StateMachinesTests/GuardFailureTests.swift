import AnimationCore
@testable import StateMachines
import Testing

/// A machine whose `context.r` cannot be read while `x` is 0 (it computes to
/// inf), so every guard that reads it fails with an error. `states` is the
/// rest of the definition.
func failingGuardMachine(_ states: String, events: String = #""go": {}, "fix": {}"#, maxMicrosteps: Int = 10) -> String {
    """
    {"name": "failingGuard", "maxMicrosteps": \(maxMicrosteps), "events": {\(events)},
     "context": {"x": {"type": "number", "initial": 0}, "r": {"type": "number", "computed": "1 / context.x"}},
     \(states)}
    """
}

/// The messages of the error events in `events`, with the event each names.
func machineErrors(_ events: [Event], of d: MachineDefinition) -> [(event: String, message: String)] {
    events.filter { $0.type == .machineError }.map { e in
        let name = e.name < 0 ? "-" : d.events[Int(e.name)].name
        guard case .string(let s)? = e.payload.first else { return (name, "") }
        return (name, s)
    }
}

@Suite("SCXML 5.9.1 a guard that fails counts as false: one error.execution per failure, never a hang")
struct EventlessGuardFailureTests {
    @Test("R3.0.2 a failing eventless guard on the send path is tried once: one error event, the send returns")
    func sendPath() throws {
        let h = Harness()
        let json = failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": "b"}},
                   "b": {"always": {"guard": "context.r > 5", "target": "c"}, "on": {"fix": {"actions": [{"assign": {"x": 1}}]}}},
                   "c": {}}
        """#)
        let m = try h.machine(json)
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "b")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("guard of states.b.always") == true)
        #expect(errors.first?.message.contains("context.r computes to inf") == true)
        // Something changed (a microstep): the guard is tried again, and now passes (r = 1, not > 5: stays).
        #expect(try h.send(m, "fix") == .taken)
        #expect(h.state(m) == "b")
        #expect(machineErrors(h.events(), of: d).isEmpty)
    }

    @Test("R3.0.2 a failing eventless guard in the initial state: creation returns, one error event")
    func initialPath() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"always": {"guard": "context.r > 5", "target": "c"}, "on": {"go": "c"}}, "c": {}}
        """#))
        let d = try h.host.definition(of: m)
        #expect(h.state(m) == "a")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 1)
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "c")
    }

    @Test("SCXML 5.9.1 error.execution from a failing eventless guard is handled once when a transition takes it")
    func handledOnce() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": "b"}},
                   "b": {"always": {"guard": "context.r > 5", "target": "c"},
                         "on": {"error.execution": {"target": "failed", "actions": [\#(L("handled"))]}}},
                   "c": {}, "failed": {}}
        """#))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "failed")
        #expect(h.log == ["handled"])
        #expect(machineErrors(h.events(), of: d).count == 1)
    }

    @Test("R3.0.2 eventless guards are tried again after a raised event's transition changed the context")
    func retriedAfterInternalTransition() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "retry", "events": {"go": {}, "bump": {}}, "context": {"n": {"type": "number", "initial": 0}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [{"raise": "bump"}]}}},
                    "b": {"always": {"guard": "context.n == 1", "target": "c"},
                          "on": {"bump": {"actions": [{"assign": {"n": "context.n + 1"}}]}}},
                    "c": {}}}
        """)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "c")
        #expect(h.machineEvents(m) == ["state a -> b", "state b -> c"])
    }

    @Test("R3.0.2 a handler that changes nothing but retries the failing guard is stopped by maxMicrosteps")
    func retriedUntilBound() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": "b"}},
                   "b": {"always": {"guard": "context.r > 5", "target": "c"},
                         "on": {"error.execution": {"actions": [\#(L("handled"))]}}},
                   "c": {}}
        """#))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "b")
        // 'go', then each targetless handling is a microstep after which the guard is tried again:
        // after the 10th it fails once more, and the error.execution it queues is past the bound.
        #expect(h.log.count == 9)
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 11)
        #expect(errors.last?.message.contains("stopped after 10 microsteps") == true)
    }

    @Test("R3.0.2 a failing guard on error.execution itself is stopped by maxMicrosteps, not looped on")
    func failingErrorHandlerGuard() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": "b"}},
                   "b": {"entry": [{"assign": {"x": "1 / context.x"}}],
                         "on": {"error.execution": {"guard": "context.r > 5", "target": "c"}}},
                   "c": {}}
        """#))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "b")
        let errors = machineErrors(h.events(), of: d)
        // The entry action's failure, then one guard failure per error.execution
        // processed, until 'go' and 9 unhandled internal events reach the bound.
        #expect(errors.count == 11)
        #expect(errors.last?.message.contains("stopped after 10 microsteps") == true)
        #expect(errors.dropFirst().dropLast().allSatisfy { $0.message.contains("guard of states.b.on.error.execution") })
    }
}

/// `a` takes `go` only if `context.r > 5`, which fails while x is 0; an
/// `error.execution` handler at `top` (an ancestor that ignores `go` when
/// `ignoring` is true) goes to `err`.
func refusedOrIgnoredMachine(ignoring: Bool) -> String {
    failingGuardMachine(#"""
    "initial": "top",
    "states": {"top": {"initial": "a", \#(ignoring ? #""ignore": ["go"],"# : "")
                       "on": {"error.execution": {"target": "err", "actions": [\#(L("handled"))]}},
                       "states": {"a": {"on": {"go": {"guard": "context.r > 5", "target": "b"}, "fix": "b"}}, "b": {}}},
               "err": {}}
    """#)
}

@Suite("SCXML 5.9.1 a guard that fails while its event is refused or ignored")
struct RefusedOrIgnoredGuardFailureTests {
    @Test("R3.0.1 a refused send stays atomic: the refusal and the error event name the failure; error.execution is not raised")
    func refusedIsAtomic() throws {
        let h = Harness()
        let m = try h.machine(refusedOrIgnoredMachine(ignoring: false))
        let d = try h.host.definition(of: m)
        _ = h.events()
        expectError(.state, ["'go' is not taken in state 'top.a'", "no guard of its transitions passed",
                             "guard of states.top.states.a.on.go failed", "context.r computes to inf"]) { () throws(AnimrtError) in
            try h.send(m, "go")
        }
        #expect(h.state(m) == "top.a")
        #expect(h.log.isEmpty)
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.map(\.event) == ["go"])
        // Nothing of the refused send is left over for the next macrostep.
        #expect(try h.send(m, "fix") == .taken)
        #expect(h.state(m) == "top.b")
        #expect(h.log.isEmpty)
    }

    @Test("SCXML 5.9.1 an ignored event's macrostep processes the error.execution its guard raised")
    func ignoredProcessesError() throws {
        let h = Harness()
        let m = try h.machine(refusedOrIgnoredMachine(ignoring: true))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .ignored)
        #expect(h.state(m) == "err")
        #expect(h.log == ["handled"])
        let events = h.events()
        #expect(machineErrors(events, of: d).map(\.event) == ["go"])
        #expect(events.filter { $0.type == .machineStateChanged }.count == 1)
    }
}

@Suite("ANIMRT_EVENT_MACHINE_ERROR names the event being processed")
struct ErrorEventNameTests {
    @Test("an action's, a raised event's guard's and an eventless guard's failure name their event; creation names none")
    func names() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"entry": [{"assign": {"x": "1 / context.x"}}],
                         "on": {"go": {"target": "b", "actions": [{"raise": "fix"}, {"assign": {"x": "1 / context.x"}}]}}},
                   "b": {"on": {"fix": {"guard": "context.r > 5", "target": "c"}},
                         "always": {"guard": "context.r > 6", "target": "c"}},
                   "c": {}}
        """#))
        let d = try h.host.definition(of: m)
        #expect(machineErrors(h.events(), of: d).map(\.event) == ["-"])
        #expect(try h.send(m, "go") == .taken)
        let errors = machineErrors(h.events(), of: d)
        // The action of 'go', the eventless guard after it, then the guard of
        // the raised 'fix' and the drop of 'fix', which nothing took.
        #expect(errors.map(\.event) == ["go", "go", "fix", "fix"])
        #expect(errors.map { $0.message.prefix(24) } == ["states.a.on.go.actions[1", "guard of states.b.always",
                                                           "guard of states.b.on.fix", "an event raised by the m"])
        #expect(h.state(m) == "b")
    }

    /// An eventless transition belongs to the macrostep, not to the internal
    /// event processed before it: after 'go' raised 'fix' and 'fix' was
    /// taken, the eventless guard of the state 'fix' entered, and the entry
    /// action of the state it leads to, name 'go', the event the host sent.
    @Test("an eventless transition tried after a raised event names the macrostep's event")
    func eventlessAfterRaised() throws {
        let h = Harness()
        let m = try h.machine(failingGuardMachine(#"""
        "initial": "a",
        "states": {"a": {"on": {"go": {"target": "b", "actions": [{"raise": "fix"}]}}},
                   "b": {"on": {"fix": {"target": "c", "actions": [{"assign": {"x": "1 / context.x"}}]}}},
                   "c": {"always": [{"guard": "context.r > 6", "target": "d"}, {"target": "e"}]},
                   "d": {}, "e": {"entry": [{"assign": {"x": "2 / context.x"}}]}}
        """#))
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        let errors = machineErrors(h.events(), of: d)
        // The action of 'fix' (its own microstep), then the eventless guard and the entry action.
        #expect(errors.map(\.event) == ["fix", "go", "go"])
        #expect(errors.map { $0.message.prefix(24) } == ["states.b.on.fix.actions[", "guard of states.c.always", "states.e.entry[0]: conte"])
        #expect(h.state(m) == "e")
    }
}
