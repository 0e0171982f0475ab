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

    /// A part whose animation `fade` (opacity, `config.d` seconds, joined:
    /// its end takes the machine to `c`) starts on `go`, and cornerRadius
    /// animates from the start, repeating.
    static let slow = """
    {"name": "slow", "config": {"d": {"type": "number", "default": 2}}, "events": {"go": {}},
     "parts": [{"name": "p", "properties": {"opacity": 0, "cornerRadius": 0}}],
     "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": "config.d"},
                    "round": {"type": "basic", "keyPath": "cornerRadius", "from": 0, "to": 10, "duration": 1, "repeatCount": 3}},
     "initial": "a",
     "states": {"a": {"entry": [{"animate": "round", "part": "p", "key": "r", "join": false}], "on": {"go": "b"}},
                "b": {"entry": [{"animate": "fade", "part": "p", "key": "f"}], "done": "c"}, "c": {}}}
    """

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

    /// The host may set a part's timing (only destroying a part is
    /// refused). Not carried, a restored part played at speed 1 from the
    /// original's begin times, taken in its own time: its fade ran twice as
    /// fast, from another point, and the state it joined was done early.
    @Test("a part's layer timing set by the host is carried: restored mid-animation at speed 0.5 with a time offset, it plays on as the original")
    func partTiming() throws {
        let a = Harness()
        a.tick(0)
        let m = try a.machine(Self.slow)
        let part = try a.host.part("p", of: m)
        try a.runtime.setTiming(LayerTiming(speed: 0.5, timeOffset: 0.25), of: part)
        a.tick(0.5)
        try a.send(m, "go")
        a.tick(1)
        a.tick(2)  // the fade began at the part's time 0.75 and is at 0.5 of 2 s; it ends at 5
        _ = a.events()
        let s = try a.host.snapshot(m)
        #expect(s.contains(#""timing":{"speed":0.5,"timeOffset":0.25}"#))
        let twin = try twins(a, m, ticks: [2.5, 3, 4, 4.75, 5, 6, 7.5])
        #expect(try twin.b.runtime.mediaTiming(of: twin.b.host.part("p", of: twin.mb)) == a.runtime.mediaTiming(of: part))
        #expect(a.state(m) == "c" && twin.b.state(twin.mb) == "c")
    }

    @Test("every field of a part's timing is carried to the bit; a part with the default timing carries none")
    func everyTimingField() throws {
        var webAnimations = MediaTiming.webAnimations(duration: 1.5, iterations: .infinity, iterationStart: 0.25, direction: .alternateReverse,
                                                      fill: .backwards, delay: 0.2, endDelay: -0.1, playbackRate: 2)
        webAnimations.beginTime = -3
        var zeroIterations = MediaTiming(duration: 2)
        zeroIterations.iterations = 0
        for timing in [MediaTiming(beginTime: 0.5, duration: 2, speed: -1.5, timeOffset: 0.3, repeatCount: 2.5, autoreverses: true, fillMode: .both),
                       MediaTiming(duration: 0.4, speed: 0, timeOffset: 0.1, repeatDuration: 3, fillMode: .forwards),
                       MediaTiming(duration: 1, repeatCount: .infinity), webAnimations, zeroIterations] {
            let a = Harness()
            a.tick(1)
            let m = try a.machine(Self.slow)
            try a.runtime.setMediaTiming(timing, of: try a.host.part("p", of: m))
            try a.send(m, "go")
            a.tick(1.5)
            _ = a.events()
            let twin = try twins(a, m, ticks: [1.75, 2.5, 3.25, 4, 6])
            #expect(try twin.b.runtime.mediaTiming(of: twin.b.host.part("p", of: twin.mb)) == timing, "\(timing)")
        }
        let h = Harness()
        h.tick(0)
        let m = try h.machine(Self.slow)
        func partsOf(_ s: String) -> Substring { s[s.firstRange(of: #""parts":["#)!.lowerBound...] }
        let untouched = try h.host.snapshot(m)
        #expect(!partsOf(untouched).contains("timing") && !untouched.contains("retimed"))
        // Set and set back to the default: nothing to carry.
        try h.runtime.setTiming(LayerTiming(speed: 2), of: try h.host.part("p", of: m))
        try h.runtime.setTiming(LayerTiming(), of: try h.host.part("p", of: m))
        h.tick(1)
        #expect(!partsOf(try h.host.snapshot(m)).contains("timing"))
    }

    /// Between two ticks a timed layer can wrap: an animation whose end its
    /// time went through has ended, though the time sampled at the tick is
    /// before its end, unless the layer's timing or parent changed since
    /// the last tick (then the times in between are not known and the
    /// sampled time decides). The part loops through 1 s of its time; the
    /// fade runs from its time 0.1 to 0.8, and the tick at 1.3 samples 0.3.
    @Test("a part's timing restored is no change since the last tick, and one changed since the last tick is restored as changed")
    func retimedSinceTheLastTick() throws {
        for changedSinceLastTick in [false, true] {
            let a = Harness()
            a.tick(0)
            let m = try a.machine(Self.slow, config: ["d": .number(0.7)])
            let part = try a.host.part("p", of: m)
            let looping = MediaTiming(duration: 1, repeatCount: .infinity)
            try a.runtime.setMediaTiming(looping, of: part)
            try a.send(m, "go")
            a.tick(0.1)
            a.tick(0.5)
            if changedSinceLastTick { try a.runtime.setMediaTiming(looping, of: part) }
            _ = a.events()
            #expect(try a.host.snapshot(m).contains(#""retimed":true"#) == changedSinceLastTick)
            let twin = try twins(a, m, ticks: [1.3, 2.2, 2.3])
            // Unchanged, the fade ended at 1.3; changed, the tick after.
            #expect(a.state(m) == "c" && twin.b.state(twin.mb) == "c")
        }
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
