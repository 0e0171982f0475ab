import AnimationCore
@testable import StateMachines
import Testing

let timerMachine = """
{
  "name": "celebration",
  "config": {"celebrate": {"type": "number", "default": 3, "min": 0}},
  "events": {"complete": {}, "refresh": {}, "tick": {}, "poke": {}},
  "initial": "idle",
  "states": {
    "idle": {"on": {"complete": "celebrating", "poke": {"actions": [{"startTimer": "nudge", "delay": 0.5, "event": "tick"}]},
                    "tick": {"actions": [\(L("tick in idle"))]}}},
    "celebrating": {
      "after": [{"delay": "config.celebrate", "name": "celebration", "target": "settled", "actions": [\(L("celebration over"))]}],
      "on": {"refresh": "idle", "poke": {"actions": [{"cancelTimer": "celebration"}]}}
    },
    "settled": {"after": [{"delay": 5, "target": "idle", "actions": [\(L("hidden"))]}], "on": {"refresh": "idle"}}
  }
}
"""

@Suite("R3.0.1, R3.2.4 after transitions run on the runtime clock and never outlive their state")
struct AfterTests {
    @Test("R3.0.1 an after transition is taken at the first tick at or past its delay")
    func fires() throws {
        let h = Harness()
        h.tick(10)
        let m = try h.machine(timerMachine)
        try h.send(m, "complete")
        h.tick(12.999)
        #expect(h.state(m) == "celebrating")
        h.tick(13)
        #expect(h.state(m) == "settled")
        #expect(h.log == ["celebration over"])
        h.tick(18)
        #expect(h.state(m) == "idle")
        #expect(h.log == ["celebration over", "hidden"])
    }

    /// `now()` is the runtime's time: 0 before the first tick, whatever the
    /// host's clock reads then (docs/machines.md says so), then the tick's.
    @Test("R0.2 now() reads 0 before the first tick, then the tick's time")
    func nowBeforeTheFirstTick() throws {
        let h = Harness()
        let m = try h.machine("""
        {"name": "clock", "context": {"t": {"type": "number", "initial": -1}}, "events": {"mark": {}},
         "initial": "a", "states": {"a": {"on": {"mark": {"actions": [{"assign": {"t": "now()"}}]}}}}}
        """)
        try h.send(m, "mark")
        #expect(h.context(m, "t") == .number(0))
        h.tick(5000)
        try h.send(m, "mark")
        #expect(h.context(m, "t") == .number(5000))
    }

    /// Made and driven before the runtime's first tick, whose clock is far
    /// from 0: its after transition counts from that tick, as the
    /// animations its states start begin there.
    @Test("R3.0.1 an after transition started before the first tick counts from it")
    func firesFromTheFirstTick() throws {
        let h = Harness()
        let m = try h.machine(timerMachine)
        try h.send(m, "complete")
        h.tick(5000)
        #expect(h.state(m) == "celebrating")
        h.tick(5002.999)
        #expect(h.state(m) == "celebrating")
        h.tick(5003)
        #expect(h.state(m) == "settled")
        #expect(h.log == ["celebration over"])
    }

    /// A delay of 0 is a delay like any other (the docs: a finite number of
    /// seconds, 0 or more): the timer fires at the next tick, as a runtime
    /// timer of 0 does, and nothing is reported as an error.
    @Test("R3.0.1 an after transition whose delay is 0 is taken at the next tick")
    func zeroDelay() throws {
        let h = Harness()
        h.tick(10)
        let m = try h.machine(timerMachine, config: ["celebrate": .number(0)])
        try h.send(m, "complete")
        #expect(h.state(m) == "celebrating")
        #expect(h.runtime.pendingTimerCount == 1)
        h.tick(10)
        #expect(h.state(m) == "settled")
        #expect(h.log == ["celebration over"])
        let reported = h.machineEvents(m)
        #expect(reported == ["state - -> idle", "state idle -> celebrating", "state celebrating -> settled"], "\(reported)")
    }

