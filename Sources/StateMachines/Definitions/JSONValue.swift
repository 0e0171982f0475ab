import AnimationCore
import FoundationEssentials

/// A JSON document decoded by the toolchain's JSONDecoder into a tree the
/// loader walks with paths, so that every error can say where it is.
/// (Object key order is not kept: nothing in a definition depends on it.)
indirect enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        // Each kind tried that the value is not costs the decoder an error
        // (with its coding path): most of a large definition's load when
        // strings and objects came last. So the kinds a definition is made
        // of come first; they are disjoint, so the order changes no value.
        // Whatever no kind takes gets the object's error, as before.
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let o = try? c.decode([String: JSONValue].self) { self = .object(o) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// Decodes `text` (UTF-8 JSON).
    static func parse(_ bytes: some Collection<UInt8>) throws(AnimrtErrorBox) -> JSONValue {
        let bytes = Array(bytes)
        try checkDepth(bytes)
        let decoded: Result<JSONValue, any Error>
        if JSONSyntax.firstTooDeep(in: bytes, limit: LargeStack.inlineJSONDepth) == nil { decoded = decode(bytes) }
        else { decoded = LargeStack.run { decode(bytes) } }
        let value: JSONValue
        do { value = try decoded.get() }
        catch {
            // The decoder gives no position (and reports some syntax errors
            // as a type it did not find): the syntax scan places them.
            if let p = JSONSyntax.firstProblem(in: bytes) { throw AnimrtErrorBox("the JSON is malformed at \(p.description)") }
            if case DecodingError.dataCorrupted(let c) = error {
                let detail = (c.underlyingError.map { "\($0)" } ?? c.debugDescription)
                throw AnimrtErrorBox("the JSON is malformed: \(JSONValue.shorten(detail))")
            }
            throw AnimrtErrorBox("the JSON is malformed: \(JSONValue.shorten("\(error)"))")
        }
        // The decoder keeps one of two equal member names without a word,
        // and a NUL would cut a string short in C: refuse the text rather
        // than lose part of it silently.
        if let p = JSONSyntax.firstRefusal(in: bytes) { throw AnimrtErrorBox(refusal(p)) }
        return value
    }

    /// The decoder's answer; it recurses once per level of nesting.
    private static func decode(_ bytes: [UInt8]) -> Result<JSONValue, any Error> {
        Result { try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
    }

    /// Refuses nesting deeper than the machines read (the decoder recurses
    /// once per level), before the decoder sees the text.
    static func checkDepth(_ bytes: [UInt8]) throws(AnimrtErrorBox) {
        if let p = JSONSyntax.firstTooDeep(in: bytes, limit: DefinitionLimits.maxJSONDepth) {
            throw AnimrtErrorBox("the JSON is too deep at \(p.description)", status: .outOfRange)
        }
    }

    /// The message for a problem `JSONSyntax.firstRefusal` found.
    static func refusal(_ p: JSONSyntax.Problem) -> String {
        "the JSON is \(p.kind == .duplicate ? "ambiguous" : "refused") at \(p.description)"
    }

    private static func shorten(_ s: String) -> String { s.count > 300 ? String(s.prefix(300)) + "…" : s }

    var kindName: String {
        switch self {
        case .null: "null"; case .bool: "a boolean"; case .number: "a number"; case .string: "a string"
        case .array: "an array"; case .object: "an object"
        }
    }
}

/// A message on its way to becoming an `AnimrtError` with a JSON path.
struct AnimrtErrorBox: Error {
    let message: String
    let status: Status
    init(_ message: String, status: Status = .invalidArgument) { self.message = message; self.status = status }
}
