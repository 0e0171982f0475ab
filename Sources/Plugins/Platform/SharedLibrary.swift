import AnimationCore

/// A library opened with dlopen, closed when the last reference goes: by
/// then nothing that could call into it (a binding, a plugin's functions)
/// is left.
final class SharedLibrary: @unchecked Sendable {
    /// The path or soname it was opened with; nil for the process.
    let path: String?
    private let handle: UnsafeMutableRawPointer

    /// Opens `path` (nil: the process and what it has loaded).
    init(_ path: String?) throws(AnimrtError) {
        self.path = path
        switch RawCalls.open(path.map(Self.loadable)) {
        case .success(let h): handle = h
        case .failure(let e):
            var message = "cannot load the library '\(path ?? "(the process)")': \(e.text ?? "unknown loader error")"
            // dlopen searches a name without '/' in the library path only,
            // never in the current directory, where such a file may well be.
            if let path, !path.contains("/"), RawCalls.fileExists(path) {
                message += " (a name without '/' is searched for as a library name, not in the current directory: write './\(path)')"
            }
            // A plugin is not linked against animrt: a host that loaded animrt
            // privately (Python's ctypes does, as does any dlopen without
            // RTLD_GLOBAL) leaves animrt's functions undefined for it, and the
            // loader names the first one missing. The table init is given has
            // what a plugin may call.
            if let text = e.text, text.contains("undefined symbol: animrt_") {
                message += " (a plugin calls animrt through the host API table its init is given, such as"
                    + " api->error_set for animrt_error_set: this host loaded animrt privately, so animrt's own"
                    + " functions are not there for the libraries it loads)"
            }
            throw AnimrtError(.notFound, message: message)
        }
    }

    deinit { RawCalls.close(handle) }

    /// `path` as the loader opens it: a relative path (one with a '/', not
    /// at its start) made absolute against the current directory, read once
    /// here, so that every later step reads the same file however the
    /// directory changes meanwhile (another thread's chdir, a constructor of
    /// the library being loaded). dlopen keeps the name it was given, and
    /// `contains` opens the name dladdr reports again: a relative one would
    /// be read from the new directory. A name without '/' is the loader's
    /// to search, an absolute path is kept, and so is a relative one when
    /// the current directory cannot be read (dlopen could not read it either).
    static func loadable(_ path: String) -> String {
        guard path.contains("/"), !path.hasPrefix("/"), let directory = RawCalls.currentDirectory() else { return path }
        var rest = Substring(path)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop { $0 == "/" } }  // "./x" names x, as dladdr will
        return directory.hasSuffix("/") ? directory + rest : directory + "/" + rest
    }

    var displayName: String { path ?? "the process" }

    /// Whether both are the same library: dlopen gives one handle to every
    /// path that reaches the same file.
    func isSame(as other: SharedLibrary) -> Bool { handle == other.handle }

    /// Whether `address` lies in this library itself, not in one of the
    /// libraries it depends on (which `address(of:)` searches as well).
    func contains(_ address: UnsafeRawPointer) -> Bool { RawCalls.isIn(handle, address) }

    /// The file of the loaded library that holds `address`, for messages.
    static func file(holding address: UnsafeRawPointer) -> String? { RawCalls.objectFile(of: address) }

    /// The address of `symbol`.
    func address(of symbol: String) throws(AnimrtError) -> UnsafeMutableRawPointer {
        switch RawCalls.symbol(handle, symbol) {
        case .success(let p): return p
        case .failure(let e):
            throw AnimrtError(.notFound, "no symbol '\(symbol)' in \(path.map { "'\($0)'" } ?? "the process") (\(e.text ?? "not found"))")
        }
    }
}
