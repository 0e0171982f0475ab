import AnimationCore
@testable import StateMachines
import Testing

/// An animation under a key, a throttled event, a started timer that sends
/// an event and an `after` timer: each needs a runtime object when restored.
private let held = """
{"name": "held",
 "events": {"level": {"throttle": 1, "payload": [{"name": "v", "type": "number"}]}, "ping": {}},
 "context": {"value": {"type": "number", "initial": 0}, "pings": {"type": "number", "initial": 0}},
 "parts": [{"name": "box", "properties": {"opacity": 1}}, {"name": "bar", "properties": {"opacity": 1}}],
 "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 10}},
 "initial": "a",
 "states": {"a": {"entry": [{"animate": "fade", "part": "box", "key": "k"}, {"animate": "fade", "part": "bar", "key": "k"},
                            {"startTimer": "t1", "delay": 3, "event": "ping"}],
                  "after": [{"delay": 5, "target": "b"}],
                  "on": {"level": {"actions": [{"assign": {"value": "event.v"}}]},
                         "ping": {"actions": [{"assign": {"pings": "context.pings + 1"}}]}}},
            "b": {"on": {"level": {"actions": [{"assign": {"value": "event.v"}}]}}}}}
"""

/// `held` at time 0.5: `level` 1 was processed at 0.5 and opened a window
/// that ends at 1.5, with `level` 2 waiting for its end. Its timers, in due
/// order (the order a restore starts them): the throttle's window (1.5),
/// `t1` (3), the `after` (5). Returns the original too, to compare with.
private func heldAtHalf() throws -> (Harness, Handle, String) {
    let h = Harness()
    h.tick(0)
    let m = try h.machine(held)
    h.tick(0.5)
    #expect(try h.send(m, "level", [.number(1)]) == .taken)
    #expect(try h.send(m, "level", [.number(2)]) == .throttled)
    _ = h.events()
    return (h, m, try h.host.snapshot(m))
}

/// What a runtime holds that a restore would add to.
private func inventory(_ h: Harness) -> [Int] {
    [h.host.instanceCount, h.runtime.layerCount, h.runtime.attachedCounts.total, h.runtime.pendingTimerCount]
}

@Suite("R0.4, R3.0.3 a restore that finds a runtime table full is refused and undone, and reports nothing")
struct SnapshotTableFullTests {
    /// With room for `room` of the snapshot's three timers, the next one
    /// cannot start: the restore fails naming it, and the runtime holds
    /// and reports what it did before. Once there is room, the same
    /// runtime restores it and it continues as the original does.
    @Test("each kind of timer that cannot start refuses the restore: the throttle's window, a started timer, an after",
          arguments: [(0, "the throttle of 'level' did not reopen its interval"), (1, "timer 't1' did not start"),
                      (2, "the timer of state 'a' (after 0) did not start")])
    func timerTableFull(_ room: Int, _ which: String) throws {
        let (a, ma, snapshot) = try heldAtHalf()
        let b = Harness()
        b.tick(0.5)
        let fillers = try (0..<3).map { _ throws(AnimrtError) in try b.runtime.startTimer(after: 100, token: 7) }
        b.runtime.limitTable(.timer, to: 3 + room)
        let before = inventory(b)
        expectError(.noMemory, ["the snapshot could not be restored", which, "too many timers", "nothing was made"]) {
            () throws(AnimrtError) in _ = try b.host.restore(snapshot)
        }
        #expect(inventory(b) == before, "nothing of the refused restore is left")
        #expect(b.events().isEmpty, "the host hears nothing of a refused restore: \(b.events())")

        for t in fillers { try b.runtime.cancelTimer(t) }
        let mb = try b.host.restore(snapshot)
        #expect(try b.host.snapshot(mb) == snapshot)
        #expect(b.events().isEmpty)
        var twin = try TwinRun(a, ma, b, mb)
        try twin.drive([.send("level", [.number(3)]),  // still throttled: replaces 2
                        .tick(1.4), .tick(1.5),         // the window ends: 3 is processed and opens the next
                        .send("level", [.number(4)]), .tick(2.4), .tick(2.5), .tick(3), .tick(5), .tick(11)])
        #expect(b.context(mb, "value") == .number(4) && b.context(mb, "pings") == .number(1) && b.state(mb) == "b")
    }

