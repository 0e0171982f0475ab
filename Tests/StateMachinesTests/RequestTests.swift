import AnimationCore
@testable import StateMachines
import Testing

let fetchMachine = """
{
  "name": "fetcher",
  "requests": {"load": {"payload": [{"name": "page", "type": "number"}]}},
  "events": {
    "fetch": {"payload": [{"name": "page", "type": "number", "default": 1}]},
    "loaded": {"resultOf": "load", "payload": [{"name": "progress", "type": "number", "min": 0, "max": 1, "clamp": true}]},
    "abandon": {}
  },
  "context": {"progress": {"type": "number", "initial": 0}},
  "initial": "idle",
  "states": {
    "idle": {"on": {"fetch": "loading"}},
    "loading": {
      "entry": [{"request": "load", "payload": {"page": 1}}],
      "on": {
        "fetch": {"target": "loading"},
        "loaded": {"target": "ready", "actions": [{"assign": {"progress": "event.progress"}}]},
        "abandon": {"target": "idle", "actions": [{"cancelRequest": "load"}]}
      }
    },
    "ready": {"values": ["progress"], "on": {"fetch": "loading", "loaded": {"actions": [{"assign": {"progress": "event.progress"}}]}}}
  }
}
"""

@Suite("R3.0.1, R3.2.2 requests: fresh ids, stale results rejected by the engine (seed 000 §5.1)")
struct RequestTests {
    @Test("R3.2.2 every request gets a new id, reported to the host with its payload")
    func ids() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        _ = h.events()
        try h.send(m, "fetch")
        try h.send(m, "fetch")
        let requests = h.events().filter { $0.type == .machineRequest }
        #expect(requests.map(\.token) == [1, 2])
        #expect(requests.allSatisfy { $0.payload == [.number(1)] && $0.name == 0 && $0.object == m })
    }

    @Test("R3.2.2 (seed 000 §5.1) a result carrying an older id is not processed and is reported as stale, with what was sent")
    func staleResult() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        try h.send(m, "fetch")   // request 1
        try h.send(m, "fetch")   // request 2 (re-entering loading)
        _ = h.events()
        #expect(try h.send(m, "loaded", [.number(1), .number(0.3)]) == .stale)
        #expect(h.state(m) == "loading")
        #expect(h.context(m, "progress") == .number(0))
        let stale = h.events()
        #expect(stale.count == 1)
        #expect(stale.first?.type == .machineStaleResult && stale.first?.token == 1)
        #expect(stale.first?.payload == [.integer(1), .number(0.3)])
        #expect(try h.send(m, "loaded", [.number(2), .number(0.7)]) == .taken)
        #expect(h.state(m) == "ready")
        #expect(h.context(m, "progress") == .number(0.7))
    }

    @Test("R3.2.2 a second result for the answered request, an id never issued, and a cancelled request are stale")
    func duplicatesAndCancelled() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        try h.send(m, "fetch")
        #expect(try h.send(m, "loaded", [.number(1), .number(0.5)]) == .taken)
        #expect(try h.send(m, "loaded", [.number(1), .number(0.9)]) == .stale)
        #expect(try h.send(m, "loaded", [.number(7), .number(0.9)]) == .stale)
        #expect(h.context(m, "progress") == .number(0.5))
        try h.send(m, "fetch")
        try h.send(m, "abandon")
        #expect(try h.send(m, "loaded", [.number(2), .number(0.9)]) == .stale)
        #expect(h.state(m) == "idle")
    }

    @Test("R3.2.2 a final result that is ignored closes its request too: a copy of it later is stale, not taken")
    func ignoredResultCloses() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "f", "requests": {"load": {}},
         "events": {"fetch": {}, "loaded": {"resultOf": "load"}, "progress": {"resultOf": "load", "partial": true}, "next": {}},
         "initial": "idle",
         "states": {"idle": {"on": {"fetch": {"target": "busy", "actions": [{"request": "load"}]}}},
                    "busy": {"ignore": ["loaded", "progress"], "on": {"next": "ready"}},
                    "ready": {"on": {"loaded": "done", "progress": {}}}, "done": {}}}
        """)
        try h.send(m, "fetch")
        #expect(try h.send(m, "progress", [.number(1)]) == .ignored)  // a partial result leaves it open
        #expect(try h.send(m, "loaded", [.number(1)]) == .ignored)
        try h.send(m, "next")
        _ = h.events()
        #expect(try h.send(m, "loaded", [.number(1)]) == .stale)
        #expect(try h.send(m, "progress", [.number(1)]) == .stale)
        #expect(h.state(m) == "ready")
        #expect(h.machineEvents(m) == ["stale loaded #1", "stale progress #1"])
    }

    @Test("R3.2.2 a result before any request of its operation is stale, not refused: no id is the latest")
    func resultBeforeAnyRequest() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        _ = h.events()
        #expect(try h.send(m, "loaded", [.number(1), .number(0.5)]) == .stale)
        // Nor is 0, which no request has (a runtime numbers its requests from 1).
        #expect(try h.send(m, "loaded", [.number(0), .number(0.5)]) == .stale)
        #expect(h.machineEvents(m) == ["stale loaded #1", "stale loaded #0"])
        #expect(h.state(m) == "idle")
        #expect(h.context(m, "progress") == .number(0))
    }

    /// A request number is a whole number the machine issued: a fraction,
    /// a negative number or one past 2^53 can answer no request, so it is
    /// the host's mistake (refused, nothing happens), not a late result.
    @Test("R3.2.2 a request number no request could have is refused, not stale")
    func impossibleRequestNumbers() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        try h.send(m, "fetch")
        _ = h.events()
        for bad in [1.5, 0.999, 9_007_199_254_740_994.0, 1e300] {
            expectError(.outOfRange, ["field 'request' of 'loaded' is", "a whole number"]) { () throws(AnimrtError) in
                try h.send(m, "loaded", [.number(bad), .number(0.5)])
            }
        }
        expectError(.outOfRange, ["the minimum is 0"]) { () throws(AnimrtError) in try h.send(m, "loaded", [.number(-1), .number(0.5)]) }
        #expect(h.events().isEmpty)  // no stale report, no state change
        #expect(h.state(m) == "loading")
        #expect(try h.send(m, "loaded", [.number(9_007_199_254_740_992), .number(0.5)]) == .stale)  // whole: possible, not this one
        #expect(try h.send(m, "loaded", [.number(1), .number(0.5)]) == .taken)
    }

    /// Numbers are unique in a runtime, not per instance: a host that keys
    /// results by its component, and destroyed and remade the component's
    /// machine, still has the old request's late answer reported stale.
    @Test("R3.2.2 request numbers are unique across the instances of a runtime: a late answer for a destroyed instance is stale in its successor")
    func numbersUniqueAcrossInstances() throws {
        let h = Harness()
        let a = try h.machine(fetchMachine), b = try h.machine(fetchMachine)
        try h.send(a, "fetch")
        try h.send(b, "fetch")
        try h.send(a, "fetch")
        #expect(h.events().filter { $0.type == .machineRequest }.map { "\($0.token)@\($0.object == a ? "a" : "b")" } == ["1@a", "2@b", "3@a"])
        try h.host.destroy(a)
        let c = try h.machine(fetchMachine)
        try h.send(c, "fetch")
        #expect(h.machineEvents(c) == ["state - -> idle", "state idle -> loading", "request load #4"])
        // a's requests 1 and 3 answered late, to the component's new machine: stale, nothing processed.
        #expect(try h.send(c, "loaded", [.number(3), .number(0.9)]) == .stale)
        #expect(try h.send(c, "loaded", [.number(1), .number(0.9)]) == .stale)
        #expect(try h.send(b, "loaded", [.number(4), .number(0.9)]) == .stale)  // c's number answers only c
        #expect(h.state(c) == "loading" && h.state(b) == "loading")
        #expect(try h.send(c, "loaded", [.number(4), .number(0.9)]) == .taken)
        #expect(try h.send(b, "loaded", [.number(2), .number(0.6)]) == .taken)
        #expect(h.context(c, "progress") == .number(0.9) && h.context(b, "progress") == .number(0.6))
    }

    /// Numbers travel as doubles, exact up to 2^53: the last one is issued,
    /// the next request fails as an action does (error event, error.execution),
    /// and nothing traps.
    @Test("R0.4 request numbers end at 2^53: the last is issued and answered, the next request is an error event")
    func numbersEndAt2To53() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        h.host.lastRequestNumber = MachineHost.maxRequestNumber - 1
        _ = h.events()
        try h.send(m, "fetch")
        #expect(h.machineEvents(m) == ["state idle -> loading", "request load #9007199254740992"])
        #expect(try h.send(m, "loaded", [.number(9_007_199_254_740_992), .number(0.5)]) == .taken)
        _ = h.events()
        try h.send(m, "fetch")
        let events = h.machineEvents(m)
        #expect(h.state(m) == "loading")
        #expect(events.count == 2 && events[0] == "state ready -> loading")
        #expect(events.last?.contains("issued every request number up to 2^53") == true)
        #expect(h.host.lastRequestNumber == MachineHost.maxRequestNumber)
    }

    @Test("R3.2.8 result numbers are clamped where the field says so; NaN is refused")
    func clamped() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        try h.send(m, "fetch")
        expectError(.invalidArgument, ["finite"]) { () throws(AnimrtError) in try h.send(m, "loaded", [.number(1), .number(.nan)]) }
        #expect(h.state(m) == "loading")
        try h.send(m, "loaded", [.number(1), .number(1.7)])
        #expect(h.context(m, "progress") == .number(1))
    }

    @Test("state changes carry the new state's associated values")
    func associatedValues() throws {
        let h = Harness()
        let m = try h.machine(fetchMachine)
        try h.send(m, "fetch")
        _ = h.events()
        try h.send(m, "loaded", [.number(1), .number(0.25)])
        let changes = h.events().filter { $0.type == .machineStateChanged }
        #expect(changes.count == 1)
        #expect(changes.first?.payload == [.number(0.25)])
    }

    @Test("a change into a child carries its ancestors' values first, each field once, as docs/machines.md says")
    func ancestorsValues() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "nested", "events": {"go": {}}, "initial": "a",
         "context": {"n": {"type": "number", "initial": 1}, "m": {"type": "number", "initial": 2}},
         "states": {"a": {"on": {"go": "q"}},
                    "q": {"initial": "b", "values": ["n"],
                          "states": {"b": {"values": ["m", "n"], "on": {"go": "c"}}, "c": {}}}}}
        """)
        _ = h.events()
        try h.send(m, "go")
        try h.send(m, "go")
        let changes = h.events().filter { $0.type == .machineStateChanged }
        #expect(changes.map(\.payload) == [[.number(1), .number(2)], [.number(1)]])
    }
}

