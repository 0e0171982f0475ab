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
    /// A plugin was built for another plugin ABI version.
    case version = 13
    /// Code from outside the library (a plugin's init, a host or plugin
    /// function, a Python callable) reported a failure.
    case callback = 14

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
        case .version: "ANIMRT_E_VERSION"
        case .callback: "ANIMRT_E_CALLBACK"
        }
    }
}

/// An error with a status and a message that names the bad value and,
/// where it can, the fix.
///
/// A "did you mean" ending is kept as a closure over what it needs and
/// computed only when the message is read: the C layer reads it after the
/// runtime's lock is released, so a slow suggestion never holds other
/// threads up (and `closestMatch` bounds its cost anyway).
public struct AnimrtError: Error, Equatable, Sendable, CustomStringConvertible {
    public let status: Status
    private let text: String
    private let ending: (@Sendable () -> String)?

    /// An error with `message`, whose numbers are written as
    /// `NumberText.given` writes them ("-1", not "-1.0").
    public init(_ status: Status, _ message: ErrorText) {
        self.init(status, message: message.text)
    }

    /// An error with a message made already (a literal goes through
    /// `ErrorText`, which writes its numbers).
    public init(_ status: Status, message: String) {
        self.status = status
        self.text = message
        self.ending = nil
    }

    /// An error whose message ends with what `ending` returns when read.
    init(_ status: Status, _ message: ErrorText, endingWith ending: @escaping @Sendable () -> String) {
        self.status = status
        self.text = message.text
        self.ending = ending
    }

    /// An error whose message ends with the closest of `candidates` to
    /// `word` ("; did you mean 'opacity'?"), or with `otherwise` if none is close.
    /// The search runs when the message is read, after the runtime's lock
    /// is released, so it works on a copy of `candidates` made now: the
    /// table they come from (key paths, names) may grow on another thread
    /// meanwhile, and its buffer must not be shared with the error.
    init(_ status: Status, _ message: ErrorText, suggesting word: String, from candidates: [String], otherwise: String = "") {
        let own = candidates.map { $0 }
        self.init(status, message) {
            closestMatch(to: word, in: own).map { "; did you mean '\($0)'?" } ?? otherwise
        }
    }

    private init(_ status: Status, text: String, ending: (@Sendable () -> String)?) {
        self.status = status; self.text = text; self.ending = ending
    }

    /// The full message.
    public var message: String { text + (ending?() ?? "") }

    /// The same error with `context` in front of its message ("target 3: …").
    public func prefixed(_ context: String) -> AnimrtError {
        AnimrtError(status, text: context + text, ending: ending)
    }

    public var description: String { "\(status.name): \(message)" }

    public static func == (a: AnimrtError, b: AnimrtError) -> Bool { a.status == b.status && a.message == b.message }
}

/// `n` and `noun`, plural unless `n` is 1, for messages ("1 double",
/// "3 doubles").
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    n == 1 ? "1 \(noun)" : "\(n) \(plural ?? noun + "s")"
}

/// How many were given, the verb agreeing: "1 was given", "2 were given";
/// with a noun, "1 value was given", "3 values were given".
public func given(_ n: Int, _ noun: String? = nil) -> String {
    (noun.map { counted(n, $0) } ?? "\(n)") + (n == 1 ? " was given" : " were given")
}

/// Throws `.invalidArgument` unless `value` is finite.
@inline(__always)
func requireFinite(_ value: Double, _ what: @autoclosure () -> String) throws(AnimrtError) {
    guard value.isFinite else { throw AnimrtError(.invalidArgument, "\(what()) is \(value); it must be a finite number") }
}

/// Throws `.outOfRange` if `name` is longer than `Limits.nameBytes`.
func requireNameLength(_ name: String, _ what: @autoclosure () -> String) throws(AnimrtError) {
    let n = name.utf8.count
    guard n <= Limits.nameBytes else {
        throw AnimrtError(.outOfRange, "\(what()) is \(n) bytes long; names are at most \(Limits.nameBytes) bytes")
    }
}

