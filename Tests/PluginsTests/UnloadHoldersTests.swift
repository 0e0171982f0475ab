import AnimationCore
@testable import Plugins
import StateMachines
import Testing

/// A refused unload names what holds the plugin: for each of its timing
/// functions and functions still held, how many animation descriptions,
/// attached animations, loaded definitions and machines hold it (R4.1).
@Suite("R4.1 a refused unload counts what holds the plugin")
struct UnloadHoldersTests {
    /// A host holding the plugin 'fake' (the process's own library: no
    /// init, no fini), as if it had registered the timing function family
    /// 'wob' and the functions 'halve' and 'note'. Nothing else keeps them.
    static func host(functions more: Int = 0) throws -> (PluginHost, Handle) {
        let host = PluginHost(machines: MachineHost(runtime: Runtime()))
        let library = try SharedLibrary(nil)
        let p = LoadedPlugin(name: "fake", version: "1", path: "libfake.so", library: library, fini: nil, state: nil,
                             registrar: Registrar(host: host, library: library))
        p.families = [try TimingFunctionFamily(name: "wob", defaults: [0.5], body: .closure({ x, k in x + k[0] * x * (1 - x) }))]
        p.machineFunctions = [MachineFunction(name: "halve", parameters: [.number], result: .number) { a in a[0] },
                              MachineFunction(name: "note", parameters: [.number], result: nil) { _ in nil }]
            + (0..<more).map { i in MachineFunction(name: "f\(i)", parameters: [.number], result: .number) { a in a[0] } }
        try host.runtime.timingFunctions.register(family: p.families[0])
        for f in p.machineFunctions { try host.machines.functions.register(f) }
        return (host, try host.plugins.insert(p))
    }

