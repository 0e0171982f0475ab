import AnimationCore
@testable import StateMachines
import Testing

let throttledMachine = """
{
  "name": "meter",
  "config": {"perSecond": {"type": "number", "default": 60, "min": 0}},
  "context": {"value": {"type": "number", "initial": 0}, "shown": {"type": "number", "initial": 0}},
  "requests": {"load": {}},
  "events": {
    "level": {"throttle": "config.perSecond > 0 ? 1 / config.perSecond : 0", "payload": [{"name": "v", "type": "number"}]},
    "partial": {"resultOf": "load", "partial": true, "throttle": 0.5, "payload": [{"name": "v", "type": "number"}]},
    "loaded": {"resultOf": "load"},
    "pause": {}, "resume": {}, "start": {}
  },
  "initial": "live",
  "states": {
    "live": {"on": {"level": [{"guard": "event.v >= 0", "actions": [{"assign": {"value": "event.v", "shown": "context.shown + 1"}}, {"call": "log", "args": ["str(event.v)"]}]}],
                    "pause": "paused", "start": "loading"}},
    "paused": {"on": {"resume": "live"}, "ignore": ["level"]},
    "loading": {"entry": [{"request": "load"}],
                "on": {"partial": {"actions": [{"call": "log", "args": ["'partial ' + str(event.v)"]}]}, "loaded": "live"}}
  }
}
"""

