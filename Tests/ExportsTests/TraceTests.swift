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
}
