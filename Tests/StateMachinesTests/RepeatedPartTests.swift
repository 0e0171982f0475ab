import AnimationCore
@testable import StateMachines
import Testing

let spokesMachine = """
{
  "name": "spokes",
  "config": {"count": {"type": "number", "default": 3, "min": 0, "max": 100}, "radius": {"type": "number", "default": 10}},
  "parts": [{"name": "hub", "properties": {"opacity": 1},
             "parts": [{"name": "spoke", "count": "config.count",
                        "properties": {"transform.rotation.z": "index * 2 * pi / config.count",
                                       "position": ["config.radius * cos(index * 2 * pi / config.count)", "config.radius * sin(index * 2 * pi / config.count)"]}}]}],
  "animations": {"spin": {"type": "basic", "keyPath": "transform.rotation.z", "by": "2 * pi", "duration": 1, "repeatCount": "inf"},
                 "fade": {"type": "basic", "keyPath": "opacity", "from": 1, "to": "index / 10", "duration": "0.1 * (index + 1)"}},
  "events": {"go": {}, "stop": {}, "dim": {}},
  "initial": "still",
  "states": {
    "still": {"on": {"go": "spinning", "dim": "fading"}},
    "spinning": {"entry": [{"animate": "spin", "part": "spoke", "key": "spin", "join": false}],
                 "on": {"stop": {"target": "still", "actions": [{"remove": "spin", "part": "spoke"}, {"set": "opacity", "part": "spoke", "value": "1 - index / 10"}]}}},
    "fading": {"entry": [{"animate": "fade", "part": "spoke", "key": "fade"}], "done": "still"}
  }
}
"""

