import AnimationCore
@testable import StateMachines
import Testing

/// A machine whose `go` assigns `expression` to context.r (n is 1, b is true).
private func assigning(_ expression: String, guard condition: String = "true") -> String {
    #"{"name": "deep", "context": {"n": {"type": "number", "initial": 1}, "b": {"type": "bool", "initial": true}, "#
        + #""r": {"type": "number", "initial": 0}}, "events": {"go": {}}, "initial": "a", "#
        + #""states": {"a": {"on": {"go": {"guard": "\#(condition)", "actions": [{"assign": {"r": "\#(expression)"}}]}}}}}"#
}

private func nested(_ open: String, _ inner: String, _ close: String, _ n: Int) -> String {
    String(repeating: open, count: n) + inner + String(repeating: close, count: n)
}

@Suite("R0.4 machine limits: what parsing, decoding and running may cost is bounded, at and past each edge")
struct MachineLimitTests {
    @Test("an expression nests at most 64 levels: the deepest loads and runs, one more is refused with its column")
    func expressionDepth() throws {
        let h = Harness()
        // The expression is one level; each parenthesis, call, '-' or 'not' adds one.
        let m = try h.machine(assigning(nested("(", "context.n", ")", 63)))
        try h.send(m, "go")
        #expect(h.context(m, "r") == .number(1))
        let negated = try h.machine(assigning(String(repeating: "-", count: 63) + "context.n", guard: String(repeating: "!", count: 62) + "context.b"))
        try h.send(negated, "go")
        #expect(h.context(negated, "r") == .number(-1))
        for (expression, condition) in [(nested("(", "context.n", ")", 64), "true"),
                                         (nested("abs(", "context.n", ")", 64), "true"),
                                         (String(repeating: "-", count: 64) + "context.n", "true"),
                                         ("1", String(repeating: "not ", count: 64) + "context.b"),
                                         (String(repeating: "context.b ? 1 : ", count: 64) + "2", "true"),
                                         // All 4096 bytes the length limit allows, as parentheses:
                                         // refused at level 65, where parsing once ran out of stack.
                                         (nested("(", "1", ")", 2047), "true")] {
            expectError(.outOfRange, ["nests more than 64 levels deep", "column "]) { () throws(AnimrtError) in
                _ = try h.load(assigning(expression, guard: condition))
            }
        }
    }

    @Test("the recursion parsing an expression takes is never counted short before it is parsed: a deep one is parsed on a thread of its own")
    func nestingBound() throws {
        func bound(_ text: String) throws -> Int { Parser.nestingBound(try Lexer.tokens(text)) }
        // Binary operators add no level, nor does the branch after ':' (read in a loop), nor the
        // parentheses around a quoted name: these stay on the caller's thread.
        #expect(try bound("context.n - 1 - 1 - 1") == 1)
        #expect(try bound("context.b and not context.b") == 2)
        #expect(try bound("-context.n") == 2)
        #expect(try bound("abs(-context.n) - 1") == 3)
        #expect(try bound("context.b ? 1 : context.b ? 2 : 3") == 2)
        #expect(try bound("context.b ? context.b ? 1 : 2 : 3") == 3)
        #expect(try bound("(context.b ? 1 : 2) + (context.n)") == 3)
        #expect(try bound("in('a') ? text('b') : timerActive('c') ? 'x' : 'y'") == 2)
        #expect(try bound("min(1, -(2), 3)") == 4)
        // At the limit, every way of nesting that recurses counts all 64 levels (and loads).
        let h = Harness()
        for (expression, condition) in [(nested("(", "context.n", ")", 63), "true"), (nested("abs(", "context.n", ")", 63), "true"),
                                         (nested("min(1, ", "context.n", ")", 63), "true"), (String(repeating: "-", count: 63) + "context.n", "true"),
                                         ("1", String(repeating: "not ", count: 63) + "context.b"), ("1", String(repeating: "!", count: 63) + "context.b"),
                                         ("-" + nested("-(", "context.n", ")", 31), "true"), ("-" + nested("(context.b ? ", "1", " : 2)", 31), "true"),
                                         (String(repeating: "context.b ? ", count: 63) + "1" + String(repeating: " : 2", count: 63), "true")] {
            _ = try h.load(assigning(expression, guard: condition))
            #expect(try max(bound(expression), bound(condition)) >= 64, "\(expression.prefix(24)) \(condition.prefix(24))")
        }
        // A chain of 63 '? :' after ':' is 64 levels too, but read in a loop.
        let chain = String(repeating: "context.b ? 1 : ", count: 63) + "2"
        _ = try h.load(assigning(chain))
        #expect(try bound(chain) == 2)
    }

