import AnimationCore
@testable import StateMachines
import Testing

/// A send made while the machine runs (a host callback or registered
/// function inside its macrostep) is queued; when it is processed it goes
/// through the same checks as a direct send.
let queuedMachine = """
{
  "name": "queued",
  "requests": {"load": {}},
  "events": {
    "fetch": {}, "refetch": {}, "answer": {}, "poke": {},
    "loaded": {"resultOf": "load", "payload": [{"name": "progress", "type": "number"}]},
    "level": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}
  },
  "context": {"progress": {"type": "number", "initial": 0}},
  "initial": "idle",
  "states": {
    "idle": {"on": {"fetch": "loading",
                    "poke": {"actions": [\(hostSend("level"))]},
                    "level": {"actions": [{"call": "log", "args": ["str(event.v)"]}]}}},
    "loading": {
      "entry": [{"request": "load"}],
      "on": {
        "refetch": {"target": "loading", "actions": [\(hostSend("loaded"))]},
        "answer": {"actions": [\(hostSend("loaded"))]},
        "loaded": {"target": "ready", "actions": [{"assign": {"progress": "event.progress"}}]}
      }
    },
    "ready": {"on": {"loaded": {"actions": [{"assign": {"progress": "event.progress"}}]},
                     "poke": {"actions": [\(hostSend("answer"))]}}}
  }
}
"""

/// `askHost()`: a guard's function that sends the machine `moveOn` from the
/// host and answers true.
final class HostAsker: @unchecked Sendable {
    var machine: Handle?
    private(set) var outcomes: [String] = []

    init(_ h: Harness) {
        try! h.host.functions.register(MachineFunction(name: "askHost", parameters: [], result: .bool) { [unowned self, unowned h] _ in
            do throws(AnimrtError) { self.outcomes.append("\(try h.send(self.machine!, "moveOn"))") }
            catch { self.outcomes.append("refused: \(error.message)") }
            return .bool(true)
        })
    }
}

@Suite("R3.0.1, R3.2.2, R3.2.5 a queued host send is checked when it is processed, like a direct one")
struct QueuedSendTests {
    @Test("R3.2.2 a result that was current when queued but is stale when processed is reported stale, not taken")
    func staleWhenProcessed() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine(queuedMachine)
        sender.machine = m
        try h.send(m, "fetch")                 // request 1
        _ = h.events()
        sender.payload = [.number(1), .number(0.5)]
        // The result of request 1 is queued while `refetch` runs; the
        // re-entered state then issues request 2, so 1 is stale by the time
        // the result is processed.
        #expect(try h.send(m, "refetch") == .taken)
        #expect(sender.outcomes == ["queued"])
        #expect(h.state(m) == "loading")
        #expect(h.context(m, "progress") == .number(0))
        let events = h.events().filter { $0.object == m }
        let stale = events.filter { $0.type == .machineStaleResult }
        #expect(stale.count == 1 && stale.first?.token == 1)
        #expect(stale.first?.payload == [.integer(1), .number(0.5)])
        #expect(!events.contains { $0.type == .machineError })
        #expect(try h.send(m, "loaded", [.number(2), .number(0.7)]) == .taken)
    }

    @Test("R3.2.2 a queued final result that is taken closes its request: a second one is stale")
    func queuedResultClosesRequest() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine(queuedMachine)
        sender.machine = m
        try h.send(m, "fetch")                 // request 1
        sender.payload = [.number(1), .number(0.5)]
        #expect(try h.send(m, "answer") == .taken)
        #expect(sender.outcomes == ["queued"])
        #expect(h.state(m) == "ready")
        #expect(h.context(m, "progress") == .number(0.5))
        _ = h.events()
        #expect(try h.send(m, "loaded", [.number(1), .number(0.9)]) == .stale)
        #expect(h.context(m, "progress") == .number(0.5))
        #expect(h.machineEvents(m) == ["stale loaded #1"])
    }

    @Test("R3.2.5 a queued throttled event goes through its throttle: held while the interval runs, then processed")
    func queuedThrottled() throws {
        let h = Harness()
        let sender = SelfSender(h)
        h.tick(0)
        let m = try h.machine(queuedMachine)
        sender.machine = m
        #expect(try h.send(m, "level", [.number(1)]) == .taken)   // opens a 1 s interval
        sender.payload = [.number(2)]
        #expect(try h.send(m, "poke") == .taken)
        #expect(sender.outcomes == ["queued"])
        #expect(h.log == ["1"])                 // held, not processed inside the interval
        h.tick(0.5)
        #expect(h.log == ["1"])
        h.tick(1)
        #expect(h.log == ["1", "2"])
        #expect(try h.send(m, "level", [.number(3)]) == .throttled)   // the interval 2 opened runs on
    }

    @Test("R3.0.1 a queued host event that is refused when processed is reported as an error event naming it")
    func refusedWhenProcessed() throws {
        let h = Harness()
        let sender = SelfSender(h)
        let m = try h.machine(queuedMachine)
        let d = try h.host.definition(of: m)
        sender.machine = m
        try h.send(m, "fetch")
        sender.payload = [.number(1), .number(0.5)]
        try h.send(m, "answer")                 // loading -> ready
        _ = h.events()
        sender.payload = []
        #expect(try h.send(m, "poke") == .taken)   // queues `answer`, which ready does not accept
        #expect(sender.outcomes == ["queued", "queued"])
        let errors = machineErrors(h.events(), of: d)
        #expect(errors.count == 1 && errors.first?.event == "answer")
        #expect(errors.first?.message.hasPrefix("an event sent by the host was dropped: 'answer' is not accepted in state 'ready'") == true,
                "\(errors)")
        #expect(h.state(m) == "ready")
    }

    @Test("R3.2.5 a send from a guard checked while a throttle interval runs is queued: the check is part of the machine's run")
    func sendFromThrottleCheck() throws {
        let h = Harness()
        let asker = HostAsker(h)
        h.tick(0)
        let m = try h.machine("""
        {"name": "asking", "events": {"level": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}, "moveOn": {}},
         "initial": "live",
         "states": {"live": {"on": {"level": {"guard": "event.v < 2 or askHost()", "actions": [\(L("level"))]},
                                    "moveOn": {"target": "moved", "actions": [\(L("moveOn"))]}}},
                    "moved": {"ignore": ["level"]}}}
        """)
        asker.machine = m
        #expect(try h.send(m, "level", [.number(1)]) == .taken)   // opens a 1 s interval
        #expect(try h.send(m, "level", [.number(2)]) == .throttled)
        // moveOn waits for the check to end, as any send made while the machine runs.
        #expect(asker.outcomes == ["queued"])
        #expect(h.log == ["level", "moveOn"])
        #expect(h.state(m) == "moved")
    }
}