@Suite("Repeated parts: a part declared with a count is that many layers, told apart by index")
struct RepeatedPartTests {
    @Test("set and animate on a repeated part compute every copy before changing one: a copy whose value fails leaves them all as they were")
    func copiesAllOrNothing() throws {
        let h = Harness()
        let m = try h.machine(#"""
        {"name": "copies", "events": {"set": {}, "spin": {}},
         "context": {"after": {"type": "number", "initial": 0}},
         "parts": [{"name": "arc", "count": 4, "properties": {"opacity": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": "index == 2 ? 1 / 0 : 1", "duration": 1}},
         "initial": "s",
         "states": {"s": {"on": {"set": {"actions": [{"set": "opacity", "part": "arc", "value": "index == 2 ? 1 / 0 : 0.5"},
                                                      {"assign": {"after": 1}}]},
                                 "spin": {"actions": [{"animate": "fade", "part": "arc", "key": "k"}, {"assign": {"after": 2}}]}}}}}
        """#)
        _ = h.events()
        #expect(try h.send(m, "set") == .taken)
        let errors = h.machineEvents(m)
        #expect(errors.count == 1 && errors[0].contains("states.s.on.set.actions[0]: the value of 'opacity': component 0 is inf"), "\(errors)")
        for i in 0..<4 {
            #expect(try h.runtime.modelValue(forKeyPath: "opacity", of: h.host.part("arc[\(i)]", of: m)) == .scalar(0))
        }
        #expect(try h.send(m, "spin") == .taken)
        let spun = h.machineEvents(m)
        #expect(spun.count == 1 && spun[0].contains("states.s.on.spin.actions[0]"), "\(spun)")
        for i in 0..<4 { #expect(try h.runtime.animationKeys(of: h.host.part("arc[\(i)]", of: m)).isEmpty) }
        // The rest of each action list did not run.
        #expect(h.context(m, "after") == .number(0))
    }

    @Test("an animate whose third copy the runtime refuses as it is added gives no copy its animation, nor stops one")
    func copiesAllOrNothingAtTheRuntime() throws {
        let h = Harness()
        // Copy 2's spring has no damping: with its settling duration it would
        // never end, which the runtime refuses when it is added (the
        // expressions themselves all evaluate).
        let m = try h.machine(#"""
        {"name": "springs", "events": {"go": {}, "pop": {}},
         "parts": [{"name": "arc", "count": 4, "properties": {"opacity": 0}}],
         "animations": {"pop": {"type": "spring", "keyPath": "opacity", "from": 0, "to": 1,
                                "damping": "index == 2 ? 0 : 12", "usesSettlingDuration": true},
                        "hold": {"type": "basic", "keyPath": "opacity", "to": 0.5, "duration": 5}},
         "initial": "s",
         "states": {"s": {"on": {"go": {"actions": [{"animate": "hold", "part": "arc", "key": "k"}]},
                                 "pop": {"actions": [{"animate": "pop", "part": "arc", "key": "k"}]}}}}}
        """#)
        _ = h.events()
        #expect(try h.send(m, "go") == .taken)
        let parts = try (0..<4).map { i in try h.host.part("arc[\(i)]", of: m) }
        let held = try parts.map { try h.runtime.instance(forKey: "k", of: $0) }
        #expect(held.allSatisfy { $0 != nil })
        _ = h.events()
        #expect(try h.send(m, "pop") == .taken)
        let events = h.events()
        let errors = events.filter { $0.type == .machineError }.map { "\($0.payload)" }
        #expect(errors.count == 1 && errors[0].contains("states.s.on.pop.actions[0]"), "\(errors)")
        // Every copy keeps the animation it had: none was replaced (no stop event).
        #expect(try parts.map { try h.runtime.instance(forKey: "k", of: $0) } == held)
        #expect(!events.contains { $0.type == .animationStopped || $0.type == .animationStarted })
    }

    @Test("a set on a repeated part whose third copy the runtime refuses (its transform overflows) sets no copy")
    func setAllOrNothingAtTheRuntime() throws {
        let h = Harness()
        // Copy 2's transform has a first row so long that turning it makes
        // the matrix overflow: the runtime refuses that copy's rotation (the
        // value itself, 0.5, is finite for every copy).
        let m = try h.machine(#"""
        {"name": "turns", "events": {"turn": {}},
         "context": {"after": {"type": "number", "initial": 0}},
         "parts": [{"name": "arc", "count": 4,
                    "properties": {"transform": ["index == 2 ? 1.7e308 : 1", "index == 2 ? 1e308 : 0", 0, 0,
                                                 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}}],
         "initial": "s",
         "states": {"s": {"on": {"turn": {"actions": [{"set": "transform.rotation.z", "part": "arc", "value": 0.5},
                                                      {"assign": {"after": 1}}]}}}}}
        """#)
        let parts = try (0..<4).map { i in try h.host.part("arc[\(i)]", of: m) }
        let before = try parts.map { try h.runtime.modelValue(forKeyPath: "transform", of: $0) }
        #expect(try h.runtime.modelValue(forKeyPath: "transform.rotation.z", of: parts[0]) == .scalar(0))
        _ = h.events()
        #expect(try h.send(m, "turn") == .taken)
        let errors = h.machineEvents(m)
        #expect(errors.count == 1 && errors[0].contains("states.s.on.turn.actions[0]") && errors[0].contains("overflow"), "\(errors)")
        #expect(try parts.map { try h.runtime.modelValue(forKeyPath: "transform", of: $0) } == before)
        #expect(h.context(m, "after") == .number(0))
    }

    @Test("each copy is a layer under the parent part, with its properties computed from index")
    func copies() throws {
        let h = Harness()
        let m = try h.machine(spokesMachine)
        #expect(try h.host.partCount("spoke", of: m) == 3)
        #expect(try h.host.partCount("hub", of: m) == 1)
        let hub = try h.host.part("hub", of: m)
        for i in 0..<3 {
            let s = try h.host.part("spoke[\(i)]", of: m)
            #expect(try h.runtime.parent(of: s) == hub)
            let angle = Double(i) * 2 * Double.pi / 3
            let r = try h.runtime.modelValue(forKeyPath: "transform.rotation.z", of: s).scalar
            #expect(abs(r - (angle > Double.pi ? angle - 2 * Double.pi : angle)) < 1e-12)
            let p = try h.runtime.modelValue(forKeyPath: "position", of: s)
            #expect(abs(p.lanes[0] - 10 * Libm.cos(angle)) < 1e-12 && abs(p.lanes[1] - 10 * Libm.sin(angle)) < 1e-12)
        }
    }

    @Test("the count comes from config, per instance; 0 copies is allowed")
    func countFromConfig() throws {
        let h = Harness()
        let layers = h.runtime.layerCount
        let m = try h.machine(spokesMachine, config: ["count": .number(12)])
        #expect(try h.host.partCount("spoke", of: m) == 12)
        #expect(h.runtime.layerCount == layers + 13)
        let none = try h.machine(spokesMachine, config: ["count": .number(0)])
        #expect(try h.host.partCount("spoke", of: none) == 0)
        try h.send(none, "go")   // animating no copy is no error
        #expect(h.state(none) == "spinning")
        try h.host.destroy(m)
        try h.host.destroy(none)
        #expect(h.runtime.layerCount == layers)
    }

    /// A count that is one config parameter: the host chose the value by
    /// the range the parameter declares, so a refusal gives the bounds that
    /// hold, from the declaration and the library's limit, each named.
    @Test("a count from one config parameter is refused with the parameter's declared range, and the library's limit where that is tighter")
    func countRangeNamesTheParameter() throws {
        let h = Harness()
        func spokes(_ declaration: String) -> String {
            spokesMachine.replacing(#""count": {"type": "number", "default": 3, "min": 0, "max": 100}"#,
                                    with: #""count": {"type": "number"\#(declaration)}"#)
        }
        let cases: [(declaration: String, count: Double, message: String)] = [
            (#", "default": 3, "min": 1, "max": 64"#, 2.5,
             "part 'spoke' would have 2.5 copies (config.count); a count is a whole number from 1 to 64 (config.count declares 1 to 64)"),
            (#", "default": 3, "min": 1, "max": 10000"#, 5000,
             "part 'spoke' would have 5000 copies (config.count); a count is a whole number from 1 to 4096 (config.count declares 1 to 10000, and the library's limit is 0 to 4096)"),
            (#", "default": 3, "min": -5, "max": 64"#, -1,
             "part 'spoke' would have -1 copies (config.count); a count is a whole number from 0 to 64 (config.count declares -5 to 64, and the library's limit is 0 to 4096)"),
            (#", "default": 3, "min": 2"#, 4097,
             "part 'spoke' would have 4097 copies (config.count); a count is a whole number from 2 to 4096 (config.count declares at least 2, and the library's limit is 0 to 4096)"),
            (#", "default": 3, "max": 8.5"#, 8.5,
             "part 'spoke' would have 8.5 copies (config.count); a count is a whole number from 0 to 8 (config.count declares at most 8.5, and the library's limit is 0 to 4096)"),
            // No declared range: the library's limit is the only bound.
            (#", "default": 3"#, 5000, "part 'spoke' would have 5000 copies (config.count); a count is a whole number from 0 to 4096"),
        ]
        let layers = h.runtime.layerCount
        for c in cases {
            let d = try h.host.load(spokes(c.declaration))
            let refused = #expect(throws: AnimrtError.self) { try h.host.create(d, options: .init(config: ["count": .number(c.count)])) }
            #expect(refused?.status == .outOfRange)
            #expect(refused?.message == c.message)
        }
        // An expression over the parameter is not the parameter: only the library's limit is said.
        let twice = try h.host.load(spokes(#", "default": 3, "min": 0, "max": 3000"#).replacing(#""count": "config.count""#, with: #""count": "config.count * 2""#))
        expectError(.outOfRange, ["5000 copies (config.count * 2); a count is a whole number from 0 to 4096"]) { () throws(AnimrtError) in
            _ = try h.host.create(twice, options: .init(config: ["count": .number(2500)]))
        }
        #expect(h.runtime.layerCount == layers)   // a refused create builds nothing
    }

    /// The config's defaults are checked against their ranges as the
    /// definition loads, so a default's count that is no count is one a
    /// creation keeping the defaults would refuse; where the count is one
    /// parameter whose range holds no count, every creation would.
    @Test("a count the config's defaults make no count is refused as the definition loads, at the count's path, with the range the parameter declares")
    func countFromDefaultsRefusedAtLoad() throws {
        let h = Harness()
        func spokes(_ declaration: String) -> String {
            spokesMachine.replacing(#""count": {"type": "number", "default": 3, "min": 0, "max": 100}"#,
                                    with: #""count": {"type": "number"\#(declaration)}"#)
        }
        // Ranges whose only count is 0 or 4096, and the ends of the library's limit, load.
        for fine in [#", "default": 0, "min": -0.5, "max": 0.5"#, #", "default": 4096, "min": 4095.5, "max": 4096.5"#,
                     #", "default": 0"#, #", "default": 4096"#, #", "default": 0, "max": 0.8"#] {
            let d = try h.load(spokes(fine))
            #expect(d.parts[1].isRepeated, "\(fine)")
        }
        let prefix = "parts[0].parts[0].count: with the config's defaults, part 'spoke' would have "
        let refused: [(declaration: String, message: String)] = [
            // Just past each end: the range holds no count at all.
            (#", "default": -0.25, "min": -0.5, "max": -0.25"#,
             "-0.25 copies (config.count); config.count declares -0.5 to -0.25, and the library's limit is 0 to 4096, so no value of it is a count"),
            (#", "default": 4096.5, "min": 4096.25, "max": 4096.5"#,
             "4096.5 copies (config.count); config.count declares 4096.25 to 4096.5, and the library's limit is 0 to 4096, so no value of it is a count"),
            (#", "default": 0.5, "min": 0.2, "max": 0.8"#,
             "0.5 copies (config.count); config.count declares 0.2 to 0.8, so no value of it is a count"),
            (#", "default": 5000, "min": 5000"#,
             "5000 copies (config.count); config.count declares at least 5000, and the library's limit is 0 to 4096, so no value of it is a count"),
            (#", "default": -1, "max": -0.5"#,
             "-1 copies (config.count); config.count declares at most -0.5, and the library's limit is 0 to 4096, so no value of it is a count"),
            // A range that holds counts, and a default that is not one.
            (#", "default": 2.5, "min": 0, "max": 10"#,
             "2.5 copies (config.count); a count is a whole number from 0 to 10 (config.count declares 0 to 10)"),
            (#", "default": 0.5, "max": 0.8"#,
             "0.5 copies (config.count); a count is a whole number from 0 to 0 (config.count declares at most 0.8, and the library's limit is 0 to 4096)"),
            // No declared range: the library's limit, just past each end.
            (#", "default": 4097"#, "4097 copies (config.count); a count is a whole number from 0 to 4096"),
            (#", "default": -1"#, "-1 copies (config.count); a count is a whole number from 0 to 4096"),
        ]
        for c in refused {
            let error = #expect(throws: AnimrtError.self) { try h.host.load(spokes(c.declaration)) }
            #expect(error?.status == .outOfRange)
            #expect(error?.message == prefix + c.message)
        }
    }

    @Test("a constant count and one over several parameters are computed as the definition loads; one over a registered function is left to creation")
    func countExpressionsAtLoad() throws {
        let h = Harness()
        func arcs(_ count: String, config: String = "") -> String {
            #"{"name": "arcs", "config": {\#(config)}, "parts": [{"name": "arc", "count": \#(count)}], "initial": "a", "states": {"a": {}}}"#
        }
        _ = try h.load(arcs("4096"))
        _ = try h.load(arcs("0"))
        expectError(.outOfRange, ["parts[0].count: part 'arc' would have 4097 copies (4097); a count is a whole number from 0 to 4096"]) {
            () throws(AnimrtError) in _ = try h.load(arcs("4097"))
        }
        expectError(.outOfRange, ["parts[0].count: part 'arc' would have 2.5 copies (5 / 2); a count is a whole number from 0 to 4096"]) {
            () throws(AnimrtError) in _ = try h.load(arcs(#""5 / 2""#))
        }
        // Several parameters: computed from their defaults; other values are checked as the instance is created.
        let two = #""a": {"type": "number", "default": 3, "min": 0, "max": 100}, "b": {"type": "number", "default": 4}"#
        let product = try h.host.load(arcs(#""config.a * config.b""#, config: two))
        #expect(try h.host.partCount("arc", of: h.host.create(product)) == 12)
        expectError(.outOfRange, ["part 'arc' would have 1.5 copies (config.a * config.b); a count is a whole number from 0 to 4096"]) {
            () throws(AnimrtError) in _ = try h.host.create(product, options: .init(config: ["b": .number(0.5)]))
        }
        expectError(.outOfRange, ["parts[0].count: with the config's defaults, part 'arc' would have 4.5 copies (config.a * config.b); a count is a whole number from 0 to 4096"]) {
            () throws(AnimrtError) in _ = try h.load(arcs(#""config.a * config.b""#, config: two.replacing(#""default": 4"#, with: #""default": 1.5"#)))
        }
        // A registered function may answer differently when the instance is created: it is not called as the definition loads.
        try h.host.functions.register(MachineFunction(name: "half", parameters: [.number], result: .number) { args in
            .number(args[0].number! / 2)
        })
        let halved = try h.host.load(arcs(#""half(config.n)""#, config: #""n": {"type": "number", "default": 5}"#))
        expectError(.outOfRange, ["part 'arc' would have 2.5 copies (half(config.n)); a count is a whole number from 0 to 4096"]) {
            () throws(AnimrtError) in _ = try h.host.create(halved)
        }
        #expect(try h.host.partCount("arc", of: h.host.create(halved, options: .init(config: ["n": .number(6)]))) == 3)
    }

    /// A count may read the instance's strings (a part per letter of its
    /// title): the ones it is created with, and a restore's, not "" (which
    /// made every such part empty). It may not read now(): a restore would
    /// compute another count than the one its snapshot's parts were made with.
    @Test("a count reads the instance's strings, created and restored; now() in a count is refused as the definition loads")
    func countReadsStrings() throws {
        let h = Harness()
        let json = #"{"name": "letters", "strings": {"en": {"title": "abc"}}, "parts": [{"name": "letter", "count": "len(text('title'))"}], "initial": "a", "states": {"a": {}}}"#
        let d = try h.host.load(json)
        #expect(try h.host.partCount("letter", of: h.host.create(d)) == 3)
        let hello = try h.host.create(d, options: .init(strings: ["title": "hello"]))
        #expect(try h.host.partCount("letter", of: hello) == 5)
        let b = Harness()
        let restored = try b.host.restore(try h.host.snapshot(hello))
        #expect(try b.host.partCount("letter", of: restored) == 5)
        expectError(.invalidArgument, ["parts[0].count", "now() cannot be read here: the number of copies is fixed when the instance is created, and a restored one must have as many"]) {
            () throws(AnimrtError) in _ = try h.load(json.replacing("len(text('title'))", with: "floor(now())"))
        }
    }

    @Test("animate, remove and set act on every copy, each with its own index")
    func actionsPerCopy() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(spokesMachine)
        try h.send(m, "go")
        for i in 0..<3 { #expect(try h.runtime.animationKeys(of: h.host.part("spoke[\(i)]", of: m)) == ["spin"]) }
        try h.send(m, "stop")
        for i in 0..<3 {
            let s = try h.host.part("spoke[\(i)]", of: m)
            #expect(try h.runtime.animationKeys(of: s).isEmpty)
            #expect(try h.runtime.modelValue(forKeyPath: "opacity", of: s) == .scalar(1 - Double(i) / 10))
        }
    }

    @Test("R2.2 every copy's animation joins the state's barrier: done waits for the last copy (index in timing too)")
    func doneWaitsForEveryCopy() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine(spokesMachine)
        try h.send(m, "dim")
        h.tick(1)
        h.tick(1.29)
        #expect(h.state(m) == "fading")   // spoke[2] runs 0.3 s
        h.tick(1.3)
        #expect(h.state(m) == "still")
    }

    @Test("bad part names and counts are refused with a status and a message")
    func refusals() throws {
        let h = Harness()
        let m = try h.machine(spokesMachine)
        expectError(.invalidArgument, ["'spoke' is a repeated part with 3 copies", "'spoke[0]'"]) { () throws(AnimrtError) in _ = try h.host.part("spoke", of: m) }
        expectError(.outOfRange, ["'spoke[3]'", "has 3 copies (0 to 2)"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[3]", of: m) }
        expectError(.invalidArgument, ["'hub' is not a repeated part"]) { () throws(AnimrtError) in _ = try h.host.part("hub[0]", of: m) }
        expectError(.invalidArgument, ["copy index is a whole number"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[-1]", of: m) }
        expectError(.invalidArgument, ["copy index is a whole number"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[]", of: m) }
        // A whole number past any count is a copy past the last, however many digits it has.
        expectError(.outOfRange, ["'spoke[99999999999999999999]'", "has 3 copies (0 to 2)"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[99999999999999999999]", of: m) }
        expectError(.invalidArgument, ["copy index is a whole number"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[1e3]", of: m) }
        expectError(.invalidArgument, ["'spoke[01]'", "without leading zeros, as in 'spoke[1]'"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[01]", of: m) }
        expectError(.invalidArgument, ["'spoke[00]'", "as in 'spoke[0]'"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[00]", of: m) }
        expectError(.invalidArgument, ["'spoke[0000000000001]'", "as in 'spoke[1]'"]) { () throws(AnimrtError) in _ = try h.host.part("spoke[0000000000001]", of: m) }
        #expect(try h.host.part("spoke[0]", of: m) != h.host.part("spoke[2]", of: m))
        expectError(.notFound, ["no part 'spok'", "did you mean 'spoke'"]) { () throws(AnimrtError) in _ = try h.host.part("spok[1]", of: m) }
        expectError(.invalidArgument, ["without an index"]) { () throws(AnimrtError) in _ = try h.host.partCount("spoke[1]", of: m) }
        let layers = h.runtime.layerCount
        let dh = try h.host.load(spokesMachine)
        for (count, fragment) in [(2.5, "2.5 copies"), (-1, "-1 copies"), (5000, "5000 copies")] {
            let json = spokesMachine.replacing(#""count": "config.count""#, with: #""count": \#(count)"#)
            expectError(.outOfRange, ["part 'spoke' would have \(fragment)", "whole number from 0 to 4096"]) { () throws(AnimrtError) in
                _ = try h.host.create(try h.host.load(json))
            }
        }
        _ = dh
        #expect(h.runtime.layerCount == layers)   // a refused create builds nothing
    }

    @Test("a part belongs to its machine: destroying its layer is refused, naming the machine and the part, and the machine goes on")
    func partsAreTheMachines() throws {
        let h = Harness()
        h.tick(0)
        let baseline = h.runtime.layerCount
        let m = try h.machine(spokesMachine)
        try h.send(m, "go")
        let hub = try h.host.part("hub", of: m)
        let spoke = try h.host.part("spoke[1]", of: m)
        // The host's own layer under a part is the host's to destroy.
        let own = try h.runtime.createLayer(parent: hub)
        try h.runtime.destroyLayer(own)
        let layers = h.runtime.layerCount
        expectError(.state, ["\(hub) is part 'hub' of \(m) ('spokes')", "destroy the machine instead", "which destroys its parts"]) { () throws(AnimrtError) in
            try h.runtime.destroyLayer(hub)
        }
        expectError(.state, ["\(spoke) is part 'spoke[1]' of \(m) ('spokes')", "destroy the machine instead"]) { () throws(AnimrtError) in
            try h.runtime.destroyLayer(spoke)
        }
        // Refused: nothing changed (the layers, their animations and values stay).
        #expect(h.runtime.layerCount == layers)
        #expect(try h.runtime.animationKeys(of: spoke) == ["spin"])
        #expect(try h.runtime.parent(of: spoke) == hub)
        #expect(try h.host.part("spoke[1]", of: m) == spoke)
        // Moving a part is the host's to do: the machine keeps it.
        try h.runtime.setParent(spoke, nil)
        h.tick(0.25)
        // The machine still snapshots, acts on its parts, and restores.
        let saved = try h.host.snapshot(m)
        #expect(saved.contains(#""name":"hub""#) && saved.contains(#""name":"spoke[1]""#))
        try h.send(m, "stop")
        #expect(try h.runtime.animationKeys(of: spoke).isEmpty)
        #expect(try h.runtime.modelValue(forKeyPath: "opacity", of: spoke) == .scalar(0.9))
        let again = try h.host.restore(saved)
        #expect(h.state(again) == "spinning")
        #expect(try h.runtime.animationKeys(of: h.host.part("spoke[1]", of: again)) == ["spin"])
        h.tick(0.5)
        // Destroying the machine destroys every part, the moved one too; the
        // handles are then stale, and a layer that takes a part's slot is the host's.
        let partSlots = try ["hub", "spoke[0]", "spoke[1]"].flatMap { name throws(AnimrtError) in
            [try h.host.part(name, of: m).index, try h.host.part(name, of: again).index]
        }
        try h.host.destroy(m)
        try h.host.destroy(again)
        #expect(h.runtime.layerCount == baseline)
        expectError(.handle, ["stale"]) { () throws(AnimrtError) in try h.runtime.destroyLayer(hub) }
        let next = try h.runtime.createLayer()
        #expect(partSlots.contains(next.index))  // a part's slot, taken again
        try h.runtime.destroyLayer(next)
    }

    @Test("the loader refuses index outside parts, templates, set and animate, and children of a repeated part", arguments: [
        LoadCase(name: "index in a guard", json: spokesMachine.replacing(#""on": {"go": "spinning", "dim": "fading"}"#, with: #""on": {"go": {"guard": "index > 0", "target": "spinning"}}"#),
                 status: .invalidArgument, fragments: ["states.still.on.go.guard", "'index' is the copy number of a repeated part"]),
        LoadCase(name: "index in a count", json: spokesMachine.replacing(#""count": "config.count""#, with: #""count": "index""#),
                 status: .invalidArgument, fragments: ["count", "'index'"]),
        LoadCase(name: "children of a repeated part", json: spokesMachine.replacing(#""count": "config.count","#, with: #""count": "config.count", "parts": [{"name": "tip"}],"#),
                 status: .invalidArgument, fragments: ["a repeated part ('spoke') has no child parts"]),
        LoadCase(name: "a count that is not a number", json: spokesMachine.replacing(#""count": "config.count""#, with: #""count": "'three'""#),
                 status: .kind, fragments: ["count", "string but a number is needed"]),
    ])
    func loaderRefusals(_ c: LoadCase) {
        let h = Harness()
        expectError(c.status, c.fragments) { () throws(AnimrtError) in _ = try h.load(c.json) }
    }
}
