import Testing
@testable import AnimationCore

/// The queue keeps the payloads of its events beside its ring of records
/// (`EventQueue.payloads`). These tests hold it to a plain model — an array
/// of whole events, bounded as the queue is — through every path that adds
/// or removes events, and check that the store beside the ring stays bounded.
@Suite("Event queue: payloads kept beside the records")
struct EventQueuePayloadTests {
    /// What the queue promises, as simply as it can be said.
    struct Model {
        var events: [Event] = []
        var lost: UInt64 = 0, lostAt = 0.0, stringBytes = 0
        let capacity: Int, limit: Int
        struct Mark { let count: Int; let lost: UInt64; let lostAt: Double; let stringBytes: Int }

        mutating func push(_ e: Event) {
            let bytes = EventQueue.stringBytes(of: e.payload)
            if lost > 0 || events.count >= capacity - 1 || bytes > limit - stringBytes {
                if lost == 0 { lostAt = e.time }
                lost += 1
                return
            }
            stringBytes += bytes
            events.append(e)
        }

        mutating func pop() -> Event? {
            if events.isEmpty {
                guard lost > 0 else { return nil }
                var n = Event(type: .overflow, time: lostAt)
                n.token = lost
                lost = 0
                return n
            }
            let e = events.removeFirst()
            stringBytes -= EventQueue.stringBytes(of: e.payload)
            return e
        }

        var mark: Mark { Mark(count: events.count, lost: lost, lostAt: lostAt, stringBytes: stringBytes) }

        mutating func withdraw(since m: Mark) {
            if events.count > m.count {
                for e in events[m.count...] { stringBytes -= EventQueue.stringBytes(of: e.payload) }
                events.removeLast(events.count - m.count)
            }
            lost = m.lost; lostAt = m.lostAt
        }
    }

    /// Event `k`: no payload, a number, or a string of a few bytes.
    static func event(_ k: Int, _ kind: UInt64) -> Event {
        var e = Event(type: kind == 0 ? .timerFired : .machineEmitted, time: Double(k))
        e.token = UInt64(k)
        switch kind {
        case 0: break
        case 1: e.payload = [.integer(Int64(k))]
        default: e.payload = [.string(String(repeating: "x", count: Int(kind))), .integer(Int64(k))]
        }
        return e
    }

    @Test("random pushes, pops (one and bulk), withdrawals: the same events, payloads, losses and bytes as a plain model",
          arguments: [2, 3, 5, 8])
    func againstModel(_ capacity: Int) {
        var g = BatchDifferentialTests.Generator(state: 0xBEEF + UInt64(capacity))
        let limit = 12
        var q = EventQueue(capacity: capacity, stringByteLimit: limit)
        var m = Model(capacity: max(capacity, 2), limit: limit)
        var k = 0, withdrawals = 0, withdrawnCarrying = 0
        func check(_ got: [Event], _ want: [Event], _ what: String) {
            #expect(got == want, "\(what) after \(k) pushes")
            #expect(q.count == m.events.count && q.lost == m.lost && q.stringBytes == m.stringBytes, "\(what) after \(k) pushes")
            #expect(q.payloadBacklog <= 2 * q.capacity, "the store of payloads is bounded")
        }
        for _ in 0..<6000 {
            switch g.next() % 5 {
            case 0, 1:
                for _ in 0..<Int(g.next() % 4) {
                    let e = Self.event(k, g.next() % 7 < 3 ? 0 : g.next() % 6); k += 1
                    q.push(e); m.push(e)
                }
                check([], [], "push")
            case 2:
                let got = q.pop(), want = m.pop()
                check(got.map { [$0] } ?? [], want.map { [$0] } ?? [], "pop")
            case 3:
                let n = Int(g.next() % 6)
                var got: [Event] = [], want: [Event] = []
                _ = q.pop(upTo: n) { got.append(Event($0.pointee, payload: $1)) }
                while want.count < n, let e = m.pop() { want.append(e) }
                check(got, want, "pop(upTo: \(n))")
            default:
                let qm = q.mark, mm = m.mark
                for _ in 0..<Int(g.next() % UInt64(capacity + 2)) {
                    let e = Self.event(k, g.next() % 6); k += 1
                    if !e.payload.isEmpty { withdrawnCarrying += 1 }
                    q.push(e); m.push(e)
                }
                q.withdraw(since: qm); m.withdraw(since: mm)
                withdrawals += 1
                check([], [], "withdraw")
            }
        }
        #expect(withdrawals > 500 && withdrawnCarrying > 500)
        var rest: [Event] = [], want: [Event] = []
        _ = q.pop(upTo: Int.max) { rest.append(Event($0.pointee, payload: $1)) }
        while let e = m.pop() { want.append(e) }
        #expect(rest == want && q.payloadBacklog == 0 && q.stringBytes == 0)
    }