    /// A definition easing a template with wob and calling halve in a guard.
    static let card = #"""
        {"name": "card", "events": {"go": {}}, "initial": "a",
         "animations": {"k": {"type": "basic", "keyPath": "opacity", "to": 1, "timingFunction": "wob(0.25)"}},
         "states": {"a": {"on": {"go": {"guard": "halve(2) > 0", "target": "b"}}}, "b": {}}}
        """#
    /// A definition calling note from a `call` action.
    static let list = #"""
        {"name": "list", "events": {"go": {}}, "initial": "a",
         "states": {"a": {"on": {"go": {"actions": [{"call": "note", "args": [1]}]}}}}}
        """#

    /// The refusal's message; nothing changes: the names still resolve.
    func refusal(_ host: PluginHost, _ h: Handle, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let error = #expect(throws: AnimrtError.self, sourceLocation: sourceLocation) { try host.unload(h) }
        #expect(error?.status == .state, sourceLocation: sourceLocation)
        #expect(host.pluginCount == 1 && host.runtime.timingFunctions.family(named: "wob") != nil
                && host.machines.functions["halve"] != nil && host.machines.functions["note"] != nil, sourceLocation: sourceLocation)
        return error?.message ?? ""
    }

    @Test("Descriptions, attached animations (batch, general, group, frozen), definitions and machines are counted")
    func holdersAreCounted() throws {
        let (host, plugin) = try Self.host()
        let rt = host.runtime, m = host.machines
        // A basic animation with both ends (a batch entry once added), one
        // easing a keyframe segment, a group whose child eases with it,
        // and one on a built-in curve, which does not count. Made in a
        // function: no variable of the test holds a curve of the plugin.
        func make() throws -> [Handle] {
            func wob(_ text: String) throws -> TimingFunction { try rt.timingFunctions.function(named: text) }
            var fill = MediaTiming(duration: 1)
            fill.fillMode = .forwards
            var basic = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: fill, timingFunction: try wob("wob(0.25)"))
            basic.isRemovedOnCompletion = false
            let keyframes = Animation.keyframe("opacity", Keyframes(values: [.scalar(0), .scalar(1), .scalar(0)],
                                                                    timingFunctions: [.easeIn, try wob("wob")]), timing: MediaTiming(duration: 1))
            let group = Animation.group([.basic("opacity", from: .scalar(0), to: .scalar(1), timingFunction: try wob("wob(0.75)"))],
                                        timing: MediaTiming(duration: 1))
            let plain = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1), timingFunction: .easeIn)
            return try [basic, keyframes, group, plain].map { a throws(AnimrtError) in try rt.createAnimation(a) }
        }
        let descriptions = try make()
        let layers = try descriptions.map { d throws(AnimrtError) in
            let layer = try rt.createLayer()
            try rt.addAnimation(d, to: layer, forKey: "k")
            return layer
        }
        let cards = [try m.load(Self.card), try m.load(Self.card)]
        let list = try m.load(Self.list)
        let machine = try m.create(cards[0])
        try rt.tick(0)
        try rt.tick(0.5)
        #expect(rt.curveUses(of: [try #require(rt.timingFunctions.family(named: "wob"))]) == [CurveUses(descriptions: 3, attached: 3)])
        #expect(rt.curveUses(of: []) == [])
        #expect(refusal(host, plugin) == "plugin 'fake' (libfake.so) is in use: "
            + "its timing function 'wob' is used by 3 animation descriptions, 3 attached animations, 2 loaded definitions ('card') and 1 machine (of 'card'); "
            + "its function 'halve' is used by 2 loaded definitions ('card') and 1 machine (of 'card'); "
            + "its function 'note' is used by 1 loaded definition ('list'); "
            + "destroy the animation descriptions, the definitions and the machines, and remove the attached animations (or destroy their layers) first")
        // The descriptions go; the basic animation ends and fills (out of the
        // lanes a tick evaluates); the group and keyframes are removed.
        for d in descriptions { try rt.destroyAnimation(d) }
        try rt.tick(2)
        _ = try rt.removeAnimation(forKey: "k", from: layers[1])
        try rt.destroyLayer(layers[2])
        try m.unload(cards[1])
        #expect(refusal(host, plugin) == "plugin 'fake' (libfake.so) is in use: "
            + "its timing function 'wob' is used by 1 attached animation, 1 loaded definition ('card') and 1 machine (of 'card'); "
            + "its function 'halve' is used by 1 loaded definition ('card') and 1 machine (of 'card'); "
            + "its function 'note' is used by 1 loaded definition ('list'); "
            + "destroy the definitions and the machines, and remove the attached animations (or destroy their layers) first")
        // A machine holds its definition once the handle is gone.
        try m.unload(cards[0])
        try m.unload(list)
        try rt.removeAllAnimations(from: layers[0])
        #expect(refusal(host, plugin) == "plugin 'fake' (libfake.so) is in use: "
            + "its timing function 'wob' is used by 1 machine (of 'card'); its function 'halve' is used by 1 machine (of 'card'); "
            + "destroy the machines first")
        try m.destroy(machine)
        try host.unload(plugin)
        #expect(host.pluginCount == 0 && rt.timingFunctions.family(named: "wob") == nil && m.functions["halve"] == nil)
    }

    @Test("The first eight names held are described, the rest counted; what to do covers them all")
    func manyNamesHeld() throws {
        let (host, plugin) = try Self.host(functions: 10)
        let m = host.machines
        let calls = (0..<10).map { "f\($0)(1)" }.joined(separator: " + ")
        let sum = try m.load(#"{"name": "sum", "events": {"go": {}}, "initial": "a", "states": {"a": {"on": {"go": {"guard": "\#(calls) > 0", "target": "b"}}}, "b": {}}}"#)
        let list = try m.load(Self.list)
        let machine = try m.create(list)
        try m.unload(list)
        #expect(refusal(host, plugin) == "plugin 'fake' (libfake.so) is in use: "
            + "its function 'note' is used by 1 machine (of 'list'); "
            + (0..<7).map { "its function 'f\($0)' is used by 1 loaded definition ('sum')" }.joined(separator: "; ")
            + "; 3 more of its names are held; destroy the definitions and the machines first")
        try m.unload(sum)
        try m.destroy(machine)
        try host.unload(plugin)
        #expect(host.pluginCount == 0)
    }

    @Test("Definition names are listed once each, at most four")
    func definitionNames() {
        #expect(PluginHost.names(["card"]) == "'card'")
        #expect(PluginHost.names(["card", "list", "card"]) == "'card' and 'list'")
        #expect(PluginHost.names(["a", "b", "a", "c", "d", "e", "f", "g"]) == "'a', 'b', 'c', 'd' and 3 more")
        #expect(PluginHost.listed(["x", "y", "z"]) == "x, y and z")
    }
}
