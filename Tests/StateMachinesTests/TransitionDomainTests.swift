import AnimationCore
@testable import StateMachines
import Testing

/// `p` (with a 1 s timer to `timeout`) holding `a` and `b`; `up` goes
/// a → b, then b → p (a descendant to its ancestor).
let childToParentMachine = """
{"name": "upwards", "events": {"up": {}, "sideways": {}},
 "initial": "p",
 "states": {
   "p": {\(traced("p")), "initial": "a", "after": [{"delay": 1, "target": "timeout"}],
         "on": {"sideways": {"target": "p.b", "type": "internal", "actions": [\(L("sideways"))]}},
         "states": {"a": {\(traced("a")), "on": {"up": "b"}},
                    "b": {\(traced("b")), "on": {"up": {"target": "p", "actions": [\(L("act"))]}}}}},
   "timeout": {}}}
"""

@Suite("R3.0.2 the transition domain: an external transition to an ancestor leaves and re-enters it")
struct TransitionDomainTests {
    @Test("R3.0.2 a child's transition to its parent exits and re-enters the parent (SCXML: the domain is a proper ancestor)")
    func childToParent() throws {
        let h = Harness()
        let m = try h.machine(childToParentMachine)
        try h.send(m, "up")
        #expect(h.state(m) == "p.b")
        h.clearLog(); _ = h.events()
        #expect(try h.send(m, "up") == .taken)
        #expect(h.log == ["exit b", "exit p", "act", "enter p", "enter a"])
        #expect(h.state(m) == "p.a")
        #expect(h.machineEvents(m) == ["state p.b -> p.a"])
    }

    @Test("R3.0.2 re-entering the parent restarts its after timer")
    func parentTimerRestarts() throws {
        let h = Harness()
        let m = try h.machine(childToParentMachine)
        h.tick(0)
        try h.send(m, "up")
        h.tick(0.6)
        try h.send(m, "up")
        h.tick(1.2)
        #expect(h.state(m) == "p.a")  // the timer started at 0 was cancelled
        h.tick(1.59)
        #expect(h.state(m) == "p.a")
        h.tick(1.6)
        #expect(h.state(m) == "timeout")
    }

    @Test("R3.0.2 a grandchild's transition to its grandparent exits and re-enters both levels")
    func grandchildToGrandparent() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "deep", "events": {"up": {}}, "initial": "g",
         "states": {"g": {\(traced("g")), "initial": "p",
                          "states": {"p": {\(traced("p")), "initial": "c",
                                           "states": {"c": {\(traced("c")), "on": {"up": "g"}}}}}}}}
        """)
        h.clearLog(); _ = h.events()
        try h.send(m, "up")
        #expect(h.log == ["exit c", "exit p", "exit g", "enter g", "enter p", "enter c"])
        #expect(h.machineEvents(m) == ["state g.p.c -> g.p.c"])
    }

    @Test("R3.0.2 an internal transition to a descendant still leaves its source active")
    func internalStaysInside() throws {
        let h = Harness()
        let m = try h.machine(childToParentMachine)
        h.clearLog()
        try h.send(m, "sideways")
        #expect(h.log == ["exit a", "sideways", "enter b"])
        #expect(h.state(m) == "p.b")
    }
}
