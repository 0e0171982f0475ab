import AnimationCore
@testable import StateMachines
import Testing

/// `n` comma-separated members or elements made by `item`.
private func list(_ n: Int, _ item: (Int) -> String) -> String {
    (0..<n).map(item).joined(separator: ", ")
}

/// A machine of one state `a` with `top` added to its top-level keys.
private func machine(_ top: String, states: String = #""a": {}"#, initial: String = "a") -> String {
    #"{"name": "lim", \#(top)\#(top.isEmpty ? "" : ", ")"initial": "\#(initial)", "states": {\#(states)}}"#
}

/// Expects a refusal with exactly `status` and `message`; nothing is loaded.
private func expectRefusal(_ h: Harness, _ status: Status, _ message: String, _ json: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    let before = h.host.definitions.count
    let got = expectError(status, [], sourceLocation: sourceLocation) { () throws(AnimrtError) in _ = try h.load(json) }
    #expect(got == message, sourceLocation: sourceLocation)
    #expect(h.host.definitions.count == before, "a refused definition is not kept", sourceLocation: sourceLocation)
}

@Suite("R0.4 definition limits (docs/machines.md, \"Limits\"): each is accepted at its edge and refused one past it, with its status and message")
struct DefinitionLimitTests {
    @Test("a definition is at most 4 MiB: exactly 4 194 304 bytes load, one more byte is refused before it is parsed")
    func textBytes() throws {
        let h = Harness()
        let body = machine("")
        let padded = body + String(repeating: " ", count: DefinitionLimits.maxBytes - body.utf8.count)
        #expect(padded.utf8.count == 4_194_304)
        #expect(try h.load(padded).name == "lim")
        expectRefusal(h, .outOfRange, "the definition is 4194305 bytes; at most 4194304 are accepted", padded + " ")
    }

