/// Status codes shared by the core and the C ABI (`animrt_status`).
/// Raw values are part of the ABI: never renumber, only append.
public enum Status: Int32, Sendable, CaseIterable {
    case ok = 0
    /// A required pointer was NULL.
    case nullPointer = 1
    /// An argument is malformed: NaN or ±inf, invalid UTF-8, an empty name.
    case invalidArgument = 2
    /// A number is outside its allowed range (negative duration, x1 > 1, …).
    case outOfRange = 3
    /// A handle is zero, stale, destroyed, of another kind or another runtime.
    case handle = 4
    /// A key path or name is not known.
    case notFound = 5
    /// A value has the wrong kind or component count for its key path.
    case kind = 6
    /// A caller buffer is too small; the needed size was written.
    case buffer = 7
    /// The call is not allowed in the current state (leave without enter, …).
    case state = 8
    /// The name is already taken.
    case exists = 9
    /// The runtime could not allocate memory or ran out of handle slots.
    case noMemory = 10
    /// Time went backwards or is not finite.
    case time = 11
    /// An unknown enum value was passed.
    case unknownEnum = 12

    /// A static, stable name ("ANIMRT_E_HANDLE"), also handed out to C.
    public var name: StaticString {
        switch self {
        case .ok: "ANIMRT_OK"
        case .nullPointer: "ANIMRT_E_NULL"
        case .invalidArgument: "ANIMRT_E_INVALID"
        case .outOfRange: "ANIMRT_E_RANGE"
        case .handle: "ANIMRT_E_HANDLE"
        case .notFound: "ANIMRT_E_NOT_FOUND"
        case .kind: "ANIMRT_E_KIND"
        case .buffer: "ANIMRT_E_BUFFER"
        case .state: "ANIMRT_E_STATE"
        case .exists: "ANIMRT_E_EXISTS"
        case .noMemory: "ANIMRT_E_NOMEM"
        case .time: "ANIMRT_E_TIME"
        case .unknownEnum: "ANIMRT_E_ENUM"
        }
    }
}

/// An error with a status and a message that names the bad value and,
/// where it can, the fix.
public struct AnimrtError: Error, Equatable, Sendable, CustomStringConvertible {
    public let status: Status
    public let message: String

    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.name): \(message)" }
}

/// Throws `.invalidArgument` unless `value` is finite.
@inline(__always)
func requireFinite(_ value: Double, _ what: @autoclosure () -> String) throws(AnimrtError) {
    guard value.isFinite else { throw AnimrtError(.invalidArgument, "\(what()) is \(value); it must be a finite number") }
}

/// The candidate closest to `word` by edit distance, if it is close enough
/// to be a plausible typo (at most a third of the word's length, and ≥ 1).
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let w = Array(word.lowercased().utf8)
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(w, Array(c.lowercased().utf8))
        if best == nil || d < best!.1 { best = (c, d) }
    }
    guard let (name, d) = best, d <= max(1, w.count / 3) else { return nil }
    return name
}

func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