@Suite("R3.0.2 eventless transitions are bounded; failures are events, never hangs or traps")
struct BoundTests {
    @Test("R3.0.2 an eventless loop stops at maxMicrosteps with an error event; the machine stays usable")
    func microstepBound() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "loop", "maxMicrosteps": 10, "events": {"go": {}, "stop": {}}, "context": {"n": {"type": "number", "initial": 0}},
         "initial": "idle",
         "states": {"idle": {"on": {"go": "ping"}},
                    "ping": {"always": {"target": "pong", "actions": [{"assign": {"n": "context.n + 1"}}]}, "on": {"stop": "idle"}},
                    "pong": {"always": {"target": "ping", "actions": [{"assign": {"n": "context.n + 1"}}]}, "on": {"stop": "idle"}}}}
        """)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        // 1 microstep for 'go', then 9 eventless ones: the bound is 10.
        #expect(h.context(m, "n") == .number(9))
        let errors = h.events().filter { $0.type == .machineError }
        #expect(errors.count == 1)
        #expect("\(errors.first!.payload)".contains("stopped after 10 microsteps"))
        try h.send(m, "stop")
        #expect(h.state(m) == "idle")
    }

    @Test("SCXML 5.9 a failing action stops its block, is reported, and raises error.execution for the machine")
    func errorExecution() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "failing", "events": {"go": {}}, "context": {"x": {"type": "number", "initial": 0}, "why": {"type": "string", "initial": "''"}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [\(L("before")), {"assign": {"x": "1 / context.x"}}, \(L("after"))]}}},
                    "b": {"on": {"error.execution": {"target": "failed", "actions": [{"assign": {"why": "event.message"}}]}}},
                    "failed": {}}}
        """)
        _ = h.events()
        try h.send(m, "go")
        #expect(h.log == ["before"])
        #expect(h.state(m) == "failed")
        #expect(h.context(m, "x") == .number(0))
        guard case .string(let why) = h.context(m, "why") else { Issue.record("why is not a string"); return }
        #expect(why.contains("states.a.on.go.actions[1]") && why.contains("context.x would be inf"))
        #expect(h.events().contains { $0.type == .machineError })
    }

    @Test("a top-level final state finishes the machine; a final child takes its parent's onFinal")
    func finalStates() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "final", "events": {"next": {}, "quit": {}}, "initial": "work",
         "states": {"work": {"initial": "step1", "onFinal": {"target": "review", "actions": [\(L("work finished"))]},
                             "states": {"step1": {"on": {"next": "step2"}}, "step2": {"type": "final"}}},
                    "review": {"on": {"quit": "end"}}, "end": {"type": "final"}}}
        """)
        try h.send(m, "next")
        #expect(h.log == ["work finished"])
        #expect(h.state(m) == "review")
        try h.send(m, "quit")
        #expect(try h.host.isFinished(m))
        expectError(.state, ["has finished", "'end'"]) { () throws(AnimrtError) in try h.send(m, "quit") }
    }
}
