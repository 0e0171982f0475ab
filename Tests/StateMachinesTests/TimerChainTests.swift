import AnimationCore
@testable import StateMachines
import Testing

/// `p` times out after 2 s; inside it `a` moves to `b` after 1 s and `b` to
/// `ok` after 0.5 s: on the clock, `ok` wins at 1.5 s.
let raceMachine = """
{"name": "race", "initial": "p",
 "states": {"p": {"initial": "a", "after": [{"delay": 2, "target": "timeout"}],
                  "states": {"a": {"after": [{"delay": 1, "target": "b"}]}, "b": {"after": [{"delay": 0.5, "target": "ok"}]}}},
            "ok": {}, "timeout": {}}}
"""

/// Three 1 s timers in a row: a → b → c → d.
let chainMachine = """
{"name": "chain", "initial": "a",
 "states": {"a": {"after": [{"delay": 1, "target": "b"}]}, "b": {"after": [{"delay": 1, "target": "c"}]},
            "c": {"after": [{"delay": 1, "target": "d"}]}, "d": {}}}
"""

@Suite("R3.0.1 a timer started while a timer fires is measured from that timer's due time")
struct TimerChainTests {
    /// The states `json` goes through when ticked at `times`, and where it ends.
    func run(_ json: String, ticks times: [Double]) throws -> (changes: [String], state: String) {
        let h = Harness()
        let m = try h.machine(json)
        _ = h.events()
        for t in times { h.tick(t) }
        return (h.machineEvents(m), h.state(m))
    }

    @Test("R3.0.1 a timer chain ends the same at 60 Hz and in one stalled frame")
    func sameAtTwoTickRates() throws {
        let fine = try run(raceMachine, ticks: [0] + (1...180).map { Double($0) / 60 })
        let coarse = try run(raceMachine, ticks: [0, 2.5])
        #expect(fine.state == "ok")
        #expect(coarse.state == "ok")
        #expect(coarse.changes == ["state p.a -> p.b", "state p.b -> ok"])
        #expect(coarse.changes == fine.changes)
    }

    @Test("R3.0.1 timers due within one tick fire in due order, those started during the tick included")
    func chainInOneTick() throws {
        let coarse = try run(chainMachine, ticks: [0, 3.5])
        #expect(coarse.state == "d")
        #expect(coarse.changes == ["state a -> b", "state b -> c", "state c -> d"])
        // Due at 1, 2, 3: a tick at 2.99 has fired two of them, not three.
        let partial = try run(chainMachine, ticks: [0, 2.99])
        #expect(partial.state == "c")
        let exact = try run(chainMachine, ticks: [0, 1, 2, 3])
        #expect(exact.state == "d")
    }

    @Test("R3.0.1 the due time of a timer started by a firing timer is the firing time plus its delay")
    func dueTimeFromFiring() throws {
        let h = Harness()
        let m = try h.machine(chainMachine)
        h.tick(0)
        h.tick(1.75)
        #expect(h.state(m) == "b")
        h.tick(1.99)
        #expect(h.state(m) == "b")
        h.tick(2)
        #expect(h.state(m) == "c")
    }
}
