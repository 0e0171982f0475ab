/// What a thread running code from outside the library (a plugin's or the
/// host's function) shares with the runtime that called it: the message a
/// failing function leaves (`animrt_error_set`), and which runtimes are
/// busy on this thread, so that a call back into one of them is refused
/// instead of waiting on itself.
public enum Callout {
    final class State {
        var message: String?
        var busy: [UInt16] = []
    }

    private static let key = RawCalls.makeThreadKey()

    static var state: State { RawCalls.threadObject(key) { State() } }

    /// Records the message of a failing function on this thread.
    public static func setError(_ message: String) { state.message = message }

    /// The most bytes of a message given to animrt_error_set that are read.
    public static let messageLimit = 4096

    /// The text of a message given to animrt_error_set (by the host or a
    /// plugin): at most `messageLimit` bytes are read, bytes that are not
    /// UTF-8 are replaced rather than the message dropped, and NULL says
    /// there was none.
    public static func text(of message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "(no message)" }
        return String(decoding: UnsafeRawBufferPointer(start: message, count: RawCalls.length(message, limit: messageLimit)),
                      as: UTF8.self)
    }

    /// Takes the message left since `clear()`, if any.
    static func takeMessage() -> String? {
        let s = state
        defer { s.message = nil }
        return s.message
    }

    /// Runs `body` with runtime `tag` marked busy on this thread.
    public static func within<R, E: Error>(_ tag: UInt16, _ body: () throws(E) -> R) throws(E) -> R {
        let s = state
        s.busy.append(tag)
        defer { s.busy.removeLast() }
        return try body()
    }

    /// Whether this thread is running code called by runtime `tag`.
    public static func isBusy(_ tag: UInt16) -> Bool { state.busy.contains(tag) }
}
