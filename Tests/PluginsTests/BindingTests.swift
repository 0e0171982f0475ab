import AnimationCore
#if canImport(Glibc)
import Glibc
#endif
@testable import Plugins
import StateMachines
import Testing

/// C functions bound by name and signature through libffi (R4.2): called by
/// the host with tagged values, by machines as guards, expressions and
/// actions, and by the batch as curves. libm and libc supply them.
@Suite("R4.2 bound functions")
struct BindingTests {
    let host = PluginHost(machines: MachineHost(runtime: Runtime()))

    @Test("The host calls bound functions with tagged values")
    func directCalls() throws {
        try host.bindFunction(library: "libm.so.6", symbol: "pow", signature: "f64(f64, f64)", name: "power")
        #expect(try host.call("power", [.number(2), .integer(10)]) == .number(1024))
        try host.bindFunction(library: "libm.so.6", symbol: "ldexp", signature: "f64(f64, i32)", name: nil)
        #expect(try host.call("ldexp", [.number(3), .number(4)]) == .number(48))
        try host.bindFunction(library: nil, symbol: "labs", signature: "i64(i64)", name: "longAbs")
        #expect(try host.call("longAbs", [.integer(-5_000_000_000)]) == .integer(5_000_000_000))
        try host.bindFunction(library: nil, symbol: "strlen", signature: "u64(str)", name: "length")
        #expect(try host.call("length", [.string("héllo")]) == .integer(6))  // bytes of UTF-8
        try host.bindFunction(library: nil, symbol: "strchr", signature: "str(str, i32)", name: "from")
        #expect(try host.call("from", [.string("key=value"), .integer(61)]) == .string("=value"))
        try host.bindFunction(library: nil, symbol: "srand", signature: "void(u32)", name: "seed")
        #expect(try host.call("seed", [.integer(1)]) == nil)
        try host.bindFunction(library: nil, symbol: "toupper", signature: "i32(i32)", name: "upper")
        #expect(try host.call("upper", [.integer(97)]) == .integer(65))
    }

    /// A `str` result is copied at once; NULL and bytes that are not UTF-8
    /// are the function's fault, reported as E_CALLBACK, never handed on
    /// repaired or empty. getenv returns what the environment holds.
    @Test("A function's string result is at most as long as the strings a machine's expressions make")
    func stringResultLimit() {
        // ANIMRT_STRING_MAX is documented as that one limit: a result a
        // guard reads is then never longer than the strings it is joined to.
        #expect(ExternalFunction.maximumStringBytes == DefinitionLimits.maxStringBytes)
        #expect(ExternalFunction.maximumStringBytes == 1_048_576)
    }

    @Test("A str result that is NULL or not UTF-8 is refused, not repaired")
    func badStringResults() throws {
        try host.bindFunction(library: nil, symbol: "getenv", signature: "str(str)", name: "env")
        let bytes: [CChar] = [0x61, CChar(bitPattern: 0xFF), CChar(bitPattern: 0xFE), 0]
        #expect(setenv("ANIMRT_BINDING_TEST_BYTES", bytes, 1) == 0)
        #expect(setenv("ANIMRT_BINDING_TEST_TEXT", "héllo", 1) == 0)
        unsetenv("ANIMRT_BINDING_TEST_UNSET")
        #expect(try host.call("env", [.string("ANIMRT_BINDING_TEST_TEXT")]) == .string("héllo"))
        let notUTF8 = #expect(throws: AnimrtError.self) { try host.call("env", [.string("ANIMRT_BINDING_TEST_BYTES")]) }
        #expect(notUTF8?.status == .callback)
        #expect(notUTF8?.message.contains("returned a string that is not valid UTF-8") == true, "\(notUTF8?.message ?? "")")
        let null = #expect(throws: AnimrtError.self) { try host.call("env", [.string("ANIMRT_BINDING_TEST_UNSET")]) }
        #expect(null?.status == .callback)
        #expect(null?.message.contains("returned NULL where a string (str) was declared") == true, "\(null?.message ?? "")")
    }

