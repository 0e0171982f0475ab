import AnimationCore
@testable import StateMachines
import Testing

/// A machine with copy in two locales, "zh" leaving out a key "en" has.
private let copyMachine = """
{"name": "copy", "locale": "en", "strings": {"en": {"hello": "Hello", "title": "Title"}, "zh": {"hello": "你好"}},
 "config": {"spin": {"type": "transform", "default": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}},
 "initial": "a", "states": {"a": {}}}
"""

@Suite("The definitions' data model and the host's library and options, at their edges (R0.3)")
struct HostLibraryEdgeTests {
    @Test("R0.3 a name that loads nothing lists every name that does, registered ones among the shipped")
    func missingNameListsRegistered() throws {
        let h = Harness()
        try h.host.register(definition: MachineHost.shippedDefinition(named: "indicatorBar")!, as: "myBar")
        expectError(.notFound, ["no machine definition is named 'toast'",
                                "(known: indicatorBar, myBar, networkButton, progressCard, streakCard)"]) { () throws(AnimrtError) in
            _ = try h.host.load(named: "toast")
        }
    }

    @Test("R0.3 a second definition under a name in use is refused, and the first stays the one loaded")
    func registeredTwice() throws {
        let h = Harness()
        try h.host.register(definition: #"{"name": "first", "initial": "a", "states": {"a": {}}}"#, as: "mine")
        expectError(.exists, ["a machine definition named 'mine' is registered already"]) { () throws(AnimrtError) in
            try h.host.register(definition: #"{"name": "second", "initial": "a", "states": {"a": {}}}"#, as: "mine")
        }
        #expect(try h.host.definition(try h.host.load(named: "mine")).name == "first")
    }

    @Test("R0.3 a library name of exactly 128 bytes registers and loads; 129 bytes is refused, its length named")
    func libraryNameAtItsLimit() throws {
        let h = Harness()
        let at = String(repeating: "n", count: DefinitionLimits.maxNameLength)
        let past = at + "n"
        try h.host.register(definition: #"{"name": "long", "initial": "a", "states": {"a": {}}}"#, as: at)
        #expect(try h.host.definition(try h.host.load(named: at)).name == "long")
        expectError(.invalidArgument, ["1 to 128 ASCII letters", "a name of 129 bytes is not one"]) { () throws(AnimrtError) in
            try h.host.register(definition: #"{"name": "long", "initial": "a", "states": {"a": {}}}"#, as: past)
        }
        #expect(!h.host.libraryNames.contains(past))
    }

    @Test("R0.3 a locale given to a definition with no strings is refused, and no instance is made")
    func localeWithoutStrings() throws {
        let h = Harness()
        let dh = try h.host.load(#"{"name": "plain", "initial": "a", "states": {"a": {}}}"#)
        expectError(.notFound, ["'plain' has no strings, so locale 'zh' has nothing to choose"]) { () throws(AnimrtError) in
            _ = try h.host.create(dh, options: .init(locale: "zh"))
        }
        #expect(h.host.firstUse == "a machine definition was loaded")
    }

    @Test("R0.3 a key a locale leaves out reads the default locale's text")
    func missingKeyFallsBack() throws {
        let h = Harness()
        let dh = try h.host.load(copyMachine)
        let m = try h.host.create(dh, options: try MachineHost.Options(json: #"{"locale": "zh"}"#))
        let instance = h.host.instance(m)!
        #expect(instance.locale == "zh")
        #expect(instance.texts == ["你好", "Title"])
    }

    @Test("R0.3 options JSON: a transform of 16 numbers, an item that is not a number named by its index")
    func optionsArrays() throws {
        let h = Harness()
        let dh = try h.host.load(copyMachine)
        let spin = (1...16).map(Double.init)
        let text = spin.map { String(Int($0)) }.joined(separator: ", ")
        let m = try h.host.create(dh, options: try MachineHost.Options(json: #"{"config": {"spin": [\#(text)]}}"#))
        #expect(h.host.instance(m)!.config == [.vector(try AnimatableValue(kind: .transform, components: spin))])
        expectError(.invalidArgument, [#"options.config.spin[2]: expected a number, found a string"#]) { () throws(AnimrtError) in
            _ = try MachineHost.Options(json: #"{"config": {"spin": [1, 2, "3"]}}"#)
        }
        expectError(.kind, ["options.config.spin: an array of 3 numbers is not a point (2), rect or colour (4) or transform (16)"]) { () throws(AnimrtError) in
            _ = try MachineHost.Options(json: #"{"config": {"spin": [1, 2, 3]}}"#)
        }
    }

    @Test("R0.3 an unknown key far from every allowed one lists them, sorted")
    func unknownKeyListsAllowed() throws {
        let h = Harness()
        expectError(.invalidArgument, ["states.a.on.go: unknown key 'zzzzzzzz' (allowed: actions, description, guard, target, type)"]) { () throws(AnimrtError) in
            _ = try h.load(#"{"name": "x", "events": {"go": {}}, "initial": "a", "states": {"a": {"on": {"go": {"zzzzzzzz": 1}}}}}"#)
        }
    }

    @Test("R0.3 null where a boolean goes is refused, as null")
    func nullIsNotFalse() throws {
        let h = Harness()
        expectError(.kind, ["config.on.default: expected a bool literal, found null"]) { () throws(AnimrtError) in
            _ = try h.load(#"{"name": "x", "config": {"on": {"type": "bool", "default": null}}, "initial": "a", "states": {"a": {}}}"#)
        }
    }
}