    /// Its only timer is the window: restored without it, the instance would
    /// run on with `level` no longer throttled and 6 never processed.
    @Test("a snapshot whose only timer is a throttle window is refused when the window cannot reopen")
    func throttleWindowAlone() throws {
        let (a, ma, _) = try heldAtHalf()
        a.tick(1.5)  // 2 is processed and opens a window that ends at 2.5
        a.tick(5.5)  // t1 has fired and the after has moved it to b; the animations run until 10
        #expect(try a.send(ma, "level", [.number(5)]) == .taken)
        #expect(try a.send(ma, "level", [.number(6)]) == .throttled)
        _ = a.events()
        let snapshot = try a.host.snapshot(ma)
        #expect(snapshot.contains(#""throttle":"level""#) && snapshot.ranges(of: #""sequence":"#).count == 1, "the window is its only timer")
        let b = Harness()
        b.tick(5.5)
        let filler = try b.runtime.startTimer(after: 100, token: 7)
        b.runtime.limitTable(.timer, to: 1)
        let before = inventory(b)
        expectError(.noMemory, ["the throttle of 'level' did not reopen its interval: too many timers", "nothing was made"]) {
            () throws(AnimrtError) in _ = try b.host.restore(snapshot)
        }
        #expect(inventory(b) == before)
        #expect(b.events().isEmpty)
        try b.runtime.cancelTimer(filler)
        let mb = try b.host.restore(snapshot)
        var twin = try TwinRun(a, ma, b, mb)
        try twin.drive([.send("level", [.number(7)]), .tick(6.4), .tick(6.5), .send("level", [.number(8)]), .tick(7.5), .tick(11)])
        #expect(b.context(mb, "value") == .number(8))
    }

    /// The second animation finds the table of attached animations full:
    /// undoing stops the first, and that stop is not reported (the host was
    /// never told it started). Events queued before the restore stay.
    @Test("an animation table found full stops what was restored without a word; earlier events stay queued")
    func animationTableFull() throws {
        let (_, _, snapshot) = try heldAtHalf()
        let b = Harness()
        b.tick(0.5)
        let own = try b.runtime.createLayer()
        let mine = try b.runtime.add(.basic("opacity", from: .scalar(1), to: .scalar(0), timing: MediaTiming(duration: 1)),
                                     to: own, forKey: "mine")
        try b.runtime.removeInstance(mine)
        b.runtime.limitTable(.instance, to: 1)
        let before = inventory(b)
        expectError(.noMemory, ["the snapshot could not be restored", "too many attached animations", "nothing was made"]) {
            () throws(AnimrtError) in _ = try b.host.restore(snapshot)
        }
        #expect(inventory(b) == before)
        let events = b.events()
        #expect(events.count == 1 && events.first?.type == .animationStopped && events.first?.reason == .removed
                && events.first?.object == mine, "only the host's own stop: \(events)")
        b.runtime.limitTable(.instance, to: 2)  // no effect: a limit is only lowered
        expectError(.noMemory, ["too many attached animations"]) { () throws(AnimrtError) in _ = try b.host.restore(snapshot) }
        #expect(b.events().isEmpty)
    }

    @Test("a full layer table refuses the restore before any animation, and nothing is reported")
    func layerTableFull() throws {
        let (_, _, snapshot) = try heldAtHalf()
        let b = Harness()
        b.tick(0.5)
        _ = try b.runtime.createLayer()
        b.runtime.limitTable(.layer, to: 2)  // room for box, not for bar
        let before = inventory(b)
        expectError(.noMemory, ["the snapshot could not be restored", "too many layers", "nothing was made"]) {
            () throws(AnimrtError) in _ = try b.host.restore(snapshot)
        }
        #expect(inventory(b) == before)
        #expect(b.events().isEmpty)
    }
}

/// A machine with no parts, animations or timers: making one takes a machine handle and nothing else.
private let bare = #"{"name": "bare", "initial": "a", "states": {"a": {}}}"#

/// The handles the next layer, attached animation, barrier, timer and
/// machine of `h` get, without the bits naming the runtime (nil where a
/// table is full).
private func nextHandles(_ h: Harness) -> [UInt64?] {
    func untagged(_ x: Handle?) -> UInt64? { x.map { $0.raw & 0xFFFF_FFFF_FFFF } }
    let layer = try? h.runtime.createLayer()
    let animation = layer.flatMap {
        try? h.runtime.add(.basic("opacity", from: .scalar(1), to: .scalar(0), timing: MediaTiming(duration: 1)), to: $0, forKey: "next")
    }
    return [untagged(layer), untagged(animation), untagged(try? h.runtime.createBarrier()),
            untagged(try? h.runtime.startTimer(after: 100, token: 1)), untagged(try? h.machine(bare))]
}

