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
}
