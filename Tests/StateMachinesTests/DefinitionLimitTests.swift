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

/// A machine whose part `dot` plays the template `k` (`template`, its
/// opacity animated) as its one state is entered.
private func playing(_ template: String) -> String {
    machine(#""parts": [{"name": "dot", "properties": {"opacity": 0}}], "animations": {"k": \#(template)}"#,
            states: #""a": {"entry": [{"animate": "k", "part": "dot", "key": "k"}]}"#)
}

/// The opacity of `dot` in a machine of `playing`, created at 0 in a
/// runtime of its own, at each time.
private func opacities(_ json: String, at times: [Double]) throws -> [Double] {
    let h = Harness()
    h.tick(0)
    let m = try h.machine(json)
    h.tick(0)  // stamps the animation's begin time
    #expect(h.machineEvents(m).filter { $0.hasPrefix("error") } == [])
    let dot = try h.host.part("dot", of: m)
    return try times.map { t in
        h.tick(t)
        return try h.runtime.presentationValue(forKeyPath: "opacity", of: dot).components[0]
    }
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

    /// What an instance holds of its definition (its copy, string defaults)
    /// is held to the 1 MiB every string entering an instance is, though a
    /// definition may be 4 MiB: an instance holding a longer one could be
    /// snapshotted but not restored.
    @Test("a definition's copy and string defaults are at most 1 MiB: exactly 1 048 576 bytes load, one more byte is refused")
    func instanceStrings() throws {
        let h = Harness()
        let most = String(repeating: "é", count: DefinitionLimits.maxStringBytes / 2)
        for (template, place) in [(#""strings": {"en": {"title": "S"}}"#, "strings.en.title"),
                                  (#""config": {"label": {"type": "string", "default": "S"}}"#, "config.label.default"),
                                  (#""events": {"go": {"payload": [{"name": "t", "type": "string", "default": "S"}]}}"#,
                                   "events.go.payload[0].default")] {
            #expect(try h.load(machine(template.replacing("S", with: most))).name == "lim", "\(place)")
            expectRefusal(h, .outOfRange, "\(place) is 1048577 bytes; a definition's string is at most 1048576 bytes, as a string an expression makes is",
                          machine(template.replacing("S", with: most + "x")))
        }
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

    @Test("states, parts and templates nest at most 32 deep, groups 16 levels")
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
        // Past 16 levels of groups (groups(17) has 16 around its basic) the runtime would refuse the
        // group each time it plays: refused when the definition loads.
        _ = try h.load(machine(groups(17)))
        expectRefusal(h, .outOfRange, "animations.g.animations: the group would nest groups more than 16 deep (a group of plain animations is 1)",
                      machine(groups(18)))
        expectRefusal(h, .outOfRange, "animations.g" + String(repeating: ".animations[0]", count: 32) + ": animation groups are nested more than 32 deep",
                      machine(groups(33)))
    }

    @Test("a group naming a template counts the template's levels where it is used: 16 levels play, 17 are refused")
    func groupLevelsThroughNames() throws {
        // "inner" is 15 levels of groups around a basic; "k" adds one level (16) or two (17).
        let inner = String(repeating: #"{"type": "group", "duration": 1, "animations": ["#, count: 15)
            + #"{"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 1}"# + String(repeating: "]}", count: 15)
        func named(_ k: String) -> String {
            machine(#""parts": [{"name": "dot", "properties": {"opacity": 0}}], "animations": {"inner": \#(inner), "k": \#(k)}"#,
                    states: #""a": {"entry": [{"animate": "k", "part": "dot", "key": "k"}]}"#)
        }
        let sixteen = #"{"type": "group", "duration": 1, "animations": ["inner"]}"#
        #expect(try opacities(named(sixteen), at: [0.5]) == [0.5])
        let seventeen = #"{"type": "group", "duration": 1, "animations": [{"type": "group", "duration": 1, "animations": ["inner"]}]}"#
        expectRefusal(Harness(), .outOfRange, "animations.k.animations: the group would nest groups more than 16 deep (a group of plain animations is 1)",
                      named(seventeen))
    }

    @Test("a keyframe template's lists at the lengths the runtime plays: one timing function a segment, one key time a value (n + 1 discrete); paced modes ignore both")
    func keyframeListLengths() throws {
        let kf = { (extra: String) in #"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "duration": 2\#(extra)}"# }
        #expect(try opacities(playing(kf(#", "timingFunctions": ["linear", "linear"]"#)), at: [0.5, 1.5]) == [0.5, 0.5])
        #expect(try opacities(playing(kf(#", "keyTimes": [0, 0.25, 1]"#)), at: [0.25]) == [0.5])
        #expect(try opacities(playing(kf(#", "calculationMode": "discrete", "keyTimes": [0, 0.25, 0.5, 1]"#)), at: [0.25, 0.75]) == [0, 1])
        #expect(try opacities(playing(kf(#", "calculationMode": "paced", "timingFunctions": ["easeIn", "easeIn", "easeIn"], "keyTimes": [0, 1]"#)),
                              at: [0.5]) == [0.5])
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

    @Test("a keyframe animation has at most 4096 values: 4096 load and are played to the last, 4097 are refused")
    func keyframeValues() throws {
        let h = Harness()
        // Value i at second i: the opacity is the time, up to the last value, 4095, where it stays.
        func keyframes(_ n: Int) -> String {
            playing(#"{"type": "keyframe", "keyPath": "opacity", "values": [\#(list(n) { "\($0)" })], "duration": \#(n - 1), "fillMode": "forwards", "removedOnCompletion": false}"#)
        }
        let got = try opacities(keyframes(4096), at: [0.5, 2047.25, 4094.5, 4095, 5000])
        for (value, expected) in zip(got, [0.5, 2047.25, 4094.5, 4095, 4095]) { #expect(abs(value - expected) < 1e-9, "\(got)") }
        expectRefusal(h, .outOfRange, "animations.k.values: 4097 keyframe values; at most 4096 are accepted", keyframes(4097))
    }

    @Test("a keyframe animation's list keys (keyTimes, tension, continuity, bias) hold at most 4096 numbers: 4096 load and are read to the last, 4097 are refused")
    func listKeys() throws {
        let h = Harness()
        let values = list(4096) { "\($0)" }
        // Value i at second i, but the last at second 4096: halfway from 4094 s to 4096 s and a half more, 4094.75.
        func timed(_ n: Int) -> String {
            let times = list(n) { $0 < 4095 ? "\(Double($0) / 4096)" : "1" }
            return playing(#"{"type": "keyframe", "keyPath": "opacity", "values": [\#(values)], "keyTimes": [\#(times)], "duration": 4096}"#)
        }
        let got = try opacities(timed(4096), at: [1.5, 4095.5])
        #expect(abs(got[0] - 1.5) < 1e-9 && abs(got[1] - 4094.75) < 1e-9, "\(got)")
        expectRefusal(h, .outOfRange, "animations.k.keyTimes: 4097 keyTimes; at most 4096 are accepted", timed(4097))
        for key in ["tension", "continuity", "bias"] {
            // Cubic: the 4096th number (1, not the default 0) bends the last segment only.
            func cubic(_ n: Int, last: String) -> String {
                playing(#"{"type": "keyframe", "keyPath": "opacity", "values": [\#(values)], "calculationMode": "cubic", "duration": 4095, "\#(key)": [\#(list(n) { $0 == 4095 ? last : "0" })]}"#)
            }
            let bent = try opacities(cubic(4096, last: "1"), at: [1.5, 4094.5])
            let plain = try opacities(cubic(4096, last: "0"), at: [1.5, 4094.5])
            #expect(abs(bent[0] - plain[0]) < 1e-9, "\(key): \(bent) \(plain)")
            #expect(abs(bent[1] - plain[1]) > 1e-3, "\(key): the 4096th number was not read: \(bent) \(plain)")
            expectRefusal(h, .outOfRange, "animations.k.\(key): 4097 \(key); at most 4096 are accepted", cubic(4097, last: "1"))
        }
    }

    @Test("a group holds at most 1024 animations, nested groups' included, as the runtime plays: 1024 load and the last plays, 1025 are refused")
    func groupAnimations() throws {
        let h = Harness()
        // Animation i runs from second i to i + 1, from i to i + 1: only the last runs after 1023 s.
        let children = { (n: Int) in list(n) { #"{"type": "basic", "keyPath": "opacity", "from": \#($0), "to": \#($0 + 1), "beginTime": \#($0), "duration": 1}"# } }
        func group(_ n: Int) -> String { playing(#"{"type": "group", "animations": [\#(children(n))], "duration": \#(n)}"#) }
        #expect(Limits.groupSize == 1024)
        let got = try opacities(group(1024), at: [0.5, 1023.5, 1025])
        for (value, expected) in zip(got, [0.5, 1023.5, 0]) { #expect(abs(value - expected) < 1e-9, "\(got)") }
        let past = "animations.k.animations: the group would hold more than 1024 animations (nested groups' included)"
        expectRefusal(h, .outOfRange, past, group(1025))
        // A group of 1023 inside it: 1024 in all; one more beside it makes 1025.
        func nested(_ more: String) -> String {
            playing(#"{"type": "group", "animations": [{"type": "group", "animations": [\#(children(1023))], "duration": 1023}\#(more)], "duration": 1023}"#)
        }
        let inner = try opacities(nested(""), at: [0.5, 1022.5])
        for (value, expected) in zip(inner, [0.5, 1022.5]) { #expect(abs(value - expected) < 1e-9, "\(inner)") }
        expectRefusal(h, .outOfRange, past, nested(#", {"type": "basic", "keyPath": "opacity", "to": 0}"#))
    }
}