@Suite("R0.4 a refused restore spends no handle: every table is left as it was")
struct SnapshotRefusedHandleTests {
    /// A runtime with one destroyed layer, attached animation and timer
    /// (so that a restore takes a freed slot before a new one), with
    /// `kind`'s table lowered to `limit` slots.
    private func prepared(_ kind: HandleKind, _ limit: Int) throws -> Harness {
        let h = Harness()
        h.tick(0.5)
        let layer = try h.runtime.createLayer()
        let animation = try h.runtime.add(.basic("opacity", from: .scalar(1), to: .scalar(0), timing: MediaTiming(duration: 1)),
                                          to: layer, forKey: "gone")
        try h.runtime.removeInstance(animation)
        try h.runtime.destroyLayer(layer)
        try h.runtime.cancelTimer(try h.runtime.startTimer(after: 1, token: 1))
        h.runtime.limitTable(kind, to: limit)
        _ = h.events()
        return h
    }

    /// The restore fails at the second layer (its box took the freed slot),
    /// at the second animation (the first took the freed slot, after both
    /// layers and the machine were made) or at the third timer (the freed
    /// slot, then a new one): each way, the next handles of every table are
    /// those of a runtime that never tried, so that refused restores, however
    /// many, neither retire slots nor make a destroyed object's handle come
    /// back sooner than it would.
    @Test("the next layer, animation, barrier, timer and machine are those of a runtime that never tried",
          arguments: [(HandleKind.layer, 1, "too many layers"), (.instance, 1, "too many attached animations"),
                      (.timer, 2, "did not start: too many timers")])
    func handlesUnspent(_ kind: HandleKind, _ limit: Int, _ why: String) throws {
        let (_, _, snapshot) = try heldAtHalf()
        let b = try prepared(kind, limit), untouched = try prepared(kind, limit)
        for _ in 0..<3 {
            expectError(.noMemory, ["the snapshot could not be restored", why, "nothing was made"]) {
                () throws(AnimrtError) in _ = try b.host.restore(snapshot)
            }
        }
        #expect(inventory(b) == inventory(untouched))
        #expect(b.events().isEmpty)
        let next = nextHandles(b)
        #expect(next == nextHandles(untouched))
        #expect(next.allSatisfy { $0 != nil }, "every table had room for one more: \(next)")
    }

    /// A create refused at its second part's layer undoes the first, as a
    /// refused restore does: the next handles of every table are those of a
    /// runtime that never tried, however many times it was refused.
    @Test("a machine create refused at its second part spends no handle either")
    func refusedCreate() throws {
        let b = try prepared(.layer, 1), untouched = try prepared(.layer, 1)
        for _ in 0..<3 {
            expectError(.noMemory, ["too many layers"]) { () throws(AnimrtError) in _ = try b.machine(held) }
        }
        #expect(inventory(b) == inventory(untouched))
        #expect(b.events().isEmpty)
        let next = nextHandles(b)
        #expect(next == nextHandles(untouched))
        #expect(next.allSatisfy { $0 != nil }, "every table had room for one more: \(next)")
    }

    /// A part's values are checked as they are written, once its layer
    /// exists: values that do not fit refuse the restore, and the layers
    /// made so far, that part's own included, go with it.
    @Test("a part whose values do not fit refuses the restore: no layer is left, no handle spent")
    func partValuesDoNotFit() throws {
        let (_, _, snapshot) = try heldAtHalf()
        let named = snapshot.ranges(of: #""property":"opacity""#)
        #expect(named.count == 2, "box's and bar's opacity")
        var edited = snapshot
        edited.replaceSubrange(named.last!, with: #""property":"position""#)
        let b = Harness(), untouched = Harness()
        b.tick(0.5)
        untouched.tick(0.5)
        expectError(.kind, ["the snapshot could not be restored: 'position' takes a point", "nothing was made"]) {
            () throws(AnimrtError) in _ = try b.host.restore(edited)
        }
        #expect(inventory(b) == inventory(untouched))
        #expect(b.events().isEmpty)
        #expect(nextHandles(b) == nextHandles(untouched))
    }
}