/// What a message about `name`, which none of `names` is, goes on with: the
/// closest of them ("; did you mean 'tap'?"), else the names there are, the
/// first ten (" (events: reset, start, …)"), else that there are none ("; it
/// has no events"). `plural` names them. A lookup by name always says one of
/// the three, so the message shows what to write instead.
public func unknownName(_ name: String, among names: [String], _ plural: String) -> String {
    if let near = closestMatch(to: name, in: names) { return "; did you mean '\(near)'?" }
    if names.isEmpty { return "; it has no \(plural)" }
    return " (\(plural): \(names.prefix(10).joined(separator: ", "))\(names.count > 10 ? ", …" : ""))"
}

/// The candidate closest to `word` by edit distance, if it is close enough
/// to be a plausible typo (at most a third of the word's length, and ≥ 1).
///
/// Bounded: a candidate whose length differs by more than that distance is
/// skipped unread, the distance is computed in a band of that width and
/// abandoned once it exceeds it, and the whole search stops after
/// `budget` cells (the best match so far is kept). So a suggestion costs
/// at most about `budget` steps whatever the names and their number.
public func closestMatch(to word: String, in candidates: [String], budget: Int = Limits.suggestionWork) -> String? {
    let w = Array(word.lowercased().utf8)
    var best: String?
    var bestDistance = max(1, w.count / 3) + 1
    var work = 0
    for c in candidates {
        // Ties go to the name first in alphabetical order, so the answer does
        // not depend on the candidates' order (often a dictionary's).
        let bound = best == nil ? bestDistance - 1 : bestDistance
        if bound < 0 { break }  // an exact match: nothing can be closer
        if abs(c.utf8.count - w.count) > bound { continue }
        work += (w.count + 1) * (2 * bound + 1)
        if work > budget { break }
        if let d = boundedEditDistance(w, Array(c.lowercased().utf8), bound: bound),
           d < bestDistance || (d == bestDistance && c < best!) {
            best = c; bestDistance = d
        }
    }
    return best
}

/// The edit distance of `a` and `b` if it is at most `bound`, else nil. An
/// exchange of two neighbouring letters counts as one edit ("widht" is one
/// from "width": optimal string alignment). Only cells within `bound` of
/// the diagonal are computed: at most (a.count + 1) × (2 × bound + 1) of them.
func boundedEditDistance(_ a: [UInt8], _ b: [UInt8], bound: Int) -> Int? {
    if abs(a.count - b.count) > bound { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    let big = bound + 1
    let width = b.count + 1
    // Three rows in one array, rotated by offset: the row being written, the
    // one above it, and the one above that (for exchanges). Cells outside a
    // row's band read as `big`: each row writes only its band and the cell
    // left of it, and a cell right of a row's band has never been written by
    // an earlier row (bands move right one cell per row).
    var rows = [Int](repeating: big, count: 3 * width)
    var row = 0, above = width, aboveThat = 2 * width
    for j in 0...min(b.count, bound) { rows[above + j] = j }
    for i in 1...a.count {
        let lo = max(1, i - bound), hi = min(b.count, i + bound)
        rows[row + lo - 1] = lo == 1 ? min(i, big) : big
        var rowMin = rows[row + lo - 1]
        for j in lo...hi {
            let sub = rows[above + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            var v = min(rows[above + j] + 1, rows[row + j - 1] + 1, sub, big)
            // An exchange reads the row above the last; if that row's best
            // was past the bound, so is this (the early exit stays right).
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { v = min(v, rows[aboveThat + j - 2] + 1) }
            rows[row + j] = v
            rowMin = min(rowMin, v)
        }
        if rowMin > bound { return nil }
        (aboveThat, above, row) = (above, row, aboveThat)
    }
    return rows[above + b.count] <= bound ? rows[above + b.count] : nil
}
