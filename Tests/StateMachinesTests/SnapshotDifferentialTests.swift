import AnimationCore
@testable import StateMachines
import Testing
import FoundationEssentials

/// A small seeded generator (SplitMix64): a failing seed replays exactly.
struct SeededRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
}

/// A machine with every kind of thing a snapshot carries: nested states
/// (an internal transition, a compound state's final child), `after`
/// timers (named, of 0 s, in a state and its ancestor), guards on the
/// event, context, `now()`, `in()` and `timerActive()`, a repeated part,
/// joined and unjoined animations of every kind (fromPresentation, a
/// kept one, a spring, keyframes, a group), a throttled event, started
/// timers with and without an event, requests with partial results, a
/// raised event, an eventless transition and a top-level final state.
let kitchenMachine = """
{
 "name": "kitchen",
 "config": {
   "n": {"type": "number", "default": 3, "min": 0, "max": 6},
   "hold": {"type": "number", "default": 0.4, "min": 0, "max": 5},
   "rate": {"type": "number", "default": 5, "min": 0, "max": 50}
 },
 "context": {
   "count": {"type": "number", "initial": 0},
   "x": {"type": "number", "initial": 0.5},
   "label": {"type": "string", "initial": "'start'"},
   "flag": {"type": "bool", "initial": false},
   "w": {"type": "number", "computed": "context.x * 100 + (timerActive('fresh') ? 1 : 0) + (in('work.busy') ? 10 : 0)"}
 },
 "requests": {"load": {"payload": [{"name": "page", "type": "number"}]}},
 "events": {
   "go": {}, "back": {}, "stop": {}, "finish": {}, "ping": {},
   "poke": {"payload": [{"name": "v", "type": "number", "min": 0, "max": 1, "clamp": true}]},
   "nudge": {"throttle": "config.rate > 0 ? 1 / config.rate : 0", "payload": [{"name": "v", "type": "number", "min": 0, "max": 1}]},
   "loaded": {"resultOf": "load", "payload": [{"name": "v", "type": "number", "min": 0, "max": 1, "clamp": true}]},
   "partial": {"resultOf": "load", "partial": true, "payload": [{"name": "v", "type": "number"}]},
   "flip": {"payload": [{"name": "on", "type": "bool"}, {"name": "s", "type": "string", "default": "z"}]}
 },
 "emits": {"tick": {"payload": [{"name": "n", "type": "number"}]}, "pinged": {}, "fresh": {"payload": [{"name": "w", "type": "number"}]}},
 "parts": [
   {"name": "box", "properties": {"opacity": 0, "cornerRadius": 4, "position": [0, 0]},
    "parts": [{"name": "ring", "properties": {"strokeEnd": 0}}]},
   {"name": "arc", "count": "config.n", "properties": {"strokeStart": "index / max(config.n, 1)", "opacity": 1}}
 ],
 "animations": {
   "fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": "config.hold + 0.1", "fillMode": "forwards", "removedOnCompletion": false},
   "fill": {"type": "basic", "keyPath": "strokeEnd", "to": "context.x", "duration": 0.5, "timingFunction": "easeInEaseOut", "fromPresentation": true},
   "spin": {"type": "basic", "keyPath": "transform.rotation.z", "by": "2 * pi", "duration": 0.7, "repeatCount": "inf"},
   "pop": {"type": "spring", "keyPath": "transform.scale", "from": 0.8, "to": 1, "damping": 12, "stiffness": 180, "usesSettlingDuration": true},
   "hop": {"type": "keyframe", "keyPath": "position.y", "values": [0, 10, "context.x * 20"], "keyTimes": [0, 0.3, 1], "duration": 0.6},
   "wave": {"type": "basic", "keyPath": "opacity", "from": 1, "to": "index / 10", "duration": "0.2 + index * 0.1", "autoreverses": true},
   "both": {"type": "group", "animations": ["fill", {"type": "basic", "keyPath": "cornerRadius", "to": 12}], "duration": 0.8}
 },
 "initial": "idle",
 "states": {
   "idle": {
     "on": {"go": "work",
            "poke": {"actions": [{"assign": {"x": "event.v"}}, {"startTimer": "fresh", "delay": 2}, {"emit": "fresh", "payload": {"w": "context.w"}}]},
            "ping": {"actions": [{"startTimer": "later", "delay": "config.hold", "event": "flip", "payload": {"on": true, "s": "'t'"}}]},
            "flip": {"actions": [{"assign": {"flag": "event.on", "label": "event.s"}}]},
            "nudge": {"actions": [{"assign": {"x": "event.v"}}, {"set": "opacity", "part": "arc", "value": "event.v * index / 4"}]},
            "finish": {"guard": "context.count > 2", "target": "gone"}},
     "ignore": ["back", "stop", "loaded", "partial"]
   },
   "work": {
     "initial": "prep",
     "entry": [{"animate": "fade", "part": "box", "key": "fade"}],
     "exit": [{"removeAll": "arc"}],
     "on": {"stop": "idle", "back": "idle",
            "nudge": {"actions": [{"assign": {"x": "event.v"}}, {"animate": "fill", "part": "ring", "key": "fill"}]},
            "flip": {"actions": [{"assign": {"flag": "event.on"}}]},
            "ping": {"actions": [{"emit": "pinged"}, {"raise": "go"}]},
            "finish": {"guard": "now() > 3", "target": "gone"}},
     "after": [{"delay": "config.hold * 10", "name": "watchdog", "target": "idle"}],
     "onFinal": "idle",
     "ignore": ["loaded", "partial", "poke", "go"],
     "states": {
       "prep": {
         "entry": [{"animate": "pop", "part": "box", "key": "pop"}, {"animate": "wave", "part": "arc", "key": "w"}],
         "done": [{"guard": "context.flag", "target": "busy"}, {"target": "wait"}],
         "on": {"go": "busy"}
       },
       "wait": {
         "after": [{"delay": "config.hold", "target": "busy"},
                   {"delay": 0, "actions": [{"assign": {"count": "context.count + 1"}}, {"emit": "tick", "payload": {"n": "context.count"}}]}],
         "always": [{"guard": "context.count > 6 and context.flag", "target": "end"}],
         "on": {"go": "busy", "poke": {"guard": "event.v > 0.5 and timerActive('watchdog')", "target": "prep"}}
       },
       "busy": {
         "initial": "fetching",
         "entry": [{"animate": "spin", "part": "ring", "key": "spin", "join": false}, {"request": "load", "payload": {"page": "context.count"}}],
         "exit": [{"remove": "spin", "part": "ring"}],
         "on": {"loaded": {"target": "end", "actions": [{"assign": {"x": "event.v"}}]},
                "partial": {"actions": [{"assign": {"x": "clamp(event.v, 0, 1)"}}, {"animate": "hop", "part": "box", "key": "hop"}]},
                "go": {"target": "fetching", "type": "internal"}},
         "states": {
           "fetching": {"after": [{"delay": 0.25, "name": "slow", "target": "stalled"}], "on": {"poke": "stalled"}},
           "stalled": {"entry": [{"animate": "both", "part": "box", "key": "both"}], "done": {"actions": [{"emit": "pinged"}]},
                       "on": {"poke": {"guard": "in('work.busy.stalled')", "target": "fetching", "actions": [{"cancelRequest": "load"}]}}}
         }
       },
       "end": {"type": "final"}
     }
   },
   "gone": {"type": "final"}
 }
}
"""