    @Test("R3.2.4 (seed 000 §5.4) leaving the state cancels its timer: it never fires")
    func cancelledOnExit() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(timerMachine)
        try h.send(m, "complete")
        #expect(h.runtime.pendingTimerCount == 1)
        try h.send(m, "refresh")
        #expect(h.runtime.pendingTimerCount == 0)
        h.tick(100)
        #expect(h.state(m) == "idle")
        #expect(h.log.isEmpty)
    }

    @Test("R3.2.4 two timers of a state due in one tick: the first to fire leaves the state, the other never fires")
    func twoDueInOneTick() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {
          "name": "race", "events": {"go": {}}, "initial": "idle",
          "states": {
            "idle": {"on": {"go": "racing"}},
            "racing": {"after": [{"delay": 1, "target": "first", "actions": [\(L("first"))]},
                                 {"delay": 1, "target": "second", "actions": [\(L("second"))]},
                                 {"delay": 0.5, "target": "early", "actions": [\(L("early"))]}]},
            "early": {"after": [{"delay": 0.25, "target": "idle", "actions": [\(L("back"))]}]},
            "first": {}, "second": {}
          }
        }
        """)
        try h.send(m, "go")
        // One tick past every delay: the 0.5 s timer is the earliest due and
        // fires first, leaving `racing`; both 1 s timers, due in this same
        // tick, were cancelled with the state and never fire. `early`'s own
        // timer, measured from 0.5 s (when its state was entered), is due at
        // 0.75 s: it fires in this tick too, before the cancelled ones' time.
        h.tick(2)
        #expect(h.log == ["early", "back"])
        #expect(h.state(m) == "idle")
        // Entered again at 2 and ticked between 0.5 s and 0.75 s later: the
        // same again, on fresh timers, with `early`'s timer still pending.
        try h.send(m, "go")
        h.tick(2.6)
        #expect(h.log == ["early", "back", "early"])
        #expect(h.state(m) == "early")
        #expect(h.runtime.pendingTimerCount == 1)
    }

    @Test("R3.2.4 re-entering the state starts a fresh timer; the old one never fires")
    func reentered() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(timerMachine)
        try h.send(m, "complete")
        h.tick(2)
        try h.send(m, "refresh")
        try h.send(m, "complete")
        h.tick(3.5)
        #expect(h.state(m) == "celebrating")
        h.tick(5)
        #expect(h.state(m) == "settled")
        #expect(h.log == ["celebration over"])
    }

    @Test("R3.2.4 destroying the machine cancels every timer; nothing of it fires afterwards")
    func destroyed() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(timerMachine)
        try h.send(m, "poke")
        try h.send(m, "complete")
        #expect(h.runtime.pendingTimerCount == 2)
        _ = h.events()
        try h.host.destroy(m)
        #expect(h.runtime.pendingTimerCount == 0)
        h.tick(100)
        #expect(h.log.isEmpty)
        #expect(h.events().isEmpty)
        expectError(.handle, ["stale"]) { () throws(AnimrtError) in try h.send(m, "refresh") }
    }

    @Test("a named after timer can be cancelled and is visible to timerActive()")
    func cancelNamed() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(timerMachine)
        try h.send(m, "complete")
        let d = try h.host.definition(of: m)
        let inst = h.host.instance(m)!
        #expect(inst.isTimerActive(d.timerNames.firstIndex(of: "celebration")!))
        try h.send(m, "poke")
        #expect(!inst.isTimerActive(d.timerNames.firstIndex(of: "celebration")!))
        h.tick(10)
        #expect(h.state(m) == "celebrating")
    }

    @Test("states never active together may name their after timers alike: cancelTimer and timerActive see the active one")
    func siblingsShareAName() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "shared", "events": {"next": {}, "stop": {}},
         "context": {"running": {"type": "bool", "initial": false}},
         "initial": "p",
         "states": {"p": {"initial": "x", "on": {"stop": {"actions": [{"cancelTimer": "timeout"}, {"assign": {"running": "timerActive('timeout')"}}]}},
                          "states": {"x": {"after": [{"delay": 1, "name": "timeout", "target": "z"}], "on": {"next": "y"}},
                                     "y": {"after": [{"delay": 2, "name": "timeout", "target": "z"}]}}},
                    "z": {}}}
        """)
        try h.send(m, "next")
        #expect(h.runtime.pendingTimerCount == 1)
        try h.send(m, "stop")
        #expect(h.context(m, "running") == .bool(false) && h.runtime.pendingTimerCount == 0)
        h.tick(5)
        #expect(h.state(m) == "p.y")
    }

    @Test("a started timer sends its event when it fires, through the normal selection")
    func startTimer() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(timerMachine)
        try h.send(m, "poke")
        h.tick(0.4)
        #expect(h.log.isEmpty)
        h.tick(0.5)
        #expect(h.log == ["tick in idle"])
        // Sent by a timer and not accepted where the machine is: reported, not lost.
        try h.send(m, "poke")
        try h.send(m, "complete")
        _ = h.events()
        h.tick(1.0)
        let reports = h.machineEvents(m)
        #expect(reports.count == 1)
        #expect(reports.first?.contains("sent by a timer was dropped") == true)
        #expect(reports.first?.contains("'tick' is not accepted in state 'celebrating'") == true)
    }

    /// A delay of 0 is allowed (0 or more): the timer is due at once and
    /// sends its event at the next tick, not at the start.
    @Test("a started timer with a delay of 0 sends its event at the next tick")
    func startTimerZeroDelay() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "zero", "context": {"wait": {"type": "number", "initial": 0}}, "events": {"poke": {}, "tick": {}},
         "initial": "idle", "states": {"idle": {"on": {"poke": {"actions": [{"startTimer": "now", "delay": "context.wait", "event": "tick"}]},
                                                        "tick": {"actions": [\(L("tick"))]}}}}}
        """)
        _ = h.events()
        try h.send(m, "poke")
        #expect(h.log.isEmpty && h.machineEvents(m).isEmpty, "the timer is started, not refused")
        h.tick(0.01)
        #expect(h.log == ["tick"])
    }

    @Test("R0.4 a delay that is not a finite number of seconds is an error event, not a trap")
    func badDelay() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "badDelay", "context": {"d": {"type": "number", "initial": -1}}, "events": {"go": {}},
         "initial": "a", "states": {"a": {"on": {"go": "b"}}, "b": {"after": [{"delay": "context.d", "target": "a"}]}}}
        """)
        _ = h.events()
        try h.send(m, "go")
        let reports = h.machineEvents(m)
        #expect(reports == ["state a -> b", "error 'states.b.after[0]: the delay is -1; it must be a finite number of seconds, 0 or more'"] || reports.last?.contains("finite number of seconds") == true)
        #expect(h.runtime.pendingTimerCount == 0)
    }
}

