// The arguments of a recorded call, as JSON: each value tagged with its C
// type, handles without their runtime's tag (a replay runs in a runtime with
// another tag), arrays copied from the caller's memory.
import AnimationCore
import CAnimrt

enum TraceArgument: Codable, Equatable {
    /// A handle: 0, the recording runtime's (by slot, generation and kind),
    /// or another runtime's (replayed as a handle of no runtime).
    case handle(UInt64)
    case foreignHandle(UInt64)
    case number(Double)
    case integer(Int64)
    case text(String?)
    case numbers([Double]?)
    case texts([String?])
    case handles([UInt64])
    case integers([Int64])
    case values([TaggedValue])

    static let tagMask: UInt64 = 0xffff << 48

    /// A handle as recorded by a runtime whose handles carry `tag`.
    static func id(_ raw: animrt_id, tag: UInt16) -> TraceArgument {
        if raw == 0 || raw >> 48 == UInt64(tag) { return .handle(raw & ~tagMask) }
        return .foreignHandle(raw)
    }

    private enum Key: String, CodingKey { case h, f, d, i, s, D, S, H, I, V }

    /// What a handle (`h`, `f`, `H`) or a whole number (`i`, `I`) must be,
    /// for the message of an edited one that is not.
    static let handleRule = "a handle is a whole number from 0 to 2^64 - 1"
    static let integerRule = "a whole-number argument is from -2^63 to 2^63 - 1"

    /// The tag the argument is written with.
    var kind: Character {
        switch self {
        case .handle: "h"
        case .foreignHandle: "f"
        case .number: "d"
        case .integer: "i"
        case .text: "s"
        case .numbers: "D"
        case .texts: "S"
        case .handles: "H"
        case .integers: "I"
        case .values: "V"
        }
    }

    /// What an argument tagged `kind` is, in words.
    static func described(_ kind: Character) -> String {
        switch kind {
        case "h", "f": "a handle"
        case "d": "a number"
        case "i": "a whole number"
        case "s": "a text"
        case "D": "a list of numbers"
        case "S": "a list of texts"
        case "H": "a list of handles"
        case "I": "a list of whole numbers"
        default: "a list of payload values"
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard let key = c.allKeys.first, c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "an argument has one tag"))
        }
        switch key {
        case .h: self = .handle(try c.whole(UInt64.self, forKey: .h, Self.handleRule) ?? c.decode(UInt64.self, forKey: .h))
        case .f: self = .foreignHandle(try c.whole(UInt64.self, forKey: .f, Self.handleRule) ?? c.decode(UInt64.self, forKey: .f))
        case .d: self = .number(try c.decode(Double.self, forKey: .d))
        case .i: self = .integer(try c.whole(Int64.self, forKey: .i, Self.integerRule) ?? c.decode(Int64.self, forKey: .i))
        case .s: self = .text(try c.decodeIfPresent(String.self, forKey: .s))
        case .D: self = .numbers(try c.decodeIfPresent([Double].self, forKey: .D))
        case .S: self = .texts(try c.decode([String?].self, forKey: .S))
        case .H: self = .handles(try c.wholes(UInt64.self, forKey: .H, Self.handleRule))
        case .I: self = .integers(try c.wholes(Int64.self, forKey: .I, Self.integerRule))
        case .V: self = .values(try c.decode([TracedValue].self, forKey: .V).map(\.value))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .handle(let h): try c.encode(h, forKey: .h)
        case .foreignHandle(let h): try c.encode(h, forKey: .f)
        case .number(let d): try c.encode(d, forKey: .d)
        case .integer(let i): try c.encode(i, forKey: .i)
        case .text(let s): if let s { try c.encode(s, forKey: .s) } else { try c.encodeNil(forKey: .s) }
        case .numbers(let d): if let d { try c.encode(d, forKey: .D) } else { try c.encodeNil(forKey: .D) }
        case .texts(let s): try c.encode(s, forKey: .S)
        case .handles(let h): try c.encode(h, forKey: .H)
        case .integers(let i): try c.encode(i, forKey: .I)
        case .values(let v): try c.encode(v.map(TracedValue.init), forKey: .V)
        }
    }
}

/// A tagged value in a trace: {"number": 1.5}, {"string": "x"}, …
struct TracedValue: Codable {
    let value: TaggedValue
    init(_ value: TaggedValue) { self.value = value }

