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
        for name in ["exact", "over", "empty", "fifo"] { unlink("\(dir)/\(name)") }
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
