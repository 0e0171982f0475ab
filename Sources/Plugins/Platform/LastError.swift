/// The calling thread's last error message (`animrt_last_error_message`),
/// a C string the library owns until the thread's next failing call. Kept
/// here, below the exports, so that a plugin calling its registrar outside
/// any call of the host can still leave its message.
public enum LastError {
    private static let key = RawCalls.makeStringKey()
    private static let none: StaticString = ""

    public static func set(_ message: String) { RawCalls.setThreadString(key, message) }

    public static var message: UnsafePointer<CChar> {
        RawCalls.threadString(key) ?? UnsafeRawPointer(none.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