    @Test("a name is at most 128 bytes: of a state, a context field, a part, an event, a definition registered by name")
    func nameBytes() throws {
        let h = Harness()
        let at = "n" + String(repeating: "x", count: 127), past = at + "x"
        #expect(at.utf8.count == DefinitionLimits.maxNameLength)
        _ = try h.machine(machine("", states: #""\#(at)": {}"#, initial: at))
        expectRefusal(h, .invalidArgument,
                      "states.\(past): state name '\(past)' must be 1 to 128 ASCII letters, digits and '_', not starting with a digit",
                      machine("", states: #""\#(past)": {}"#, initial: past))
        let field = { (n: String) in #""context": {"\#(n)": {"type": "number", "initial": 0}}"# }
        _ = try h.load(machine(field(at)))
        expectRefusal(h, .invalidArgument,
                      "context.\(past): context field name '\(past)' must be 1 to 128 ASCII letters, digits and '_', not starting with a digit",
                      machine(field(past)))
        let part = { (n: String) in #""parts": [{"name": "\#(n)"}]"# }
        _ = try h.load(machine(part(at)))
        expectRefusal(h, .invalidArgument,
                      "parts[0].name: part name '\(past)' must be 1 to 128 ASCII letters, digits and '_', not starting with a digit",
                      machine(part(past)))
        let event = { (n: String) in #""events": {"\#(n)": {}}"# }
        _ = try h.load(machine(event(at)))
        expectRefusal(h, .invalidArgument,
                      "events.\(past): event name '\(past)' must be 1 to 128 ASCII letters, digits, '_', '-' and '.', starting with a letter or '_'",
                      machine(event(past)))
        try h.host.register(definition: machine(""), as: at)
        expectError(.invalidArgument, ["a definition is registered under 1 to 128 ASCII letters, digits and '_', not starting with a digit; a name of 129 bytes is not one"]) {
            () throws(AnimrtError) in try h.host.register(definition: machine(""), as: past)
        }
    }

    @Test("at most 4096 of each kind: states, events, context fields, parts, timers, payload fields, config parameters")
    func items() throws {
        let h = Harness()
        // Zero-padded, so that the state one past the limit is the last in order.
        let states = { (n: Int) in list(n) { #""s\#(String(10_000 + $0).dropFirst())": {}"# } }
        _ = try h.machine(machine("", states: states(4096), initial: "s0000"))
        expectRefusal(h, .outOfRange, "states.s4096: 4097 states; at most 4096 are accepted",
                      machine("", states: states(4097), initial: "s0000"))
        let events = { (n: Int) in #""events": {\#(list(n) { #""e\#($0)": {}"# })}"# }
        _ = try h.load(machine(events(4096)))
        expectRefusal(h, .outOfRange, "events: 4097 events; at most 4096 are accepted", machine(events(4097)))
        let fields = { (n: Int) in #""context": {\#(list(n) { #""f\#($0)": {"type": "number", "initial": 0}"# })}"# }
        _ = try h.machine(machine(fields(4096)))
        expectRefusal(h, .outOfRange, "context: 4097 context fields; at most 4096 are accepted", machine(fields(4097)))
        let parts = { (n: Int) in #""parts": [\#(list(n) { #"{"name": "p\#($0)"}"# })]"# }
        _ = try h.load(machine(parts(4096)))
        expectRefusal(h, .outOfRange, "parts[4096]: 4097 parts; at most 4096 are accepted", machine(parts(4097)))
        let timers = { (n: Int) in #""entry": [\#(list(n) { #"{"startTimer": "t\#($0)", "delay": 1}"# })]"# }
        _ = try h.load(machine("", states: #""a": {\#(timers(4096))}"#))
        expectRefusal(h, .outOfRange, "states: 4097 timers; at most 4096 are accepted", machine("", states: #""a": {\#(timers(4097))}"#))
        let payload = { (n: Int) in #""events": {"go": {"payload": [\#(list(n) { #"{"name": "x\#($0)", "type": "number"}"# })]}}"# }
        _ = try h.load(machine(payload(4096)))
        expectRefusal(h, .outOfRange, "events.go.payload: 4097 payload fields; at most 4096 are accepted", machine(payload(4097)))
        let config = { (n: Int) in #""config": {\#(list(n) { #""c\#($0)": {"type": "number", "default": 0}"# })}"# }
        _ = try h.load(machine(config(4096)))
        expectRefusal(h, .outOfRange, "config: 4097 config parameters; at most 4096 are accepted", machine(config(4097)))
    }

    @Test("states, parts and animation groups nest at most 32 deep")
    func depth() throws {
        let h = Harness()
        func states(_ levels: Int) -> String {
            // A chain of `levels` states, each the only child of the one before.
            String(repeating: #""s": {"initial": "s", "states": {"#, count: levels - 1) + #""s": {}"# + String(repeating: "}}", count: levels - 1)
        }
        _ = try h.machine(machine("", states: states(32), initial: "s"))
        expectRefusal(h, .outOfRange, "states" + String(repeating: ".s.states", count: 32) + ": states are nested more than 32 deep",
                      machine("", states: states(33), initial: "s"))
        func parts(_ levels: Int) -> String {
            #""parts": "# + (1..<levels).map { #"[{"name": "p\#($0)", "parts": "# }.joined() + #"[{"name": "q"}]"#
                + String(repeating: "}]", count: levels - 1)
        }
        _ = try h.machine(machine(parts(32)))
        expectRefusal(h, .outOfRange, "parts" + String(repeating: "[0].parts", count: 32) + ": parts are nested more than 32 deep",
                      machine(parts(33)))
        func groups(_ levels: Int) -> String {
            #""animations": {"g": "# + String(repeating: #"{"type": "group", "animations": ["#, count: levels - 1)
                + #"{"type": "basic", "keyPath": "opacity", "to": 0}"# + String(repeating: "]}", count: levels - 1) + "}"
        }
        _ = try h.load(machine(groups(32)))
        expectRefusal(h, .outOfRange, "animations.g" + String(repeating: ".animations[0]", count: 32) + ": animation groups are nested more than 32 deep",
                      machine(groups(33)))
    }

    @Test("maxMicrosteps is a whole number from 1 to 100 000")
    func microsteps() throws {
        let h = Harness()
        #expect(try h.load(machine(#""maxMicrosteps": 100000"#)).maxMicrosteps == 100_000)
        #expect(try h.load(machine(#""maxMicrosteps": 1"#)).maxMicrosteps == 1)
        for (bad, shown) in [("100001", "100001"), ("0", "0"), ("1.5", "1.5"), ("1e300", "1e+300"), ("-1", "-1")] {
            expectRefusal(h, .outOfRange, "maxMicrosteps: maxMicrosteps is \(shown); it must be a whole number from 1 to 100000",
                          machine(#""maxMicrosteps": \#(bad)"#))
        }
    }

    @Test("an expression is at most 4096 bytes: exactly 4096 load and run, 4097 are refused")
    func expressionBytes() throws {
        let h = Harness()
        func assigning(_ e: String) -> String {
            machine(#""context": {"r": {"type": "number", "initial": 0}}, "events": {"go": {}}"#,
                    states: #""a": {"on": {"go": {"actions": [{"assign": {"r": "\#(e)"}}]}}}"#)
        }
        // "1" and 2047 "+1": 4095 bytes; one space makes 4096.
        let at = "1 " + String(repeating: "+1", count: 2047)
        #expect(at.utf8.count == DefinitionLimits.maxExpressionLength)
        let m = try h.machine(assigning(at))
        try h.send(m, "go")
        #expect(h.context(m, "r") == .number(2048))
        expectRefusal(h, .outOfRange, "states.a.on.go.actions[0].assign.r: the expression is 4097 bytes; at most 4096 are accepted",
                      assigning(at + " "))
    }
}
