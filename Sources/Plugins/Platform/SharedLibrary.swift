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
        switch RawCalls.open(path) {
        case .success(let h): handle = h
        case .failure(let e):
            var message = "cannot load the library '\(path ?? "(the process)")': \(e.text ?? "unknown loader error")"
            // dlopen searches a name without '/' in the library path only,
            // never in the current directory, where such a file may well be.
            if let path, !path.contains("/"), RawCalls.fileExists(path) {
                message += " (a name without '/' is searched for as a library name, not in the current directory: write './\(path)')"
            }
            throw AnimrtError(.notFound, message)
        }
    }

    deinit { RawCalls.close(handle) }

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