    @Test("JSON nests at most 128 levels, in a definition, a payload, options and a snapshot; deeper is refused before it is decoded")
    func jsonDepth() throws {
        let h = Harness()
        // The top object is one level: 127 more pass the limit (and the loader names the stray key).
        expectError(.invalidArgument, ["unknown key 'x'"]) { () throws(AnimrtError) in
            _ = try h.load(#"{"name": "p", "x": "# + nested("[", "", "]", 127) + "}")
        }
        for n in [128, 100_000] {
            let text = #"{"name": "p", "x": "# + nested("[", "", "]", n) + "}"
            expectError(.outOfRange, ["the JSON is too deep at line 1, column 147", "nest more than 128 levels deep"]) { () throws(AnimrtError) in
                _ = try h.load(text)
            }
            let m = try h.machine(assigning("1"))
            expectError(.outOfRange, ["payload: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try h.host.send(m, event: "go", json: text)
            }
            expectError(.outOfRange, ["options: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try MachineHost.Options(json: text)
            }
            expectError(.outOfRange, ["not a machine snapshot: the JSON is too deep"]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        // Brackets inside strings do not count.
        #expect(JSONSyntax.firstTooDeep(in: Array(("[\"" + String(repeating: "[", count: 300) + "\\\"\"]").utf8), limit: 2) == nil)
    }

    @Test("a string an expression joins is at most 1 MiB: a context string doubled by each event stops there with an error event")
    func stringLength() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "doubler", "context": {"s": {"type": "string", "initial": "'ab'"}}, "events": {"go": {}}, "initial": "a",
         "states": {"a": {"on": {"go": {"actions": [{"assign": {"s": "context.s + context.s"}}]}}}}}
        """#)
        for _ in 0..<19 { try h.send(m, "go") }
        #expect(h.context(m, "s").string?.utf8.count == 1 << 20)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.context(m, "s").string?.utf8.count == 1 << 20)
        let errors = h.machineEvents(m).filter { $0.hasPrefix("error") }
        #expect(errors.count == 1 && errors[0].contains("'+' would make a string of 2097152 bytes; an expression makes strings of at most 1048576 bytes"),
                "\(errors)")
        // The tree the compiled program is checked against says the same.
        var c = EvaluationContext.empty
        let half = Node.constant(.string(String(repeating: "x", count: 1 << 19)))
        #expect(try Evaluator.evaluate(.concatenate(half, half), &c).string?.utf8.count == 1 << 20)
        #expect(throws: AnimrtError.self) { try Evaluator.evaluate(.concatenate(half, .concatenate(half, .constant(.string("y")))), &c) }
    }

    @Test("an initial value joined past 1 MiB refuses the creation, naming the field")
    func initialStringLength() throws {
        let h = Harness()
        let joined = #"{"name": "j", "config": {"s": {"type": "string", "default": "x"}}, "#
            + #""context": {"t": {"type": "string", "initial": "config.s + config.s"}}, "initial": "a", "states": {"a": {}}}"#
        let half = String(repeating: "y", count: 1 << 19)
        let m = try h.machine(joined, config: ["s": .string(half)])
        #expect(h.context(m, "t").string?.utf8.count == 1 << 20)
        expectError(.outOfRange, ["context.t (its initial value, config.s + config.s): '+' would make a string of 1048578 bytes; an expression makes strings of at most 1048576 bytes"]) { () throws(AnimrtError) in
            _ = try h.machine(joined, config: ["s": .string(half + "y")])
        }
    }

    /// A machine whose `emit16` and `emit17` emit 16 and 17 string fields,
    /// whose `keep16` and `keep17` assign them to 16 and 17 context fields,
    /// and whose `keepOne` assigns field 16 alone, each field `config.s`.
    private static func wide() -> String {
        func fields(_ n: Int) -> String { (0..<n).map { #"{"name": "f\#($0)", "type": "string"}"# }.joined(separator: ", ") }
        func values(_ n: Int, _ prefix: String) -> String { (0..<n).map { #""\#(prefix)\#($0)": "config.s""# }.joined(separator: ", ") }
        let context: String = (0..<17).map { #""c\#($0)": {"type": "string", "initial": "''"}"# }.joined(separator: ", ")
        var json = #"{"name": "wide", "config": {"s": {"type": "string", "default": "x"}}, "context": {\#(context)}, "#
        json += #""events": {"emit16": {}, "emit17": {}, "keep16": {}, "keep17": {}, "keepOne": {}}, "#
        json += #""emits": {"e16": {"payload": [\#(fields(16))]}, "e17": {"payload": [\#(fields(17))]}}, "initial": "a", "#
        json += #""states": {"a": {"on": {"emit16": {"actions": [{"emit": "e16", "payload": {\#(values(16, "f"))}}]}, "#
        json += #""emit17": {"actions": [{"emit": "e17", "payload": {\#(values(17, "f"))}}]}, "#
        json += #""keep16": {"actions": [{"assign": {\#(values(16, "c"))}}]}, "#
        json += #""keep17": {"actions": [{"assign": {\#(values(17, "c"))}}]}, "#
        json += #""keepOne": {"actions": [{"assign": {"c16": "config.s"}}]}}}}}"#
        return json
    }

    @Test("R0.4 a payload's strings hold at most 16 MiB together: 16 fields of 1 MiB are emitted whole, a 17th is an error event and nothing is emitted")
    func payloadStringTotal() throws {
        let h = Harness()
        let mib = String(repeating: "m", count: DefinitionLimits.maxStringBytes)
        let m = try h.machine(MachineLimitTests.wide(), config: ["s": .string(mib)])
        _ = h.events()
        try h.send(m, "emit16")
        let emitted = h.events().filter { $0.type == .machineEmitted }
        #expect(emitted.count == 1 && emitted[0].payload.count == 16)
        let bytes = emitted.first?.payload.reduce(0) { (n: Int, v: TaggedValue) -> Int in
            if case .string(let s) = v { return n + s.utf8.count }
            return n
        }
        #expect(bytes == DefinitionLimits.maxTotalStringBytes)
        try h.send(m, "emit17")
        let after = h.events()
        #expect(!after.contains { $0.type == .machineEmitted })
        let errors = after.filter { $0.type == .machineError }.compactMap { $0.payload.first?.description }
        #expect(errors.count == 1 && errors[0].contains("the payload of 'e17' would hold 17825792 bytes of strings by field 'f16'; a payload's strings together are at most 16777216 bytes"), "\(errors)")
    }

    @Test("R0.4 an instance's context strings hold at most 16 MiB together: an assign past it is an error event and changes no field; a creation or a restore past it is refused")
    func contextStringTotal() throws {
        let h = Harness()
        let mib = String(repeating: "m", count: DefinitionLimits.maxStringBytes)
        let m = try h.machine(MachineLimitTests.wide(), config: ["s": .string(mib)])
        try h.send(m, "keep16")
        #expect((0..<16).allSatisfy { h.context(m, "c\($0)").string?.utf8.count == 1 << 20 })
        #expect(h.context(m, "c16") == .string(""))
        _ = h.events()
        try h.send(m, "keep17")
        #expect(h.context(m, "c16") == .string(""), "no field of the refused assign is written")
        let errors = h.machineEvents(m).filter { $0.hasPrefix("error") }
        #expect(errors.count == 1 && errors[0].contains("the context's strings would hold 17825792 bytes together; an instance's context strings are at most 16777216 bytes together"), "\(errors)")
        // One field assigned alone is counted as a list of them is.
        try h.send(m, "keepOne")
        #expect(h.context(m, "c16") == .string(""))
        #expect(h.machineEvents(m).filter { $0.hasPrefix("error") && $0.contains("17825792 bytes together") }.count == 1)
        // A snapshot is held to the same total: the 16 MiB context restores, one more string does not.
        let saved = try h.host.snapshot(m)
        let h2 = Harness()
        let r = try h2.host.restore(saved)
        #expect(h2.context(r, "c15").string?.utf8.count == 1 << 20)
        let past = saved.replacing(#""c16":{"string":""}"#, with: #""c16":{"string":""# + mib + #""}"#)
        #expect(past.utf8.count == saved.utf8.count + mib.utf8.count)
        let h3 = Harness()
        expectError(.outOfRange, ["the snapshot's context: the context's strings would hold 17825792 bytes together"]) { () throws(AnimrtError) in
            _ = try h3.host.restore(past)
        }
        #expect(h3.host.instanceCount == 0 && h3.runtime.layerCount == 0)
        // Initial values past it refuse the creation.
        let context = (0..<17).map { #""c\#($0)": {"type": "string", "initial": "config.s"}"# }.joined(separator: ", ")
        let json = #"{"name": "w", "config": {"s": {"type": "string", "default": "x"}}, "context": {\#(context)}, "initial": "a", "states": {"a": {}}}"#
        _ = try h.machine(json, config: ["s": .string(String(mib.dropLast(1 << 16)))])
        expectError(.outOfRange, ["the context's strings would hold 17825792 bytes together"]) { () throws(AnimrtError) in
            _ = try h.machine(json, config: ["s": .string(mib)])
        }
    }

    @Test("raised events wait at most maxMicrosteps at once: a fan-out of raises is refused past it, not queued without bound")
    func raiseFanOut() throws {
        func fanOut(_ raises: Int, again: Int = 0, maxMicrosteps: Int = 3) -> String {
            func list(_ n: Int) -> String { Array(repeating: #"{"raise": "e"}"#, count: n).joined(separator: ", ") }
            return #"{"name": "fan", "maxMicrosteps": \#(maxMicrosteps), "events": {"go": {}, "e": {}}, "initial": "a", "#
                + #""states": {"a": {"on": {"go": {"actions": [\#(list(raises))]}, "e": {"actions": [\#(list(again))]}}}}}"#
        }
        let h = Harness()
        let atEdge = try h.machine(fanOut(3))
        _ = h.events()
        try h.send(atEdge, "go")
        #expect(!h.machineEvents(atEdge).contains { $0.contains("cannot be raised") })
        let past = try h.machine(fanOut(4))
        _ = h.events()
        try h.send(past, "go")
        let errors = h.machineEvents(past).filter { $0.contains("cannot be raised") }
        #expect(errors.count == 1 && errors[0].contains("states.a.on.go.actions[3]: 'e' cannot be raised: 3 raised events wait already, as many as a macrostep processes (maxMicrosteps)"),
                "\(errors)")
        // Each e raising 1 000 more, for up to 10 000 microsteps, once queued 10^7 events;
        // now no more than 10 000 wait at once.
        let wide = try h.machine(fanOut(1_000, again: 1_000, maxMicrosteps: 10_000))
        _ = h.events()
        try h.send(wide, "go")
        let wideErrors = h.machineEvents(wide).filter { $0.hasPrefix("error") }
        #expect(wideErrors.contains { $0.contains("'e' cannot be raised: 10000 raised events wait already") })
        #expect(wideErrors.last?.contains("the macrostep was stopped after 10000 microsteps") == true)
    }

    @Test("R3.0.2 a macrostep of exactly maxMicrosteps microsteps completes without an error; one more is stopped")
    func microstepBoundEdge() throws {
        func chain(_ maxMicrosteps: Int) -> String {
            #"{"name": "edge", "maxMicrosteps": \#(maxMicrosteps), "events": {"go": {}}, "initial": "a", "#
                + #""states": {"a": {"on": {"go": "b"}}, "b": {"always": "c"}, "c": {"always": "d"}, "d": {}}}"#
        }
        let h = Harness()
        // go, b → c, c → d: three microsteps.
        let atEdge = try h.machine(chain(3))
        _ = h.events()
        #expect(try h.send(atEdge, "go") == .taken)
        #expect(h.state(atEdge) == "d")
        #expect(h.machineEvents(atEdge) == ["state a -> b", "state b -> c", "state c -> d"])
        let past = try h.machine(chain(2))
        _ = h.events()
        try h.send(past, "go")
        #expect(h.state(past) == "c")
        #expect(h.machineEvents(past) == ["state a -> b", "state b -> c",
                                          "error 'the macrostep was stopped after 2 microsteps in state 'c' (an eventless loop?); the machine stays there'"])
        // The smallest bound the loader accepts still lets a transition run cleanly.
        let one = try h.machine(#"{"name": "one", "maxMicrosteps": 1, "events": {"go": {}}, "initial": "a", "states": {"a": {"on": {"go": "b"}}, "b": {}}}"#)
        _ = h.events()
        try h.send(one, "go")
        #expect(h.machineEvents(one) == ["state a -> b"])
    }

    @Test("R3.0.2 at the bound, a final child whose parent has no onFinal, or a done of a state already left, is nothing left to do")
    func boundIgnoresNotificationsThatCannotAct() throws {
        func finalChild(onFinal: String) -> String {
            #"{"name": "fin", "maxMicrosteps": 1, "events": {"go": {}}, "initial": "p", "states": {"#
                + #""p": {"initial": "a", \#(onFinal) "states": {"a": {"on": {"go": "f"}}, "f": {"type": "final"}}}, "q": {}}}"#
        }
        let h = Harness()
        // go (a → f) is the one microstep: p has no onFinal, so nothing waits.
        let plain = try h.machine(finalChild(onFinal: ""))
        _ = h.events()
        #expect(try h.send(plain, "go") == .taken)
        #expect(h.state(plain) == "p.f")
        #expect(h.machineEvents(plain) == ["state p.a -> p.f"])
        // With an onFinal, taking it would be a second microstep: stopped.
        let handled = try h.machine(finalChild(onFinal: #""onFinal": "q","#))
        _ = h.events()
        try h.send(handled, "go")
        #expect(h.state(handled) == "p.f")
        #expect(h.machineEvents(handled) == ["state p.a -> p.f",
                                             "error 'the macrostep was stopped after 1 microsteps in state 'p.f' (an eventless loop?); the machine stays there'"])
        // b joined nothing, so its done is queued as it is entered; b's
        // eventless transition leaves it first, and that done never acts.
        let left = try h.machine(#"""
        {"name": "left", "maxMicrosteps": 2, "events": {"go": {}}, "initial": "a",
         "states": {"a": {"on": {"go": "b"}}, "b": {"done": "a", "always": "c"}, "c": {}}}
        """#)
        _ = h.events()
        #expect(try h.send(left, "go") == .taken)
        #expect(h.state(left) == "c")
        #expect(h.machineEvents(left) == ["state a -> b", "state b -> c"])
    }

    @Test("a timer or throttle interval that would end past the largest time is an error event, and the snapshot still restores")
    func pastTheLargestTime() throws {
        let late = #"""
        {"name": "late", "config": {"d": {"type": "number", "default": 1.7e308, "min": 0}},
         "context": {"n": {"type": "number", "initial": 0}},
         "events": {"go": {}, "p": {}, "th": {"throttle": "config.d"}}, "initial": "a",
         "states": {"a": {"after": [{"delay": "config.d", "target": "b"}],
                          "on": {"go": {"actions": [{"startTimer": "t", "delay": "config.d", "event": "p"}]}, "p": "b",
                                 "th": {"actions": [{"assign": {"n": "context.n + 1"}}]}}},
                    "b": {}}}
        """#
        let h = Harness()
        h.tick(1e308)
        let m = try h.machine(late)
        try h.send(m, "go")
        try h.send(m, "th")
        #expect(try h.send(m, "th") == .taken)  // not held by an interval that cannot end
        let errors = h.machineEvents(m).filter { $0.hasPrefix("error") }
        #expect(errors.count == 4, "\(errors)")
        #expect(errors.first?.contains("the timer of states.a.after[0]: timer delay 1.7e+308 from time 1e+308 would be due past the largest time") == true)
        #expect(errors.dropFirst().first?.contains("states.a.on.go.actions[0]: timer delay 1.7e+308 from time 1e+308") == true)
        #expect(errors.last?.contains("the throttle of 'th' did not start its interval") == true)
        #expect(h.context(m, "n") == .number(2))
        // The snapshot holds no time past the largest: it restores.
        let b = Harness()
        b.tick(1e308)
        _ = try b.host.restore(try h.host.snapshot(m))
        // Within the largest time, the same delays run (and restore).
        let near = try h.machine(late, config: ["d": .number(7e307)])
        try h.send(near, "go")
        #expect(h.machineEvents(near).filter { $0.hasPrefix("error") }.isEmpty)
        let c = Harness()
        c.tick(1e308)
        let copy = try c.host.restore(try h.host.snapshot(near))
        c.tick(1.7e308)
        #expect(c.state(copy) == "b")
    }

    @Test("animations a macrostep starts are recorded at a constant cost each: their list is swept when it doubles, not every 64")
    func startedAnimations() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "many", "maxMicrosteps": 11, "config": {"k": {"type": "number", "default": 4096}},
         "events": {"go": {}, "e": {}},
         "parts": [{"name": "p", "count": "config.k", "properties": {"opacity": 1}}],
         "animations": {"f": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 1}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"actions": [{"raise": "e"}]}, "e": {"actions": [{"animate": "f", "part": "p"}, {"raise": "e"}]}}}}}
        """#)
        try h.send(m, "go")
        let instance = try #require(h.host.instance(m))
        // 10 microsteps animate 4096 copies each; every animation is still attached.
        #expect(h.runtime.attachedCounts.total == 40_960 && instance.started.count == 40_960)
        #expect(instance.startedSweeps == 10, "64, 128, … 32 768: one sweep per doubling (one per 64 animations was 640)")
        // What has gone is forgotten at the next doubling.
        h.tick(0)
        h.tick(2)
        let more = try h.machine(#"{"name": "one", "events": {"go": {}}, "parts": [{"name": "p", "properties": {"opacity": 1}}], "#
            + #""animations": {"f": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 1}}, "initial": "a", "#
            + #""states": {"a": {"on": {"go": {"actions": [{"animate": "f", "part": "p"}]}}}}}"#)
        for _ in 0..<64 { try h.send(more, "go"); h.tick(h.runtime.currentTime! + 2) }
        // Left at the 64th: that one and the one before (begun at the last tick, gone at the next).
        #expect(try #require(h.host.instance(more)).started.count == 2)
    }
}
