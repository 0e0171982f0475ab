import AnimationCore
@testable import StateMachines
import Testing

/// Drives two runtimes with the same inputs and compares what they report
/// and show, bit for bit, with handles mapped from one to the other.
struct TwinRun {
    let a: Harness, b: Harness
    let ma: Handle, mb: Handle
    var handleMap: [UInt64: UInt64] = [:]

    init(_ a: Harness, _ ma: Handle, _ b: Harness, _ mb: Handle) throws {
        self.a = a; self.b = b; self.ma = ma; self.mb = mb
        handleMap[ma.raw] = mb.raw
        for name in try a.host.layerNames(of: ma) { handleMap[try a.host.part(name, of: ma).raw] = try b.host.part(name, of: mb).raw }
    }

    /// Same handle in the other runtime (objects first seen now are paired).
    mutating func same(_ x: Handle, _ y: Handle) -> Bool {
        if x.raw == 0 || y.raw == 0 { return x.raw == y.raw }
        if let known = handleMap[x.raw] { return known == y.raw }
        handleMap[x.raw] = y.raw
        return true
    }

    mutating func compareEvents(_ step: String) {
        let ea = a.events(), eb = b.events()
        #expect(ea.count == eb.count, "\(step): \(ea.count) events vs \(eb.count)")
        for (x, y) in zip(ea, eb) {
            #expect(x.type == y.type && x.time.bitPattern == y.time.bitPattern && x.reason == y.reason && x.name == y.name
                    && x.fromState == y.fromState && x.toState == y.toState && x.token == y.token && x.payload == y.payload,
                    "\(step): \(x) vs \(y)")
            #expect(same(x.object, y.object) && same(x.layer, y.layer), "\(step): handles of \(x.type)")
        }
    }

    func compareValues(_ step: String) throws {
        let d = try a.host.definition(of: ma)
        #expect(a.state(ma) == b.state(mb), "\(step)")
        for f in d.context { #expect(a.context(ma, f.name) == b.context(mb, f.name), "\(step): context \(f.name)") }
        #expect(try a.host.layerNames(of: ma) == b.host.layerNames(of: mb), "\(step)")
        for name in try a.host.layerNames(of: ma) {
            let va = try a.runtime.layerValues(try a.host.part(name, of: ma))
            let vb = try b.runtime.layerValues(try b.host.part(name, of: mb))
            #expect(va.map(\.property) == vb.map(\.property), "\(step): \(name)")
            for (x, y) in zip(va, vb) {
                #expect(x.presentation.components.map(\.bitPattern) == y.presentation.components.map(\.bitPattern),
                        "\(step): \(name).\(x.property) \(x.presentation) vs \(y.presentation)")
                #expect(x.model.components.map(\.bitPattern) == y.model.components.map(\.bitPattern), "\(step): model")
            }
        }
    }

    enum Input { case tick(Double), send(String, [TaggedValue]) }

    mutating func drive(_ inputs: [Input]) throws {
        for (n, input) in inputs.enumerated() {
            switch input {
            case .tick(let t): a.tick(t); b.tick(t)
            case .send(let e, let p):
                let ra = Result { () throws(AnimrtError) in try a.send(ma, e, p) }
                let rb = Result { () throws(AnimrtError) in try b.send(mb, e, p) }
                #expect("\(ra)" == "\(rb)", "input \(n): \(e)")
            }
            compareEvents("input \(n) \(input)")
            try compareValues("input \(n) \(input)")
        }
    }
}

func downloadButtonJSON() throws -> String {
    String(decoding: try Data(contentsOf: URL(filePath: repositoryRoot + "/examples/machines/download_button.json")), as: UTF8.self)
}

import FoundationEssentials

@Suite("R3.0.3 a snapshot restored into a fresh runtime continues identically")
struct SnapshotTests {
    /// Runs `prefix` on a fresh machine, snapshots it at time `t`, restores
    /// it into a fresh runtime, then drives both with `later`.
    func check(_ json: String, config: [String: MachineValue] = [:], prefix: [TwinRun.Input], at t: Double,
               later: [TwinRun.Input]) throws {
        let a = Harness()
        a.tick(0)
        let ma = try a.machine(json, config: config)
        for input in prefix {
            switch input {
            case .tick(let x): a.tick(x)
            case .send(let e, let p): _ = try? a.send(ma, e, p)
            }
        }
        #expect(a.runtime.currentTime == t)
        _ = a.events()
        let snapshot = try a.host.snapshot(ma)
        let b = Harness()
        b.tick(t)
        let mb = try b.host.restore(snapshot)
        #expect(try b.host.snapshot(mb) == snapshot, "a restored machine's snapshot is the snapshot")
        var twin = try TwinRun(a, ma, b, mb)
        try twin.compareValues("restored")
        try twin.drive(later)
    }

