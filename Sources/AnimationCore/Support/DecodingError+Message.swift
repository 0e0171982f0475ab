/// What a JSON document the runtime reads back (a machine snapshot, a trace
/// line) gets wrong, in the words of the document rather than of Swift's
/// decoder: `parts[0] is not an object`, not
/// `typeMismatch(Swift.Dictionary<Swift.String, Any>, Swift.DecodingError.Context(…))`.
extension DecodingError {
    public var plainMessage: String {
        switch self {
        case .keyNotFound(let key, let c):
            let at = DecodingError.path(c.codingPath)
            return at.isEmpty ? "the member '\(key.stringValue)' is missing" : "\(at) has no member '\(key.stringValue)'"
        case .typeMismatch(let type, let c):
            return "\(DecodingError.place(c.codingPath)) is not \(DecodingError.kind(type))"
        case .valueNotFound(let type, let c):
            return "\(DecodingError.place(c.codingPath)) is null; it must be \(DecodingError.kind(type))"
        case .dataCorrupted(let c):
            let at = DecodingError.path(c.codingPath)
            return at.isEmpty ? c.debugDescription : "\(at): \(c.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    /// What `error`, thrown while a document was decoded, says of it: the
    /// plain message of a `DecodingError`, at most 300 characters.
    public static func plainMessage(of error: any Error) -> String {
        String(((error as? DecodingError)?.plainMessage ?? "\(error)").prefix(300))
    }

    /// `parts[0].values`: members by name, list items by index. (A list
    /// item's key reads "Index 0"; a member named "7" has an int value too,
    /// and stays a member.)
    static func path(_ keys: [any CodingKey]) -> String {
        var s = ""
        for k in keys {
            if let i = k.intValue, k.stringValue == "Index \(i)" { s += "[\(i)]" }
            else { s += s.isEmpty ? k.stringValue : ".\(k.stringValue)" }
        }
        return s
    }

    private static func place(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the document" : path(keys)
    }

    /// The JSON kind a Swift type is read from.
    static func kind(_ type: Any.Type) -> String {
        let name = "\(type)"
        if name.hasPrefix("Dictionary<") { return "an object" }
        if name.hasPrefix("Array<") { return "a list" }
        switch name {
        case "String": return "a string"
        case "Bool": return "true or false"
        case "Double", "Float": return "a number"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return "a whole number"
        default: return "what a \(name) is written as"
        }
    }
}