/// The next random input for an instance in `leaf`: a tick from none to
/// several seconds on, or a send, mostly of an event an active state
/// takes, with payloads of the declared types, mostly in range, and
/// request numbers near the latest issued.
func randomInput(_ d: MachineDefinition, leaf: Int, lastRequest: UInt64, _ rng: inout SeededRandom, time t: inout Double) -> TwinRun.Input {
    if rng.below(5) < 2 {
        t += rng.pick([0, 0.001, 0.016, 0.05, 0.1, 0.25, 0.3, 0.7, 1, 3, rng.unit() * 2])
        return .tick(t)
    }
    let hostEvents = d.events.indices.filter { !d.events[$0].name.hasPrefix("error.") }
    let taken = hostEvents.filter { e in d.ancestry(leaf).contains { !d.states[$0].on[e].isEmpty } }
    let e = d.events[rng.below(10) < 7 && !taken.isEmpty ? rng.pick(taken) : rng.pick(hostEvents)]
    var payload: [TaggedValue] = []
    for (i, f) in e.payload.enumerated() {
        if i == 0 && e.resultOf != nil {
            payload.append(.number(Double(rng.below(4) == 0 ? UInt64(rng.below(6)) : lastRequest)))
            continue
        }
        if f.defaultValue != nil && i == e.payload.count - 1 && rng.below(3) == 0 { break }
        switch f.type {
        case .bool: payload.append(.bool(rng.below(2) == 0))
        case .string: payload.append(.string(rng.pick(["", "a", "Offline", "长"])))
        default:
            let lo = f.minimum ?? 0, hi = f.maximum ?? max(lo + 1, 10)
            let v = rng.below(12) == 0 ? hi + 1 : lo + (hi - lo) * rng.unit()
            payload.append(.number(rng.below(6) == 0 ? v.rounded() : v))
        }
    }
    return .send(e.name, payload)
}

