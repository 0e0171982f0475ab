import AnimationCore
@testable import StateMachines
import Testing

/// A machine with a config parameter of each kind JSON options can carry.
let configKindsMachine = """
{"name": "kinds",
 "config": {"label": {"type": "string", "default": "x"}, "tint": {"type": "color", "default": "#000000"},
            "shade": {"type": "color", "default": "#000000"}, "origin": {"type": "point", "default": [0, 0]},
            "frame": {"type": "rect", "default": [0, 0, 1, 1]}, "on": {"type": "bool", "default": false},
            "gap": {"type": "number", "default": 1}},
 "initial": "a", "states": {"a": {}}}
"""

@Suite("Machine options as JSON: each config value read as its parameter's type")
struct ConfigOptionsTests {
    private func config(_ json: String) throws(AnimrtError) -> [String: MachineValue] {
        let h = Harness()
        let dh = try h.host.load(configKindsMachine)
        let m = try h.host.create(dh, options: try MachineHost.Options(json: json))
        let d = try h.host.definition(of: m)
        let values = h.host.instance(m)!.config
        return Dictionary(uniqueKeysWithValues: zip(d.config.map(\.name), values))
    }

    @Test("R0.4 a vector config value with any component not finite is refused, whichever component it is",
          arguments: [AnimatableValue.point(.nan, 4), .point(3, .infinity), .rect(1, 2, 3, -.infinity)])
    func vectorNotFinite(_ value: AnimatableValue) throws {
        let h = Harness()
        let dh = try h.host.load(configKindsMachine)
        let name = value.kind == .point ? "origin" : "frame"
        expectError(.invalidArgument, ["'\(name)' must be finite"]) { () throws(AnimrtError) in
            _ = try h.host.create(dh, options: .init(config: [name: .vector(value)]))
        }
        let m = try h.host.create(dh, options: .init(config: ["origin": .vector(.point(3, 4))]))
        let origin = try h.host.definition(of: m).config.firstIndex { $0.name == "origin" }!
        #expect(h.host.instance(m)!.config[origin] == .vector(.point(3, 4)))
    }

