/// The members an object of a document (a machine snapshot) may have: the
/// decoder reads the members it knows and passes over any other, so a
/// misspelt one ("sped", "begintime") would be lost without a word and the
/// restored state differ from the one handed over. Every object a snapshot
/// holds is read through `members(_:of:)`, which refuses such a member by
/// name and place.
extension Decoder {
    /// The object being decoded, keyed by `Keys`, once no member of it is
    /// one `Keys` does not name; otherwise a refusal that names the first
    /// such member (in name order, so that the same text always gets the same
    /// words) at its place in the document, `what` the object is and the
    /// members it has: `parts[0].timing.sped: a layer's timing has no
    /// member 'sped' (it has beginTime, duration, …)`.
    public func members<Keys: CodingKey & CaseIterable>(_: Keys.Type, of what: String) throws -> KeyedDecodingContainer<Keys> {
        let all = try container(keyedBy: AnyMember.self)
        if let k = all.allKeys.filter({ Keys(stringValue: $0.stringValue) == nil }).min(by: { $0.stringValue < $1.stringValue }) {
            let has = Keys.allCases.map(\.stringValue)
            throw DecodingError.dataCorruptedError(forKey: k, in: all, debugDescription: "\(what) has no member '\(k.stringValue)' (it has "
                + (has.isEmpty ? "none" : has.joined(separator: ", ")) + ")")
        }
        return try container(keyedBy: Keys.self)
    }
}

/// Any member's name, to find one an object does not have.
private struct AnyMember: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where K: CaseIterable {
    /// The one member of an object that is one of several kinds, each
    /// under its own member (a value's `number` or `bool`, an animation's
    /// `basic` or `spring`); one that says two is refused, not read as the
    /// first the decoder tries, and so is one that says none.
    public func onlyMember(of what: String) throws -> K {
        guard allKeys.count == 1, let k = allKeys.first else {
            let names = K.allCases.map(\.stringValue)
            let has = allKeys.map(\.stringValue).sorted()
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
                "\(what) has one member, \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""); this one has "
                + (has.isEmpty ? "none" : has.joined(separator: " and "))))
        }
        return k
    }
}
