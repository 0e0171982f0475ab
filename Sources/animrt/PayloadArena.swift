// Memory for the payloads of events handed to C: tagged values and their
// strings, freed together when the events they belong to expire (the next
// animrt_event_poll, or the end of a callback).
import AnimationCore
import CAnimrt
import Plugins
#if canImport(Glibc)
import Glibc
#endif

final class PayloadArena {
    private var blocks: [UnsafeMutablePointer<animrt_value>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Copies `payload` into C memory; nil for an empty payload.
    func store(_ payload: [TaggedValue]) -> (UnsafePointer<animrt_value>?, Int) {
        guard !payload.isEmpty else { return (nil, 0) }
        let p = UnsafeMutablePointer<animrt_value>.allocate(capacity: payload.count)
        blocks.append(p)
        for (i, v) in payload.enumerated() { (p + i).initialize(to: cValue(v, strings: &strings)) }
        return (UnsafePointer(p), payload.count)
    }

    deinit {
        for b in blocks { b.deallocate() }
        for s in strings { free(s) }
    }
}

/// A tagged value in C form; a string is duplicated into `strings` (freed by the owner).
func cValue(_ v: TaggedValue, strings: inout [UnsafeMutablePointer<CChar>]) -> animrt_value {
    Plugins.cValue(v) { (s: String) -> UnsafePointer<CChar> in
        let copy = strdup(s)!
        strings.append(copy)
        return UnsafePointer(copy)
    }
}

/// A tagged value from C, checked (type known, string valid UTF-8).
func taggedValue(_ v: animrt_value, _ name: @autoclosure () -> String) throws(AnimrtError) -> TaggedValue {
    switch v.type {
    case TaggedValue.Tag.number.rawValue: return .number(v.number)
    case TaggedValue.Tag.bool.rawValue: return .bool(v.boolean != 0)
    case TaggedValue.Tag.integer.rawValue: return .integer(v.integer)
    case TaggedValue.Tag.pointer.rawValue: return .pointer(UInt(bitPattern: v.pointer))
    case TaggedValue.Tag.string.rawValue: return .string(try string(v.string, "\(name()).string"))
    default:
        throw AnimrtError(.unknownEnum, "\(name()).type is \(v.type), not a valid animrt_value_type; it is one of \(EnumNames.members(TaggedValue.Tag.self, "animrt_value_type"))")
    }
}
