// Reading a whole file the host named: a definition, a trace.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a regular file, read with errors a host can act on.
///
/// Only regular files are read: a directory gets "is a directory" rather
/// than an error object's dump, and a device or a pipe (`/dev/zero`, a
/// FIFO) is refused before a read that might never end. A file longer than
/// `limit` is refused by its size, before it is read into memory.
public enum FileContents {
    /// Reads `path`; `what` names it in messages ("the definition file").
    public static func read(_ path: String, what: String, limit: Int? = nil) throws(AnimrtError) -> [UInt8] {
        // Without blocking: opening a FIFO would wait for a writer. (Reads
        // of a regular file do not block either way.)
        func cannotRead(_ why: String) -> AnimrtError { AnimrtError(.notFound, "cannot read \(what) '\(path)': \(why)") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw cannotRead(reason(code) + lookedUp(path, code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw cannotRead(reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw cannotRead("it is a directory")
        default: throw cannotRead("it is not a regular file (a device, a pipe or a socket)")
        }
        let size = Int(info.st_size)
        if let limit, size > limit {
            throw AnimrtError(.outOfRange, "\(what) '\(path)' is \(size) bytes; at most \(limit) are accepted")
        }
        // The size may change while it is read, or be unknown (a file of
        // /proc says 0): read to the end, and stop once past the limit.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, count))) }
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw cannotRead(reason(errno))
            }
            count += n
            if let limit, count > limit {
                throw AnimrtError(.outOfRange, "\(what) '\(path)' holds more than \(limit) bytes (its size said \(size) before it was read); at most \(limit) are accepted")
            }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The system's read(2) (the name is taken here by `read(_:what:limit:)`).
    /// Where `bytes` first stop being UTF-8: the offset of the first byte
    /// that starts no character (a stray continuation byte, a sequence cut
    /// short or overlong), with its line and column (counted in characters,
    /// from 1); the count of bytes, past the last line, when all are UTF-8.
    public static func firstNonUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int) {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0, line = 1, column = 1
        while case .valid(let scalar) = parser.parseScalar(from: &input) {
            offset += scalar.count
            if scalar.count == 1 && scalar.first == 10 { line += 1; column = 1 } else { column += 1 }
        }
        return (offset, line, column)
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// Where a relative path that was not found was looked for: a host run
    /// from another directory than its files' reads the same name elsewhere.
    private static func lookedUp(_ path: String, _ code: Int32) -> String {
        guard code == ENOENT, !path.isEmpty, !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return "" }
        defer { free(cwd) }
        return " (a relative path, looked for in the working directory '\(String(cString: cwd))')"
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
