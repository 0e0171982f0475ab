import AnimationCore
@testable import StateMachines
import Testing

/// `minimal()` with its config parameter `k` replaced by `config` (the
/// members of "config").
private func withConfig(_ config: String) -> String {
    minimal().replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: #""config": {\#(config)},"#)
}

/// `minimal()` with the payload field `x` of event `go` replaced by `field`.
private func withField(_ field: String) -> String {
    minimal().replacing(#"{"name": "x", "type": "number"}"#, with: field)
}

/// `minimal()` with event `tick` made the result of a request `load`.
private func withResult(a: String = "", tick: String = #""resultOf": "load""#) -> String {
    minimal(a: a, top: #""requests": {"load": {}}"#).replacing(#""tick": {}"#, with: #""tick": {\#(tick)}"#)
}

/// `minimal()` with a computed context field `c` beside `n` and `s`.
private func withComputed(a: String) -> String {
    minimal(a: a).replacing(#""s": {"type": "string", "initial": "''"}}"#,
                            with: #""s": {"type": "string", "initial": "''"}, "c": {"type": "number", "computed": "context.n + 1"}}"#)
}

/// A refusal: the whole message (path first) and its status.
struct Refusal: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let status: Status
    let message: String
    var testDescription: String { name }
}

let refusals: [Refusal] = [
    Refusal(name: "a min on a string config parameter",
            json: withConfig(#""k": {"type": "string", "default": "a", "min": 0}"#), status: .invalidArgument,
            message: "config.k: min and max apply to numbers; 'k' is a string"),
    Refusal(name: "a max on a bool config parameter",
            json: withConfig(#""k": {"type": "bool", "default": true, "max": 1}"#), status: .invalidArgument,
            message: "config.k: min and max apply to numbers; 'k' is a bool"),
    Refusal(name: "oneOf on a number config parameter",
            json: withConfig(#""k": {"type": "number", "default": 1, "oneOf": ["1"]}"#), status: .invalidArgument,
            message: "config.k.oneOf: oneOf applies to strings; 'k' is a number"),
    Refusal(name: "a payload field whose min is above its max",
            json: withField(#"{"name": "x", "type": "number", "min": 2, "max": 1}"#), status: .outOfRange,
            message: "events.go.payload[0]: min is greater than max"),
    Refusal(name: "a payload field that clamps with no bound",
            json: withField(#"{"name": "x", "type": "number", "clamp": true}"#), status: .invalidArgument,
            message: "events.go.payload[0].clamp: clamp needs a min or a max"),
    Refusal(name: "a min on a string payload field",
            json: withField(#"{"name": "x", "type": "string", "min": 0}"#), status: .invalidArgument,
            message: "events.go.payload[0]: min, max, clamp and integer apply to numbers; 'x' is a string"),
    Refusal(name: "a throttled final result",
            json: withResult(tick: #""resultOf": "load", "throttle": 0.5"#), status: .invalidArgument,
            message: "events.tick.throttle: a final result is processed once; only events and partial results can be throttled"),
    Refusal(name: "a default locale with no strings table",
            json: minimal(top: #""locale": "en""#), status: .invalidArgument,
            message: #"locale: a default locale needs a "strings" table"#),
    Refusal(name: "a strings table with no locale",
            json: minimal(top: #""strings": {}"#), status: .invalidArgument,
            message: "strings: the strings table has no locale"),
    Refusal(name: "a default locale that has no table",
            json: minimal(top: #""strings": {"de": {"hi": "Hallo"}, "en": {"hi": "Hello"}}, "locale": "fr""#), status: .notFound,
            message: "locale: the default locale 'fr' has no strings table (tables: de, en)"),
    Refusal(name: "an event declared under the built-in error event's name",
            json: minimal().replacing(#""tick": {}"#, with: #""tick": {}, "error.execution": {}"#), status: .exists,
            message: "events.error.execution: 'error.execution' is the built-in event raised when an action fails; it is declared already"),
    Refusal(name: "a final state with a child",
            json: minimal(a: #""type": "final", "initial": "x", "states": {"x": {}}"#), status: .invalidArgument,
            message: "states.a.type: a final state cannot have child states"),
    Refusal(name: "an atomic state with a child",
            json: minimal(a: #""type": "atomic", "initial": "x", "states": {"x": {}}"#), status: .invalidArgument,
            message: "states.a.type: an atomic state cannot have child states"),
    Refusal(name: "a compound state with no child",
            json: minimal(a: #""type": "compound""#), status: .invalidArgument,
            message: "states.a.type: a compound state needs child states"),
    Refusal(name: "an initial child of a state with no children",
            json: minimal(a: #""initial": "b""#), status: .invalidArgument,
            message: #"states.a.initial: "initial" needs child states"#),
    Refusal(name: "an internal transition from a state to itself",
            json: minimal(a: #""initial": "x", "states": {"x": {}}, "on": {"go": {"target": "a", "type": "internal"}}"#),
            status: .invalidArgument,
            message: "states.a.on.go.type: an internal transition goes from a compound state to one of its descendants; 'a' → 'a'"),
    Refusal(name: "an internal transition with no target",
            json: minimal(a: #""initial": "x", "states": {"x": {}}, "on": {"go": {"type": "internal"}}"#),
            status: .invalidArgument,
            message: "states.a.on.go.type: an internal transition goes from a compound state to one of its descendants; 'a' → no target"),
    Refusal(name: "an assign to a computed field",
            json: withComputed(a: #""entry": [{"assign": {"c": 2}}]"#), status: .invalidArgument,
            message: "states.a.entry[0].assign.c: context.c is computed from its expression; it cannot be assigned"),
    Refusal(name: "a started timer that would send a request's result",
            json: withResult(a: #""entry": [{"startTimer": "t", "delay": 1, "event": "tick", "payload": {"request": 1}}]"#),
            status: .invalidArgument,
            message: "states.a.entry[0].event: 'tick' is the result of a request; only the host sends it"),
    Refusal(name: "a started timer with a payload and no event",
            json: minimal(a: #""entry": [{"startTimer": "t", "delay": 1, "payload": {"x": 1}}]"#), status: .invalidArgument,
            message: #"states.a.entry[0].payload: a payload goes with an "event"; this timer sends none"#),
    Refusal(name: "a call with one argument more than its function takes",
            json: minimal(a: #""entry": [{"call": "log", "args": ["'a'", "'b'"]}]"#), status: .invalidArgument,
            message: "states.a.entry[0]: log(string) -> action takes 1 argument, not 2"),
    Refusal(name: "a call with one argument fewer than its function takes",
            json: minimal(a: #""entry": [{"call": "log"}]"#), status: .invalidArgument,
            message: "states.a.entry[0]: log(string) -> action takes 1 argument, not 0"),
    Refusal(name: "a point given one component",
            json: minimal().replacing(#"{"name": "p"}"#, with: #"{"name": "p", "properties": {"position": [1]}}"#), status: .kind,
            message: "parts[0].properties.position: a point has 2 components; 1 is given"),
    Refusal(name: "a point given three components",
            json: minimal().replacing(#"{"name": "p"}"#, with: #"{"name": "p", "properties": {"position": [1, 2, 3]}}"#), status: .kind,
            message: "parts[0].properties.position: a point has 2 components; 3 are given"),
    Refusal(name: "a constant delay that computes to infinity",
            json: minimal(a: #""after": [{"delay": "1e308 * 10", "target": "b"}]"#), status: .outOfRange,
            message: "states.a.after[0].delay: the delay is inf; it must be a finite number of seconds, 0 or more"),
    Refusal(name: "a constant timer delay that computes to NaN",
            json: minimal(a: #""entry": [{"startTimer": "t", "delay": "0 / 0"}]"#), status: .outOfRange,
            message: "states.a.entry[0].delay: the delay is nan; it must be a finite number of seconds, 0 or more"),
    Refusal(name: "a name given twice in an object, after an object nested in it",
            json: minimal(a: #""on": {"go": "b"}, "description": "x", "on": {"tick": "b"}"#), status: .invalidArgument,
            message: "the JSON is ambiguous at line 5, column 74: the member \"on\" appears twice in this object"),
]

@Suite("R0.3, R3.0.1 each check of a definition refuses it whole, with its status and a message naming the member")
struct DefinitionRefusalTests {
    @Test("every refusal, word for word; the host keeps nothing of it", arguments: refusals)
    func refused(_ c: Refusal) {
        let h = Harness()
        let before = h.host.definitions.count
        let got = expectError(c.status, []) { () throws(AnimrtError) in _ = try h.load(c.json) }
        #expect(got == c.message)
        #expect(h.host.definitions.count == before)
    }

    @Test("each refusal is of a definition that loads without its fault", arguments: [
        withConfig(#""k": {"type": "string", "default": "a"}"#),
        withField(#"{"name": "x", "type": "number", "min": 1, "max": 1, "clamp": true}"#),
        withResult(tick: #""resultOf": "load", "partial": true, "throttle": 0.5"#),
        minimal(top: #""strings": {"de": {"hi": "Hallo"}, "en": {"hi": "Hello"}}, "locale": "de""#),
        minimal(a: #""type": "compound", "initial": "x", "states": {"x": {"type": "final"}}"#),
        minimal(a: #""initial": "x", "states": {"x": {}}, "on": {"go": {"target": "a.x", "type": "internal"}}"#),
        minimal(a: #""entry": [{"startTimer": "t", "delay": 1, "event": "tick"}]"#),
        minimal().replacing(#"{"name": "p"}"#, with: #"{"name": "p", "properties": {"position": [1, 2]}}"#),
        minimal(a: #""entry": [{"call": "log", "args": ["'a'"]}]"#),
        minimal(a: #""after": [{"delay": "1e308 * 1", "target": "b"}]"#),
    ])
    func loadsWithoutTheFault(_ json: String) throws {
        #expect(try Harness().load(json).states.count >= 2)
    }

    @Test("R0.3 an id of a name space is refused one past either end, naming the ids there are, or that there are none")
    func idRange() throws {
        let d = try Harness().load(minimal())
        try d.checkID(0, .state)
        try d.checkID(1, .state)
        for id in [-1, 2] {
            expectError(.outOfRange, ["state id \(id) is out of range (0 to 1): 'm' has 2 states"]) { () throws(AnimrtError) in
                try d.checkID(id, .state)
            }
        }
        expectError(.outOfRange, ["emitted event id 0 is out of range: 'm' has no emitted events"]) { () throws(AnimrtError) in
            try d.checkID(0, .emit)
        }
    }

    @Test("with no \"locale\", the default is en when there is a table for it, else the first table by name")
    func defaultLocale() throws {
        let h = Harness()
        let both = try h.load(minimal(top: #""strings": {"de": {"hi": "Hallo"}, "en": {"hi": "Hello"}}"#))
        #expect(both.defaultLocale == "en")
        let noEnglish = try h.load(minimal(top: #""strings": {"zh": {"hi": "你好"}, "de": {"hi": "Hallo"}}"#))
        #expect(noEnglish.defaultLocale == "de")
    }

    /// Timer names are gathered before the states are read: only an action
    /// (an item of entry, exit or a transition's actions) starts a timer, not
    /// a context field or payload field that happens to be named startTimer.
    @Test("R3.0.1 a context field and a payload field named startTimer are no timers: the definition loads and runs")
    func startTimerAsAMemberName() throws {
        let json = #"""
        {"name": "names", "context": {"startTimer": {"type": "number", "initial": 0}},
         "events": {"go": {}}, "emits": {"said": {"payload": [{"name": "startTimer", "type": "string"}]}},
         "initial": "a",
         "states": {"a": {"after": [{"delay": 1, "name": "t", "target": "a"}],
                          "on": {"go": {"actions": [{"assign": {"startTimer": "context.startTimer + 1"}},
                                                    {"emit": "said", "payload": {"startTimer": "'t'"}}]}}}}}
        """#
        let h = Harness()
        #expect(try h.load(json).timerNames == ["t"])
        let m = try h.machine(json)
        #expect(try h.send(m, "go") == .taken)
        #expect(h.context(m, "startTimer") == .number(1))
    }

    /// A target may be written by the last part of its name when that is
    /// unique. Each such name is looked up in a table made once (a search
    /// of every state for each target took about 3 ms a target at 4096
    /// states, so a definition within its 4 MiB took most of an hour to
    /// load; how long a load takes is measured by hand, not timed here).
    /// The table must give what the full names give, for names that are
    /// prefixes of one another and at every depth.
    @Test("R3.0.1 targets written by the last part of their names resolve as their full names do, among nested states")
    func shortTargets() throws {
        let leaves = (0..<120).map { #""c\#($0)": {}"# }.joined(separator: ", ")
        let states = #""a": {"initial": "c0", "states": {\#(leaves), "deep": {"initial": "d1", "states": {"d1": {}, "d10": {}}}}}"#
        func definition(_ targets: [String]) -> String {
            #"{"name": "wide", "events": {"go": {}}, "initial": "a", "states": {\#(states), "z": {"on": {"go": [\#(targets.map { "\"\($0)\"" }.joined(separator: ", "))]}}}}"#
        }
        let full = (0..<120).map { "a.c\($0)" } + ["a.deep.d1", "a.deep.d10", "a.deep", "a", "z"]
        let short = (0..<120).map { "c\($0)" } + ["d1", "d10", "deep", "a", "z"]
        var resolved: [[String?]] = []
        for targets in [full, short] {
            let d = try Harness().load(definition(targets))
            let z = d.states.firstIndex { $0.name == "z" }!, go = d.events.firstIndex { $0.name == "go" }!
            resolved.append(d.states[z].on[go].map { $0.target.map { d.states[$0].name } })
        }
        #expect(resolved[0] == full && resolved[1] == full)
    }
}