    @Test("Small integer results are read at their width (sign and zero extension)")
    func narrowResults() throws {
        // abs returns int: -1 as i8 would be 255 as u8.
        try host.bindFunction(library: nil, symbol: "abs", signature: "i8(i32)", name: "absAsI8")
        #expect(try host.call("absAsI8", [.integer(-200)]) == .integer(-56))  // 200 wraps to -56 in 8 bits
        try host.bindFunction(library: nil, symbol: "abs", signature: "u8(i32)", name: "absAsU8")
        #expect(try host.call("absAsU8", [.integer(-200)]) == .integer(200))
        try host.bindFunction(library: nil, symbol: "abs", signature: "bool(i32)", name: "nonzero")
        #expect(try host.call("nonzero", [.integer(-3)]) == .bool(true))
        #expect(try host.call("nonzero", [.integer(0)]) == .bool(false))
    }

    /// A 32-bit argument reaches the function whole: abs(-70000) and
    /// abs(70000) read all 32 bits of their int (70000 needs 17), and
    /// abs of the u32 3_000_000_000 reads its bits as the int -1_294_967_296.
    @Test("32-bit integer arguments are passed at their width, past 16 bits")
    func wideArguments() throws {
        try host.bindFunction(library: nil, symbol: "abs", signature: "i32(i32)", name: "absSigned")
        #expect(try host.call("absSigned", [.integer(-70_000)]) == .integer(70_000))
        #expect(try host.call("absSigned", [.integer(-2_147_483_647)]) == .integer(2_147_483_647))
        try host.bindFunction(library: nil, symbol: "abs", signature: "i32(u32)", name: "absUnsigned")
        #expect(try host.call("absUnsigned", [.integer(70_000)]) == .integer(70_000))
        #expect(try host.call("absUnsigned", [.integer(3_000_000_000)]) == .integer(1_294_967_296))
    }

