import AnimationCore
import CAnimrt
@testable import Plugins
import StateMachines
import Testing

/// What a plugin registers is added whole or not at all (R4.4). A plugin's
/// definitions are checked as they are registered, against what the runtime
/// and the plugin hold by then, so their commit after init does not fail
/// through the C ABI: the runtime is locked while the plugin loads, and its
/// init cannot call the runtime. Should the commit fail all the same (a
/// definition's name taken between its check and the commit), it must leave
/// the runtime as it was: that rollback is driven here directly.
@Suite("R4.4 a plugin's registrations are committed whole or not at all")
struct RegistrarTests {
    let host = PluginHost(machines: MachineHost(runtime: Runtime()))

    nonisolated(unsafe) static let half: animrt_curve_fn = { x, _, _ in x / 2 }
    nonisolated(unsafe) static let yes: animrt_function_fn = { _, _, _, result in
        result!.pointee.boolean = 1
        return 0
    }

    /// A definition easing with `halfway` and guarded by `halfGuard`: it
    /// checks only where both are registered.
    static func definition(_ name: String) -> String {
        #"{"name": "\#(name)", "events": {"go": {}}, "parts": [{"name": "dot"}], "initial": "a", "states": {"#
            + #""a": {"on": {"go": {"guard": "halfGuard(1)", "target": "b"}}}, "#
            + #""b": {"entry": [{"animate": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 1, "#
            + #""timingFunction": "halfway"}, "part": "dot"}]}}}"#
    }

    /// A registrar that has staged the curve `halfway`, the function
    /// `halfGuard` and the definitions `first` and `second`, which use both.
    func staged() throws -> Registrar {
        let r = Registrar(host: host, library: try SharedLibrary("libm.so.6"))
        try r.addTimingFunction(try "halfway".withCString { n in
            try PluginHost.family(n, .native(Self.half, context: nil), 0, nil, nil, nil, owner: r.library)
        })
        try r.addFunction(try "halfGuard".withCString { n in
            try "bool(f64)".withCString { s in
                try host.callbackFunction(n, s, Self.yes, nil, library: r.library)
            }
        })
        try r.addDefinition("first", Self.definition("first"))
        try r.addDefinition("second", Self.definition("second"))
        return r
    }

    @Test("a commit that succeeds adds the curve, the function and the definitions")
    func commitAddsAll() throws {
        try staged().commit()
        #expect(host.runtime.timingFunctions.family(named: "halfway") != nil)
        #expect(host.machines.functions["halfGuard"] != nil)
        #expect(try host.call("halfGuard", [.number(0.5)]) == .bool(true))
        #expect(host.machines.libraryNames.contains("first") && host.machines.libraryNames.contains("second"))
    }

    @Test("a commit that fails part-way withdraws the definitions it added and the curves and functions it staged")
    func commitRollsBack() throws {
        let r = try staged()
        // The host takes the name of the second after it was checked.
        let hosts = #"{"name": "second", "initial": "only", "states": {"only": {}}}"#
        try host.machines.register(definition: hosts, as: "second")
        let error = #expect(throws: AnimrtError.self) { try r.commit() }
        #expect(error?.status == .exists)
        #expect(error?.message == "a machine definition named 'second' is registered already")
        // The first definition, registered before the second failed, is gone;
        // the host's "second" is its own, as it was.
        #expect(!host.machines.libraryNames.contains("first"))
        #expect(host.machines.library["second"] == hosts)
        // The runtime's registries are as they were: neither name is known.
        #expect(host.runtime.timingFunctions.family(named: "halfway") == nil)
        #expect(host.machines.functions["halfGuard"] == nil)
        #expect(host.function(named: "halfGuard") == nil)
        #expect(throws: AnimrtError.self) { try host.machines.load(Self.definition("third")) }
        // Nothing is left staged to commit later.
        #expect(r.families.isEmpty && r.callables.isEmpty && r.definitions.isEmpty && r.machineFunctions.isEmpty)
        // The same registrations, staged afresh, commit.
        host.machines.unregister(definitionNamed: "second")
        try staged().commit()
        #expect(host.machines.libraryNames.contains("first") && host.runtime.timingFunctions.family(named: "halfway") != nil)
    }

    /// The token a plugin's init receives is valid while its registrar is
    /// open and never again: not after it closes, and not as a later load's
    /// token (tokens are not reused). A call made from inside another on the
    /// same thread goes ahead, and the outer one is still inside after it.
    @Test("R4.4 a registrar token works while open, nested on one thread, and never after it closes")
    func tokenWindow() throws {
        let r = Registrar(host: host, library: try SharedLibrary("libm.so.6"))
        let first = RegistrarTokens.open(r)
        #expect(RegistrarTokens.with(first) { $0 === r } == true)
        let nested = RegistrarTokens.with(first) { outer in
            RegistrarTokens.with(first) { inner in inner === outer ? 2 : 0 }.map { $0 + 1 }
        }
        #expect(nested == 3)
        #expect(RegistrarTokens.with(first) { _ in "after" } == "after")
        RegistrarTokens.close(first)
        #expect(RegistrarTokens.with(first) { _ in true } == nil)

        let other = Registrar(host: host, library: try SharedLibrary("libm.so.6"))
        let second = RegistrarTokens.open(other)
        defer { RegistrarTokens.close(second) }
        #expect(UInt(bitPattern: second) != UInt(bitPattern: first))
        #expect(RegistrarTokens.with(first) { _ in true } == nil)
        #expect(RegistrarTokens.with(second) { $0 === other } == true)
        #expect(RegistrarTokens.with(OpaquePointer(bitPattern: UInt.max)!) { _ in true } == nil)
    }
}
