import AnimationCore
import CAnimrt
@testable import Plugins
@testable import StateMachines
import Testing

/// An f32 is a C float wherever it crosses: a bound C function receives and
/// returns float precision through libffi, and a function the host
/// registered must see and give the same values, or one name would mean two
/// numbers depending on how the function was added.
@Suite("R4.2 f32 precision")
struct FloatWidthTests {
    let host = PluginHost(machines: MachineHost(runtime: Runtime()))

    /// Hands its first argument back unchanged: what the host's function
    /// receives is what comes out, before the result's own narrowing.
    nonisolated(unsafe) static let echo: animrt_function_fn = { _, args, _, result in
        result!.pointee.number = args![0].number
        return 0
    }

    /// Returns a double no float can hold, whatever it is given.
    nonisolated(unsafe) static let tenth: animrt_function_fn = { _, _, _, result in
        result!.pointee.number = 0.1
        return 0
    }

    /// Returns a finite double past a float's range.
    nonisolated(unsafe) static let huge: animrt_function_fn = { _, _, _, result in
        result!.pointee.number = 1e300
        return 0
    }

    func register(_ name: String, _ signature: String, _ fn: animrt_function_fn) throws {
        try name.withCString { n in try signature.withCString { s in try host.registerFunction(n, s, fn, nil) } }
    }

    func bits(_ v: TaggedValue?) -> UInt64? {
        if case .number(let d)? = v { return d.bitPattern }
        return nil
    }

    @Test("An f32 result is a float's value, bound or registered", arguments: [0.1, -1e-40, 3.4028234663852886e38, 1.0 / 3])
    func results(_ x: Double) throws {
        try host.bindFunction(library: "libm.so.6", symbol: "copysignf", signature: "f32(f32, f32)", name: "bound")
        try register("registered", "f32(f32, f32)", Self.echo)
        let expected = Double(Float(x))
        let bound = try host.call("bound", [.number(x), .number(x)])
        let registered = try host.call("registered", [.number(x), .number(x)])
        #expect(bits(bound) == expected.bitPattern)
        #expect(bits(registered) == bits(bound), "\(String(describing: registered)) against \(String(describing: bound))")
        // Machines see the same number.
        let machine = try #require(host.machines.functions["registered"])
        #expect(try machine.call([.number(x), .number(x)]) == .number(expected))
    }

    @Test("A registered function narrows what it returns as f32, whatever its arguments")
    func resultNarrowed() throws {
        try register("tenthAsFloat", "f32()", Self.tenth)
        try register("tenthAsDouble", "f64()", Self.tenth)
        #expect(bits(try host.call("tenthAsFloat", [])) == Double(Float(0.1)).bitPattern)
        #expect(bits(try host.call("tenthAsDouble", [])) == 0.1.bitPattern)
    }

    @Test("A registered function receives an f32 argument as a float's value, an f64 one whole")
    func argumentsNarrowed() throws {
        try register("floatIn", "f64(f32)", Self.echo)
        try register("doubleIn", "f64(f64)", Self.echo)
        #expect(bits(try host.call("floatIn", [.number(0.1)])) == Double(Float(0.1)).bitPattern)
        #expect(bits(try host.call("floatIn", [.integer(16_777_217)])) == 16_777_216.0.bitPattern)
        #expect(bits(try host.call("doubleIn", [.number(0.1)])) == 0.1.bitPattern)
        let machine = try #require(host.machines.functions["floatIn"])
        #expect(try machine.call([.number(0.1)]) == .number(Double(Float(0.1))))
    }

    @Test("A finite number past a float's range is refused as an f32, not made infinite; infinity passes")
    func overflow() throws {
        try host.bindFunction(library: "libm.so.6", symbol: "copysignf", signature: "f32(f32, f32)", name: "bound")
        try register("registered", "f32(f32, f32)", Self.echo)
        for name in ["bound", "registered"] {
            let error = #expect(throws: AnimrtError.self) { try host.call(name, [.number(1e39), .number(1)]) }
            #expect(error?.status == .outOfRange)
            #expect(error?.message.contains("argument 1 of '\(name)' (f32(f32, f32)) is 1e+39; f32 (float) holds -3.4028235e+38 to 3.4028235e+38") == true,
                    "\(error?.message ?? "")")
            #expect(bits(try host.call(name, [.number(.infinity), .number(1)])) == Double.infinity.bitPattern)
            let machine = try #require(host.machines.functions[name])
            #expect(throws: AnimrtError.self) { try machine.call([.number(-1e39), .number(1)]) }
        }
        try register("huge", "f32()", Self.huge)
        let error = #expect(throws: AnimrtError.self) { try host.call("huge", []) }
        #expect(error?.status == .callback)
        #expect(error?.message.contains("function 'huge' (f32()): the result is 1e+300; f32 (float) holds") == true, "\(error?.message ?? "")")
    }
}
