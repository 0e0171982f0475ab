// Replaying a trace: each recorded call is made again through the same C
// function, with its recorded arguments (handles given this runtime's tag),
// and must succeed and leave the same event digest (and, after a tick, the
// same presentation digest) as it did when it was recorded.
import AnimationCore
import CAnimrt
#if canImport(Glibc)
import Glibc
#endif

/// The recorded arguments of one call, as C arguments.
struct ReplayArguments {
    let args: [TraceArgument]
    let tag: UInt16

    func h(_ i: Int) -> animrt_id {
        switch args[i] {
        case .handle(let low): return low == 0 ? 0 : UInt64(tag) << 48 | low
        // Another runtime's handle: given a tag that is not this runtime's.
        case .foreignHandle(let raw): return raw & ~TraceArgument.tagMask | UInt64(tag ^ 0x8000) << 48
        default: return 0
        }
    }

    func d(_ i: Int) -> Double { if case .number(let d) = args[i] { return d }; return .nan }
    func i(_ i: Int) -> Int64 { if case .integer(let v) = args[i] { return v }; return 0 }

    func text<R>(_ i: Int, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard case .text(let s?) = args[i] else { return body(nil) }
        return s.withCString(body)
    }

    func numbers<R>(_ i: Int, _ body: (UnsafePointer<Double>?) -> R) -> R {
        guard case .numbers(let d?) = args[i] else { return body(nil) }
        return d.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// A recorded key path index as this runtime's id.
    func keyPath(_ k: Int) -> animrt_keypath { KeyPathIDs.id(Int32(truncatingIfNeeded: i(k)), tag: tag) }

    /// Recorded key path indices as this runtime's ids.
    func keyPaths<R>(_ k: Int, _ body: (UnsafePointer<animrt_keypath>?) -> R) -> R {
        guard case .integers(let v) = args[k] else { return body(nil) }
        return v.map { KeyPathIDs.id(Int32(truncatingIfNeeded: $0), tag: tag) }.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    func int32s<R>(_ i: Int, _ body: (UnsafePointer<Int32>?) -> R) -> R {
        guard case .integers(let v) = args[i] else { return body(nil) }
        return v.map { Int32(truncatingIfNeeded: $0) }.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    func handles<R>(_ i: Int, _ body: (UnsafePointer<animrt_id>?) -> R) -> R {
        guard case .handles(let v) = args[i] else { return body(nil) }
        let tagged = v.map { $0 == 0 ? 0 : UInt64(tag) << 48 | $0 & ~TraceArgument.tagMask }
        return tagged.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    func texts<R>(_ i: Int, _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        guard case .texts(let v) = args[i] else { return body(nil) }
        let copies: [UnsafeMutablePointer<CChar>?] = v.map { $0.map { strdup($0)! } }
        defer { for c in copies { free(c) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// Columns of a bulk add recorded as fields (`i`), lengths (`i + 1`)
    /// and numbers end to end (`i + 2`).
    func columns<R>(_ i: Int, _ body: (UnsafePointer<animrt_column>?, Int) -> R) -> R {
        guard case .integers(let fields) = args[i], case .integers(let lengths) = args[i + 1],
              case .numbers(let flat?) = args[i + 2], fields.count == lengths.count else { return body(nil, 0) }
        return flat.withUnsafeBufferPointer { numbers in
            var offset = 0
            var list: [animrt_column] = []
            for (f, n) in zip(fields, lengths) {
                list.append(animrt_column(field: animrt_column_field(rawValue: UInt32(truncatingIfNeeded: f)),
                                          values: numbers.baseAddress.map { $0 + offset }))
                offset += Int(truncatingIfNeeded: n)
            }
            return list.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
        }
    }

    /// Says how whole-number argument `k` (or an element of its list) lies
    /// outside `range`; nil when all of it is inside.
    func outside(_ range: ClosedRange<Int64>, _ k: Int) -> String? {
        switch args[k] {
        case .integer(let v): return range.contains(v) ? nil : "is \(v)"
        case .integers(let list):
            return list.firstIndex { !range.contains($0) }.map { "has \(list[$0]) at index \($0)" }
        default: return nil
        }
    }

    /// How many elements array argument `i` holds; nil for NULL or a scalar.
    func length(_ i: Int) -> Int? {
        switch args[i] {
        case .numbers(let d): d?.count
        case .texts(let v): v.count
        case .handles(let v): v.count
        case .integers(let v): v.count
        case .values(let v): v.count
        default: nil
        }
    }

    /// Why a line of `call` cannot be made again without reading past what
    /// it holds (an edited or truncated trace), or nil. A recorded line
    /// holds every argument, and each array as many elements as its count
    /// says (the recorder copied that many); the C function would read
    /// that many, so a line that says more is refused before the call.
    func problem(_ call: String, _ entry: Replay.Call, width: () -> Int) -> String? {
        guard args.count == entry.arity else {
            return "\(call) is recorded with \(entry.arity) argument\(entry.arity == 1 ? "" : "s"), and the line has \(args.count)"
        }
        for (k, (arg, kind)) in zip(args, entry.kinds).enumerated() {
            let tag = Replay.Call.tag(kind)
            guard arg.kind == tag || kind == "h" && arg.kind == "f" else {
                return "argument \(k + 1) of \(call) is \(TraceArgument.described(arg.kind)), where the call takes \(TraceArgument.described(tag))"
            }
            if let range = Replay.Call.range(kind), let v = outside(range, k) {
                return "argument \(k + 1) of \(call) \(v), which its C parameter (\(kind == "u" ? "unsigned" : "signed") 32 bits) holds from \(range.lowerBound) to \(range.upperBound)"
            }
        }
        // A recorded text came from a C string, so it holds no NUL: one
        // edited in would cut the text short where the call reads it.
        for (k, arg) in args.enumerated() {
            let texts: [String?]
            switch arg {
            case .text(let s): texts = [s]
            case .texts(let v): texts = v
            case .values(let v): texts = v.map { if case .string(let s) = $0 { s } else { nil } }
            default: texts = []
            }
            if texts.contains(where: { $0?.utf8.contains(0) == true }) {
                return "argument \(k + 1) of \(call) has a NUL character in its text, which a C string cannot carry"
            }
        }
        for (array, count, times) in Replay.arrays[call] ?? [] {
            guard let held = length(array) else { continue }  // NULL: the call refuses it
            let (needed, overflow) = i(count).multipliedReportingOverflow(by: times.map { i($0) } ?? 1)
            guard !overflow, needed >= 0, needed <= held else {
                return "argument \(count + 1) of \(call) says \(i(count))\(times.map { " × \(i($0))" } ?? ""), and its array (argument \(array + 1)) holds \(held)"
            }
        }
        if call == "animrt_layer_create_many", !(0...Int64(Limits.objects)).contains(i(1)) {
            return "\(call) asks for \(i(1)) layers; a runtime holds at most \(Limits.objects)"
        }
        if call == "animrt_layer_add_animations", case .integers(let fields) = args[2], case .integers(let lengths) = args[3],
           case .numbers(let flat?) = args[4] {
            guard fields.count == lengths.count else { return "\(call) has \(fields.count) column fields and \(lengths.count) lengths" }
            var total: Int64 = 0
            for (f, n) in zip(fields, lengths) {
                // A recorded field is an animrt_column_field: one past 32 bits
                // would reach the call cut to its low 32 bits, a value column
                // that reads a value's width per animation where a timing one
                // was counted here.
                guard let field = Int32(exactly: f) else {
                    return "a column of \(call) has the field \(f), which no animrt_column_field is"
                }
                let per = field >= BulkField.valueBase ? Int64(width()) : 1
                let (needed, overflow) = i(6).multipliedReportingOverflow(by: per)
                guard !overflow, needed >= 0, n >= needed, n <= Int64(flat.count) - total else {
                    return "a column of \(call) holds \(n) numbers where \(i(6)) animations need \(overflow ? "more" : "\(needed)"), or more than the line has"
                }
                total += n
            }
        }
        return nil
    }

    func values<R>(_ i: Int, _ body: (UnsafePointer<animrt_value>?) -> R) -> R {
        guard case .values(let v) = args[i] else { return body(nil) }
        var strings: [UnsafeMutablePointer<CChar>] = []
        let c = v.map { cValue($0, strings: &strings) }
        defer { for s in strings { free(s) } }
        return c.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

enum Replay {
    /// A recorded function: how many arguments its line holds, and how to
    /// call it again with them.
    struct Call: Sendable {
        /// The tag of each argument as the recorder writes it (`h` a handle,
        /// `d` a number, `i` a whole number, `s` a text, and in capitals a
        /// list of each, `V` of payload values): a line is refused before
        /// the call when one is of another kind, which would reach the call
        /// as 0, NaN or NULL. A whole number the C function takes in 32 bits
        /// is `u` (unsigned: an enum, a count of threads) or `n` (signed: a
        /// flag, a key path, an event), `N` a list of signed ones: recorded
        /// as `i` and `I`, and refused past 32 bits, which would reach the
        /// call cut to its low 32 (an edited 2^32 + 1 threads replayed as 1).
        let kinds: [Character]
        var arity: Int { kinds.count }

        /// The tag the recorder writes for an argument of kind `kind`.
        static func tag(_ kind: Character) -> Character {
            switch kind { case "u", "n": "i"; case "N": "I"; default: kind }
        }

        /// The values a whole number of kind `kind` may take; nil for 64 bits.
        static func range(_ kind: Character) -> ClosedRange<Int64>? {
            switch kind {
            case "u": 0...Int64(UInt32.max)
            case "n", "N": Int64(Int32.min)...Int64(Int32.max)
            default: nil
            }
        }
        let run: @Sendable (OpaquePointer, ReplayArguments) -> animrt_status
        init(_ kinds: String, _ run: @escaping @Sendable (OpaquePointer, ReplayArguments) -> animrt_status) {
            self.kinds = Array(kinds); self.run = run
        }
    }

    /// How deep a trace line's JSON may nest (a recorded one nests four
    /// levels: the line, its arguments, a tagged argument, an array in it).
    static let maxDepth = 8

    /// The array arguments of the functions that take them: (array, count,
    /// what the count is multiplied by), by index in the recorded line.
    static let arrays: [String: [(array: Int, count: Int, times: Int?)]] = [
        "animrt_property_define": [(2, 3, nil)],
        "animrt_layer_set_value": [(2, 3, nil)],
        "animrt_layer_set_values": [(0, 1, nil), (3, 4, nil)],
        "animrt_reader_create": [(0, 2, nil), (1, 2, nil)],
        "animrt_animation_set_value": [(2, 3, nil)],
        "animrt_keyframe_set_values": [(1, 2, 3)],
        "animrt_keyframe_set_key_times": [(1, 2, nil)],
        "animrt_keyframe_set_timing_functions": [(1, 2, nil)],
        "animrt_keyframe_set_spline": [(1, 4, nil), (2, 4, nil), (3, 4, nil)],
        "animrt_keyframe_set_path": [(1, 2, nil), (3, 4, nil)],
        "animrt_layer_add_animations": [(1, 6, nil)],
        "animrt_animation_retarget": [(1, 2, nil)],
        "animrt_machine_send": [(2, 3, nil)],
    ]

    /// Every function a trace records, and how to call it again.
    static let calls: [String: Call] = [
        "animrt_runtime_tick": Call("d") { rt, a in animrt_runtime_tick(rt, a.d(0)) },
        "animrt_runtime_set_threads": Call("u") { rt, a in animrt_runtime_set_threads(rt, UInt32(truncatingIfNeeded: a.i(0))) },
        "animrt_keypath_id": Call("s") { rt, a in var o0: animrt_keypath = 0; return a.text(0) { p0 in animrt_keypath_id(rt, p0, &o0) } },
        "animrt_property_define": Call("suDi") { rt, a in a.text(0) { p0 in a.numbers(2) { p2 in animrt_property_define(rt, p0, animrt_value_kind(rawValue: UInt32(truncatingIfNeeded: a.i(1))), p2, Int(truncatingIfNeeded: a.i(3))) } } },
        "animrt_layer_create": Call("h") { rt, a in var o0: animrt_id = 0; return animrt_layer_create(rt, a.h(0), &o0) },
        "animrt_layer_create_many": Call("hi") { rt, a in
            var out = [animrt_id](repeating: 0, count: Int(truncatingIfNeeded: max(0, a.i(1))))  // bounded by `problem`
            return animrt_layer_create_many(rt, a.h(0), out.count, &out)
        },
        "animrt_layer_destroy": Call("h") { rt, a in animrt_layer_destroy(rt, a.h(0)) },
        "animrt_layer_set_parent": Call("hh") { rt, a in animrt_layer_set_parent(rt, a.h(0), a.h(1)) },
        "animrt_layer_set_timing": Call("hddd") { rt, a in animrt_layer_set_timing(rt, a.h(0), a.d(1), a.d(2), a.d(3)) },
        "animrt_layer_set_value": Call("hnDi") { rt, a in a.numbers(2) { p2 in animrt_layer_set_value(rt, a.h(0), a.keyPath(1), p2, Int(truncatingIfNeeded: a.i(3))) } },
        "animrt_layer_set_values": Call("HinDi") { rt, a in a.handles(0) { p0 in a.numbers(3) { p3 in animrt_layer_set_values(rt, p0, Int(truncatingIfNeeded: a.i(1)), a.keyPath(2), p3, Int(truncatingIfNeeded: a.i(4))) } } },
        "animrt_reader_create": Call("HNi") { rt, a in var o0: animrt_id = 0; return a.handles(0) { p0 in a.keyPaths(1) { p1 in animrt_reader_create(rt, p0, p1, Int(truncatingIfNeeded: a.i(2)), &o0) } } },
        "animrt_reader_destroy": Call("h") { rt, a in animrt_reader_destroy(rt, a.h(0)) },
        "animrt_animation_create": Call("us") { rt, a in var o0: animrt_id = 0; return a.text(1) { p1 in animrt_animation_create(rt, animrt_animation_kind(rawValue: UInt32(truncatingIfNeeded: a.i(0))), p1, &o0) } },
        "animrt_animation_destroy": Call("h") { rt, a in animrt_animation_destroy(rt, a.h(0)) },
        "animrt_animation_set_timing": Call("hud") { rt, a in animrt_animation_set_timing(rt, a.h(0), animrt_timing_param(rawValue: UInt32(truncatingIfNeeded: a.i(1))), a.d(2)) },
        "animrt_animation_set_flag": Call("hun") { rt, a in animrt_animation_set_flag(rt, a.h(0), animrt_flag(rawValue: UInt32(truncatingIfNeeded: a.i(1))), Int32(truncatingIfNeeded: a.i(2))) },
        "animrt_animation_set_fill_mode": Call("hu") { rt, a in animrt_animation_set_fill_mode(rt, a.h(0), animrt_fill_mode(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_animation_set_direction": Call("hu") { rt, a in animrt_animation_set_direction(rt, a.h(0), animrt_direction(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_animation_set_timing_function": Call("hs") { rt, a in a.text(1) { p1 in animrt_animation_set_timing_function(rt, a.h(0), p1) } },
        "animrt_animation_set_cubic_bezier": Call("hdddd") { rt, a in animrt_animation_set_cubic_bezier(rt, a.h(0), a.d(1), a.d(2), a.d(3), a.d(4)) },
        "animrt_animation_set_value": Call("huDi") { rt, a in a.numbers(2) { p2 in animrt_animation_set_value(rt, a.h(0), animrt_value_slot(rawValue: UInt32(truncatingIfNeeded: a.i(1))), p2, Int(truncatingIfNeeded: a.i(3))) } },
        "animrt_animation_set_spring": Call("hdddd") { rt, a in animrt_animation_set_spring(rt, a.h(0), a.d(1), a.d(2), a.d(3), a.d(4)) },
        "animrt_animation_set_spring_response": Call("hdd") { rt, a in animrt_animation_set_spring_response(rt, a.h(0), a.d(1), a.d(2)) },
        "animrt_animation_set_spring_perceptual": Call("hdd") { rt, a in animrt_animation_set_spring_perceptual(rt, a.h(0), a.d(1), a.d(2)) },
        "animrt_animation_set_decay": Call("hdd") { rt, a in animrt_animation_set_decay(rt, a.h(0), a.d(1), a.d(2)) },
        "animrt_keyframe_set_values": Call("hDii") { rt, a in a.numbers(1) { p1 in animrt_keyframe_set_values(rt, a.h(0), p1, Int(truncatingIfNeeded: a.i(2)), Int(truncatingIfNeeded: a.i(3))) } },
        "animrt_keyframe_set_key_times": Call("hDi") { rt, a in a.numbers(1) { p1 in animrt_keyframe_set_key_times(rt, a.h(0), p1, Int(truncatingIfNeeded: a.i(2))) } },
        "animrt_keyframe_set_timing_functions": Call("hSi") { rt, a in a.texts(1) { p1 in animrt_keyframe_set_timing_functions(rt, a.h(0), p1, Int(truncatingIfNeeded: a.i(2))) } },
        "animrt_keyframe_set_calculation_mode": Call("hu") { rt, a in animrt_keyframe_set_calculation_mode(rt, a.h(0), animrt_calculation_mode(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_keyframe_set_spline": Call("hDDDi") { rt, a in a.numbers(1) { p1 in a.numbers(2) { p2 in a.numbers(3) { p3 in animrt_keyframe_set_spline(rt, a.h(0), p1, p2, p3, Int(truncatingIfNeeded: a.i(4))) } } } },
        "animrt_keyframe_set_path": Call("hNiDi") { rt, a in a.int32s(1) { p1 in a.numbers(3) { p3 in animrt_keyframe_set_path(rt, a.h(0), p1, Int(truncatingIfNeeded: a.i(2)), p3, Int(truncatingIfNeeded: a.i(4))) } } },
        "animrt_keyframe_set_rotation_mode": Call("hu") { rt, a in animrt_keyframe_set_rotation_mode(rt, a.h(0), animrt_rotation_mode(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_group_add": Call("hh") { rt, a in animrt_group_add(rt, a.h(0), a.h(1)) },
        "animrt_group_get_child": Call("hi") { rt, a in var o0: animrt_id = 0; return animrt_group_get_child(rt, a.h(0), Int(truncatingIfNeeded: a.i(1)), &o0) },
        "animrt_layer_set_timing_param": Call("hud") { rt, a in animrt_layer_set_timing_param(rt, a.h(0), animrt_timing_param(rawValue: UInt32(truncatingIfNeeded: a.i(1))), a.d(2)) },
        "animrt_layer_set_fill_mode": Call("hu") { rt, a in animrt_layer_set_fill_mode(rt, a.h(0), animrt_fill_mode(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_layer_set_direction": Call("hu") { rt, a in animrt_layer_set_direction(rt, a.h(0), animrt_direction(rawValue: UInt32(truncatingIfNeeded: a.i(1)))) },
        "animrt_layer_set_autoreverses": Call("hn") { rt, a in animrt_layer_set_autoreverses(rt, a.h(0), Int32(truncatingIfNeeded: a.i(1))) },
        "animrt_layer_add_animations": Call("hHIIDsih") { rt, a in
            a.handles(1) { layers in a.columns(2) { columns, m in a.text(5) { key in
                animrt_layer_add_animations(rt, a.h(0), layers, Int(truncatingIfNeeded: a.i(6)), columns, m, key, a.h(7), nil)
            } } }
        },
        "animrt_layer_add_animation": Call("hhsh") { rt, a in var o0: animrt_id = 0; return a.text(2) { p2 in animrt_layer_add_animation(rt, a.h(0), a.h(1), p2, a.h(3), &o0) } },
        "animrt_layer_remove_animation": Call("hs") { rt, a in var o0: Int32 = 0; return a.text(1) { p1 in animrt_layer_remove_animation(rt, a.h(0), p1, &o0) } },
        "animrt_layer_remove_all_animations": Call("h") { rt, a in animrt_layer_remove_all_animations(rt, a.h(0)) },
        "animrt_animation_retarget": Call("hDi") { rt, a in a.numbers(1) { p1 in animrt_animation_retarget(rt, a.h(0), p1, Int(truncatingIfNeeded: a.i(2))) } },
        "animrt_barrier_create": Call("") { rt, a in var o0: animrt_id = 0; return animrt_barrier_create(rt, &o0) },
        "animrt_barrier_destroy": Call("h") { rt, a in animrt_barrier_destroy(rt, a.h(0)) },
        "animrt_barrier_enter": Call("h") { rt, a in animrt_barrier_enter(rt, a.h(0)) },
        "animrt_barrier_leave": Call("h") { rt, a in animrt_barrier_leave(rt, a.h(0)) },
        "animrt_barrier_notify": Call("hi") { rt, a in animrt_barrier_notify(rt, a.h(0), UInt64(bitPattern: a.i(1))) },
        "animrt_transaction_begin": Call("d") { rt, a in animrt_transaction_begin(rt, a.d(0)) },
        "animrt_transaction_commit": Call("i") { rt, a in animrt_transaction_commit(rt, UInt64(bitPattern: a.i(0))) },
        "animrt_timer_start": Call("di") { rt, a in var o0: animrt_id = 0; return animrt_timer_start(rt, a.d(0), UInt64(bitPattern: a.i(1)), &o0) },
        "animrt_timer_cancel": Call("h") { rt, a in animrt_timer_cancel(rt, a.h(0)) },
        "animrt_definition_load": Call("s") { rt, a in var o0: animrt_id = 0; return a.text(0) { p0 in animrt_definition_load(rt, p0, &o0) } },
        "animrt_definition_load_named": Call("s") { rt, a in var o0: animrt_id = 0; return a.text(0) { p0 in animrt_definition_load_named(rt, p0, &o0) } },
        "animrt_definition_register": Call("ss") { rt, a in a.text(0) { p0 in a.text(1) { p1 in animrt_definition_register(rt, p0, p1) } } },
        "animrt_definition_destroy": Call("h") { rt, a in animrt_definition_destroy(rt, a.h(0)) },
        "animrt_machine_create": Call("hhs") { rt, a in var o0: animrt_id = 0; return a.text(2) { p2 in animrt_machine_create(rt, a.h(0), a.h(1), p2, &o0) } },
        "animrt_machine_destroy": Call("h") { rt, a in animrt_machine_destroy(rt, a.h(0)) },
        "animrt_plugin_load": Call("s") { rt, a in var o0: animrt_id = 0; return a.text(0) { p0 in animrt_plugin_load(rt, p0, &o0) } },
        "animrt_plugin_unload": Call("h") { rt, a in animrt_plugin_unload(rt, a.h(0)) },
        "animrt_function_bind": Call("ssss") { rt, a in a.text(0) { p0 in a.text(1) { p1 in a.text(2) { p2 in a.text(3) { p3 in animrt_function_bind(rt, p0, p1, p2, p3) } } } } },
        "animrt_timing_function_bind": Call("ssss") { rt, a in a.text(0) { p0 in a.text(1) { p1 in a.text(2) { p2 in a.text(3) { p3 in animrt_timing_function_bind(rt, p0, p1, p2, p3) } } } } },
        "animrt_machine_send": Call("hnVi") { rt, a in var o0: animrt_send_outcome = animrt_send_outcome(rawValue: 0); return a.values(2) { p2 in animrt_machine_send(rt, a.h(0), Int32(truncatingIfNeeded: a.i(1)), p2, Int(truncatingIfNeeded: a.i(3)), &o0) } },
        "animrt_machine_send_json": Call("hss") { rt, a in var o0: animrt_send_outcome = animrt_send_outcome(rawValue: 0); return a.text(1) { p1 in a.text(2) { p2 in animrt_machine_send_json(rt, a.h(0), p1, p2, &o0) } } },
        "animrt_machine_restore": Call("sh") { rt, a in var o0: animrt_id = 0; return a.text(0) { p0 in animrt_machine_restore(rt, p0, a.h(1), &o0) } },
    ]
}
