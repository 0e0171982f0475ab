import AnimationCore

/// The registrars whose plugin's init is running, by the token the plugin
/// receives as its `animrt_registrar *`.
///
/// The token is a number, never the registrar's address: a plugin that keeps
/// it and calls after its init returned (after its runtime was destroyed,
/// even) finds no entry and is refused with `ANIMRT_E_STATE`; nothing it
/// can pass makes the library read freed or foreign memory. Process-wide and
/// locked, since a plugin may call from any thread. Tokens are not reused.
enum RegistrarTokens {
    private static let lock = Lock()
    nonisolated(unsafe) private static var open: [UInt: Registrar] = [:]
    nonisolated(unsafe) private static var issued: UInt = 0

    /// Opens `registrar`: returns the token its plugin's init receives.
    static func open(_ registrar: Registrar) -> OpaquePointer {
        lock.withLock {
            issued += 1
            open[issued] = registrar
            // Never NULL: a NULL registrar is refused as such.
            return OpaquePointer(bitPattern: issued)!
        }
    }

    /// Closes the token: every later call with it is refused.
    static func close(_ token: OpaquePointer) {
        _ = lock.withLock { open.removeValue(forKey: UInt(bitPattern: token)) }
    }

    /// The open registrar of `token`, or nil when it was closed (or never issued).
    static func registrar(_ token: OpaquePointer) -> Registrar? {
        lock.withLock { open[UInt(bitPattern: token)] }
    }

    /// How many registrars are open (tests: none once every load returned).
    static var openCount: Int { lock.withLock { open.count } }
}
