import AnimationCore
@testable import StateMachines
import Testing

/// The started and stopped events of one tick on a machine's parts come in
/// the order of its parts, then of each part's animations as added
/// (docs/machines.md, "Snapshots and traces"), whatever the runtime's lists
/// hold: the batch reports by lane (one per curve), the general path after
/// it; and only a machine's layers are put in that order.
@Suite("A tick's started and stopped events on a machine's parts")
struct OwnedTransitionOrderTests {
    static let curves = ["linear", "easeIn", "easeOut", "easeInEaseOut"]
    static let batchPaths = ["position.x", "position.y", "bounds.size.width", "bounds.size.height", "anchorPoint.x",
                             "anchorPoint.y", "cornerRadius", "borderWidth", "zPosition", "transform.rotation.z"]

    /// Part `p` gets 20 animations, one on each path of the batch (its
    /// curves taking turns, so its lanes hold them in another order) and,
    /// between them, additive ones on opacity (the general path, reported
    /// after the batch); part `q`, listed after it, gets three. Animation
    /// `i` runs `1 + i / 1024` s, which names it in the events.
    static func machine() -> String {
        var templates: [String] = [], entry: [String] = []
        for i in 0..<23 {
            let duration = 1 + Double(i) / 1024
            let body = i >= 20 ? #""keyPath": "position.x", "from": 0, "to": 1, "timingFunction": "\#(curves[i % 4])""#
                : i % 2 == 0 ? #""keyPath": "\#(batchPaths[i / 2])", "from": 0, "to": 1, "timingFunction": "\#(curves[(i / 2) % 4])""#
                : #""keyPath": "opacity", "by": 0.01, "additive": true"#
            templates.append(#""a\#(i)": {"type": "basic", \#(body), "duration": \#(duration)}"#)
            let part = i >= 20 ? "q" : "p"
            entry.append(#"{"animate": "a\#(i)", "part": "\#(part)", "key": "k\#(i)"}"#)
        }
        return """
        {"name": "order", "parts": [{"name": "p"}, {"name": "q"}],
         "animations": {\(templates.joined(separator: ", "))},
         "initial": "a", "states": {"a": {"entry": [\(entry.joined(separator: ", "))]}}}
        """
    }

    @Test("part by part as listed, each part's animations as added: 20 in one tick on one part, past the batch's lanes and the general path")
    func partsThenOrderAdded() throws {
        let h = Harness()
        // Two freed layer slots, taken back last freed first: part p gets
        // the higher one, so that slot order would put q first.
        let x = try h.runtime.createLayer(), y = try h.runtime.createLayer()
        try h.runtime.destroyLayer(x)
        try h.runtime.destroyLayer(y)
        let m = try h.machine(Self.machine())
        let p = try h.host.part("p", of: m), q = try h.host.part("q", of: m)
        #expect(p.index > q.index)
        _ = h.events()
        h.tick(0)
        let started = h.events().filter { $0.type == .animationStarted }
        var number: [UInt64: Int] = [:]
        for e in started {
            let d = try h.runtime.attachedAnimation(e.object).timing.duration
            number[e.object.raw] = Int(((d - 1) * 1024).rounded())
        }
        #expect(started.map { number[$0.object.raw] ?? -1 } == Array(0..<23))
        #expect(started.map(\.layer) == Array(repeating: p, count: 20) + Array(repeating: q, count: 3))
        h.tick(2)
        let stopped = h.events().filter { $0.type == .animationStopped }
        #expect(stopped.map { number[$0.object.raw] ?? -1 } == Array(0..<23))
    }

    /// A layer of a destroyed machine whose slot the host's next layer
    /// takes is the host's: its events keep the runtime's order, among
    /// those of another machine's parts, instead of being put among them
    /// by the destroyed part's rank.
    @Test("a host layer in the slot of a destroyed machine's part keeps the runtime's order")
    func slotOfADestroyedPart() throws {
        let h = Harness()
        let json = """
        {"name": "one", "parts": [{"name": "p"}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 1}},
         "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "p"}]}}}
        """
        let gone = try h.machine(json)
        let slot = try h.host.part("p", of: gone).index
        let kept = try h.machine(json)
        try h.host.destroy(gone)
        let layer = try h.runtime.createLayer()
        try #require(layer.index == slot)
        var fade = Animation(keyPath: "opacity", content: .basic(from: .scalar(0), to: .scalar(1), by: nil))
        fade.timing.duration = 1
        let mine = try h.runtime.add(fade, to: layer, forKey: nil)
        _ = h.events()
        h.tick(0)
        // Both in the batch's one lane, the machine's added first.
        let started = h.events().filter { $0.type == .animationStarted }
        #expect(started.map(\.layer) == [try h.host.part("p", of: kept), layer])
        #expect(started.last?.object == mine)
    }

    /// Two changes only: the general path reports after the batch, so an
    /// additive fade added first (general) comes second in the runtime's
    /// list, behind the slide added after it (batch). On one part they
    /// come as added; on two parts, by the parts' order (the first part's
    /// fade before the second's slide).
    @Test("two changes in a tick, on one part or on two, in the order of the parts and as added", arguments: [false, true])
    func twoChanges(_ twoParts: Bool) throws {
        let h = Harness()
        let json = """
        {"name": "pair", "parts": [{"name": "p"}, {"name": "q"}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "by": 0.5, "additive": true, "duration": 1},
                        "slide": {"type": "basic", "keyPath": "position.x", "from": 0, "to": 1, "duration": 2}},
         "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "p"},
                                                   {"animate": "slide", "part": "\(twoParts ? "q" : "p")"}]}}}
        """
        let m = try h.machine(json)
        let p = try h.host.part("p", of: m), q = try h.host.part("q", of: m)
        _ = h.events()
        h.tick(0)
        let started = h.events().filter { $0.type == .animationStarted }
        let durations = try started.map { try h.runtime.attachedAnimation($0.object).timing.duration }
        #expect(durations == [1, 2])
        #expect(started.map(\.layer) == [p, twoParts ? q : p])
    }
}
