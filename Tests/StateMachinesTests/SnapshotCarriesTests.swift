import AnimationCore
@testable import StateMachines
import Testing

@Suite("R3.0.3 what a snapshot carries beyond the machine's own data")
struct SnapshotCarriesTests {
    /// A layer no tick has shown presents its model at once, and an
    /// animation added before the next tick starts from that model: a
    /// part made since the last tick, restored as shown, kept its old
    /// presentation instead, and the animation started from there.
    @Test("a part no tick has shown yet is restored unshown: a value set before the next tick shows at once, as in the original")
    func unshownPart() throws {
        let json = """
        {"name": "fresh", "events": {"go": {}},
         "parts": [{"name": "p", "properties": {"opacity": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 1, "fromPresentation": true}},
         "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [{"set": "opacity", "part": "p", "value": 0.5}]}}},
                    "b": {"entry": [{"animate": "fade", "part": "p", "key": "f"}]}}}
        """
        for first in [nil, 2.0] as [Double?] {
            let a = Harness()
            if let first { a.tick(first) }
            let ma = try a.machine(json)
            let snapshot = try a.host.snapshot(ma)
            #expect(snapshot.contains(#""shown":false"#))
            let b = Harness()
            if let first { b.tick(first) }
            let mb = try b.host.restore(snapshot)
            for (h, m) in [(a, ma), (b, mb)] {
                try h.send(m, "go")
                #expect(try h.runtime.layerValues(try h.host.part("p", of: m)).first { $0.property == "opacity" }?.presentation == .scalar(0.5))
                // It begins at the next tick, from 0.5, and is half way at the one after.
                h.tick((first ?? 0) + 0.5)
                h.tick((first ?? 0) + 1)
                #expect(try h.runtime.layerValues(try h.host.part("p", of: m)).first { $0.property == "opacity" }?.presentation == .scalar(0.75))
            }
            // Once a tick has shown it, the snapshot says nothing of it.
            #expect(!(try b.host.snapshot(mb)).contains(#""shown""#))
        }
    }

    /// Restores `m`'s snapshot into a fresh runtime at `a`'s time and drives
    /// both with ticks at `times`, comparing every event and value, and the
    /// restored machine's snapshot with the one it was restored from (at
    /// once, or with `sameTextAfterATick`, after the first tick).
    func twins(_ a: Harness, _ m: Handle, ticks times: [Double], sameTextAfterATick: Bool = false) throws -> TwinRun {
        let s = try a.host.snapshot(m)
        let b = Harness()
        b.tick(try #require(a.runtime.currentTime))
        let mb = try b.host.restore(s)
        if !sameTextAfterATick { #expect(try b.host.snapshot(mb) == s) }
        var twin = try TwinRun(a, m, b, mb)
        try twin.compareValues("restored")
        try twin.drive(times.map { .tick($0) })
        if sameTextAfterATick { #expect(try a.host.snapshot(m) == b.host.snapshot(mb)) }
        return twin
    }

    /// A second animation of a property moves the first off the batch; it
    /// lost the value captured when it was added, so its snapshot carried
    /// none and the restore captured the presentation then: an animation
    /// from the presentation started again from there, not from where it
    /// had started.
    @Test("an animation moved off the batch keeps the value it captured: restored from the presentation, it starts where it started")
    func capturedKeptOffTheBatch() throws {
        let a = Harness()
        a.tick(0)
        let m = try a.machine("""
        {"name": "twice", "events": {"go": {}},
         "parts": [{"name": "p", "properties": {"opacity": 0.2}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 2, "fromPresentation": true},
                        "blink": {"type": "basic", "keyPath": "opacity", "from": 0.6, "to": 0.9, "duration": 0.5}},
         "initial": "a",
         "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f", "join": false}],
                          "on": {"go": {"actions": [{"animate": "blink", "part": "p", "key": "b", "join": false}]}}}}}
        """)
        a.tick(0.5)
        a.tick(1)
        try a.send(m, "go")
        a.tick(1.2)  // blink shows 0.6 over fade, which started from 0.2 at 0.5
        _ = a.events()
        #expect(try a.host.snapshot(m).contains(#""captured":{"components":[0.2],"kind":0},"duration":2"#))
        // Restored, fade goes to the batch and is moved off it again when
        // blink is added: until the next tick its snapshot says no tick has
        // evaluated it (which only a layer with a time of its own heeds, and
        // on one nothing goes to the batch).
        let twin = try twins(a, m, ticks: [1.5, 1.7, 2], sameTextAfterATick: true)
        // blink has ended; fade is three quarters of the way from 0.2 to 1.
        let opacity = try twin.b.runtime.layerValues(twin.b.host.part("p", of: twin.mb)).first { $0.property == "opacity" }?.presentation
        #expect(abs((opacity?.components.first ?? 0) - 0.8) < 1e-12, "\(String(describing: opacity))")
    }
}
