// Recording a trace: every call that succeeds and changes the runtime is
// written as one JSON line with its arguments and the event digest after it
// (docs/traces.md). A refused call changes nothing, so it is not written.
import AnimationCore
import CAnimrt
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A call to record: its C name and its arguments (handles raw).
struct TraceCall {
    let name: String
    let args: [TraceArgument]
    init(_ name: String, _ args: [TraceArgument]) { self.name = name; self.args = args }
}

/// Arguments read from the caller's memory (valid: the call succeeded).
enum Traced {
    static func text(_ p: UnsafePointer<CChar>?) -> TraceArgument { .text(p.map { String(cString: $0) }) }

    static func numbers(_ p: UnsafePointer<Double>?, _ n: Int) -> TraceArgument {
        .numbers(p.map { Array(UnsafeBufferPointer(start: $0, count: max(n, 0))) })
    }

    static func integers(_ p: UnsafePointer<Int32>?, _ n: Int) -> TraceArgument {
        .integers(p.map { UnsafeBufferPointer(start: $0, count: max(n, 0)).map(Int64.init) } ?? [])
    }

    /// Key path ids as their indices (the replay gives them its runtime's tag).
    static func keyPaths(_ p: UnsafePointer<Int32>?, _ n: Int) -> TraceArgument {
        .integers(p.map { UnsafeBufferPointer(start: $0, count: max(n, 0)).map(KeyPathIDs.traced) } ?? [])
    }

    static func handles(_ p: UnsafePointer<animrt_id>?, _ n: Int) -> TraceArgument {
        .handles(p.map { UnsafeBufferPointer(start: $0, count: max(n, 0)).map { $0 & ~TraceArgument.tagMask } } ?? [])
    }

    static func texts(_ p: UnsafePointer<UnsafePointer<CChar>?>?, _ n: Int) -> TraceArgument {
        .texts(p.map { UnsafeBufferPointer(start: $0, count: max(n, 0)).map { $0.map { String(cString: $0) } } } ?? [])
    }

    static func values(_ p: UnsafePointer<animrt_value>?, _ n: Int) -> TraceArgument {
        .values((p.map { UnsafeBufferPointer(start: $0, count: max(n, 0)).compactMap { try? taggedValue($0, "") } }) ?? [])
    }
}

/// An open trace file. A line the file does not take (a full disk, a file
/// size limit) is never lost unseen: the start is refused when the header
/// cannot be written, and otherwise the first failure is kept, nothing more
/// is written (a trace with a hole would replay wrongly), and `finish`
/// reports it when the recording stops.
final class TraceRecorder {
    private var file: UnsafeMutablePointer<FILE>?
    private let tag: UInt16
    private let encoder: JSONEncoder
    let path: String
    /// Lines written, the header included.
    private var lines = 0
    /// Why the file stopped taking lines, if it did.
    private var failure: String?
    /// The threads that made the calls recorded so far (`ThreadOrdinal`),
    /// with their numbers in the trace, in the order they first appear.
    private var threads: [UInt64: Int] = [:]

    init(path: String, tag: UInt16) throws(AnimrtError) {
        guard let f = fopen(path, "w") else {
            throw AnimrtError(.notFound, "cannot open the trace file '\(path)' for writing: \(String(cString: strerror(errno)))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        if let why = Self.put(TraceHeader(version: String(cString: animrt_version_string())), encoder, f) {
            fclose(f)
            throw AnimrtError(.notFound, "cannot write the trace file '\(path)': \(why)")
        }
        file = f
        self.tag = tag
        self.path = path
        self.encoder = encoder
        lines = 1
    }

    deinit { if let file { fclose(file) } }

    /// Writes `value` as one line and flushes it; nil, or why it failed.
    private static func put(_ value: some Encodable, _ encoder: JSONEncoder, _ file: UnsafeMutablePointer<FILE>) -> String? {
        guard let data = try? encoder.encode(value) else { return "it cannot be written as JSON" }
        let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == data.count, fputc(10, file) != EOF, fflush(file) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Writes a call that succeeded, with the digests after it.
    func record(_ call: TraceCall, runtime: Runtime) {
        guard failure == nil, let file else { return }
        let args = call.args.map { a -> TraceArgument in
            if case .handle(let raw) = a { return TraceArgument.id(raw, tag: tag) }
            return a
        }
        let values = call.name == "animrt_runtime_tick" ? runtime.presentationDigest() : nil
        let me = ThreadOrdinal.current
        let thread = threads[me] ?? threads.count
        threads[me] = thread
        if let why = Self.put(TraceLine(call: call.name, args: args, events: runtime.eventDigest?.value ?? 0, values: values,
                                        thread: thread == 0 ? nil : thread),
                              encoder, file) {
            failure = "writing line \(lines + 1) (\(call.name)) failed: \(why)"
        } else {
            lines += 1
        }
    }

    /// Closes the file; returns why the trace is incomplete, if it is.
    func finish() -> String? {
        guard let f = file else { return failure }
        file = nil
        if fclose(f) != 0 && failure == nil { failure = "closing it failed: \(String(cString: strerror(errno)))" }
        return failure
    }
}