    @Test("mid-choreography: animations in flight, done pending")
    func midPrepare() throws {
        try check(try downloadButtonJSON(), prefix: [.send("tap", []), .tick(0.1), .tick(0.25)], at: 0.25,
                  later: [.tick(0.3), .tick(0.4), .tick(0.45), .send("progress", [.number(1), .number(0.5)]), .tick(0.7),
                          .send("finished", [.number(1), .bool(true)]), .tick(0.9), .tick(1.2), .tick(2.5), .tick(3)])
    }

    @Test("spinning, with a request open and a stale result later")
    func downloading() throws {
        try check(try downloadButtonJSON(), prefix: [.send("tap", []), .tick(0.1), .tick(0.4), .tick(1.234)], at: 1.234,
                  later: [.tick(1.5), .send("finished", [.number(2), .bool(true)]), .send("progress", [.number(1), .number(0.25)]),
                          .tick(2), .send("finished", [.number(1), .bool(false)]), .tick(2.1), .tick(2.2), .tick(4.5)])
    }

    @Test("a named after timer pending, then cancelled by a tap")
    func timerPending() throws {
        try check(try downloadButtonJSON(), config: ["doneSeconds": .number(3)],
                  prefix: [.send("tap", []), .tick(0.1), .tick(0.4), .send("finished", [.number(1), .bool(false)]), .tick(0.6)],
                  at: 0.6, later: [.tick(1), .tick(2), .send("tap", []), .tick(5), .send("tap", []), .tick(5.5), .tick(6)])
    }

    @Test("a started timer and an after timer due at the same time fire in their original order")
    func timerOrder() throws {
        try check(timerMachine, prefix: [.tick(1), .send("poke", []), .send("complete", []), .tick(1.2)], at: 1.2,
                  later: [.tick(1.5), .tick(3.9), .tick(4), .tick(9)])
    }

    @Test("an animation kept after it stopped (removedOnCompletion false) in a state whose done has come restores, unjoined")
    func keptAfterDone() throws {
        let json = """
        {"name": "kept", "events": {"go": {}},
         "parts": [{"name": "p", "properties": {"opacity": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 0.5, "fillMode": "forwards", "removedOnCompletion": false}},
         "initial": "a",
         "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f"}], "done": {"actions": [{"emit": "settled"}]},
                          "on": {"go": "b"}},
                    "b": {"entry": [{"remove": "f", "part": "p"}]}},
         "emits": {"settled": {}}}
        """
        try check(json, prefix: [.tick(1), .tick(2)], at: 2, later: [.tick(3), .send("go", []), .tick(4)])
    }

    @Test("an animation kept after it stopped while its state still waits for another restores without holding the done back")
    func keptWhileWaiting() throws {
        let json = """
        {"name": "kept2", "events": {"go": {}},
         "parts": [{"name": "p", "properties": {"opacity": 0, "cornerRadius": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 0.5, "fillMode": "forwards", "removedOnCompletion": false},
                        "round": {"type": "basic", "keyPath": "cornerRadius", "to": 8, "duration": 2}},
         "initial": "a",
         "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f"}, {"animate": "round", "part": "p", "key": "r"}],
                          "done": {"actions": [{"emit": "settled"}]}, "on": {"go": "b"}},
                    "b": {"entry": [{"remove": "f", "part": "p"}]}},
         "emits": {"settled": {}}}
        """
        // fade stops at 1.5 and is kept; round runs to 3, when the done comes.
        let h = Harness()
        h.tick(0)
        let m = try h.machine(json)
        for t in [1.0, 2, 2.5] { h.tick(t) }
        #expect(!h.machineEvents(m).contains("emit settled"))
        h.tick(3)
        #expect(h.machineEvents(m) == ["emit settled"])
        try check(json, prefix: [.tick(1), .tick(2)], at: 2, later: [.tick(2.5), .tick(3), .tick(3.5), .send("go", []), .tick(4)])
    }

    @Test("requests: the latest id and whether it is awaited survive")
    func requests() throws {
        try check(fetchMachine, prefix: [.send("fetch", []), .send("fetch", []), .tick(2)], at: 2,
                  later: [.send("loaded", [.number(1), .number(0.5)]), .send("loaded", [.number(2), .number(0.5)]),
                          .send("fetch", []), .send("loaded", [.number(3), .number(1)]), .tick(3)])
    }

