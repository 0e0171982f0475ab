// Recording the host's calls to a trace file, and replaying one.
import AnimationCore
import CAnimrt
import FoundationEssentials
import StateMachines

@c @implementation
public func animrt_trace_start(_ rt: OpaquePointer!, _ path: UnsafePointer<CChar>!) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    return RuntimeBox.with(rt) { box in
        withRuntime(rt) { r throws(AnimrtError) in
            let path = try string(path, "path")
            guard box.trace == nil else { throw AnimrtError(.state, "a trace is being recorded already (to '\(box.trace!.path)')") }
            if let use = box.firstUse {
                throw AnimrtError(.state, "start a trace before the runtime is used (\(use) before this start): a trace replays into a fresh runtime, so it must hold every call; functions and timing functions the host registers may come first")
            }
            box.trace = try TraceRecorder(path: path, tag: r.tag)
            r.eventDigest = EventDigest()
        }
    }
}

@c @implementation
public func animrt_trace_stop(_ rt: OpaquePointer!) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    return RuntimeBox.with(rt) { box in
        withRuntime(rt) { r throws(AnimrtError) in
            guard let trace = box.trace else { throw AnimrtError(.state, "no trace is being recorded") }
            box.trace = nil
            if let why = trace.finish() {
                throw AnimrtError(.notFound, "the trace file '\(trace.path)' is incomplete: \(why); the calls from there on were not recorded")
            }
        }
    }
}

@c @implementation
public func animrt_trace_replay(_ rt: OpaquePointer!, _ path: UnsafePointer<CChar>!, _ calls: UnsafeMutablePointer<Int>!) -> animrt_status {
    // A replay refused before its first call made none: `calls` says so,
    // rather than keeping what the caller's variable held.
    calls?.pointee = 0
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    // The lines that hold something, with their numbers in the file: a blank
    // line is passed over, but it counts, so that a message names the line
    // an editor shows. A line ends at LF, a CR before it dropped with it: a
    // trace that went through a Windows editor or a mail ends its lines in
    // CRLF, which a String holds as one character, never split at "\n".
    var lines: [(number: Int, text: Substring)] = []
    var tag: UInt16 = 0
    var kept: Unmanaged<RuntimeBox>?
    // Read and check the file, and that the runtime is fresh, under the lock …
    let opened = RuntimeBox.with(rt) { box in
        withRuntime(rt) { r throws(AnimrtError) in
            let path = try string(path, "path")
            let data = try FileContents.read(path, what: "the trace", limit: nil)
            guard let text = String(validating: data, as: UTF8.self) else {
                throw AnimrtError(.invalidArgument, "the trace '\(path)' is not UTF-8: at \(firstNonUTF8(in: data))")
            }
            lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).enumerated()
                .map { (number: $0.offset + 1, text: Substring($0.element.last == 13 ? $0.element.dropLast() : $0.element)) }
                .filter { !$0.text.isEmpty }
            guard let first = lines.first?.text, JSONSyntax.firstTooDeep(in: Array(first.utf8), limit: Replay.maxDepth) == nil, let header = try? JSONDecoder().decode(TraceHeader.self, from: Data(first.utf8)),
                  header.animrt == "trace" else {
                throw AnimrtError(.invalidArgument, "'\(path)' is not an animrt trace (its first line is not a trace header)")
            }
            guard header.format == 1 else {
                throw AnimrtError(.invalidArgument, "the trace '\(path)' is in format \(header.format), written by animrt \(header.version); this library (\(String(cString: animrt_version_string()))) replays format 1")
            }
            if let use = box.firstUse {
                throw AnimrtError(.state, "a trace replays into a fresh runtime; this one has been used: \(use)")
            }
            guard box.trace == nil else { throw AnimrtError(.state, "a trace replays into a fresh runtime; this one is recording a trace (to '\(box.trace!.path)')") }
            r.eventDigest = EventDigest()
            tag = r.tag
            // The event callback, or another thread, may destroy the runtime
            // in the middle: the box is kept until the replay returns, and
            // the replay stops there. Kept before the lock is let go: a
            // destroy waiting for it would otherwise free the box first.
            kept = Unmanaged.passUnretained(box).retain()
        }
    }
    guard opened == ANIMRT_OK else { return opened }
    defer { kept?.release() }
    // Each call reaches the transactions of the thread that made it; the
    // first thread's are the replaying thread's own, which keeps them after.
    defer { replay(rt, asThread: nil) }
    // … then make each call as the host made it (the calls take the lock).
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    var replayed = 0
    for (lineNumber, text) in lines.dropFirst() {
        // The decoder recurses once per level: a recorded line nests a few
        // levels, so an edited one that nests deeper is refused before it.
        let bytes = Array(text.utf8)
        if let p = JSONSyntax.firstTooDeep(in: bytes, limit: Replay.maxDepth) {
            calls?.pointee = replayed
            return fail(.invalidArgument, "trace line \(lineNumber) is not a recorded call: at column \(p.column), \(p.what)")
        }
        let line: TraceLine
        do { line = try decoder.decode(TraceLine.self, from: Data(bytes)) }
        catch {
            // The decoder says only that the line is not valid JSON, with no
            // place, when its syntax is broken (a line cut short, a number no
            // double holds): the scan places it.
            calls?.pointee = replayed
            let why = JSONSyntax.firstProblem(in: bytes).map { "at column \($0.column), \($0.what)" } ?? DecodingError.plainMessage(of: error)
            return fail(.invalidArgument, "trace line \(lineNumber) is not a recorded call: \(why)")
        }
        // The decoder keeps one of two members of one name without a word: a
        // line that says a thing twice (two calls, two digests) is refused,
        // not guessed at, as every JSON document the runtime reads is.
        if let p = JSONSyntax.firstDuplicate(in: bytes) {
            calls?.pointee = replayed
            return fail(.invalidArgument, "trace line \(lineNumber) is not a recorded call: at column \(p.column), \(p.what)")
        }
        guard let call = Replay.calls[line.call] else {
            calls?.pointee = replayed
            return fail(.invalidArgument, "trace line \(lineNumber) calls \(line.call), which a trace does not replay (docs/traces.md lists the calls it records)")
        }
        let arguments = ReplayArguments(args: line.args, tag: tag)
        let width = {
            RuntimeBox.locked(rt) { box in
                (try? box.runtime.valueKind(ofAnimation: Handle(raw: arguments.h(0))).componentCount) ?? 16
            }
        }
        if let problem = arguments.problem(line.call, call, width: width) {
            calls?.pointee = replayed
            return fail(.invalidArgument, "trace line \(lineNumber) is not a recorded call: \(problem)")
        }
        guard (line.thread ?? 0) >= 0 else {
            calls?.pointee = replayed
            return fail(.invalidArgument, "trace line \(lineNumber) is not a recorded call: its thread is \(line.thread!); threads are numbered from 0")
        }
        replay(rt, asThread: line.thread)
        let status = call.run(rt, arguments)
        if destroyedDuringReplay(rt) {
            calls?.pointee = replayed + (status == ANIMRT_OK ? 1 : 0)
            return fail(.state, "the runtime was destroyed during the replay, at trace line \(lineNumber) (\(line.call); by its event callback or another thread)")
        }
        guard status == ANIMRT_OK else {
            calls?.pointee = replayed
            let why = String(cString: animrt_last_error_message())
            return fail(.state, "the replay diverges at trace line \(lineNumber): \(line.call) succeeded when recorded and now fails: \(why)")
        }
        let digests: (events: UInt64, values: UInt64?) = RuntimeBox.locked(rt) { box in
            (box.runtime.eventDigest?.value ?? 0, line.values == nil ? nil : box.runtime.presentationDigest())
        }
        guard digests.events == line.events else {
            calls?.pointee = replayed
            return fail(.state, "the replay diverges at trace line \(lineNumber) (\(line.call)): the events reported differ from the recording")
        }
        guard digests.values == line.values else {
            calls?.pointee = replayed
            return fail(.state, "the replay diverges at trace line \(lineNumber) (\(line.call)): the presentation values differ from the recording")
        }
        replayed += 1
    }
    calls?.pointee = replayed
    return animrt_status(ANIMRT_OK)
}

