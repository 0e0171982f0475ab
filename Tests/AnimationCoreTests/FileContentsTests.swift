@testable import AnimationCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Files the host names (definitions, traces) are read whole, with errors a
/// host can act on, and never by a read that cannot end.
@Suite("R0.3 reading a file the host named")
struct FileContentsTests {
    /// A fresh temporary directory.
    func makeDirectory() -> String {
        var template = Array("/tmp/animrt-files-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    /// Removes `dir` with what the tests put in it.
    func remove(_ dir: String) {
        for name in ["exact", "over", "empty", "fifo", "plain"] { unlink("\(dir)/\(name)") }
        rmdir(dir)
    }

    func write(_ path: String, _ bytes: [UInt8]) {
        let f = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
    }

    @Test("a file at its limit is read whole; one byte past is refused by its size; an empty file is empty")
    func limits() throws {
        let dir = makeDirectory()
        defer { remove(dir) }
        do {
            let exact = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            write("\(dir)/exact", exact)
            write("\(dir)/over", exact + [7])
            write("\(dir)/empty", [])
            #expect(try FileContents.read("\(dir)/exact", what: "the file", limit: 4096) == exact)
            #expect(try FileContents.read("\(dir)/over", what: "the file", limit: nil) == exact + [7])
            expectFailure(.outOfRange, "the file '\(dir)/over' is 4097 bytes; at most 4096 are accepted") {
                () throws(AnimrtError) in _ = try FileContents.read("\(dir)/over", what: "the file", limit: 4096)
            }
            #expect(try FileContents.read("\(dir)/empty", what: "the file", limit: 0) == [])
        }
    }

    /// A file whose size is not known before it is read (those of /proc say
    /// 0; one that grows while it is read likewise) is held to the limit by
    /// what is read: reading stops past it, and the file is refused.
    @Test("a file that holds more than its size said is refused once a read passes the limit")
    func sizeUnknownBeforeReading() throws {
        let whole = try FileContents.read("/proc/self/status", what: "the file", limit: nil)
        #expect(whole.count > 64 && String(decoding: whole.prefix(5), as: UTF8.self) == "Name:")
        expectFailure(.outOfRange, "the file '/proc/self/status' holds more than 64 bytes (its size said 0 before it was read); at most 64 are accepted") {
            () throws(AnimrtError) in _ = try FileContents.read("/proc/self/status", what: "the file", limit: 64)
        }
    }

    @Test("a directory, a device, a FIFO with no writer and a missing file are refused at once, each saying why")
    func notRegularFiles() throws {
        let dir = makeDirectory()
        defer { remove(dir) }
        do {
            #expect(mkfifo("\(dir)/fifo", 0o600) == 0)
            for (path, why) in [(dir, "it is a directory"),
                                ("/dev/zero", "it is not a regular file (a device, a pipe or a socket)"),
                                ("\(dir)/fifo", "it is not a regular file (a device, a pipe or a socket)"),
                                ("\(dir)/missing", "No such file or directory")] {
                expectFailure(.notFound, "cannot read the trace '\(path)': \(why)") { () throws(AnimrtError) in
                    _ = try FileContents.read(path, what: "the trace")
                }
            }
        }
    }

    /// Only a relative path that was not found says where it was looked
    /// for: one refused for another reason is not a question of the working
    /// directory, and an empty path is no relative path.
    @Test("the working directory is named for a relative path not found, and for nothing else")
    func workingDirectoryNote() throws {
        let dir = makeDirectory()
        defer { remove(dir) }
        write("\(dir)/plain", [1, 2])
        // From any working directory, enough "../" reach the root.
        let relative = String(repeating: "../", count: 64) + dir.dropFirst()
        let cwd = String(cString: getcwd(nil, 0)!)
        for (path, why) in [("\(relative)/plain/inner", "Not a directory"),
                            ("", "No such file or directory"),
                            ("\(relative)/missing", "No such file or directory (a relative path, looked for in the working directory '\(cwd)')")] {
            expectFailure(.notFound, "cannot read the trace '\(path)': \(why)") { () throws(AnimrtError) in
                _ = try FileContents.read(path, what: "the trace")
            }
        }
        #expect(try FileContents.read("\(relative)/plain", what: "the trace") == [1, 2])
    }

    /// Offsets are in bytes, lines and columns in characters from 1.
    @Test("the first byte that is not UTF-8 is placed by its byte offset, its line and its column in characters")
    func firstNonUTF8Place() {
        let placed = { (bytes: [UInt8]) in
            let p = FileContents.firstNonUTF8(bytes)
            return [p.offset, p.line, p.column]
        }
        // "ab", a newline, "é" (two bytes), then a stray continuation byte.
        #expect(placed([0x61, 0x62, 0x0A, 0xC3, 0xA9, 0x80, 0x61]) == [5, 2, 2])
        #expect(placed([0x0A, 0x80]) == [1, 2, 1])
        #expect(placed([0xE2, 0x82, 0xAC, 0xC3]) == [3, 1, 2])  // "€", then a sequence cut short
        #expect(placed(Array("a\nbc".utf8)) == [4, 2, 3])  // all UTF-8: the count, past the last line
        #expect(placed([]) == [0, 1, 1])
    }

    func expectFailure(_ status: Status, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: () throws(AnimrtError) -> Void) {
        do throws(AnimrtError) {
            try body()
            Issue.record("nothing was thrown", sourceLocation: sourceLocation)
        } catch {
            #expect(error.status == status && error.message == message, "\(error.message)", sourceLocation: sourceLocation)
        }
    }
}
