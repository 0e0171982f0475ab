import Foundation
import Testing
@testable import AnimationCore

/// Descriptions and the messages around them at their edges: a group of
/// exactly the most animations, a removed attached animation's handle, a
/// decay's two values, the words of a refusal (a member of an object that
/// has none, exactly ten names).
@Suite("R0.3, R0.4, R1.2 description edges: group limits, handles, slots, messages")
struct DescriptionEdgeTests {
    @Test("A group of exactly 1024 animations is added; one more is refused when added")
    func groupOfTheMost() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let leaf = linear("opacity", 0, 1)
        var g = Animation.group([])
        for _ in 0..<Limits.groupSize { try g.appendToGroup(leaf) }
        try rt.add(g, to: l, forKey: "g")
        // Past it, built directly in Swift: refused when added, nothing attached.
        g.content = .group([Animation](repeating: leaf, count: Limits.groupSize + 1))
        expectFailure(.outOfRange) { try rt.add(g, to: l, forKey: "h") }.map {
            #expect($0.message == "the group would hold more than 1024 animations (nested groups' included)")
        }
        #expect(try rt.animationKeys(of: l) == ["g"])
    }

    @Test("A removed attached animation's handle is stale, not read-only")
    func removedCopyIsStale() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        expectFailure(.handle, containing: "is read-only: it is the copy a layer holds") { try rt.setTiming(.speed, 2, ofAnimation: h) }
        _ = try rt.removeAnimation(forKey: "a", from: l)
        for body in [{ try rt.setTiming(.speed, 2, ofAnimation: h) }, { _ = try rt.valueKind(ofAnimation: h) },
                     { try rt.setValue(.scalar(1), .to, ofAnimation: h) }, { try rt.updateAnimation(h) { _ in } }] {
            expectFailure(.handle) { try body() }.map {
                #expect($0.message == "attached animation handle \(h.hex) is stale (it finished and was removed, or was removed or replaced)")
            }
        }
    }

    @Test("A decay's fromValue and velocity are set apart")
    func decaySlots() throws {
        var a = Animation.decay("opacity", velocity: .scalar(3))
        try a.setValue(.scalar(1), .from)
        #expect(try a.value(.from) == .scalar(1) && a.value(.velocity) == .scalar(3))
        try a.setValue(.scalar(-2), .velocity)
        #expect(try a.value(.from) == .scalar(1) && a.value(.velocity) == .scalar(-2))
        try a.setValue(nil, .from)
        #expect(try a.value(.from) == nil && a.value(.velocity) == .scalar(-2))
        expectFailure(.kind) { try a.setValue(.scalar(1), .to) }.map {
            #expect($0.message == "a decay animation has no toValue: it has fromValue and velocity")
        }
    }

    @Test("A member inside a path's close is refused, saying it has none")
    func closeHasNoMember() throws {
        let json = #"[{"move":{"_0":1,"_1":2}},{"close":{"x":1}}]"#
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode([PathElement].self, from: Data(json.utf8)) }
        do { _ = try JSONDecoder().decode([PathElement].self, from: Data(json.utf8)) } catch {
            #expect(DecodingError.plainMessage(of: error) == "[1].close.x: a path's close has no member 'x' (it has none)")
        }
    }

    @Test("Ten names are all shown, with no ellipsis; of eleven, the first ten and an ellipsis")
    func tenNames() {
        let ten = (0..<10).map { "event\($0)" }
        #expect(unknownName("zzzzzzzzzzzz", among: ten, "events")
                == " (events: event0, event1, event2, event3, event4, event5, event6, event7, event8, event9)")
        #expect(unknownName("zzzzzzzzzzzz", among: ten + ["event10"], "events").hasSuffix("event9, …)"))
        #expect(unknownName("zzzz", among: [], "events") == "; it has no events")
    }

    @Test("R0.3 a settling duration asked of a keyframe, basic or group animation names its kind")
    func settlingDurationOfOtherKinds() {
        let keyframe = Animation.keyframe("opacity", Keyframes(values: [.scalar(0), .scalar(1)]))
        expectFailure(.kind, exactly: "a keyframe animation has no settling duration; springs and decays do") {
            _ = try keyframe.settlingDuration()
        }
        expectFailure(.kind, exactly: "a basic animation has no settling duration; springs and decays do") {
            _ = try Animation.basic("opacity", to: .scalar(1)).settlingDuration()
        }
        expectFailure(.kind, exactly: "a group animation has no settling duration; springs and decays do") {
            _ = try Animation.group([]).settlingDuration()
        }
    }
}