@Suite("R3.0.3 a snapshot taken at a random moment restores to a machine that behaves as the original from then on")
struct SnapshotDifferentialTests {
    /// Drives `json` with random inputs, snapshots it at a random point,
    /// restores into a fresh runtime, drives both the same and compares
    /// every event, state, context field, part value and snapshot; then
    /// snapshots the restored one again at a later point and does the same.
    func fuzz(_ json: String, seed: UInt64, config: [String: MachineValue] = [:], steps: Int = 60) throws {
        var rng = SeededRandom(state: seed)
        let a = Harness()
        let first: Double? = rng.below(6) == 0 ? nil : rng.pick([0, 0.5, 1000])
        if let first { a.tick(first) }
        let ma = try a.machine(json, config: config)
        let d = try a.host.definition(of: ma)
        var t = first ?? 0.2
        func next(_ rng: inout SeededRandom) throws -> TwinRun.Input {
            randomInput(d, leaf: try a.host.state(of: ma), lastRequest: a.host.lastRequestNumber, &rng, time: &t)
        }
        let cut = rng.below(steps), second = cut + 1 + rng.below(steps - cut)
        for _ in 0..<cut {
            switch try next(&rng) {
            case .tick(let x): a.tick(x)
            case .send(let e, let p): _ = try? a.send(ma, e, p)
            }
        }
        _ = a.events()
        func restored(from h: Harness, _ m: Handle) throws -> (Harness, Handle) {
            let s = try h.host.snapshot(m)
            let b = Harness()
            if let t = h.runtime.currentTime { b.tick(t) }
            let mb = try b.host.restore(s)
            #expect(try b.host.snapshot(mb) == s, "seed \(seed): a restored machine's snapshot is the snapshot")
            return (b, mb)
        }
        var (b, mb) = try restored(from: a, ma)
        var twin = try TwinRun(a, ma, b, mb)
        try twin.compareValues("seed \(seed): restored at input \(cut)")
        for n in cut..<steps + 20 {
            if n == second {
                (b, mb) = try restored(from: b, mb)
                twin = try TwinRun(a, ma, b, mb)
                try twin.compareValues("seed \(seed): restored again at input \(n)")
            }
            let input = try next(&rng)
            let step = "\(d.name) seed \(seed): input \(n) \(input)"
            switch input {
            case .tick(let t): a.tick(t); b.tick(t)
            case .send(let e, let p):
                // The same outcome; a refusal's words name each runtime's own handle.
                let ra = Result { () throws(AnimrtError) in try a.send(ma, e, p) }
                let rb = Result { () throws(AnimrtError) in try b.send(mb, e, p) }
                #expect("\(ra)".replacing(/0x[0-9a-f]+/, with: "0x") == "\(rb)".replacing(/0x[0-9a-f]+/, with: "0x"), "\(step)")
            }
            compareEvents(&twin, step)
            try twin.compareValues(step)
            let sa = try a.host.snapshot(ma), sb = try b.host.snapshot(mb)
            #expect(sa == sb, "\(step): the two snapshots differ")
            if sa != sb { return }
        }
    }