    /// A host that polls what it got last frame, or a bounded number a
    /// frame, never sees the queue empty of machine events: the store of
    /// payloads must still be bounded by the queue's capacity, as the ring is.
    @Test("the store of payloads stays bounded while the queue never empties", arguments: [false, true])
    func storeBoundedUnderBacklog(_ bulk: Bool) {
        var q = EventQueue(capacity: 4)
        q.push(Self.event(0, 1))
        for k in 1..<10_000 {
            q.push(Self.event(k, k % 3 == 0 ? 1 : 2))
            var got: [Event] = []
            if bulk { _ = q.pop(upTo: 1) { got.append(Event($0.pointee, payload: $1)) } }
            else if let e = q.pop() { got.append(e) }
            #expect(got == [Self.event(k - 1, (k - 1) % 3 == 0 ? 1 : 2)])
            #expect(q.count == 1)
        }
        #expect(q.payloadBacklog <= 2 * q.capacity, "a queue of 4 holds \(q.payloadBacklog) payloads")
    }

    @Test("withdrawals with and without payloads, after the ring wraps, after the store was reset and emptying the queue")
    func withdrawCases() {
        var q = EventQueue(capacity: 5, stringByteLimit: 100)
        // Grow the ring to its capacity and move the head so that it wraps.
        for k in 0..<4 { q.push(Self.event(k, UInt64(k % 3))) }
        #expect(q.pop()?.payload == [] && q.pop()?.payload == [.integer(1)] && q.pop() != nil)
        var mark = q.mark
        q.push(Self.event(10, 3)); q.push(Self.event(11, 0)); q.push(Self.event(12, 1))
        #expect(q.count == 4 && q.stringBytes == 3 && q.payloadBacklog >= 2)
        q.withdraw(since: mark)
        #expect(q.count == 1 && q.stringBytes == 0)
        q.push(Self.event(13, 1))
        var got: [Event] = []
        _ = q.pop(upTo: 10) { got.append(Event($0.pointee, payload: $1)) }
        #expect(got == [Self.event(3, 0), Self.event(13, 1)])
        #expect(q.payloadBacklog == 0 && q.stringBytes == 0)
        // The store reset; withdraw everything, then queue more.
        q.push(Self.event(20, 4))
        mark = q.mark
        q.push(Self.event(21, 2)); q.push(Self.event(22, 0))
        q.withdraw(since: mark)
        #expect(q.pop() == Self.event(20, 4) && q.stringBytes == 0)
        mark = q.mark
        q.push(Self.event(23, 2))
        q.withdraw(since: mark)  // count 0, store read to its end
        q.push(Self.event(24, 0)); q.push(Self.event(25, 1))
        #expect(q.pop() == Self.event(24, 0) && q.pop() == Self.event(25, 1) && q.pop() == nil)
        #expect(q.payloadBacklog == 0 && q.stringBytes == 0)
    }

    /// Lifecycle events are queued as records (no `Event` built); what the
    /// host and a trace's digest get must be what an `Event` with its
    /// default fields gave.
    @Test("lifecycle events read and digest as the Event with default fields they were")
    func lifecycleDefaults() throws {
        let rt = Runtime()
        rt.eventDigest = EventDigest()
        let l = try rt.createLayer()
        let h = try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "a")
        try rt.add(linear("opacity", 0, 1, duration: 5), to: l, forKey: "b")
        var msg = Event(type: .machineEmitted, time: 0)
        msg.payload = [.string("hello")]
        rt.post(msg)
        try rt.tick(0)
        try rt.tick(2)
        try rt.add(linear("opacity", 0, 1, duration: 5), to: l, forKey: "b")  // replaces
        var polled: [Event] = []
        _ = rt.pollEvents(upTo: 2) { polled.append(Event($0.pointee, payload: $1)) }
        while let e = rt.pollEvent() { polled.append(e) }
        #expect(polled.map(\.tag) == ["emitted:-1", "started", "started", "stopped:finished", "stopped:replaced"])
        var digest = EventDigest()
        for e in polled { digest.add(e) }
        #expect(rt.eventDigest?.value == digest.value)
        for e in polled where e.type != .machineEmitted {
            var want = Event(type: e.type, time: e.time)
            want.layer = l; want.object = e.object; want.animation = e.animation; want.reason = e.reason
            #expect(e == want)
            #expect(e.type == .animationStopped || e.reason == .finished)
        }
        #expect(polled[1].object == h)
    }

    @Test("a shutdown delivering from a full queue hands the payloads with their events")
    func shutdownDelivers() throws {
        let rt = Runtime(configuration: .init(eventCapacity: 4))
        let l = try rt.createLayer()
        for _ in 0..<6 { try rt.add(linear("opacity", 0, 1, duration: 5), to: l, forKey: nil) }
        rt.post(Self.event(1, 2)); rt.post(Self.event(2, 0)); rt.post(Self.event(3, 1))
        var batches: [[Event]] = []
        let last = rt.shutdown(delivering: { batches.append($0) })
        let all = batches.flatMap { $0 } + last
        #expect(Array(all.prefix(3)) == [Self.event(1, 2), Self.event(2, 0), Self.event(3, 1)])
        #expect(all.dropFirst(3).allSatisfy { $0.type == .animationStopped && $0.payload.isEmpty } && all.count == 9)
        #expect(rt.events.payloadBacklog == 0 && rt.events.stringBytes == 0)
    }
}