extension RuntimeBox {
    /// The first use of the runtime a trace would miss (what it made or did,
    /// then its machines, then its plugins and bindings), as a message says
    /// it; nil for a fresh runtime, the only one a trace starts or replays in.
    var firstUse: String? { runtime.firstUse ?? machines.firstUse ?? plugins.firstUse }
}

/// Where `bytes`, which are not UTF-8, first break it: the line and column
/// an editor shows, and the byte (a trace edited and saved in another
/// encoding is found there, not searched for).
private func firstNonUTF8(in bytes: [UInt8]) -> String {
    let (offset, line, column) = FileContents.firstNonUTF8(bytes)
    let byte = offset < bytes.count ? " (the byte 0x\(String(bytes[offset], radix: 16)))" : ""
    return "line \(line), column \(column)\(byte)"
}

/// Makes the replaying thread's calls that follow reach the transactions of
/// the recorded thread `thread` (0 or nil: its own; the others get numbers
/// no live thread has, `ThreadOrdinal`'s being smaller than 2^63). Another
/// thread calling meanwhile still reaches its own (`Runtime.replayedThread`).
private func replay(_ rt: OpaquePointer, asThread thread: Int?) {
    RuntimeBox.locked(rt) { box in
        box.runtime.replayedThread = thread.flatMap { $0 == 0 ? nil : 1 << 63 | UInt64($0) }
    }
}

/// Whether `rt`, whose box the replay keeps, has been destroyed (by its
/// event callback or another thread): its runtime is gone, and nothing
/// more is replayed.
private func destroyedDuringReplay(_ rt: OpaquePointer) -> Bool {
    RuntimeBox.locked(rt) { $0.closing }
}
