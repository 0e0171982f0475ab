import AnimationCore
@testable import StateMachines
import Testing

/// A function `hostSend(event)` that sends `event` to `machine` from inside
/// the machine's own macrostep, as a host callback would (the send is
/// queued), with `payload`; it records each outcome or refusal.
final class SelfSender: @unchecked Sendable {
    var machine: Handle?
    var payload: [TaggedValue] = []
    private(set) var outcomes: [String] = []

    init(_ h: Harness) {
        try! h.host.functions.register(MachineFunction(name: "hostSend", parameters: [.string], result: nil) { [unowned self, unowned h] args in
            do throws(AnimrtError) {
                let outcome = try h.send(self.machine!, args[0].string!, self.payload)
                self.outcomes.append("\(outcome)")
            } catch {
                self.outcomes.append("refused: \(error.message)")
            }
            return nil
        })
    }
}

/// `{"call": "hostSend", "args": ["'event'"]}`.
func hostSend(_ event: String) -> String { #"{"call": "hostSend", "args": ["'\#(event)'"]}"# }

@Suite("R3.0.2 finishing: a top-level final state exits the machine (SCXML exitInterpreter); nothing queued vanishes")
struct FinishTests {
    let machine = """
    {"name": "fin", "events": {"go": {}, "r": {}, "late": {}},
     "initial": "a",
     "states": {"a": {"exit": [\(L("exit a"))], "on": {"go": {"target": "f", "actions": [\(L("go")), {"raise": "r"}]}, "r": {}}},
                "f": {"type": "final", "entry": [\(L("entry f"))], "exit": [\(L("exit f"))]}}}
    """

    @Test("R3.0.2 entering a top-level final state runs its exit actions when the macrostep ends, after its entry")
    func exitActionsRun() throws {
        let h = Harness()
        let m = try h.machine(machine)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.log == ["exit a", "go", "entry f", "exit f"])
        #expect(try h.host.isFinished(m))
        #expect(h.state(m) == "f")
    }

    @Test("R3.0.2 an internal event still queued when the machine finishes is reported as dropped, naming it")
    func queuedInternalEventReported() throws {
        let h = Harness()
        let m = try h.machine(machine)
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 1)
        #expect(errors.first?.event == "r")
        #expect(errors.first?.message == "an event raised by the machine was dropped: the machine finished in its final state 'f' before it was processed")
    }

    @Test("R3.0.2 an event an exit action of the final state raises is reported too; a host send from it is refused")
    func raisedByFinalExit() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine("""
        {"name": "fin2", "events": {"go": {}, "bye": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": "f", "bye": {}}},
                    "f": {"type": "final", "exit": [{"raise": "bye"}, \(hostSend("go"))]}}}
        """)
        sender.machine = m
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        #expect(machineErrors(h.events(), of: d).map { "\($0.event): \($0.message)" } ==
                ["bye: an event raised by the machine was dropped: the machine finished in its final state 'f' before it was processed"])
        #expect(sender.outcomes.count == 1)
        #expect(sender.outcomes.first?.contains("refused: ") == true && sender.outcomes.first?.contains("has finished") == true)
    }

    @Test("R3.0.2 a host event queued during the macrostep that finishes the machine is reported as dropped")
    func queuedHostEventReported() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine("""
        {"name": "fin3", "events": {"go": {}, "late": {}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "f", "actions": [\(hostSend("late"))]}, "late": {}}},
                    "f": {"type": "final"}}}
        """)
        sender.machine = m
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        #expect(sender.outcomes == ["queued"])
        #expect(machineErrors(h.events(), of: d).map { "\($0.event): \($0.message)" } ==
                ["late: an event sent by the host was dropped: the machine finished in its final state 'f' before it was processed"])
    }

    @Test("R3.2.5 a throttled event waiting for its interval when the machine finishes is reported, not lost")
    func throttledEventReported() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "fin4", "events": {"level": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}, "quit": {}},
         "initial": "a",
         "states": {"a": {"on": {"level": {"actions": [{"call": "log", "args": ["str(event.v)"]}]}, "quit": "f"}},
                    "f": {"type": "final"}}}
        """)
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "level", [.number(1)]) == .taken)
        #expect(try h.send(m, "level", [.number(2)]) == .throttled)
        #expect(try h.send(m, "quit") == .taken)
        #expect(machineErrors(h.events(), of: d).map { "\($0.event): \($0.message)" } ==
                ["level: an event held by its throttle was dropped: the machine finished in its final state 'f' before it was processed"])
        h.tick(2)
        #expect(h.log == ["1"])
        #expect(h.events().isEmpty)
    }

    @Test("R3.2.4 a named timer still running when the machine finishes is cancelled")
    func timersCancelled() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "fin5", "events": {"quit": {}, "ping": {}},
         "initial": "a",
         "states": {"a": {"entry": [{"startTimer": "t", "delay": 1, "event": "ping"}], "on": {"quit": "f", "ping": {}}},
                    "f": {"type": "final", "entry": [{"startTimer": "t", "delay": 1}]}}}
        """)
        try h.send(m, "quit")
        let snapshot = try h.host.snapshot(m)
        #expect(!snapshot.contains("\"t\""), "\(snapshot)")
        #expect(h.runtime.pendingTimerCount == 0)
    }
}
