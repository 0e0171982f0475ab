import AnimationCore
import CAnimrt
@testable import Plugins
@testable import StateMachines
import Testing

/// A function the host registered receives its integers as an
/// animrt_value's int64_t. A u64 argument above 2^63 - 1 (a whole number a
/// host or a machine may pass) has no such value: it is refused, as a u64
/// result above it is, rather than handed over as a negative number.
@Suite("R4.2 integer widths of registered functions")
struct IntegerWidthTests {
    let host = PluginHost(machines: MachineHost(runtime: Runtime()))

    /// How many times `echo` ran, and the integer it last received.
    nonisolated(unsafe) static var calls = 0
    nonisolated(unsafe) static var seen: Int64 = 0

    /// Hands its first argument back unchanged.
    nonisolated(unsafe) static let echo: animrt_function_fn = { _, args, _, result in
        IntegerWidthTests.calls += 1
        IntegerWidthTests.seen = args![0].integer
        result!.pointee.integer = args![0].integer
        return 0
    }

    func register(_ name: String, _ signature: String) throws {
        try name.withCString { n in try signature.withCString { s in try host.registerFunction(n, s, Self.echo, nil) } }
    }

    @Test("A u64 argument past 2^63 - 1 is refused before the function runs, from the host and from a machine")
    func unsignedPastInt64() throws {
        try register("echoWide", "u64(u64)")
        Self.calls = 0
        #expect(try host.call("echoWide", [.integer(Int64.max)]) == .integer(Int64.max))
        #expect(Self.calls == 1 && Self.seen == Int64.max)
        for past in [9_223_372_036_854_775_808.0, 1e19, 18_446_744_073_709_549_568.0] {
            do {
                _ = try host.call("echoWide", [.number(past)])
                Issue.record("\(past) was accepted")
            } catch {
                #expect(error.status == .outOfRange)
                #expect(error.message.contains("argument 1 of 'echoWide' (u64(u64)) is \(UInt64(past)), more than an animrt_value integer holds (2^63 - 1)"),
                        "\(error.message)")
            }
        }
        #expect(Self.calls == 1)
        // A machine passing such a number gets error.execution; the function never runs.
        let m = host.machines
        let def = try m.load("""
            {"name": "t", "events": {"go": {"payload": [{"name": "x", "type": "number"}]}}, "initial": "a",
             "states": {"a": {"on": {"go": {"actions": [{"call": "echoWide", "args": ["event.x"]}]}}}}}
            """)
        let machine = try m.create(def)
        _ = host.runtime.drainEvents()
        try m.send(machine, event: 0, payload: [.number(1e19)])
        let errors = host.runtime.drainEvents().filter { $0.type == .machineError }
        #expect(errors.count == 1)
        #expect(errors.first?.payload.first == .string("states.a.on.go.actions[0]: argument 1 of 'echoWide' (u64(u64)) is 10000000000000000000, more than an animrt_value integer holds (2^63 - 1)"))
        #expect(Self.calls == 1)
    }

    /// Returns `wideResult`, whatever it is given.
    nonisolated(unsafe) static var wideResult: Int64 = 0
    nonisolated(unsafe) static let wide: animrt_function_fn = { _, _, _, result in
        result!.pointee.integer = IntegerWidthTests.wideResult
        return 0
    }

    @Test("An integer result a machine's double cannot hold exactly (past 2^53) is refused, not rounded")
    func resultPastDouble() throws {
        try "wide".withCString { n in try "i64()".withCString { s in try host.registerFunction(n, s, Self.wide, nil) } }
        let m = host.machines
        let def = try m.load("""
            {"name": "w", "events": {"go": {}}, "context": {"v": {"type": "number", "initial": 0}}, "initial": "a",
             "states": {"a": {"on": {"go": {"actions": [{"assign": {"v": "wide()"}}]}}}}}
            """)
        let machine = try m.create(def)
        _ = host.runtime.drainEvents()
        Self.wideResult = 1 << 53  // the last whole number before doubles skip one: taken
        try m.send(machine, event: 0, payload: [])
        #expect(host.runtime.drainEvents().filter { $0.type == .machineError }.isEmpty)
        #expect(try m.context(0, of: machine) == .number(9_007_199_254_740_992))
        for past in [Int64(1 << 53) + 1, Int64.min + 1] {
            Self.wideResult = past
            try m.send(machine, event: 0, payload: [])
            let errors = host.runtime.drainEvents().filter { $0.type == .machineError }
            #expect(errors.count == 1)
            #expect(errors.first?.payload.first == .string("states.a.on.go.actions[0]: the result of 'wide' (i64()) is \(past), which a machine's number (a double) cannot hold exactly"))
            #expect(try m.context(0, of: machine) == .number(9_007_199_254_740_992))  // unchanged
        }
        // The host still gets the whole number.
        #expect(try host.call("wide", []) == .integer(Int64.min + 1))
    }
}
