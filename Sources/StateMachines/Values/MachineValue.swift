import AnimationCore

/// The type of a machine value: a config parameter, a context field, an
/// event payload field or the result of an expression.
public enum MachineType: Hashable, Sendable, CustomStringConvertible {
    case number, bool, string
    /// A layer value of several components (point, size, rect, colour, transform).
    case vector(ValueKind)

    public var description: String {
        switch self {
        case .number: "number"
        case .bool: "bool"
        case .string: "string"
        case .vector(let k): k.name
        }
    }

    /// The type named `name` in a definition ("number", "bool", "string",
    /// "point", "size", "rect", "color", "transform").
    public init?(name: String) {
        switch name {
        case "number": self = .number
        case "bool": self = .bool
        case "string": self = .string
        case "point": self = .vector(.point)
        case "size": self = .vector(.size)
        case "rect": self = .vector(.rect)
        case "color": self = .vector(.color)
        case "transform": self = .vector(.transform)
        default: return nil
        }
    }

    static let allNames = ["number", "bool", "string", "point", "size", "rect", "color", "transform"]
}

/// A value held by a machine: in its config, its context, an event payload,
/// or computed by an expression. Numbers held by a machine are always finite.
public enum MachineValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case string(String)
    /// Boxed: an animatable value is 136 bytes, and numbers, booleans and
    /// strings, which machines handle on every event, should not pay for it.
    indirect case vector(AnimatableValue)

    public var type: MachineType {
        switch self {
        case .number: .number
        case .bool: .bool
        case .string: .string
        case .vector(let v): .vector(v.kind)
        }
    }

    /// The number, or nil for other types.
    public var number: Double? { if case .number(let d) = self { return d }; return nil }
    /// The boolean, or nil for other types.
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The string, or nil for other types.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// The UTF-8 bytes of a string; 0 for the other kinds.
    var stringBytes: Int { if case .string(let s) = self { return s.utf8.count }; return 0 }

    /// Whether every number in the value is finite.
    var isFinite: Bool {
        switch self {
        case .number(let d): return d.isFinite
        case .vector(let v): return v.components.allSatisfy { $0.isFinite }
        case .bool, .string: return true
        }
    }

    public var description: String {
        switch self {
        case .number(let d): return NumberText.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "'\(s)'"
        case .vector(let v): return "\(v.kind.name)(\(v.components.map(NumberText.format).joined(separator: ", ")))"
        }
    }

    /// The value converted to the C ABI's tagged form (vectors are not
    /// payload types; they never reach here).
    var tagged: TaggedValue {
        switch self {
        case .number(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .vector(let v): return .number(v.lanes[0])
        }
    }
}