@Suite("R3.2.5 throttled events: at most one per interval, and the last value is always processed")
struct ThrottleTests {
    @Test("the first is processed at once; later ones wait; the latest is processed when the interval ends")
    func leadingAndTrailing() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine, config: ["perSecond": .number(10)])
        #expect(try h.send(m, "level", [.number(1)]) == .taken)
        #expect(try h.send(m, "level", [.number(2)]) == .throttled)
        #expect(try h.send(m, "level", [.number(3)]) == .throttled)
        #expect(h.log == ["1"])
        #expect(h.context(m, "value") == .number(1))
        h.tick(0.05)
        #expect(h.log == ["1"])
        h.tick(0.1)   // the window ends: the latest (3) is processed, 2 never is
        #expect(h.log == ["1", "3"])
        #expect(h.context(m, "value") == .number(3))
        h.tick(0.25)  // the window 3 opened has ended with nothing waiting: the next is processed at once
        #expect(try h.send(m, "level", [.number(4)]) == .taken)
        #expect(h.log == ["1", "3", "4"])
    }

    @Test("a burst of 1000 sends in one second is processed at most 60 times in any second, the last one included")
    func rate() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine)
        var processedAt: [Double] = []
        var last = 0.0
        for i in 0..<1000 {
            let t = Double(i) / 1000
            h.tick(t)
            if Double(h.log.count) > Double(processedAt.count) { processedAt += Array(repeating: t, count: h.log.count - processedAt.count) }
            last = Double(i) / 999
            try h.send(m, "level", [.number(last)])
            if h.log.count > processedAt.count { processedAt.append(t) }
        }
        h.tick(2)
        #expect(h.context(m, "value") == .number(last))   // the last value is always shown
        #expect(h.log.last == str(last))
        for (k, t) in processedAt.enumerated() {
            let inWindow = processedAt[k...].prefix { $0 < t + 1 }.count
            #expect(inWindow <= 60, "\(inWindow) processed in [\(t), \(t + 1))")
        }
        #expect(processedAt.count >= 55 && processedAt.count <= 61)
        for (a, b) in zip(processedAt, processedAt.dropFirst()) { #expect(b - a >= 1.0 / 60 - 1e-9) }
    }

    @Test("SCXML 5.9.1 a guard that fails in the check of a held event is reported, without error.execution; processed later, its guards run again")
    func heldGuardFailure() throws {
        let h = Harness()
        h.tick(0)
        // context.r cannot be read while x is 0: a guard reading it fails.
        let m = try h.machine(#"""
        {"name": "heldGuard", "events": {"p": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}, "fix": {}},
         "context": {"x": {"type": "number", "initial": 0}, "r": {"type": "number", "computed": "1 / context.x"},
                     "n": {"type": "number", "initial": 0}, "errs": {"type": "number", "initial": 0}},
         "initial": "a",
         "states": {"a": {"on": {"p": [{"guard": "context.r > 5", "target": "a"}, {"actions": [{"assign": {"n": "event.v"}}]}],
                                 "error.execution": {"actions": [{"assign": {"errs": "context.errs + 1"}}]},
                                 "fix": {"actions": [{"assign": {"x": 1}}]}}}}}
        """#)
        let d = try h.host.definition(of: m)
        _ = h.events()
        #expect(try h.send(m, "p", [.number(1)]) == .taken)      // processed: its failure raises error.execution
        #expect(h.context(m, "errs") == .number(1) && h.context(m, "n") == .number(1))
        #expect(try h.send(m, "p", [.number(2)]) == .throttled)  // held: reported only
        #expect(try h.send(m, "p", [.number(3)]) == .throttled)
        #expect(h.context(m, "errs") == .number(1))
        #expect(machineErrors(h.events(), of: d).map(\.event) == ["p", "p", "p"])
        try h.send(m, "fix")
        h.tick(1.5)                                             // 3 is processed; its guard now runs cleanly
        #expect(h.context(m, "n") == .number(3))
        #expect(h.context(m, "errs") == .number(1))
        #expect(machineErrors(h.events(), of: d).isEmpty)
    }

    @Test("while the interval runs, a refused event is refused at once and an ignored one is ignored; neither replaces the one waiting")
    func checkedWhenSent() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine, config: ["perSecond": .number(10)])
        try h.send(m, "level", [.number(1)])
        #expect(try h.send(m, "level", [.number(5)]) == .throttled)
        expectError(.state, ["no guard of its transitions passed"]) { () throws(AnimrtError) in _ = try h.send(m, "level", [.number(-1)]) }
        try h.send(m, "pause")
        #expect(try h.send(m, "level", [.number(6)]) == .ignored)
        try h.send(m, "resume")
        h.tick(0.1)
        #expect(h.log == ["1", "5"])
    }

    @Test("the waiting event is processed in the state the machine is in when the interval ends")
    func deliveredLater() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine, config: ["perSecond": .number(10)])
        try h.send(m, "level", [.number(1)])
        try h.send(m, "level", [.number(2)])
        try h.send(m, "pause")
        _ = h.events()
        h.tick(0.1)
        #expect(h.log == ["1"])             // paused ignores level
        try h.send(m, "resume")
        try h.send(m, "level", [.number(3)])
        try h.send(m, "level", [.number(4)])
        try h.send(m, "start")
        _ = h.events()
        h.tick(0.2)
        // Not accepted in loading: reported, not lost silently.
        #expect(h.machineEvents(m).contains { $0.contains("held by its throttle was dropped") && $0.contains("'level' is not accepted in state 'loading'") })
    }

    @Test("a throttled partial result that went stale while it waited is reported as stale, not processed")
    func staleWhileWaiting() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine)
        try h.send(m, "start")
        try h.send(m, "partial", [.number(1), .number(0.1)])
        #expect(try h.send(m, "partial", [.number(1), .number(0.2)]) == .throttled)
        try h.send(m, "loaded", [.number(1)])
        _ = h.events()
        h.tick(0.5)
        #expect(h.log == ["partial 0.1"])
        #expect(h.machineEvents(m) == ["stale partial #1"])
    }

    @Test("R3.2.4 destroying the machine cancels its throttle windows: the waiting event never runs")
    func destroyed() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine)
        try h.send(m, "level", [.number(1)])
        try h.send(m, "level", [.number(2)])
        #expect(h.runtime.pendingTimerCount == 1)
        try h.host.destroy(m)
        #expect(h.runtime.pendingTimerCount == 0)
        h.tick(1)
        #expect(h.log == ["1"])
    }

    @Test("an interval of 0 does not throttle; a bad interval is refused when the instance is created")
    func intervals() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(throttledMachine, config: ["perSecond": .number(0)])
        for i in 0..<5 { #expect(try h.send(m, "level", [.number(Double(i))]) == .taken) }
        #expect(h.runtime.pendingTimerCount == 0)
        let bad = throttledMachine.replacing(#""throttle": 0.5"#, with: #""throttle": "-1""#)
        expectError(.outOfRange, ["the throttle of 'partial' is -1 s", "finite number of seconds"]) { () throws(AnimrtError) in _ = try h.machine(bad) }
        let final = throttledMachine.replacing(#""loaded": {"resultOf": "load"}"#, with: #""loaded": {"resultOf": "load", "throttle": 1}"#)
        expectError(.invalidArgument, ["events.loaded.throttle", "a final result is processed once"]) { () throws(AnimrtError) in _ = try h.load(final) }
        let context = throttledMachine.replacing(#""throttle": 0.5"#, with: #""throttle": "context.value""#)
        expectError(.invalidArgument, ["events.partial.throttle", "'context.value' cannot be read here: the throttle interval is computed when the instance is created"]) { () throws(AnimrtError) in _ = try h.load(context) }
    }
}

private func str(_ d: Double) -> String { NumberText.format(d) }
