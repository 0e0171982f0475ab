/// A value that crosses the C ABI with its type: an event payload field, a
/// machine context field, an argument or result of a bound function.
/// Raw values of `Tag` are part of the ABI (`animrt_value_type`).
public enum TaggedValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case string(String)
    case integer(Int64)
    /// A host pointer, carried as an address and never dereferenced by animrt.
    case pointer(UInt)

    public enum Tag: Int32, Sendable, CaseIterable {
        case number = 1, bool, string, integer, pointer

        public var name: String {
            switch self {
            case .number: "number"; case .bool: "bool"; case .string: "string"
            case .integer: "integer"; case .pointer: "pointer"
            }
        }
    }

    public var tag: Tag {
        switch self {
        case .number: .number; case .bool: .bool; case .string: .string
        case .integer: .integer; case .pointer: .pointer
        }
    }

    public var description: String {
        switch self {
        case .number(let d): "\(d)"
        case .bool(let b): b ? "true" : "false"
        case .string(let s): "'\(s)'"
        case .integer(let i): "\(i)"
        case .pointer(let p): "0x" + String(p, radix: 16)
        }
    }
}
