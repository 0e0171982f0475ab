import CAnimrt
import Testing
@testable import animrt
#if canImport(Glibc)
import Glibc
#endif

/// A runtime through the C ABI, destroyed at the end of the test.
final class CRuntime {
    var rt: OpaquePointer?
    init() { _ = animrt_runtime_create(0, &rt) }
    deinit { animrt_runtime_destroy(rt) }
}

@Suite("R3.0.3 traces through the C ABI, driven from Swift")
struct TraceTests {
    /// A session: a machine spinning up, a basic animation, sends and ticks.
    func session(_ rt: OpaquePointer?) -> [Double] {
        var shown: [Double] = []
        var def: animrt_id = 0, m: animrt_id = 0, layer: animrt_id = 0, fade: animrt_id = 0
        var opacity: animrt_keypath = -1
        let json = #"{"name": "blink", "events": {"go": {}}, "parts": [{"name": "dot"}], "initial": "off", "states": {"off": {"on": {"go": "on"}}, "on": {"entry": [{"animate": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 0.3}, "part": "dot"}], "done": "off"}}}"#
        _ = animrt_definition_load(rt, json, &def)
        _ = animrt_machine_create(rt, def, 0, nil, &m)
        _ = animrt_machine_part(rt, m, "dot", &layer)
        _ = animrt_keypath_id(rt, "opacity", &opacity)
        _ = animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &fade)
        var to = 0.5
        _ = animrt_animation_set_value(rt, fade, ANIMRT_TO, &to, 1)
        for i in 0...30 {
            if i % 10 == 2 { _ = animrt_machine_send_json(rt, m, "go", nil, nil) }
            if i == 25 { _ = animrt_layer_add_animation(rt, layer, fade, "fade", 0, nil) }
            _ = animrt_runtime_tick(rt, Double(i) * 0.05)
            var v = 0.0, n = 0
            _ = animrt_layer_get_presentation(rt, layer, opacity, &v, 1, &n)
            shown.append(v)
        }
        return shown
    }

    @Test("a recorded session replays with the same digests; the runtime is then where the recorded one was")
    func replay() throws {
        let path = "/tmp/animrt-swift-\(getpid()).trace"
        defer { unlink(path) }
        let a = CRuntime()
        #expect(animrt_trace_start(a.rt, path) == ANIMRT_OK)
        let original = withExtendedLifetime(a) { session(a.rt) }
        #expect(animrt_trace_stop(a.rt) == ANIMRT_OK)
        let b = CRuntime()
        var calls = 0
        #expect(animrt_trace_replay(b.rt, path, &calls) == ANIMRT_OK, "\(String(cString: animrt_last_error_message()))")
        #expect(calls > 35)
        // The same session run afresh shows the same values to the bit.
        let c = CRuntime()
        let again = withExtendedLifetime(c) { session(c.rt) }
        #expect(original.map(\.bitPattern) == again.map(\.bitPattern))
        #expect(original.contains { $0 > 0 && $0 < 1 })
    }

    /// The text of the file at `path`, nil when it cannot be read.
    func contents(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = fread(&buffer, 1, buffer.count, f), n > 0 { bytes += buffer[..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replays `lines` (after a trace header) into a fresh runtime: its
    /// status and message.
    func replay(_ lines: [String], header: String = #"{"animrt": "trace", "format": 1, "version": "0.3.0"}"#) -> (animrt_status, String) {
        let (status, why, _) = replay(lines, into: CRuntime(), header: header)
        return (status, why)
    }

    /// Replays `lines` (after a trace header) into `r`: its status, message
    /// and the count of calls it made.
    func replay(_ lines: [String], into r: CRuntime,
                header: String = #"{"animrt": "trace", "format": 1, "version": "0.3.0"}"#) -> (animrt_status, String, Int) {
        // A file of its own: the test cases run at the same time.
        var template = Array("/tmp/animrt-swift-edited-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return (animrt_status(-1), "cannot make a temporary file", 0) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let text = ([header] + lines).joined(separator: "\n") + "\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        var calls = 0
        let status = animrt_trace_replay(r.rt, path, &calls)
        return (status, String(cString: animrt_last_error_message()), calls)
    }

    /// A trace of a later format (a newer library's) is named as such, with
    /// the version that wrote it, not called something other than a trace.
    @Test("R3.0.3 a trace of another format is refused naming its format and writer")
    func otherFormat() {
        let (status, why) = replay([], header: #"{"animrt": "trace", "format": 2, "version": "0.9.1"}"#)
        #expect(status == ANIMRT_E_INVALID)
        #expect(why.hasSuffix("is in format 2, written by animrt 0.9.1; this library (0.3.0) replays format 1"), "\(why)")
        let (other, not) = replay([], header: #"{"animrt": "log", "format": 1, "version": "0.3.0"}"#)
        #expect(other == ANIMRT_E_INVALID)
        #expect(not.hasSuffix("is not an animrt trace (its first line is not a trace header)"), "\(not)")
    }

    /// A trace is a file someone sends with a bug report: an edited or cut
    /// line must be refused, never make a call read past what the line
    /// holds (a count larger than its array, a missing argument).
    @Test("R0.3 an edited trace line is refused before its call: missing arguments, counts past their arrays", arguments: [
        (#"{"call": "animrt_layer_destroy", "args": [], "events": 0}"#,
         "trace line 2 is not a recorded call: animrt_layer_destroy is recorded with 1 argument, and the line has 0"),
        (#"{"call": "animrt_layer_set_parent", "args": [{"h": 1}, {"h": 2}, {"h": 3}], "events": 0}"#,
         "animrt_layer_set_parent is recorded with 2 arguments, and the line has 3"),
        (#"{"call": "animrt_layer_set_value", "args": [{"h": 1}, {"i": 0}, {"D": [1]}, {"i": 1000000}], "events": 0}"#,
         "argument 4 of animrt_layer_set_value says 1000000, and its array (argument 3) holds 1"),
        (#"{"call": "animrt_layer_set_value", "args": [{"h": 1}, {"i": 0}, {"D": [1]}, {"i": -1}], "events": 0}"#,
         "argument 4 of animrt_layer_set_value says -1, and its array (argument 3) holds 1"),
        (#"{"call": "animrt_keyframe_set_values", "args": [{"h": 1}, {"D": [1, 2]}, {"i": 4611686018427387904}, {"i": 4}], "events": 0}"#,
         "argument 3 of animrt_keyframe_set_values says 4611686018427387904 × 4, and its array (argument 2) holds 2"),
        (#"{"call": "animrt_reader_create", "args": [{"H": [1, 2]}, {"I": [0]}, {"i": 2}], "events": 0}"#,
         "argument 3 of animrt_reader_create says 2, and its array (argument 2) holds 1"),
        (#"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [{"number": 1}]}, {"i": 3}], "events": 0}"#,
         "argument 4 of animrt_machine_send says 3, and its array (argument 3) holds 1"),
        (#"{"call": "animrt_layer_create_many", "args": [{"h": 0}, {"i": 1099511627776}], "events": 0}"#,
         "animrt_layer_create_many asks for 1099511627776 layers; a runtime holds at most 16777215"),
        // A value column of an unknown animation needs 16 numbers an animation (the widest value).
        (#"{"call": "animrt_layer_add_animations", "args": [{"h": 1}, {"H": [1]}, {"I": [16]}, {"I": [1]}, {"D": [0.5]}, {"s": null}, {"i": 1}, {"h": 0}], "events": 0}"#,
         "a column of animrt_layer_add_animations holds 1 numbers where 1 animations need 16"),
        (#"{"call": "animrt_layer_add_animations", "args": [{"h": 1}, {"H": [1]}, {"I": [0, 1]}, {"I": [1, -1]}, {"D": [0.5]}, {"s": null}, {"i": 1}, {"h": 0}], "events": 0}"#,
         "a column of animrt_layer_add_animations holds -1 numbers where 1 animations need 1"),
        (#"{"call": "animrt_layer_add_animations", "args": [{"h": 1}, {"H": [1]}, {"I": [0, 1]}, {"I": [1, 1]}, {"D": [0.5]}, {"s": null}, {"i": 1}, {"h": 0}], "events": 0}"#,
         "a column of animrt_layer_add_animations holds 1 numbers where 1 animations need 1, or more than the line has"),
        // A field past 32 bits would reach the call cut to its low ones (17: a
        // "to" column of 16 numbers an animation, counted here as 1).
        (#"{"call": "animrt_layer_add_animations", "args": [{"h": 1}, {"H": [1]}, {"I": [-4294967279]}, {"I": [1]}, {"D": [0.5]}, {"s": null}, {"i": 1}, {"h": 0}], "events": 0}"#,
         "a column of animrt_layer_add_animations has the field -4294967279, which no animrt_column_field is"),
        (#"{"call": "animrt_keypath_id", "args": [{"s": "opacity\u0000junk"}], "events": 0}"#,
         "argument 1 of animrt_keypath_id has a NUL character in its text, which a C string cannot carry"),
        (#"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [{"string": "a\u0000b"}]}, {"i": 1}], "events": 0}"#,
         "argument 3 of animrt_machine_send has a NUL character in its text"),
        (#"{"call": "animrt_layer_destroy", "args": [{"h": 1}], "events": 0, "x": "# + String(repeating: "[", count: 100_000) + "}",
         "trace line 2 is not a recorded call: at column 79, objects and arrays nest more than 8 levels deep here"),
        // Every array a call reads is held to its count, not only the first of a call that takes several.
        (#"{"call": "animrt_reader_create", "args": [{"H": [1]}, {"I": [0, 0]}, {"i": 2}], "events": 0}"#,
         "argument 3 of animrt_reader_create says 2, and its array (argument 1) holds 1"),
        (#"{"call": "animrt_keyframe_set_spline", "args": [{"h": 1}, {"D": [0, 0]}, {"D": [0, 0]}, {"D": [0]}, {"i": 2}], "events": 0}"#,
         "argument 5 of animrt_keyframe_set_spline says 2, and its array (argument 4) holds 1"),
        (#"{"call": "animrt_keyframe_set_path", "args": [{"h": 1}, {"I": [0]}, {"i": 1}, {"D": [0, 0]}, {"i": 4}], "events": 0}"#,
         "argument 5 of animrt_keyframe_set_path says 4, and its array (argument 4) holds 2"),
        (#"{"call": "animrt_keyframe_set_timing_functions", "args": [{"h": 1}, {"S": ["linear", "ease\u0000In"]}, {"i": 2}], "events": 0}"#,
         "argument 2 of animrt_keyframe_set_timing_functions has a NUL character in its text"),
        // The other calls that read an array by a count: each count is held to its array too.
        (#"{"call": "animrt_property_define", "args": [{"s": "glow"}, {"i": 0}, {"D": [1]}, {"i": 3}], "events": 0}"#,
         "argument 4 of animrt_property_define says 3, and its array (argument 3) holds 1"),
        (#"{"call": "animrt_animation_set_value", "args": [{"h": 1}, {"i": 1}, {"D": [1]}, {"i": 2}], "events": 0}"#,
         "argument 4 of animrt_animation_set_value says 2, and its array (argument 3) holds 1"),
        (#"{"call": "animrt_keyframe_set_key_times", "args": [{"h": 1}, {"D": [0, 1]}, {"i": 3}], "events": 0}"#,
         "argument 3 of animrt_keyframe_set_key_times says 3, and its array (argument 2) holds 2"),
        (#"{"call": "animrt_keyframe_set_timing_functions", "args": [{"h": 1}, {"S": ["linear"]}, {"i": 2}], "events": 0}"#,
         "argument 3 of animrt_keyframe_set_timing_functions says 2, and its array (argument 2) holds 1"),
        (#"{"call": "animrt_keyframe_set_path", "args": [{"h": 1}, {"I": [0]}, {"i": 2}, {"D": [0, 0, 1, 1]}, {"i": 4}], "events": 0}"#,
         "argument 3 of animrt_keyframe_set_path says 2, and its array (argument 2) holds 1"),
        (#"{"call": "animrt_layer_add_animations", "args": [{"h": 1}, {"H": [1]}, {"I": []}, {"I": []}, {"D": []}, {"s": null}, {"i": 3}, {"h": 0}], "events": 0}"#,
         "argument 7 of animrt_layer_add_animations says 3, and its array (argument 2) holds 1"),
        (#"{"call": "animrt_animation_retarget", "args": [{"h": 1}, {"D": [1]}, {"i": 2}], "events": 0}"#,
         "argument 3 of animrt_animation_retarget says 2, and its array (argument 2) holds 1"),
        // A count of layers below 0 or one past the limit, refused before the replay makes room for their handles.
        (#"{"call": "animrt_layer_create_many", "args": [{"h": 0}, {"i": -1}], "events": 0}"#,
         "animrt_layer_create_many asks for -1 layers; a runtime holds at most 16777215"),
        (#"{"call": "animrt_layer_create_many", "args": [{"h": 0}, {"i": 16777216}], "events": 0}"#,
         "animrt_layer_create_many asks for 16777216 layers; a runtime holds at most 16777215"),
        // A handle (of this runtime or another) only where the call takes one.
        (#"{"call": "animrt_runtime_tick", "args": [{"f": 5}], "events": 0}"#,
         "argument 1 of animrt_runtime_tick is a handle, where the call takes a number"),
    ])
    func editedLines(line: String, message: String) {
        let (status, why) = replay([line])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why.contains(message), "\(why)")
    }

    /// The decoder says only "The given data was not valid JSON." of a line
    /// cut short, of a number no double holds, and of a handle or whole
    /// number that is not whole or past its type's range: each is refused
    /// saying what and where (the column, or the argument).
    @Test("R0.3 a line cut short or a number that does not fit is refused saying what and where", arguments: [
        (#"{"call": "animrt_layer_destroy", "args": [{"h": 1}], "events": 0"#,
         "trace line 2 is not a recorded call: at column 65, the text ends inside an object"),
        (#"{"call": "animrt_runtime_tick", "args": [{"d": 1e400}], "events": 0}"#,
         "trace line 2 is not a recorded call: at column 48, the number 1e400 is too large for a double"),
        (#"{"call": "animrt_layer_destroy", "args": [{"h": 1.5}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[0].h: 1.5 is not a whole number; a handle is a whole number from 0 to 2^64 - 1"),
        (#"{"call": "animrt_layer_destroy", "args": [{"h": 18446744073709551616}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[0].h: 1.8446744073709552e+19 is out of range; a handle is a whole number from 0 to 2^64 - 1"),
        (#"{"call": "animrt_runtime_set_threads", "args": [{"i": 1e30}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[0].i: 1e+30 is out of range; a whole-number argument is from -2^63 to 2^63 - 1"),
        (#"{"call": "animrt_reader_create", "args": [{"H": [1, -3]}, {"I": [0, 0]}, {"i": 2}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[0].H[1]: -3.0 is out of range; a handle is a whole number from 0 to 2^64 - 1"),
        (#"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [{"integer": 2.5}]}, {"i": 1}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[2].V[0].integer: 2.5 is not a whole number; an integer value is from -2^63 to 2^63 - 1"),
        // A payload value is one tagged value: none, or two (the decoder would keep the first it tries).
        (#"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [{}]}, {"i": 1}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[2].V[0]: a payload value has one tag (number, bool, string, integer or pointer); this one has 0"),
        (#"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [{"number": 1, "string": "a"}]}, {"i": 1}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[2].V[0]: a payload value has one tag (number, bool, string, integer or pointer); this one has 2"),
        // A whole number the C function takes in 32 bits (unsigned for an
        // enum or a count of threads, signed for a flag or a list of path
        // commands), cut to its low 32 bits, would replay 2^32 + 1 threads as 1.
        (#"{"call": "animrt_runtime_set_threads", "args": [{"i": 4294967297}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 1 of animrt_runtime_set_threads is 4294967297, which its C parameter (unsigned 32 bits) holds from 0 to 4294967295"),
        (#"{"call": "animrt_runtime_set_threads", "args": [{"i": -1}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 1 of animrt_runtime_set_threads is -1, which its C parameter (unsigned 32 bits) holds from 0 to 4294967295"),
        (#"{"call": "animrt_layer_set_autoreverses", "args": [{"h": 1}, {"i": 2147483648}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 2 of animrt_layer_set_autoreverses is 2147483648, which its C parameter (signed 32 bits) holds from -2147483648 to 2147483647"),
        (#"{"call": "animrt_layer_set_autoreverses", "args": [{"h": 1}, {"i": -2147483649}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 2 of animrt_layer_set_autoreverses is -2147483649, which its C parameter (signed 32 bits) holds from -2147483648 to 2147483647"),
        (#"{"call": "animrt_keyframe_set_path", "args": [{"h": 1}, {"I": [0, 4294967296]}, {"i": 2}, {"D": [0, 0, 1, 1]}, {"i": 4}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 2 of animrt_keyframe_set_path has 4294967296 at index 1, which its C parameter (signed 32 bits) holds from -2147483648 to 2147483647"),
        // A key path id is a signed 32-bit index: 2^32 + 0 would be replayed as key path 0.
        (#"{"call": "animrt_layer_set_value", "args": [{"h": 1}, {"i": 4294967296}, {"D": [1]}, {"i": 1}], "events": 0}"#,
         "trace line 2 is not a recorded call: argument 2 of animrt_layer_set_value is 4294967296, which its C parameter (signed 32 bits) holds from -2147483648 to 2147483647"),
        // An argument is one tagged value: two tags are refused, not one of them guessed at.
        (#"{"call": "animrt_layer_destroy", "args": [{"h": 1, "d": 2}], "events": 0}"#,
         "trace line 2 is not a recorded call: args[0]: an argument has one tag"),
    ])
    func misfitLines(line: String, message: String) {
        let (status, why) = replay([line])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why.contains(message), "\(why)")
    }

    /// At their 32-bit edges the call is made (and found to differ from a
    /// recording whose event digest was not 0, or refused by the call itself).
    @Test("a whole number at its C parameter's 32-bit edge is replayed", arguments: [
        #"{"call": "animrt_runtime_set_threads", "args": [{"i": 4294967295}], "events": 1}"#,
        #"{"call": "animrt_runtime_set_threads", "args": [{"i": 0}], "events": 1}"#,
        #"{"call": "animrt_layer_set_autoreverses", "args": [{"h": 1}, {"i": 2147483647}], "events": 1}"#,
        #"{"call": "animrt_layer_set_autoreverses", "args": [{"h": 1}, {"i": -2147483648}], "events": 1}"#,
    ])
    func narrowWholeNumbersAtTheEdge(line: String) {
        let (status, why) = replay([line])
        #expect(status != ANIMRT_E_INVALID, "\(why)")
        #expect(!why.contains("is not a recorded call"), "\(why)")
    }

    /// The decoder keeps one of two members of one name without a word: a
    /// line with two calls would make one of them, a line with two digests
    /// check one. Refused, at the second, as every JSON document the
    /// runtime reads is.
    @Test("R0.3 a trace line that names a member twice is refused, not guessed at")
    func duplicateMembers() {
        let (status, why) = replay([#"{"call": "animrt_layer_create", "call": "animrt_layer_destroy", "args": [{"h": 0}], "events": 0}"#])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why == #"trace line 2 is not a recorded call: at column 33, the member "call" appears twice in this object"#, "\(why)")
        let (again, digest) = replay([#"{"call": "animrt_layer_create", "args": [{"h": 0}], "events": 14695981039346656037, "events": 0}"#])
        #expect(again == ANIMRT_E_INVALID)
        #expect(digest.contains(#"the member "events" appears twice in this object"#), "\(digest)")
    }

    /// A recorded line nests four levels; an edited one is read up to 8
    /// levels deep (its extra member passed over: the call is made, and
    /// found to differ from a recording whose event digest was not 0), and
    /// refused at 9, at the column where the ninth level opens.
    @Test("a trace line nests at most 8 levels: 8 are read, 9 are refused before they are decoded")
    func lineDepth() {
        let line = { (levels: Int) in
            #"{"call": "animrt_runtime_tick", "args": [{"d": 0.5}], "events": 0, "x": "#
                + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        }
        let (atStatus, atWhy) = replay([line(8)])
        #expect(atStatus == ANIMRT_E_STATE)
        #expect(atWhy == "the replay diverges at trace line 2 (animrt_runtime_tick): the events reported differ from the recording", "\(atWhy)")
        let (status, why) = replay([line(9)])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why == "trace line 2 is not a recorded call: at column 80, objects and arrays nest more than 8 levels deep here", "\(why)")
    }

    /// A handle of another runtime in a trace (`f`) names nothing in the
    /// replaying one, even where its slot is one the replay made: a call
    /// that takes it fails, as it would have when recorded.
    @Test("a handle of another runtime is replayed as no runtime's, not as this runtime's object of the same slot")
    func foreignHandle() throws {
        let path = "/tmp/animrt-swift-foreign-\(getpid()).trace"
        defer { unlink(path) }
        let a = CRuntime()
        var layer: animrt_id = 0
        #expect(animrt_trace_start(a.rt, path) == ANIMRT_OK)
        #expect(animrt_layer_create(a.rt, 0, &layer) == ANIMRT_OK)
        #expect(animrt_layer_destroy(a.rt, layer) == ANIMRT_OK)
        #expect(animrt_trace_stop(a.rt) == ANIMRT_OK)
        let recorded = try #require(contents(path))
        var lines = recorded.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[2].contains(#""call":"animrt_layer_destroy""#), "\(lines)")
        // The same slot, generation and kind, recorded as another runtime's.
        lines[2] = lines[2].replacing(#"[{"h":"#, with: #"[{"f":"#)
        let (status, why) = replay(Array(lines.dropFirst()), header: lines[0])
        #expect(status == ANIMRT_E_STATE)
        #expect(why.hasPrefix("the replay diverges at trace line 3: animrt_layer_destroy succeeded when recorded and now fails: "), "\(why)")
        #expect(why.hasSuffix("belongs to another runtime"), "\(why)")
    }

    /// Blank lines (a trace pasted into a report, or edited) are passed over
    /// but counted: a message names the line as an editor numbers it.
    @Test("a trace line's number counts the blank lines before it")
    func blankLinesCount() {
        let (status, why) = replay(["", "", #"{"call": "animrt_layer_destroy", "args": [], "events": 0}"#, ""])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why.contains("trace line 4 is not a recorded call: animrt_layer_destroy is recorded with 1 argument"), "\(why)")
    }

    /// Two lines of a recorded session: a layer made, then a tick.
    func recordedLayerAndTick() throws -> (header: String, lines: [String]) {
        let path = "/tmp/animrt-swift-layer-\(getpid())-\(UInt.random(in: 0...UInt.max)).trace"
        defer { unlink(path) }
        let a = CRuntime()
        var layer: animrt_id = 0
        #expect(animrt_trace_start(a.rt, path) == ANIMRT_OK)
        #expect(animrt_layer_create(a.rt, 0, &layer) == ANIMRT_OK)
        #expect(animrt_runtime_tick(a.rt, 0.5) == ANIMRT_OK)
        #expect(animrt_trace_stop(a.rt) == ANIMRT_OK)
        let all = try #require(contents(path)).split(separator: "\n").map(String.init)
        #expect(all.count == 3, "\(all)")
        return (all[0], Array(all.dropFirst()))
    }

    /// A line naming a call a trace does not hold (one that is never
    /// recorded, or no call of animrt at all) is refused where it stands;
    /// the calls before it were made, and `calls` counts them (R3.0.3, R0.3).
    @Test("R0.3 a trace line naming a call a trace does not replay is refused, the calls before it counted", arguments: [
        "animrt_function_call", "animrt_runtime_destroy", "animrt_no_such_call",
    ])
    func callNotReplayed(call: String) throws {
        let (header, recorded) = try recordedLayerAndTick()
        let r = CRuntime()
        let line = #"{"call": "\#(call)", "args": [], "events": 0}"#
        let (status, why, calls) = replay([recorded[0], line, recorded[1]], into: r, header: header)
        #expect(status == ANIMRT_E_INVALID)
        #expect(why == "trace line 3 calls \(call), which a trace does not replay (docs/traces.md lists the calls it records)", "\(why)")
        #expect(calls == 1)
        // The tick after the refused line was not made.
        var now = -1.0
        #expect(animrt_runtime_time(r.rt, &now) == ANIMRT_OK && now == 0)
        // Without the line, the same trace replays whole.
        let (whole, wholeWhy, wholeCalls) = replay(recorded, into: CRuntime(), header: header)
        #expect(whole == ANIMRT_OK, "\(wholeWhy)")
        #expect(wholeCalls == 2)
    }

    /// A payload value tagged "pointer" is read as a whole number from 0 to
    /// 2^64 - 1, a misfit (or a null under any tag) refused saying what and
    /// where, before the call; a whole one is read and the call made.
    @Test("R0.3 a pointer payload value is read as a whole number and refused by the call", arguments: [
        (#"{"pointer": 1.5}"#, ANIMRT_E_INVALID,
         "trace line 2 is not a recorded call: args[2].V[0].pointer: 1.5 is not a whole number; a pointer value is a whole number from 0 to 2^64 - 1"),
        (#"{"pointer": -1}"#, ANIMRT_E_INVALID,
         "trace line 2 is not a recorded call: args[2].V[0].pointer: -1.0 is out of range; a pointer value is a whole number from 0 to 2^64 - 1"),
        (#"{"pointer": "0x10"}"#, ANIMRT_E_INVALID, "trace line 2 is not a recorded call: args[2].V[0].pointer is not a whole number"),
        // A null under a tag is no value of it (not a pointer found missing).
        (#"{"number": null}"#, ANIMRT_E_INVALID,
         "trace line 2 is not a recorded call: args[2].V[0].number: null is no number value; a payload value holds what its tag names"),
        (#"{"pointer": null}"#, ANIMRT_E_INVALID,
         "trace line 2 is not a recorded call: args[2].V[0].pointer: null is no pointer value; a payload value holds what its tag names"),
        (#"{"pointer": 16}"#, ANIMRT_E_STATE,
         "the replay diverges at trace line 2: animrt_machine_send succeeded when recorded and now fails: "),
    ])
    func pointerValues(value: String, status expected: Int, message: String) {
        let line = #"{"call": "animrt_machine_send", "args": [{"h": 1}, {"i": 0}, {"V": [\#(value)]}, {"i": 1}], "events": 0}"#
        let (status, why) = replay([line])
        #expect(status == expected, "\(why)")
        // A whole one is read and the call made (it fails here: handle 1 names no machine).
        #expect(expected == ANIMRT_E_STATE ? why.hasPrefix(message) : why == message, "\(why)")
    }

    /// A list of handles or whole numbers with an element that is no number
    /// at all is refused as the decoder refuses it, placed at the list.
    @Test("R0.3 a list of handles or whole numbers holding a text is refused, placed", arguments: [
        (#"{"call": "animrt_reader_create", "args": [{"H": [1, "2"]}, {"I": [0, 0]}, {"i": 2}], "events": 0}"#, "args[0].H"),
        (#"{"call": "animrt_reader_create", "args": [{"H": [1, 2]}, {"I": [0, null]}, {"i": 2}], "events": 0}"#, "args[1].I"),
        (#"{"call": "animrt_reader_create", "args": [{"H": 1}, {"I": [0]}, {"i": 1}], "events": 0}"#, "args[0].H"),
    ])
    func listsOfWholeNumbers(line: String, place: String) {
        let (status, why) = replay([line])
        #expect(status == ANIMRT_E_INVALID)
        #expect(why.hasPrefix("trace line 2 is not a recorded call: \(place)"), "\(why)")
    }

    /// Every function a trace replays reads only the arguments its arity
    /// counts (else the check above would let a short line index past its
    /// end): each is replayed with that many arguments, of the kinds it
    /// takes (another kind is refused before the call) and empty or zero,
    /// and returns a status.
    @Test("every replayed function reads no argument past its arity")
    func arities() {
        for (name, call) in Replay.calls.sorted(by: { $0.key < $1.key }) {
            let args = call.kinds.map { Replay.Call.tag($0) }.map { k in
                let empty = "hdi".contains(k) ? "0" : k == "s" ? "null" : "[]"
                return #"{"\#(k)": \#(empty)}"#
            }.joined(separator: ", ")
            let (status, why) = replay([#"{"call": "\#(name)", "args": [\#(args)], "events": 0}"#])
            #expect(!why.contains("is not a recorded call"), "\(name): \(why)")
            _ = status
        }
        #expect(Replay.calls.count == 66)
    }
}