    private enum Key: String, CodingKey { case number, bool, string, integer, pointer }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription:
                "a payload value has one tag (number, bool, string, integer or pointer); this one has \(c.allKeys.count)"))
        }
        // Read below as absent, a null would be refused as a missing pointer.
        if try c.decodeNil(forKey: c.allKeys[0]) {
            throw DecodingError.dataCorruptedError(forKey: c.allKeys[0], in: c, debugDescription:
                "null is no \(c.allKeys[0].stringValue) value; a payload value holds what its tag names")
        }
        if let d = try c.decodeIfPresent(Double.self, forKey: .number) { value = .number(d) }
        else if let b = try c.decodeIfPresent(Bool.self, forKey: .bool) { value = .bool(b) }
        else if let s = try c.decodeIfPresent(String.self, forKey: .string) { value = .string(s) }
        else if let i = try c.whole(Int64.self, forKey: .integer, "an integer value is from -2^63 to 2^63 - 1") { value = .integer(i) }
        else {
            let p = try c.whole(UInt64.self, forKey: .pointer, "a pointer value is a whole number from 0 to 2^64 - 1")
            value = .pointer(UInt(try p ?? c.decode(UInt64.self, forKey: .pointer)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch value {
        case .number(let d): try c.encode(d, forKey: .number)
        case .bool(let b): try c.encode(b, forKey: .bool)
        case .string(let s): try c.encode(s, forKey: .string)
        case .integer(let i): try c.encode(i, forKey: .integer)
        case .pointer(let p): try c.encode(UInt64(p), forKey: .pointer)
        }
    }
}

/// One line of a trace: a call that succeeded, and what the runtime had
/// reported (and, after a tick, showed) once it returned.
struct TraceLine: Codable {
    var call: String
    var args: [TraceArgument]
    /// The digest of every event so far.
    var events: UInt64
    /// After a tick: the digest of every presentation value.
    var values: UInt64?
    /// The thread that made the call, numbered from 0 in the order the
    /// threads first appear in the trace; absent for thread 0. A thread's
    /// transactions are its own, so a replay makes each call as its thread.
    var thread: Int?
}

extension TraceLine {
    /// Decoded as recorded, with the digests and the thread read as whole
    /// numbers, so that an edited one that is not whole or is out of range
    /// is refused in words that say so (the decoder says only that the data
    /// is not valid JSON).
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        call = try c.decode(String.self, forKey: .call)
        args = try c.decode([TraceArgument].self, forKey: .args)
        let digest = "a digest is a whole number from 0 to 2^64 - 1"
        events = try c.whole(UInt64.self, forKey: .events, digest) ?? c.decode(UInt64.self, forKey: .events)  // missing: says so
        values = try c.whole(UInt64.self, forKey: .values, digest)
        thread = try c.whole(Int.self, forKey: .thread, "threads are numbered from 0")
    }
}

/// Whole numbers of a trace line (handles, digests, counts, the thread),
/// read so that an edited one that is not whole or is out of range is
/// refused in words that say so and where: the decoder says only that the
/// line is not valid JSON.
extension KeyedDecodingContainer {
    /// Member `key` as a whole number of type `T`, nil when the line has
    /// none. Read as `T` first: through a Double, one above 2^53 would be
    /// rounded to its neighbour, and one past `T`'s range called not whole.
    /// Any other number is refused saying which it is (and `rule`), anything
    /// else as the decoder refuses it.
    func whole<T: FixedWidthInteger & Decodable>(_: T.Type, forKey key: Key, _ rule: String) throws -> T? {
        if let whole = try? decodeIfPresent(T.self, forKey: key) { return whole }
        guard let n = try? decodeIfPresent(Double.self, forKey: key) else { return try decodeIfPresent(T.self, forKey: key) }
        throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: Self.misfit(n, rule))
    }

    /// Member `key` as a list of whole numbers of type `T`, an element that
    /// is another number refused as `whole` refuses it, by its index.
    func wholes<T: FixedWidthInteger & Decodable>(_: T.Type, forKey key: Key, _ rule: String) throws -> [T] {
        if let all = try? decode([T].self, forKey: key) { return all }
        if var list = try? nestedUnkeyedContainer(forKey: key) {
            while !list.isAtEnd {
                let index = list.currentIndex
                if (try? list.decode(T.self)) != nil { continue }
                guard let n = try? list.decode(Double.self) else { break }
                throw DecodingError.dataCorrupted(.init(codingPath: list.codingPath + [ListIndex(index)],
                                                        debugDescription: Self.misfit(n, rule)))
            }
        }
        return try decode([T].self, forKey: key)
    }

    private static func misfit(_ n: Double, _ rule: String) -> String {
        "\(n) \(n.rounded() == n ? "is out of range" : "is not a whole number"); \(rule)"
    }
}

/// A list element's place, as the decoder names it ("Index 2": `args[2]`
/// in a message).
private struct ListIndex: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue!)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// The first line of a trace file.
struct TraceHeader: Codable {
    var animrt = "trace"
    var format = 1
    var version: String
}
