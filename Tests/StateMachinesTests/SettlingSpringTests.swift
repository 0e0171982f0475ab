import AnimationCore
@testable import StateMachines
import Testing

/// A machine whose `popping` state springs its part's opacity from 0 to 1
/// and moves on to `shown` when the spring's animation stops; `flag` is the
/// template's `usesSettlingDuration` (nil: the key is left out).
func springMachine(flag: String?, damping: Int = 10) -> String {
    """
    {"name": "pop",
     "config": {"settles": {"type": "bool", "default": false}},
     "parts": [{"name": "dot", "properties": {"opacity": 0}}],
     "animations": {"pop": {"type": "spring", "keyPath": "opacity", "from": 0, "to": 1,
                            "mass": 1, "stiffness": 100, "damping": \(damping)\(flag.map { #", "usesSettlingDuration": \#($0)"# } ?? "")}},
     "events": {"tap": {}},
     "initial": "ready",
     "states": {"ready": {"on": {"tap": "popping"}},
                "popping": {"entry": [{"animate": "pop", "part": "dot", "key": "pop"}], "done": "shown"},
                "shown": {}}}
    """
}

@Suite("a spring template with usesSettlingDuration runs until it settles, as the C flag does")
struct SettlingSpringTests {
    /// The spring of `springMachine`: ω0 = 10, ζ = 0.5; it settles after about 0.8 s, well past 0.25 s.
    let settling = try! Spring(mass: 1, stiffness: 100, damping: 10).runningDuration()

    /// Taps at 0 (the spring's begin time is stamped by the tick that follows, at 0 too); the state at each time.
    func states(_ json: String, config: [String: MachineValue] = [:], at times: [Double]) throws -> [String] {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(json, config: config)
        try h.send(m, "tap")
        h.tick(0)
        return times.map { t in
            h.tick(t)
            return h.state(m)
        }
    }

    @Test("true: the state's done comes when the spring settles, not after the default 0.25 s")
    func settles() throws {
        #expect(settling > 0.5 && settling < 2)
        #expect(try states(springMachine(flag: "true"), at: [0.3, settling - 0.01, settling + 0.01])
                == ["popping", "popping", "shown"])
        #expect(try states(springMachine(flag: nil), at: [0.24, 0.26]) == ["popping", "shown"])
        #expect(try states(springMachine(flag: "false"), at: [0.24, 0.26]) == ["popping", "shown"])
    }

    @Test("true: the part's opacity follows the spring to rest, not cut off at 0.25 s")
    func followsTheSpring() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(springMachine(flag: "true"))
        try h.send(m, "tap")
        h.tick(0)
        h.tick(0.3)
        let dot = try h.host.part("dot", of: m)
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        let mid = try h.runtime.presentationValue(forKeyPath: "opacity", of: dot).components[0]
        #expect(abs(mid - spring.value(at: 0.3)) < 1e-9)
    }

    @Test("an expression: the flag is read from config when the animation is added")
    func expression() throws {
        let json = springMachine(flag: "\"config.settles\"")
        #expect(try states(json, config: ["settles": .bool(true)], at: [0.3, settling + 0.01]) == ["popping", "shown"])
        #expect(try states(json, config: ["settles": .bool(false)], at: [0.26]) == ["shown"])
    }

    @Test("a spring that never settles is refused when it is added, as the machine's error")
    func neverSettles() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(springMachine(flag: "true", damping: 0))
        _ = h.events()
        try h.send(m, "tap")  // taken: the failing action is reported, not thrown
        h.tick(0.1)
        let errors = h.machineEvents(m).filter { $0.hasPrefix("error") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("the spring never settles") == true)
    }

    @Test("a value that is not a flag is refused, naming the key", arguments: [
        ("1", Status.kind, "a number is given where a bool is needed"),
        ("\"yes\"", Status.notFound, "unknown name 'yes'"),
        ("\"context.n\"", Status.notFound, "no context field named 'n'"),
    ])
    func notAFlag(value: String, status: Status, fragment: String) {
        let h = Harness()
        expectError(status, ["animations.pop.usesSettlingDuration", fragment]) { () throws(AnimrtError) in
            _ = try h.load(springMachine(flag: value))
        }
    }

    @Test("only springs take it")
    func springsOnly() {
        let h = Harness()
        let json = springMachine(flag: "true").replacing(#""type": "spring""#, with: #""type": "basic""#)
            .replacing(#""mass": 1, "stiffness": 100, "damping": 10, "#, with: "")
        expectError(.invalidArgument, ["'usesSettlingDuration' applies to spring animations, not basic"]) { () throws(AnimrtError) in
            _ = try h.load(json)
        }
    }
}
