import Testing
@testable import AnimationCore

/// Curves from outside the core (R4.1): families with parameters, and the
/// batch lanes that call their C functions directly.
@Suite("R4.1 timing function families")
struct TimingFunctionFamilyTests {
    /// y = x^k, k the parameter: a C function, as a plugin would give it.
    static let power: NativeCurveFunction = { x, p, _ in
        var y = 1.0
        for _ in 0..<Int(p![0]) { y *= x }
        return y
    }
    static let halfway: UnaryCurveFunction = { x in x / 2 }
    static let broken: NativeCurveFunction = { _, _, _ in .nan }

    static func powerFamily(_ name: String = "power") throws -> TimingFunctionFamily {
        try TimingFunctionFamily(name: name, defaults: [2], ranges: [1...6], body: .native(power, context: nil))
    }

    @Test("A family's name alone is its defaults; name(p) any member")
    func members() throws {
        var r = TimingFunctionRegistry()
        try r.register(family: try Self.powerFamily())
        #expect(try r.function(named: "power").evaluate(0.5) == 0.25)
        #expect(try r.function(named: "power(3)").evaluate(0.5) == 0.125)
        #expect(try r.function(named: "power( 3 )").evaluate(0.5) == 0.125)
        // Equal parameters make equal functions: animations share one curve.
        #expect(try r.function(named: "power(2)") == r.function(named: "power"))
        #expect(try r.function(named: "power(3)") == r.function(named: "power(3.0)"))
        #expect(try r.function(named: "power(3)") != r.function(named: "power(4)"))
        guard case .custom(let f) = try r.function(named: "power(3)") else { Issue.record("not custom"); return }
        #expect(f.name == "power(3)" && f.parameters == [3])
        #expect(r.names.contains("power"))
    }

    @Test("Parameters are checked: count, numbers, finiteness, range",
          arguments: [("power(7)", Status.outOfRange, "parameter 1 of timing function 'power' is 7; it must be in [1, 6]"),
                      ("power(1, 2)", .invalidArgument, "takes at most 1 parameter; 2 were given"),
                      ("power(x)", .invalidArgument, "parameter 1 of 'power' is 'x', not a number"),
                      ("power(nan)", .invalidArgument, "is nan; it must be a finite number"),
                      ("power(inf)", .invalidArgument, "is inf; it must be a finite number"),
                      ("power(2,)", .invalidArgument, "parameter 2 of 'power' is '', not a number")])
    func parameterErrors(_ text: String, _ status: Status, _ fragment: String) throws {
        var r = TimingFunctionRegistry()
        try r.register(family: try Self.powerFamily())
        let error = #expect(throws: AnimrtError.self) { try r.function(named: text) }
        #expect(error?.status == status)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test("Names: registered once, not the functional syntax, plain characters",
          arguments: [("easeIn", Status.exists), ("steps", .exists), ("cubic-bezier", .exists), ("linear", .exists),
                      ("", .invalidArgument), ("9lives", .invalidArgument), ("my curve", .invalidArgument),
                      ("power(2)", .invalidArgument)])
    func names(_ name: String, _ status: Status) throws {
        var r = TimingFunctionRegistry()
        let before = r.names
        let error = #expect(throws: AnimrtError.self) { try r.register(family: try Self.powerFamily(name)) }
        #expect(error?.status == status)
        #expect(r.names == before)
    }

    /// A family's name may start with '_' and hold '.', '-' and digits
    /// (a plugin's "acme.bounce-2"): each is registered, and its members
    /// parse by that name.
    @Test("Names may start with '_' and hold '.', '-' and digits", arguments: ["_curve", "acme.power", "power-2.v1", "_"])
    func allowedNames(_ name: String) throws {
        var r = TimingFunctionRegistry()
        try r.register(family: try Self.powerFamily(name))
        #expect(r.names.contains(name))
        #expect(try r.function(named: name).evaluate(0.5) == 0.25)
        #expect(try r.function(named: "\(name)(3)").evaluate(0.5) == 0.125)
    }

    /// A member with the defaults is named as the family is, however its
    /// parameters are written ("power" and "power(2)" alike); any other
    /// member by its parameters.
    @Test("The default member reads back by the family's name")
    func defaultMemberName() throws {
        var r = TimingFunctionRegistry()
        try r.register(family: try Self.powerFamily())
        #expect(try r.function(named: "power").name == "power")
        #expect(try r.function(named: "power(2)").name == "power")
        #expect(try r.function(named: "power(2.5)").name == "power(2.5)")
        #expect(try Self.powerFamily().defaultFunction.name == "power")
    }

