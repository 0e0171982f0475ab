import AnimationCore
@testable import StateMachines
import Testing

/// A parent `p` that reports b then a, and its child `q` that reports c
/// and b again: entering p.q reports b, a, c (docs/machines.md, `values`).
let reportingMachine = #"""
{"name": "reporting",
 "context": {"a": {"type": "number", "initial": 1}, "b": {"type": "number", "initial": 2}, "c": {"type": "string", "initial": "'x'"}},
 "events": {"go": {}},
 "initial": "idle",
 "states": {"idle": {"on": {"go": "p"}},
            "p": {"values": ["b", "a"], "initial": "q", "states": {"q": {"values": ["c", "b"]}}}}}
"""#

@Suite("R3.0.1 a state change reports the new leaf's associated values and its ancestors', the outermost's first, each field once")
struct AssociatedValueTests {
    @Test("entering p.q reports p's b and a, then q's c; q's b again is not repeated")
    func outermostFirstEachOnce() throws {
        let h = Harness()
        let m = try h.machine(reportingMachine)
        let d = try h.host.definition(of: m)
        _ = h.events()
        try h.send(m, "go")
        let changes = h.events().filter { $0.type == .machineStateChanged && $0.object == m }
        #expect(changes.count == 1)
        #expect(changes.first?.toState == Int32(d.stateID("p.q")!))
        #expect(changes.first?.payload == [.number(2), .number(1), .string("x")])
        #expect(d.associatedValues(of: d.stateID("p.q")!).map { d.context[$0].name } == ["b", "a", "c"])
        #expect(d.associatedValues(of: d.stateID("idle")!).isEmpty)
    }
}