    @Test("Binding errors: library, symbol, signature, use, name",
          arguments: [("libnowhere.so.9", "pow", "f64(f64, f64)", "p1", Status.notFound, "cannot load the library 'libnowhere.so.9'"),
                      ("libm.so.6", "pow_of_two", "f64(f64)", "p2", .notFound, "no symbol 'pow_of_two' in 'libm.so.6'"),
                      ("libm.so.6", "pow", "f64(f64; f64)", "p3", .invalidArgument, "column 8"),
                      ("libm.so.6", "pow", "f64(f64, f64)", "max", .exists, "'max' is a built-in"),
                      ("libm.so.6", "pow", "f64(f64, f64)", "bad name", .invalidArgument, "must be letters, digits and '_'"),
                      // The name is checked before the library is opened: no library's code runs for a bind refused.
                      ("libnowhere.so.9", "pow", "f64(f64, f64)", "max", .exists, "'max' is a built-in"),
                      // As animrt_function_register: at most 255 bytes of signature.
                      ("libm.so.6", "pow", "f64(f64," + String(repeating: " ", count: 244) + "f64)", "p4", .outOfRange,
                       "signature is longer than 255 bytes")])
    func bindingErrors(_ library: String, _ symbol: String, _ signature: String, _ name: String, _ status: Status,
                       _ fragment: String) {
        let error = #expect(throws: AnimrtError.self) {
            try host.bindFunction(library: library, symbol: symbol, signature: signature, name: name)
        }
        #expect(error?.status == status)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(host.function(named: name) == nil)
        #expect(host.machines.functions[name] == nil)
    }

    @Test("A name already bound is refused before the library is opened, and a signature of 255 bytes is taken")
    func boundNameCheckedFirst() throws {
        try host.bindFunction(library: "libm.so.6", symbol: "pow", signature: "f64(f64, f64)", name: "power")
        let error = #expect(throws: AnimrtError.self) {
            try host.bindFunction(library: "libnowhere.so.9", symbol: "pow", signature: "f64(f64, f64)", name: "power")
        }
        #expect(error?.status == .exists && error?.message == "a function named 'power' is already registered")
        let longest = "f64(f64," + String(repeating: " ", count: 243) + "f64)"
        #expect(longest.utf8.count == 255)
        try host.bindFunction(library: "libm.so.6", symbol: "pow", signature: longest, name: "power2")
        #expect(try host.call("power2", [.number(2), .number(10)]) == .number(1024))
    }

    @Test("A curve must be f64(f64); a bound one runs in the batch's unary lane")
    func curves() throws {
        let error = #expect(throws: AnimrtError.self) {
            try host.bindTimingFunction(library: "libm.so.6", symbol: "pow", signature: "f64(f64, f64)", name: "p")
        }
        #expect(error?.status == .kind)
        #expect(error?.message.contains("a timing function must be f64(f64)") == true)
        try host.bindTimingFunction(library: "libm.so.6", symbol: "sqrt", signature: "f64 (f64)", name: "root")
        let rt = host.runtime
        #expect(try rt.timingFunctions.function(named: "root").evaluate(0.25) == 0.5)
        #expect(throws: AnimrtError.self) {
            try host.bindTimingFunction(library: "libm.so.6", symbol: "cbrt", signature: "f64(f64)", name: "root")
        }
        let layer = try rt.createLayer()
        var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: 1, duration: 4))
        a.timingFunction = try rt.timingFunctions.function(named: "root")
        try rt.add(a, to: layer, forKey: nil)
        #expect(rt.attachedCounts.batched == 1)
        try rt.tick(2)
        #expect(try rt.presentationValue(forKeyPath: "opacity", of: layer).scalar == 0.5)
    }

    @Test("Machines use bound functions in guards, expressions and call actions")
    func inMachines() throws {
        try host.bindFunction(library: "libm.so.6", symbol: "fmax", signature: "f64(f64, f64)", name: "larger")
        try host.bindFunction(library: nil, symbol: "isalpha", signature: "i32(i32)", name: "letter")
        try host.bindFunction(library: nil, symbol: "srand", signature: "void(u32)", name: "seed")
        try host.bindFunction(library: nil, symbol: "free", signature: "void(ptr)", name: "release")
        #expect(host.machines.functions["release"] == nil)  // pointers are the host's alone
        let m = host.machines
        let def = try m.load("""
            {"name": "t", "context": {"best": {"type": "number", "initial": 0}},
             "events": {"score": {"payload": [{"name": "points", "type": "number"}]}},
             "initial": "a",
             "states": {"a": {"on": {"score": [
                 {"guard": "letter(event.points) != 0", "target": "b"},
                 {"actions": [{"assign": {"best": "larger(context.best, event.points)"}}, {"call": "seed", "args": ["event.points"]}]}]}},
               "b": {"ignore": ["score"]}}}
            """)
        let machine = try m.create(def)
        try m.send(machine, event: 0, payload: [.number(12)])
        try m.send(machine, event: 0, payload: [.number(7)])
        #expect(try m.context(0, of: machine) == .number(12))
        try m.send(machine, event: 0, payload: [.number(65)])  // 'A'
        #expect(try m.state(of: machine) == 1)
    }

    @Test("An argument a machine passes that does not fit raises error.execution")
    func machineArgumentErrors() throws {
        try host.bindFunction(library: nil, symbol: "srand", signature: "void(u32)", name: "seed")
        let m = host.machines
        let def = try m.load("""
            {"name": "t", "events": {"go": {"payload": [{"name": "x", "type": "number"}]}}, "initial": "a",
             "states": {"a": {"on": {"go": {"actions": [{"call": "seed", "args": ["event.x"]}]}}}}}
            """)
        let machine = try m.create(def)
        _ = host.runtime.drainEvents()
        try m.send(machine, event: 0, payload: [.number(-1)])
        let errors = host.runtime.drainEvents().filter { $0.type == .machineError }
        #expect(errors.count == 1)
        #expect(errors.first?.payload.first == .string("states.a.on.go.actions[0]: argument 1 of 'seed' (void(u32)) is -1; u32 holds 0 to 4294967295"))
    }
}

extension Runtime {
    func drainEvents() -> [Event] {
        var out: [Event] = []
        while let e = pollEvent() { out.append(e) }
        return out
    }
}