    @Test("R0.3 a family without parameters given some says it takes none")
    func noParameters() throws {
        var r = TimingFunctionRegistry()
        try r.register(family: try TimingFunctionFamily(name: "half", body: .unary(Self.halfway)))
        #expect(try r.function(named: "half()").evaluate(0.5) == 0.25)
        expectFailure(.invalidArgument, exactly: "timing function 'half' takes no parameters; 1 was given") {
            _ = try r.function(named: "half(1)")
        }
        expectFailure(.invalidArgument, exactly: "timing function 'power' takes at most 1 parameter; 3 were given") {
            _ = try Self.powerFamily().function([1, 2, 3])
        }
    }

    @Test("Defaults must be finite and in range; at most 8 parameters")
    func familyChecks() {
        #expect(throws: AnimrtError.self) { try TimingFunctionFamily(name: "f", defaults: [.nan], body: .unary(Self.halfway)) }
        #expect(throws: AnimrtError.self) {
            try TimingFunctionFamily(name: "f", defaults: [9], ranges: [0...1], body: .unary(Self.halfway))
        }
        #expect(throws: AnimrtError.self) {
            try TimingFunctionFamily(name: "f", defaults: Array(repeating: 0, count: 9), body: .unary(Self.halfway))
        }
        #expect((try? TimingFunctionFamily(name: "f", defaults: Array(repeating: 0, count: 8), body: .unary(Self.halfway))) != nil)
    }

    @Test("Unregistering forgets the name and every reference; restoring puts it back")
    func unregister() throws {
        var r = TimingFunctionRegistry()
        var family = try Self.powerFamily()
        try r.register(family: family)
        #expect(!isKnownUniquelyReferenced(&family))
        let removed = r.unregister(family: family)
        let id = try #require(removed)
        #expect(isKnownUniquelyReferenced(&family))
        #expect(throws: AnimrtError.self) { try r.function(named: "power(3)") }
        #expect(!r.names.contains("power"))
        r.restore(family, at: id)
        #expect(try r.function(named: "power(3)").evaluate(0.5) == 0.125)
        #expect(r.unregister(family: try Self.powerFamily()) == nil)  // another family of that name
    }

    @Test("A family unregistered frees its slot: registering and unregistering again and again keeps the table's size")
    func slotReuse() throws {
        var r = TimingFunctionRegistry()
        let before = r.functions.count
        for k in 0..<100 {
            let family = try Self.powerFamily("power\(k % 3)")
            try r.register(family: family)
            #expect(r.functions.count == before + 1)
            #expect(try r.function(named: "power\(k % 3)(3)").evaluate(0.5) == 0.125)
            #expect(r.unregister(family: family) != nil)
        }
        #expect(r.functions.count == before + 1)  // the one slot, free for the next
        // The built-in curves are untouched by the slot going round.
        #expect(try r.function(named: "easeIn") == .easeIn)
        #expect(try r.function(named: "linear") == .linear)
    }

    @Test("A family put back after its slot was taken gets another; both resolve")
    func restoreAfterReuse() throws {
        var r = TimingFunctionRegistry()
        let first = try Self.powerFamily("first")
        try r.register(family: first)
        let removed = r.unregister(family: first)
        let id = try #require(removed)
        let second = try TimingFunctionFamily(name: "second", defaults: [0], body: .unary(Self.halfway))
        try r.register(family: second)  // takes the freed slot
        r.restore(first, at: id)
        #expect(try r.function(named: "first(3)").evaluate(0.5) == 0.125)
        #expect(try r.function(named: "first").evaluate(0.8) == 0.8 * 0.8)
        #expect(try r.function(named: "second").evaluate(0.8) == 0.4)
        #expect(r.names.contains("first") && r.names.contains("second"))
    }

    @Test("A slot another name shares is kept when the family goes: that name still resolves to the curve")
    func sharedSlotKept() throws {
        var r = TimingFunctionRegistry()
        let family = try Self.powerFamily()
        try r.register(family: family)
        try r.register(try r.function(named: "power"), as: "square")  // the same function, another name
        #expect(r.unregister(family: family) != nil)
        #expect(try r.function(named: "square").evaluate(0.5) == 0.25)
        #expect(throws: AnimrtError.self) { try r.function(named: "power") }
        let cube = try TimingFunctionFamily(name: "cube", defaults: [3], ranges: [1...6], body: .native(Self.power, context: nil))
        try r.register(family: cube)  // takes no slot "square" uses
        #expect(try r.function(named: "square").evaluate(0.5) == 0.25)
        #expect(try r.function(named: "cube").evaluate(0.5) == 0.125)
    }

    /// A scene of `n` opacity animations on `curve`, ticked at 0.5 of their duration.
    func scene(_ curve: String, _ family: TimingFunctionFamily, n: Int = 40) throws -> (Runtime, [Handle]) {
        let rt = Runtime()
        try rt.timingFunctions.register(family: family)
        var layers: [Handle] = []
        for i in 0..<n {
            let l = try rt.createLayer()
            var a = linear("opacity", Double(i), Double(i) + 8, begin: 1, duration: 2)
            a.timingFunction = try rt.timingFunctions.function(named: curve)
            try rt.add(a, to: l, forKey: "fade")
            layers.append(l)
        }
        #expect(rt.attachedCounts.batched == n)
        try rt.tick(2)
        return (rt, layers)
    }

    @Test("The batch calls native and unary C curves, and closures, per animation",
          arguments: ["native", "unary", "closure"])
    func batchLanes(_ kind: String) throws {
        let family: TimingFunctionFamily
        switch kind {
        case "native": family = try Self.powerFamily("curve")
        case "unary": family = try TimingFunctionFamily(name: "curve", body: .unary(Self.halfway))
        default: family = try TimingFunctionFamily(name: "curve", defaults: [2], body: .closure({ x, p in x * p[0] }))
        }
        let (rt, layers) = try scene("curve", family)
        let expected: Double = kind == "native" ? 0.25 : kind == "unary" ? 0.25 : 1
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i) + 8 * expected) }
        let lane = rt.instances[try rt.instances.index(of: try rt.instanceHandles(layers[0])[0])].lane
        #expect(lane == Int8(kind == "native" ? CurveTable.native : kind == "unary" ? CurveTable.unary : CurveTable.general))
    }

    @Test("A curve that returns NaN shows as 0 progress, in the batch and outside it")
    func nonFinite() throws {
        let family = try TimingFunctionFamily(name: "broken", body: .native(Self.broken, context: nil))
        let (rt, layers) = try scene("broken", family, n: 3)
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i)) }
        #expect(family.defaultFunction.evaluate(0.5) == 0)
    }

    @Test("The C function receives the member's parameters and the context")
    func context() throws {
        final class Box { var calls = 0 }
        let box = Box()
        let counting: NativeCurveFunction = { x, p, c in
            Unmanaged<Box>.fromOpaque(c!).takeUnretainedValue().calls += 1
            return x * p![1]
        }
        let family = try TimingFunctionFamily(name: "scaled", defaults: [0, 1], body: .native(counting, context: Unmanaged.passUnretained(box).toOpaque()))
        var r = TimingFunctionRegistry()
        try r.register(family: family)
        #expect(try r.function(named: "scaled(0, 0.5)").evaluate(0.5) == 0.25)
        #expect(try r.function(named: "scaled(5)").evaluate(0.5) == 0.5)
        #expect(box.calls == 2)
    }

    /// A member's name writes whole parameters as integers below 1e15
    /// ("power(4000)"), others as the shortest double that reads back.
    @Test("Member names write whole parameters without .0, fractions and huge values as doubles")
    func memberNames() throws {
        let family = try TimingFunctionFamily(name: "p", defaults: [0], body: .unary(Self.halfway))
        #expect(try family.function([4000]).name == "p(4000)")
        #expect(try family.function([-2]).name == "p(-2)")
        #expect(try family.function([0.5]).name == "p(0.5)")
        #expect(try family.function([1e16]).name == "p(1e+16)")
    }

    /// A block curve that writes no output gives 0 outside the batch, as
    /// the batch does (its output starts at 0).
    @Test("A block curve that writes nothing evaluates to 0")
    func silentBlock() throws {
        let silent: BlockCurveFunction = { _, _, _, _, _ in }
        let family = try TimingFunctionFamily(name: "silent", body: .block(silent, context: nil))
        #expect(family.defaultFunction.evaluate(0.5) == 0)
        #expect(family.defaultFunction.evaluate(1) == 0)
    }
}

extension Runtime {
    /// The handles of the animations attached to `layer`.
    func instanceHandles(_ layer: Handle) throws -> [Handle] {
        instanceList(try layers.index(of: layer)).map { instances.handle(at: Int($0)) }
    }
}
