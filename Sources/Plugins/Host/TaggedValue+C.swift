import AnimationCore
import CAnimrt

/// A tagged value in C form, its string where `place` puts it (a copy the
/// caller frees, or the host's buffer). An integer carries its double too,
/// as every integer animrt hands out does: a host that reads `.number` keeps
/// working. Events' payloads, `animrt_function_call`'s result and the
/// arguments of a host's or a plugin's callback are all made here.
package func cValue<E: Error>(_ v: TaggedValue, string place: (String) throws(E) -> UnsafePointer<CChar>) throws(E) -> animrt_value {
    var out = animrt_value(type: v.tag.rawValue, boolean: 0, number: 0, integer: 0, string: nil, pointer: nil)
    switch v {
    case .number(let d): out.number = d
    case .bool(let b): out.boolean = b ? 1 : 0
    case .integer(let i): out.integer = i; out.number = Double(i)
    case .pointer(let p): out.pointer = UnsafeMutableRawPointer(bitPattern: p)
    case .string(let s): out.string = try place(s)
    }
    return out
}