    @Test("a colour as text or as four numbers, text kept as text, points, rects, booleans and numbers")
    func everyKind() throws {
        let c = try config(#"""
            {"config": {"label": "#beaded", "tint": "#ff000080", "shade": [0, 0.5, 1, 1],
                        "origin": [3, 4], "frame": [1, 2, 30, 40], "on": true, "gap": 2.5}}
            """#)
        // "#beaded" is six hex digits, but the parameter is a string: it stays text.
        #expect(c["label"] == .string("#beaded"))
        #expect(c["tint"] == .vector(AnimatableValue.color(1, 0, 0, 128.0 / 255)))
        #expect(c["shade"] == .vector(AnimatableValue.color(0, 0.5, 1, 1)))
        #expect(c["origin"] == .vector(AnimatableValue.point(3, 4)))
        #expect(c["frame"] == .vector(AnimatableValue.rect(1, 2, 30, 40)))
        #expect(c["on"] == .bool(true))
        #expect(c["gap"] == .number(2.5))
    }

    @Test("values the parameter's type cannot take are refused, naming the parameter")
    func refused() throws {
        expectError(.kind, ["config 'tint'"]) { () throws(AnimrtError) in _ = try config(#"{"config": {"tint": "red"}}"#) }
        // Text for a colour says how a colour is written, a near miss included.
        for text in ["red", "#ff000", "#gg0000"] {
            expectError(.kind, ["config 'tint' is '\(text)', which is not a colour: write \"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] from 0 to 1"]) {
                () throws(AnimrtError) in _ = try config(#"{"config": {"tint": "\#(text)"}}"#)
            }
        }
        expectError(.kind, ["config 'label' is a string; a point was given"]) { () throws(AnimrtError) in _ = try config(#"{"config": {"label": [1, 2]}}"#) }
        expectError(.kind, ["an array of 3 numbers is not a point (2), rect or colour (4) or transform (16)"]) {
            () throws(AnimrtError) in _ = try config(#"{"config": {"frame": [1, 2, 3]}}"#)
        }
        expectError(.invalidArgument, ["config.origin", "a number"]) { () throws(AnimrtError) in _ = try config(#"{"config": {"origin": [1, "2"]}}"#) }
    }

    /// Unknown keys are found in name order, as unknown config parameters
    /// are: the message is the same in every run, whatever order a
    /// dictionary iterates in.
    @Test("of several unknown strings, the refusal names the first by name, every time")
    func unknownStringsInNameOrder() throws {
        let h = Harness()
        let d = try h.host.load(#"{"name": "copy", "locale": "en", "strings": {"en": {"hello": "Hello"}}, "initial": "a", "states": {"a": {}}}"#)
        var strings: [String: String] = [:]
        // Many keys, so that a dictionary's order starts with the first by name only by rare chance.
        for c in "qwertyuiopasdfghjklzxcvbnm" { strings["k\(c)"] = "x" }
        strings["alpha"] = "x"
        let refused = #expect(throws: AnimrtError.self) { try h.host.create(d, options: .init(strings: strings)) }
        #expect(refused?.status == .notFound)
        #expect(refused?.message.hasPrefix("'copy' has no string 'alpha'") == true, "\(refused?.message ?? "")")
        #expect(h.host.instanceCount == 0)
    }

    @Test("a per-instance string is at most 1 MiB, the bound on a string an expression makes: one byte more is refused, naming the key")
    func stringLength() throws {
        let h = Harness()
        let d = try h.host.load(#"""
            {"name": "copy", "locale": "en", "strings": {"en": {"hello": "Hello", "title": "T"}},
             "context": {"n": {"type": "number", "initial": "len(text('title'))"}}, "initial": "a", "states": {"a": {}}}
            """#)
        let most = String(repeating: "é", count: DefinitionLimits.maxStringBytes / 2)   // two bytes each
        let m = try h.host.create(d, options: .init(strings: ["title": most]))
        #expect(h.context(m, "n") == .number(Double(DefinitionLimits.maxStringBytes / 2)))
        let refused = #expect(throws: AnimrtError.self) { try h.host.create(d, options: .init(strings: ["hello": "x", "title": most + "x"])) }
        #expect(refused?.status == .outOfRange)
        #expect(refused?.message == "strings.title is 1048577 bytes; a per-instance string is at most 1048576 bytes, as a string an expression makes is")
        #expect(h.host.instanceCount == 1)
        // The same from JSON options.
        let json = #"{"strings": {"title": "\#(String(repeating: "x", count: DefinitionLimits.maxStringBytes + 1))"}}"#
        expectError(.outOfRange, ["strings.title is 1048577 bytes"]) { () throws(AnimrtError) in
            _ = try h.host.create(d, options: try MachineHost.Options(json: json))
        }
    }

    @Test("a config string is at most 1 MiB, as a per-instance string is: one byte more is refused, naming the parameter, before a colour is read from it")
    func configStringLength() throws {
        let h = Harness()
        let d = try h.host.load(#"""
            {"name": "configured", "config": {"label": {"type": "string", "default": "L"}, "tint": {"type": "color", "default": "#000000"}},
             "context": {"n": {"type": "number", "initial": "len(config.label)"}}, "initial": "a", "states": {"a": {}}}
            """#)
        let most = String(repeating: "é", count: DefinitionLimits.maxStringBytes / 2)   // two bytes each
        let m = try h.host.create(d, options: .init(config: ["label": .string(most)]))
        #expect(h.context(m, "n") == .number(Double(DefinitionLimits.maxStringBytes / 2)))
        let refused = #expect(throws: AnimrtError.self) { try h.host.create(d, options: .init(config: ["label": .string(most + "x")])) }
        #expect(refused?.status == .outOfRange)
        #expect(refused?.message == "config.label is 1048577 bytes; a config string is at most 1048576 bytes, as a string an expression makes is")
        // Text for a colour is measured first: the colour's refusal would quote all of it.
        let tint = #expect(throws: AnimrtError.self) {
            try h.host.create(d, options: .init(config: ["tint": .string(String(repeating: "#", count: DefinitionLimits.maxStringBytes + 1))]))
        }
        #expect(tint?.status == .outOfRange)
        #expect(tint?.message == "config.tint is 1048577 bytes; a config string is at most 1048576 bytes, as a string an expression makes is")
        #expect(h.host.instanceCount == 1)
    }

    /// A parameter of type size holds a size (not a point, though both have
    /// two numbers): it sets bounds.size, and a message about it calls it
    /// a size.
    @Test("a size parameter holds a size, sets bounds.size and is called a size")
    func sizeParameter() throws {
        let h = Harness()
        let m = try h.machine("""
            {"name": "sized", "config": {"extent": {"type": "size", "default": [10, 20]}}, "parts": [{"name": "box"}],
             "initial": "a", "states": {"a": {"entry": [{"set": "bounds.size", "part": "box", "value": "config.extent"}]}}}
            """)
        #expect(h.host.instance(m)!.config == [.vector(.size(10, 20))])
        #expect(try h.host.definition(of: m).config[0].type == .vector(.size))
        #expect(try h.runtime.modelValue(forKeyPath: "bounds.size", of: h.host.part("box", of: m)) == .size(10, 20))
        expectError(.invalidArgument, ["min and max apply to numbers; 'extent' is a size"]) { () throws(AnimrtError) in
            _ = try h.load(#"{"name": "s", "config": {"extent": {"type": "size", "default": [1, 2], "min": 0}}, "initial": "a", "states": {"a": {}}}"#)
        }
    }
}