let doneMachine = """
{
  "name": "choreography",
  "parts": [{"name": "button", "properties": {"opacity": 1, "bounds": [0, 0, 200, 44]}}],
  "animations": {
    "shrink": {"type": "basic", "keyPath": "bounds.size.width", "to": 44, "duration": 0.3},
    "fade": {"type": "basic", "keyPath": "opacity", "to": 0.5, "duration": 0.5},
    "spin": {"type": "basic", "keyPath": "transform.rotation.z", "by": "2 * pi", "duration": 1, "repeatCount": "inf"}
  },
  "events": {"tap": {}, "cancel": {}, "stop": {}},
  "initial": "ready",
  "states": {
    "ready": {"on": {"tap": "preparing"}},
    "preparing": {
      "entry": [{"animate": "shrink", "part": "button", "key": "shrink"}, {"animate": "fade", "part": "button", "key": "fade"},
                {"animate": "spin", "part": "button", "key": "side", "join": false}],
      "done": {"target": "loading", "actions": [\(L("prepared"))]},
      "on": {"cancel": {"actions": [{"remove": "fade", "part": "button"}]}, "stop": "ready"}
    },
    "loading": {"entry": [\(L("loading"))], "done": {"target": "ready", "guard": "false"}}
  }
}
"""

@Suite("R2.3, R3.0.1 done: the next step starts when the state's animations have stopped")
struct DoneTests {
    @Test("R2.3 done is taken when the last joined animation stops, not before (seed 003 prepareGroup)")
    func waitsForAll() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(doneMachine)
        try h.send(m, "tap")
        h.tick(1)  // the animations begin at the first tick after they are added
        h.tick(1.3)
        #expect(h.state(m) == "preparing")  // shrink has stopped, fade has not
        h.tick(1.49)
        #expect(h.state(m) == "preparing")
        #expect(h.log.isEmpty)
        h.tick(1.5)
        #expect(h.state(m) == "loading")
        #expect(h.log == ["prepared", "loading"])
    }

    @Test("R3.0.1 done counts a stop for any reason: a removed animation releases the barrier")
    func anyStopReason() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(doneMachine)
        try h.send(m, "tap")
        h.tick(1)
        h.tick(1.3)
        #expect(h.state(m) == "preparing")
        try h.send(m, "cancel")
        #expect(h.state(m) == "loading")
    }

    @Test("R3.0.1 a state that joined nothing is done at once; a false guard on done keeps the state")
    func emptyBarrier() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "instant", "events": {"go": {}}, "initial": "a",
         "states": {"a": {"on": {"go": "b"}}, "b": {"entry": [\(L("enter b"))], "done": {"target": "c", "actions": [\(L("b done"))]}},
                    "c": {"done": {"target": "a", "guard": "false"}}}}
        """)
        try h.send(m, "go")
        #expect(h.log == ["enter b", "b done"])
        #expect(h.state(m) == "c")
        h.tick(1)
        #expect(h.state(m) == "c")
    }

    @Test("R3.0.2 done of states that joined nothing is an internal event: a cycle of them entered by a timer in a tick is stopped by maxMicrosteps, not run forever")
    func doneCycleInTick() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "cycle", "events": {"go": {}}, "maxMicrosteps": 10, "initial": "idle",
         "states": {"idle": {"after": [{"delay": 1, "target": "a"}], "on": {"go": "a"}},
                    "a": {"entry": [\(L("a"))], "done": "b"}, "b": {"entry": [\(L("b"))], "done": "a"}}}
        """)
        _ = h.events()
        h.tick(1)  // the timer's macrostep: idle → a, then 9 done transitions, then the bound
        #expect(h.log == ["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"])
        #expect(h.state(m) == "b")
        let reported = h.machineEvents(m)
        #expect(reported.count == 11)
        #expect(reported.last == "error 'the macrostep was stopped after 10 microsteps in state 'b' (an eventless loop?); the machine stays there'")
        // The same cycle from a host send ends the same way, within the send.
        let h2 = Harness()
        h2.tick(0)
        let m2 = try h2.machine(h.host.definition(of: m).source)
        try h2.send(m2, "go")
        #expect(h2.log == h.log && h2.state(m2) == "b")
    }

    @Test("R3.0.2 a state whose entry joins an animation and removes it again is done within the macrostep too: the cycle is bounded in a tick")
    func joinedAndRemovedCycleInTick() throws {
        let h = Harness()
        h.tick(0)
        let entry = { (name: String) in
            #"[\#(L(name)), {"animate": "fade", "part": "p", "key": "f"}, {"remove": "f", "part": "p"}]"#
        }
        let m = try h.machine("""
        {"name": "cycle2", "maxMicrosteps": 8, "initial": "idle",
         "parts": [{"name": "p", "properties": {"opacity": 1}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 1}},
         "states": {"idle": {"after": [{"delay": 1, "target": "a"}]},
                    "a": {"entry": \(entry("a")), "done": "b"}, "b": {"entry": \(entry("b")), "done": "a"}}}
        """)
        _ = h.events()
        h.tick(1)
        #expect(h.log == ["a", "b", "a", "b", "a", "b", "a", "b"])
        #expect(h.state(m) == "b")
        #expect(h.machineEvents(m).last == "error 'the macrostep was stopped after 8 microsteps in state 'b' (an eventless loop?); the machine stays there'")
        h.tick(2)
        #expect(h.log.count == 8)  // the bound left it in 'b'; nothing runs on by itself
    }

    @Test("R3.0.1 leaving the state first: its done never comes, even when the animations stop later")
    func leftBeforeDone() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(doneMachine)
        try h.send(m, "tap")
        try h.send(m, "stop")
        h.tick(1)
        #expect(h.state(m) == "ready")
        #expect(h.log.isEmpty)
    }

    /// A state's done waits on a runtime barrier. With the runtime's
    /// barrier table full none can be made: the state used to stay where it
    /// was for ever, its done never coming and nobody told. It fails as an
    /// `after` timer that cannot start does: an error event and
    /// `error.execution`, which the machine may handle.
    @Test("R0.4 a done that cannot wait (the runtime's barrier table is full) is an error event and error.execution, not a silent hang")
    func doneWithoutABarrier() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "waits", "events": {"go": {}}, "parts": [{"name": "box", "properties": {"opacity": 1}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 1}},
         "initial": "a",
         "states": {"a": {"on": {"go": "b"}},
                    "b": {"entry": [{"animate": "fade", "part": "box", "key": "k"}], "done": "c", "on": {"error.execution": "stuck"}},
                    "c": {}, "stuck": {}}}
        """)
        _ = h.events()
        let filler = try h.runtime.createBarrier()
        h.runtime.limitTable(.barrier, to: 1)
        #expect(try h.send(m, "go") == .taken)
        let message = "states.b.done: the state's done cannot wait for its animations: too many barriers: a runtime holds at most 1 at once, and each slot is reused \(Limits.generations) times at most"
        #expect(h.machineEvents(m) == ["state a -> b", "error '\(message)'", "state b -> stuck"])
        #expect(h.state(m) == "stuck")
        // With room again, the same state waits for its animations as usual.
        try h.runtime.destroyBarrier(filler)
        let m2 = try h.machine("""
        {"name": "waits2", "events": {"go": {}}, "parts": [{"name": "box", "properties": {"opacity": 1}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 1}},
         "initial": "a", "states": {"a": {"on": {"go": "b"}}, "b": {"entry": [{"animate": "fade", "part": "box", "key": "k"}], "done": "c"}, "c": {}}}
        """)
        try h.send(m2, "go")
        h.tick(0.5)
        #expect(h.state(m2) == "b")
        h.tick(2)
        #expect(h.state(m2) == "c")
    }

    @Test("destroying a machine stops its animations, destroys its parts; nothing of it runs afterwards")
    func destroyStopsAnimations() throws {
        let h = Harness()
        h.tick(0)
        let layers = h.runtime.layerCount
        let m = try h.machine(doneMachine)
        #expect(h.runtime.layerCount == layers + 1)
        let button = try h.host.part("button", of: m)
        try h.send(m, "tap")
        h.tick(0.1)
        _ = h.events()
        try h.host.destroy(m)
        let after = h.events()
        #expect(after.filter { $0.type == .animationStopped && $0.reason == .layerDestroyed }.count == 3)
        #expect(after.allSatisfy { $0.type == .animationStopped })
        #expect(h.runtime.layerCount == layers)
        expectError(.handle, []) { () throws(AnimrtError) in _ = try h.runtime.presentationValue(forKeyPath: "opacity", of: button) }
        h.tick(5)
        #expect(h.log.isEmpty)
        #expect(h.events().isEmpty)
    }
}
