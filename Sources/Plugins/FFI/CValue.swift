import AnimationCore
import StateMachines

/// A value of one signature type on its way into or out of a C call,
/// checked against the type it is for.
enum CValue: Equatable {
    /// f32, f64. An f32 holds a float's value (see `float(_:as:_:)`).
    case float(Double)
    /// i8 … i64.
    case signed(Int64)
    /// u8 … u64.
    case unsigned(UInt64)
    case bool(Bool)
    /// ptr: an address, passed through untouched.
    case pointer(UInt)
    /// str.
    case string(String)

    /// A tagged value (a host's direct call) as a `t`. `what` names the
    /// argument in errors ("argument 2 of 'clamp'").
    init(_ v: TaggedValue, as t: CType, _ what: @autoclosure () -> String) throws(AnimrtError) {
        switch (t, v) {
        case (.f32, .number(let d)), (.f64, .number(let d)): self = try CValue.float(d, as: t, what())
        case (.f32, .integer(let i)), (.f64, .integer(let i)): self = try CValue.float(Double(i), as: t, what())
        case (_, .integer(let i)) where t.isInteger: self = try CValue.integer(i, t, what())
        case (_, .number(let d)) where t.isInteger: self = try CValue.integer(d, t, what())
        case (.bool, .bool(let b)): self = .bool(b)
        case (.ptr, .pointer(let p)): self = .pointer(p)
        case (.str, .string(let s)): self = try CValue.string(s, what())
        default:
            throw AnimrtError(.kind, "\(what()) is \(t.rawValue) (\(t.cName)); \(article(v.tag.name)) \(v.tag.name) was given (\(v))")
        }
    }

    /// A machine's value (a guard's or action's argument) as a `t`.
    init(_ v: MachineValue, as t: CType, _ what: @autoclosure () -> String) throws(AnimrtError) {
        switch (t, v) {
        case (.f32, .number(let d)), (.f64, .number(let d)): self = try CValue.float(d, as: t, what())
        case (_, .number(let d)) where t.isInteger: self = try CValue.integer(d, t, what())
        case (.bool, .bool(let b)): self = .bool(b)
        case (.str, .string(let s)): self = try CValue.string(s, what())
        default: throw AnimrtError(.kind, "\(what()) is \(t.rawValue) (\(t.cName)); the machine passed \(v)")
        }
    }

    /// A number as an f32 or f64 holds it. A bound C function receives an
    /// f32 as a C float, so every path rounds it to one here: a function the
    /// host registered then sees the very value a bound one would. A finite
    /// number past a float's range would arrive as infinity: it is refused.
    static func float(_ d: Double, as t: CType, _ what: @autoclosure () -> String) throws(AnimrtError) -> CValue {
        guard t == .f32 else { return .float(d) }
        let f = Float(d)
        guard f.isFinite || !d.isFinite else {
            throw AnimrtError(.outOfRange, "\(what()) is \(d); f32 (float) holds -\(Float.greatestFiniteMagnitude) to \(Float.greatestFiniteMagnitude)")
        }
        return .float(Double(f))
    }

    private static func string(_ s: String, _ what: String) throws(AnimrtError) -> CValue {
        guard !s.utf8.contains(0) else { throw AnimrtError(.invalidArgument, "\(what) contains a NUL byte; a str cannot") }
        return .string(s)
    }

    private static func integer(_ i: Int64, _ t: CType, _ what: String) throws(AnimrtError) -> CValue {
        let (lo, hi) = t.integerBounds!
        guard i >= lo, i < 0 || UInt64(i) <= hi else {
            throw AnimrtError(.outOfRange, "\(what) is \(i); \(t.rawValue) holds \(lo) to \(hi)")
        }
        return t.isSigned ? .signed(i) : .unsigned(UInt64(i))
    }

    private static func integer(_ d: Double, _ t: CType, _ what: String) throws(AnimrtError) -> CValue {
        guard d.isFinite, d == d.rounded() else {
            throw AnimrtError(.invalidArgument, "\(what) is \(d); \(t.rawValue) (\(t.cName)) takes a whole number")
        }
        if let i = Int64(exactly: d) { return try integer(i, t, what) }
        if !t.isSigned, let u = UInt64(exactly: d), u <= t.integerBounds!.maximum { return .unsigned(u) }
        let (lo, hi) = t.integerBounds!
        throw AnimrtError(.outOfRange, "\(what) is \(d); \(t.rawValue) holds \(lo) to \(hi)")
    }

    /// The value as the host receives it from a direct call.
    func tagged(_ what: @autoclosure () -> String) throws(AnimrtError) -> TaggedValue {
        switch self {
        case .float(let d): return .number(d)
        case .signed(let i): return .integer(i)
        case .unsigned(let u):
            guard let i = Int64(exactly: u) else {
                throw AnimrtError(.outOfRange, "\(what()) is \(u), more than an animrt_value integer holds (2^63 - 1)")
            }
            return .integer(i)
        case .bool(let b): return .bool(b)
        case .pointer(let p): return .pointer(p)
        case .string(let s): return .string(s)
        }
    }

    /// The value as a machine sees it (`nil` for a pointer, which machines cannot hold).
    /// The value as a machine holds it; a whole number a double cannot hold
    /// exactly (past 2^53) is refused, as such an argument is, not rounded.
    func machineValue(_ what: @autoclosure () -> String) throws(AnimrtError) -> MachineValue? {
        switch self {
        case .float(let d): return .number(d)
        case .signed(let i):
            guard let d = Double(exactly: i) else { throw CValue.inexact(String(i), what()) }
            return .number(d)
        case .unsigned(let u):
            guard let d = Double(exactly: u) else { throw CValue.inexact(String(u), what()) }
            return .number(d)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .pointer: return nil
        }
    }
}

extension CValue {
    static func inexact(_ number: String, _ what: String) -> AnimrtError {
        AnimrtError(.outOfRange, "\(what) is \(number), which a machine's number (a double) cannot hold exactly")
    }
}

extension CType {
    var isSigned: Bool { self == .i8 || self == .i16 || self == .i32 || self == .i64 }
}

/// "a" or "an" before `word`.
func article(_ word: String) -> String { "aeiou".contains(word.first ?? "x") ? "an" : "a" }