    /// Request numbers are unique in a runtime: a snapshot carries the last
    /// number its runtime issued, and the runtime it is restored into issues
    /// later numbers from then on (or from its own, if it went further).
    @Test("R3.2.2 a restored instance's requests are numbered after its snapshot's and its new runtime's; impossible numbers are refused")
    func requestNumbersAfterRestore() throws {
        let a = Harness()
        a.tick(1)
        let other = try a.machine(fetchMachine), ma = try a.machine(fetchMachine)
        for _ in 0..<3 { try a.send(other, "fetch") }
        try a.send(ma, "fetch")  // request 4, open
        let snapshot = try a.host.snapshot(ma)
        #expect(snapshot.contains(#""lastRequestID":4"#) && snapshot.contains(#""latest":4"#))

        let b = Harness()
        b.tick(1)
        let mb = try b.host.restore(snapshot)
        #expect(try b.send(mb, "loaded", [.number(3), .number(0.2)]) == .stale)
        _ = b.events()
        try b.send(mb, "fetch")
        #expect(b.machineEvents(mb).last == "request load #5")

        let c = Harness()
        c.tick(1)
        let busy = try c.machine(fetchMachine)
        for _ in 0..<9 { try c.send(busy, "fetch") }
        let mc = try c.host.restore(snapshot)
        #expect(try c.send(mc, "loaded", [.number(4), .number(0.3)]) == .taken)  // its open request survives
        _ = c.events()
        try c.send(mc, "fetch")
        #expect(c.machineEvents(mc).last == "request load #10")

        let d = Harness()
        d.tick(1)
        for (bad, what) in [(#""lastRequestID":9007199254740993"#, "the last request number 9007199254740993"),
                            (#""lastRequestID":3"#, "request 'load'")] {
            let edited = snapshot.replacing(#""lastRequestID":4"#, with: bad)
            #expect(edited != snapshot)
            expectError(.invalidArgument, ["does not fit 'fetcher'", what]) { () throws(AnimrtError) in _ = try d.host.restore(edited) }
        }
        for bad in [#""lastRequestID":-1"#, #""lastRequestID":1e30"#, #""lastRequestID":4.5"#] {
            let edited = snapshot.replacing(#""lastRequestID":4"#, with: bad)
            expectError(.invalidArgument, ["not a machine snapshot: a number in it does not fit its field"]) { () throws(AnimrtError) in
                _ = try d.host.restore(edited)
            }
        }
        // A number no double holds is placed, not blamed on a type the decoder did not find.
        expectError(.invalidArgument, ["not a machine snapshot: the JSON is malformed at line 1, column",
                                       "the number 1e400 is too large for a double"]) { () throws(AnimrtError) in
            _ = try d.host.restore(snapshot.replacing(#""lastRequestID":4"#, with: #""lastRequestID":1e400"#))
        }
        #expect(d.host.instanceCount == 0 && d.host.lastRequestNumber == 0)
        let edge = try d.host.restore(snapshot.replacing(#""lastRequestID":4"#, with: #""lastRequestID":9007199254740992"#))
        #expect(d.host.lastRequestNumber == MachineHost.maxRequestNumber)
        #expect(try d.send(edge, "loaded", [.number(4), .number(1)]) == .taken)
    }

    @Test("a snapshot is refused by a runtime at another time, and when it is not a snapshot; nothing is made")
    func refusals() throws {
        let a = Harness()
        a.tick(5)
        let m = try a.machine(try downloadButtonJSON())
        let snapshot = try a.host.snapshot(m)
        let b = Harness()
        b.tick(4)
        let layers = b.runtime.layerCount
        expectError(.time, ["taken at time 5.0", "this runtime is at 4.0", "tick it to the snapshot's time first"]) { () throws(AnimrtError) in
            _ = try b.host.restore(snapshot)
        }
        expectError(.time, ["not ticked yet"]) { () throws(AnimrtError) in _ = try Harness().host.restore(snapshot) }
        // A runtime past the snapshot's time can never reach it: the remedy is a new runtime.
        let later = Harness()
        later.tick(6)
        expectError(.time, ["taken at time 5.0", "this runtime is at 6.0",
                            "time only goes forwards, so restore it into a new runtime ticked to 5.0"]) { () throws(AnimrtError) in
            _ = try later.host.restore(snapshot)
        }
        let early = Harness()
        let unticked = try early.host.snapshot(try early.machine(try downloadButtonJSON()))
        expectError(.time, ["taken before the first tick", "this runtime is at 6.0",
                            "time only goes forwards, so restore it into a new runtime not ticked yet"]) { () throws(AnimrtError) in
            _ = try later.host.restore(unticked)
        }
        expectError(.invalidArgument, ["not a machine snapshot"]) { () throws(AnimrtError) in _ = try b.host.restore("{}") }
        expectError(.invalidArgument, ["not a machine snapshot"]) { () throws(AnimrtError) in _ = try b.host.restore("[") }
        let tampered = snapshot.replacing(#""leaf":"idle""#, with: #""leaf":"nowhere""#)
        #expect(tampered != snapshot)
        let c = Harness()
        c.tick(5)
        expectError(.invalidArgument, ["does not fit 'downloadButton'", "no leaf state 'nowhere'"]) { () throws(AnimrtError) in
            _ = try c.host.restore(tampered)
        }
        // A member said twice (the decoder would keep one): refused, with its place.
        let twice = snapshot.replacing(#""leaf":"idle""#, with: #""leaf":"idle","leaf":"idle""#)
        #expect(twice != snapshot)
        expectError(.invalidArgument, ["not a machine snapshot: the JSON is ambiguous at line 1", "the member \"leaf\" appears twice"]) {
            () throws(AnimrtError) in _ = try c.host.restore(twice)
        }
        #expect(b.runtime.layerCount == layers && c.runtime.layerCount == 0 && b.host.instanceCount == 0)
    }
}
