import AnimationCore
@testable import StateMachines
import Testing

/// `{"call": "log", "args": ["'text'"]}`: records `text` in the harness log.
func L(_ text: String) -> String { #"{"call": "log", "args": ["'\#(text)'"]}"# }

/// Entry and exit actions that log "enter x" / "exit x".
func traced(_ name: String) -> String { #""entry": [\#(L("enter " + name))], "exit": [\#(L("exit " + name))]"# }

let orderMachine = """
{
  "name": "order",
  "events": {"go": {}, "inner": {}, "again": {}, "outer": {}, "stay": {}},
  "initial": "a",
  "states": {
    "a": {
      \(traced("a")),
      "initial": "a1",
      "on": {
        "inner": {"target": "a.a2", "type": "internal", "actions": [\(L("inner"))]},
        "outer": {"target": "a.a2", "actions": [\(L("outer"))]},
        "again": {"target": "a", "actions": [\(L("again"))]}
      },
      "states": {
        "a1": {\(traced("a1")), "on": {"go": {"target": "b", "actions": [\(L("go"))]}, "stay": {"actions": [\(L("stay"))]}}},
        "a2": {\(traced("a2"))}
      }
    },
    "b": {
      \(traced("b")),
      "initial": "b1",
      "states": {"b1": {\(traced("b1"))}}
    }
  }
}
"""

@Suite("R3.0.2 run-to-completion: the order of exit, transition and entry actions")
struct OrderTests {
    @Test("R3.0.1 entering a compound state enters its initial child, outermost first")
    func initialEntry() throws {
        let h = Harness()
        let m = try h.machine(orderMachine)
        #expect(h.log == ["enter a", "enter a1"])
        #expect(h.state(m) == "a.a1")
        #expect(h.machineEvents(m) == ["state - -> a.a1"])
    }

    @Test("R3.0.2 exits run innermost first, then the transition's actions, then entries outermost first")
    func externalOrder() throws {
        let h = Harness()
        let m = try h.machine(orderMachine)
        h.clearLog(); _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        #expect(h.log == ["exit a1", "exit a", "go", "enter b", "enter b1"])
        #expect(h.state(m) == "b.b1")
        #expect(h.machineEvents(m) == ["state a.a1 -> b.b1"])
    }

    @Test("R3.0.2 an internal transition does not exit its compound source; an external one does")
    func internalVersusExternal() throws {
        let h = Harness()
        let m1 = try h.machine(orderMachine)
        h.clearLog()
        try h.send(m1, "inner")
        #expect(h.log == ["exit a1", "inner", "enter a2"])
        let m2 = try h.machine(orderMachine)
        h.clearLog()
        try h.send(m2, "outer")
        #expect(h.log == ["exit a1", "exit a", "outer", "enter a", "enter a2"])
    }

    @Test("R3.0.2 an external self-transition exits and re-enters the state and its children")
    func selfTransition() throws {
        let h = Harness()
        let m = try h.machine(orderMachine)
        try h.send(m, "go")
        let m2 = try h.machine(orderMachine)
        h.clearLog()
        try h.send(m2, "again")
        #expect(h.log == ["exit a1", "exit a", "again", "enter a", "enter a1"])
        #expect(h.state(m2) == "a.a1")
        _ = m
    }

    @Test("R3.0.2 a targetless transition runs its actions and exits nothing")
    func targetless() throws {
        let h = Harness()
        let m = try h.machine(orderMachine)
        h.clearLog(); _ = h.events()
        #expect(try h.send(m, "stay") == .taken)
        #expect(h.log == ["stay"])
        #expect(h.machineEvents(m).isEmpty)
    }

    @Test("R3.0.2 events raised while one is processed queue behind it; eventless transitions run before them")
    func raisedEventsQueue() throws {
        let h = Harness()
        let m = try h.machine("""
        {
          "name": "rtc",
          "events": {"start": {}, "first": {}, "second": {}},
          "context": {"n": {"type": "number", "initial": 0}},
          "initial": "idle",
          "states": {
            "idle": {"on": {"start": {"target": "one", "actions": [{"raise": "second"}, {"raise": "first"}, \(L("start done"))]}}},
            "one": {\(traced("one")), "always": {"target": "two", "guard": "context.n == 0", "actions": [{"assign": {"n": 1}}]},
                    "on": {"first": {"actions": [\(L("first in one"))]}}},
            "two": {\(traced("two")), "on": {"second": {"target": "three", "actions": [\(L("second"))]}, "first": {"actions": [\(L("first in two"))]}}},
            "three": {\(traced("three")), "ignore": ["first"]}
          }
        }
        """)
        h.clearLog()
        try h.send(m, "start")
        // start's actions complete; the eventless transition (one → two) goes
        // before the raised events; then 'second' (raised first), then 'first'.
        #expect(h.log == ["start done", "enter one", "exit one", "enter two", "exit two", "second", "enter three"])
        #expect(h.state(m) == "three")
        #expect(h.context(m, "n") == .number(1))
    }
}

@Suite("R3.0.1 guards, rejections and ignored events")
struct GuardTests {
    let machine = """
    {
      "name": "counter",
      "config": {"limit": {"type": "number", "default": 3, "min": 1, "max": 100}},
      "context": {"count": {"type": "number", "initial": 0}, "label": {"type": "string", "initial": "'none'"}},
      "events": {"add": {"payload": [{"name": "amount", "type": "number", "min": 0, "max": 10, "default": 1}]},
                 "reset": {}, "noise": {}, "name": {"payload": [{"name": "text", "type": "string"}]}},
      "initial": "counting",
      "states": {
        "counting": {
          "ignore": ["noise"],
          "on": {
            "add": [
              {"guard": "context.count + event.amount >= config.limit", "target": "full", "actions": [{"assign": {"count": "config.limit"}}]},
              {"actions": [{"assign": {"count": "context.count + event.amount"}}]}
            ],
            "name": {"actions": [{"assign": {"label": "event.text + '!'"}}]}
          }
        },
        "full": {"on": {"reset": {"target": "counting", "actions": [{"assign": {"count": 0}}]},
                        "add": {"guard": "event.amount == 0", "actions": []}}}
      }
    }
    """

    @Test("R3.0.1 the first transition whose guard passes is taken, in document order")
    func firstEnabled() throws {
        let h = Harness()
        let m = try h.machine(machine)
        try h.send(m, "add", [.number(1)])
        #expect(h.context(m, "count") == .number(1))
        try h.send(m, "add")  // the default amount, 1
        #expect(h.context(m, "count") == .number(2))
        try h.send(m, "add", [.number(5)])
        #expect(h.state(m) == "full")
        #expect(h.context(m, "count") == .number(3))
        let m2 = try h.machine(machine, config: ["limit": .number(10)])
        try h.send(m2, "add", [.integer(9)])
        #expect(h.state(m2) == "counting")
        #expect(h.context(m2, "count") == .number(9))
    }

    @Test("R3.0.1 an event no state takes is refused with .state, naming the state and the events it accepts; nothing changes")
    func rejection() throws {
        let h = Harness()
        let m = try h.machine(machine)
        _ = h.events()
        expectError(.state, ["'reset' is not accepted in state 'counting'", "'add'", "'name'", "'noise'"]) { () throws(AnimrtError) in try h.send(m, "reset") }
        #expect(h.state(m) == "counting")
        #expect(h.events().isEmpty)
    }

    /// A child state also takes what its ancestors take: the refusal lists
    /// those too, sorted and each once (a parent and its child both taking
    /// 'go'), so the host sees every event it could have sent there.
    @Test("R3.0.1 a refusal in a child state lists the events its ancestors take and ignore as well as its own")
    func rejectionListsAncestors() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "nested", "events": {"go": {}, "reset": {}, "pause": {}, "stray": {}, "noise": {}},
         "initial": "outer",
         "states": {"outer": {"on": {"reset": "outer", "go": "outer"}, "ignore": ["noise"], "initial": "inner",
                              "states": {"inner": {"on": {"go": "outer.inner.paused", "pause": "outer.inner.paused"}, "initial": "playing",
                                                   "states": {"playing": {}, "paused": {}}}}}}}
        """#)
        _ = h.events()
        expectError(.state, ["'stray' is not accepted in state 'outer.inner.playing' (it accepts 'go', 'noise', 'pause', 'reset'; list it under \"ignore\" to drop it there)"]) { () throws(AnimrtError) in try h.send(m, "stray") }
        #expect(h.state(m) == "outer.inner.playing")
        #expect(h.events().isEmpty)
    }

    /// A host's bad call is the host's error, refused with its status: it
    /// is no failure inside the machine, so the machine's error.execution
    /// handler does not run and nothing is queued or counted.
    @Test("R3.0.1 a host's send with a bad id, name or payload is refused; the machine's error.execution never hears of it")
    func hostMistakesAreNotExecutionErrors() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "counting", "events": {"go": {"payload": [{"name": "n", "type": "number", "min": 0, "integer": true}]}},
         "context": {"errors": {"type": "number", "initial": 0}},
         "initial": "a",
         "states": {"a": {"on": {"go": "b", "error.execution": {"actions": [{"assign": {"errors": "context.errors + 1"}}]}}},
                    "b": {}}}
        """#)
        let d = try h.host.definition(of: m)
        _ = h.events()
        let go = d.eventID("go")!, error = d.eventID("error.execution")!
        let refusals: [(Status, String, () throws(AnimrtError) -> Void)] = [
            (.outOfRange, "event id 99 is out of range (0 to 0): 'counting' has 1 event a host can send (id 1 is error.execution, which the machine raises itself)", { () throws(AnimrtError) in _ = try h.host.send(m, event: 99, payload: []) }),
            (.outOfRange, "event id -1 is out of range (0 to 0): 'counting' has 1 event a host can send (id 1 is error.execution, which the machine raises itself)", { () throws(AnimrtError) in _ = try h.host.send(m, event: -1, payload: []) }),
            (.invalidArgument, "'error.execution' is raised by the machine itself; the host cannot send it", { () throws(AnimrtError) in _ = try h.host.send(m, event: error, payload: [.string("x")]) }),
            (.kind, "field 'n' of 'go' is a number; a string was given", { () throws(AnimrtError) in _ = try h.host.send(m, event: go, payload: [.string("x")]) }),
            (.outOfRange, "field 'n' of 'go' is 2.5; it must be a whole number", { () throws(AnimrtError) in _ = try h.host.send(m, event: go, payload: [.number(2.5)]) }),
            (.outOfRange, "field 'n' of 'go' is -1; the minimum is 0", { () throws(AnimrtError) in _ = try h.host.send(m, event: go, payload: [.number(-1)]) }),
            (.invalidArgument, "'go' needs its field 'n' (field 0); 0 values were given", { () throws(AnimrtError) in _ = try h.host.send(m, event: go, payload: []) }),
            (.notFound, "'counting' has no event 'og'", { () throws(AnimrtError) in _ = try h.host.send(m, event: "og", json: nil) }),
            (.notFound, "'go' has no payload field 'm'", { () throws(AnimrtError) in _ = try h.host.send(m, event: "go", json: #"{"m": 1}"#) }),
        ]
        for (status, message, call) in refusals {
            let text = expectError(status, [message], call)
            #expect(h.events().isEmpty, "\(text)")
            #expect(h.context(m, "errors") == .number(0), "\(text)")
            #expect(h.state(m) == "a", "\(text)")
        }
        // The machine is as it was: its next good event is taken.
        #expect(try h.send(m, "go", [.number(1)]) == .taken)
        #expect(h.state(m) == "b" && h.context(m, "errors") == .number(0))
        // A machine with no event of its own has none a host can send.
        let bare = try h.machine(#"{"name": "bare", "initial": "a", "states": {"a": {}}}"#)
        expectError(.outOfRange, ["event id 1 is out of range: 'bare' has no event a host can send (id 0 is error.execution, which the machine raises itself)"]) {
            () throws(AnimrtError) in _ = try h.host.send(bare, event: 1, payload: [])
        }
    }

    @Test("R3.0.1 a result sent without its 'request' is told what the number is and where it came from; other missing fields are not")
    func resultWithoutItsRequest() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "fetcher", "requests": {"load": {}},
         "events": {"loaded": {"resultOf": "load", "payload": [{"name": "ok", "type": "bool"}]},
                    "go": {"payload": [{"name": "request", "type": "number"}]}},
         "initial": "a",
         "states": {"a": {"on": {"go": "b"}}, "b": {"entry": [{"request": "load"}], "on": {"loaded": "c"}}, "c": {}}}
        """#)
        let d = try h.host.definition(of: m)
        let what = "the number of the request it answers, which came with the machine's request event (its token in C, its id in Python)"
        expectError(.invalidArgument, ["'loaded' needs its field 'request' (field 0): " + what + "; 0 values were given"]) { () throws(AnimrtError) in
            _ = try h.host.send(m, event: d.eventID("loaded")!, payload: [])
        }
        expectError(.invalidArgument, ["'loaded' needs its field 'request': " + what]) { () throws(AnimrtError) in
            _ = try h.host.send(m, event: "loaded", json: #"{"ok": true}"#)
        }
        // A field named 'request' of an event that answers no request is a field like any other.
        expectError(.invalidArgument, ["'go' needs its field 'request'"]) { () throws(AnimrtError) in _ = try h.host.send(m, event: "go", json: nil) }
        let plain = expectError(.invalidArgument, ["'go' needs its field 'request' (field 0); 0 values were given"]) { () throws(AnimrtError) in
            _ = try h.host.send(m, event: d.eventID("go")!, payload: [])
        }
        #expect(!plain.contains("answers"), "\(plain)")
        #expect(h.state(m) == "a")
    }

    @Test("R3.0.1 an event whose guards all fail is refused with .state; nothing changes")
    func guardedOut() throws {
        let h = Harness()
        let m = try h.machine(machine)
        try h.send(m, "add", [.number(3)])
        #expect(h.state(m) == "full")
        expectError(.state, ["no guard"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(2)]) }
        #expect(try h.send(m, "add", [.number(0)]) == .taken)
        #expect(h.context(m, "count") == .number(3))
    }

    @Test("R3.0.1 an ignored event is accepted and does nothing")
    func ignored() throws {
        let h = Harness()
        let m = try h.machine(machine)
        #expect(try h.send(m, "noise") == .ignored)
        #expect(h.context(m, "count") == .number(0))
    }

    @Test("payloads: types, ranges, defaults and strings are checked before anything runs")
    func payloadChecks() throws {
        let h = Harness()
        let m = try h.machine(machine)
        expectError(.outOfRange, ["'amount'", "maximum is 10"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(11)]) }
        expectError(.outOfRange, ["minimum is 0"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(-1)]) }
        expectError(.invalidArgument, ["finite"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(.nan)]) }
        expectError(.invalidArgument, ["finite"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(.infinity)]) }
        expectError(.kind, ["'amount'", "number", "string"]) { () throws(AnimrtError) in try h.send(m, "add", [.string("1")]) }
        expectError(.invalidArgument, ["1 payload field", "2 values"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(1), .number(2)]) }
        expectError(.invalidArgument, ["needs its field 'text'"]) { () throws(AnimrtError) in try h.send(m, "name") }
        #expect(h.context(m, "count") == .number(0))
        try h.send(m, "name", [.string("abc")])
        #expect(h.context(m, "label") == .string("abc!"))
        #expect(try h.host.send(m, event: "add", json: #"{"amount": 2}"#) == .taken)
        #expect(h.context(m, "count") == .number(2))
        expectError(.notFound, ["no payload field 'amout'", "did you mean 'amount'"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "add", json: #"{"amout": 2}"#)
        }
        expectError(.notFound, ["no event 'ad'", "did you mean 'add'"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "ad", json: nil)
        }
        // Nothing close: the events a host can send.
        expectError(.notFound, ["'counter' has no event 'bogus' (events: add, name, noise, reset)"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "bogus", json: nil)
        }
        expectError(.notFound, ["'reset' has no payload field 'x': it takes no payload"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "reset", json: #"{"x": 1}"#)
        }
        expectError(.notFound, ["'name' has no payload field 'zzz' (fields: text)"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "name", json: #"{"zzz": "a"}"#)
        }
        #expect(h.context(m, "count") == .number(2))  // none of them changed anything
        expectError(.invalidArgument, ["raised by the machine"]) { () throws(AnimrtError) in try h.send(m, "error.execution", [.string("x")]) }
    }

    @Test("config overrides are checked: unknown names, types, ranges")
    func configChecks() throws {
        let h = Harness()
        let d = try h.host.load(machine)
        let layers = h.runtime.layerCount
        expectError(.notFound, ["no config parameter 'limt'", "did you mean 'limit'"]) { () throws(AnimrtError) in
            _ = try h.host.create(d, options: .init(config: ["limt": .number(2)]))
        }
        expectError(.outOfRange, ["maximum is 100"]) { () throws(AnimrtError) in _ = try h.host.create(d, options: .init(config: ["limit": .number(101)])) }
        expectError(.kind, ["'limit' is a number"]) { () throws(AnimrtError) in _ = try h.host.create(d, options: .init(config: ["limit": .string("2")])) }
        #expect(h.host.instanceCount == 0)
        #expect(h.runtime.layerCount == layers)
    }

    @Test("a payload string is at most 1 MiB, sent as values or as JSON, in bytes: one byte more is refused, naming the event and field, and changes nothing")
    func payloadStringLength() throws {
        let h = Harness()
        let m = try h.machine(#"""
            {"name": "titled", "events": {"rename": {"payload": [{"name": "title", "type": "string"}]}},
             "context": {"t": {"type": "string", "initial": "''"}}, "initial": "a",
             "states": {"a": {"on": {"rename": {"actions": [{"assign": {"t": "event.title"}}]}}}}}
            """#)
        let message = "field 'title' of 'rename' is 1048577 bytes; a payload string is at most 1048576 bytes, as a string an expression makes is"
        let most = String(repeating: "é", count: DefinitionLimits.maxStringBytes / 2)   // two bytes each
        #expect(try h.send(m, "rename", [.string(most)]) == .taken)
        #expect(h.context(m, "t") == .string(most))
        _ = h.events()
        let refused = #expect(throws: AnimrtError.self) { try h.send(m, "rename", [.string(most + "x")]) }
        #expect(refused?.status == .outOfRange)
        #expect(refused?.message == message)
        #expect(h.context(m, "t") == .string(most) && h.events().isEmpty)
        let x = String(repeating: "x", count: DefinitionLimits.maxStringBytes)
        #expect(try h.host.send(m, event: "rename", json: #"{"title": "\#(x)"}"#) == .taken)
        #expect(h.context(m, "t") == .string(x))
        _ = h.events()
        let json = #expect(throws: AnimrtError.self) { try h.host.send(m, event: "rename", json: #"{"title": "\#(x)y"}"#) }
        #expect(json?.status == .outOfRange)
        #expect(json?.message == message)
        #expect(h.context(m, "t") == .string(x) && h.events().isEmpty)
    }
}

@Suite("SCXML 3.13 every macrostep tries the eventless transitions after its event")
struct EventlessEveryMacrostepTests {
    /// `c` leaves for `d` once its started timer `fresh` (no event: it only
    /// measures time) has run out, or once `now()` reaches 2.
    static let json = """
    {"name": "eventless", "events": {"ping": {}, "noop": {}},
     "initial": "c",
     "states": {"c": {"entry": [{"startTimer": "fresh", "delay": 1}],
                      "always": [{"guard": "not timerActive('fresh')", "target": "d", "actions": [\(L("ran out"))]},
                                 {"guard": "now() >= 2", "target": "d", "actions": [\(L("late"))]}],
                      "ignore": ["ping"], "on": {"noop": {}}},
                "d": {"on": {"noop": "c"}, "ignore": ["ping"]}}}
    """

    @Test("a started timer without an event that runs out is a macrostep: timerActive() turned false and the eventless transition is taken at that tick")
    func timerRunsOut() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(Self.json)
        _ = h.events()
        h.tick(0.5)
        #expect(h.state(m) == "c")
        h.tick(1.5)
        #expect(h.state(m) == "d")
        #expect(h.log == ["ran out"])
        #expect(h.machineEvents(m) == ["state c -> d"])
    }

    @Test("an ignored host event's macrostep tries the eventless transitions, as a taken one's does")
    func ignoredEvent() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "late", "events": {"ping": {}}, "initial": "c",
         "states": {"c": {"always": {"guard": "now() >= 2", "target": "d", "actions": [\(L("late"))]}, "ignore": ["ping"]},
                    "d": {"ignore": ["ping"]}}}
        """)
        h.tick(1)
        #expect(try h.send(m, "ping") == .ignored)
        #expect(h.state(m) == "c")
        _ = h.events()
        // No timer or event makes a macrostep as time passes: the guard is not polled.
        h.tick(3)
        #expect(h.state(m) == "c")
        // The next event's macrostep sees now() >= 2, though the event itself is ignored.
        #expect(try h.send(m, "ping") == .ignored)
        #expect(h.state(m) == "d")
        #expect(h.log == ["late"])
        #expect(h.machineEvents(m) == ["state c -> d"])
    }
}