    /// Compares what the two runtimes reported for one input, in order:
    /// lifecycle events of animations (started, stopped) by their part,
    /// time and reason (a machine's parts report them in one order whatever
    /// the runtime's lists hold, see docs/machines.md, "Snapshots and
    /// traces"), every other event field by field, handles paired as they
    /// first appear.
    func compareEvents(_ twin: inout TwinRun, _ step: String) {
        let ea = twin.a.events(), eb = twin.b.events()
        func lifecycle(_ e: Event) -> Bool { e.type == .animationStarted || e.type == .animationStopped }
        func partNames(_ h: Harness, _ m: Handle) -> [UInt64: String] {
            let names = (try? h.host.layerNames(of: m)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { ((try? h.host.part($0, of: m))?.raw ?? 0, $0) })
        }
        let na = partNames(twin.a, twin.ma), nb = partNames(twin.b, twin.mb)
        #expect(ea.count == eb.count, "\(step): \(ea.count) events vs \(eb.count)")
        for (x, y) in zip(ea, eb) {
            if lifecycle(x) || lifecycle(y) {
                #expect(x.type == y.type && na[x.layer.raw] == nb[y.layer.raw] && x.time.bitPattern == y.time.bitPattern
                        && x.reason == y.reason,
                        "\(step): \(x.type) of \(na[x.layer.raw] ?? "?") vs \(y.type) of \(nb[y.layer.raw] ?? "?")")
                continue
            }
            #expect(x.type == y.type && x.time.bitPattern == y.time.bitPattern && x.reason == y.reason && x.name == y.name
                    && x.fromState == y.fromState && x.toState == y.toState && x.token == y.token && x.payload == y.payload,
                    "\(step): \(x) vs \(y)")
            let paired = twin.same(x.object, y.object)
            #expect(paired, "\(step): handles of \(x.type)")
        }
    }

    static let seeds: [UInt64] = Array(1...40)

    @Test("a machine with nested states, timers, guards, a repeated part, throttles and requests", arguments: seeds)
    func kitchen(seed: UInt64) throws {
        var rng = SeededRandom(state: seed &* 7919)
        let config: [String: MachineValue] = ["n": .number(Double(rng.below(5))), "hold": .number(rng.pick([0, 0.05, 0.4, 1])),
                                              "rate": .number(rng.pick([0, 3, 20]))]
        try fuzz(kitchenMachine, seed: seed, config: config)
    }

    @Test("each shipped machine and the download button", arguments: seeds)
    func shipped(seed: UInt64) throws {
        try fuzz(shippedJSON("networkButton"), seed: seed, config: ["linesCount": .number(Double(1 + seed % 4))])
        try fuzz(shippedJSON("networkButton"), seed: seed, config: ["progressMode": .bool(true)])
        try fuzz(shippedJSON("progressCard"), seed: seed)
        try fuzz(shippedJSON("streakCard"), seed: seed)
        try fuzz(shippedJSON("indicatorBar"), seed: seed)
        try fuzz(try downloadButtonJSON(), seed: seed)
    }
}
