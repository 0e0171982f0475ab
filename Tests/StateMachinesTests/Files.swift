#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

extension String {
    /// Writes the string as UTF-8 to `path` (tests only).
    func write(toFile path: String) throws {
        try Data(utf8).write(to: URL(filePath: path))
    }
}

func removeFile(_ path: String) throws {
    #if canImport(Glibc)
    _ = path.withCString { unlink($0) }
    #endif
}
