import AnimationCore

/// The registrars whose plugin's init is running, by the token the plugin
/// receives as its `animrt_registrar *`.
///
/// The token is a number, never the registrar's address: a plugin that keeps
/// it and calls after its init returned (after its runtime was destroyed,
/// even) finds no entry and is refused with `ANIMRT_E_STATE`; nothing it
/// can pass makes the library read freed or foreign memory. Process-wide and
/// locked, since a plugin may call from any thread. Calls with one token
/// run one at a time: a call from a second thread waits for the first to
/// return (a registrar is not made for concurrent use), while a call made
/// from inside another on the same thread (a plugin's curve calling back
/// as it is checked) goes ahead. Closing waits for the calls already inside
/// (a thread the plugin started may be in one when init returns), so none
/// outlives its load; the calls still waiting are refused. Tokens are not
/// reused.
enum RegistrarTokens {
    private static let lock = Lock()
    nonisolated(unsafe) private static var open: [UInt: Registrar] = [:]
    /// The thread inside each token's registrar and how deeply, by token.
    nonisolated(unsafe) private static var inside: [UInt: (thread: ThreadID, depth: Int)] = [:]
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

    /// Closes the token: every later call with it is refused, and the calls
    /// already inside have returned when this returns.
    static func close(_ token: OpaquePointer) {
        let key = UInt(bitPattern: token)
        lock.lock()
        open.removeValue(forKey: key)
        while inside[key] != nil { lock.wait() }
        lock.unlock()
    }

    /// Runs `body` with the open registrar of `token`, once no other thread
    /// is inside it, or returns nil (without running it) when the token was
    /// closed or never issued.
    static func with<R>(_ token: OpaquePointer, _ body: (Registrar) -> R) -> R? {
        let key = UInt(bitPattern: token)
        let me = ThreadID.current
        let r: Registrar? = lock.withLock {
            while true {
                guard let r = open[key] else { return nil }
                if let holder = inside[key], holder.thread != me { lock.wait(); continue }
                inside[key] = (me, (inside[key]?.depth ?? 0) + 1)
                return r
            }
        }
        guard let r else { return nil }
        defer {
            lock.withLock {
                if inside[key]!.depth == 1 { inside.removeValue(forKey: key) } else { inside[key]!.depth -= 1 }
                lock.broadcast()
            }
        }
        return body(r)
    }
}
