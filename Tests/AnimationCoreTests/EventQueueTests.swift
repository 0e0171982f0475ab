import Testing
@testable import AnimationCore

/// The event queue's bulk pop (what `animrt_event_poll` uses) hands out the
/// same events, in the same order, as popping them one at a time: across
/// the ring's wrap, limits smaller and larger than what is queued, and the
/// overflow notice in the place of the loss.
@Suite("Event queue: bulk pop matches one-by-one pop")
struct EventQueueTests {
    static func event(_ k: Int) -> Event {
        var e = Event(type: .timerFired, time: Double(k))
        e.token = UInt64(k)
        return e
    }

    @Test("random pushes and pops, capacities 2 to 9, limits 0 to 12", arguments: 2...9)
    func randomScript(_ capacity: Int) {
        var g = BatchDifferentialTests.Generator(state: 0xE7E7 + UInt64(capacity))
        var bulk = EventQueue(capacity: capacity), single = EventQueue(capacity: capacity)
        var pushed = 0, popped = 0, notices = 0
        for _ in 0..<4000 {
            if g.next() % 2 == 0 {
                for _ in 0..<Int(g.next() % 5) { bulk.push(Self.event(pushed)); single.push(Self.event(pushed)); pushed += 1 }
            } else {
                let limit = Int(g.next() % 13)
                var got: [Event] = []
                let n = bulk.pop(upTo: limit) { got.append($0.pointee) }
                var want: [Event] = []
                while want.count < limit, let e = single.pop() { want.append(e) }
                #expect(n == got.count && got == want, "limit \(limit) after \(pushed) pushes")
                popped += n
                notices += got.filter { $0.type == .overflow }.count
            }
        }
        #expect(popped > 1000 && notices > 10, "the script wraps the ring and overflows it")
        #expect(bulk.count == single.count)
    }

    /// A queue that withdraws what was pushed since a mark then behaves as
    /// one that never had it: same events, same overflow notices, before
    /// and after the ring grows, wraps or overflows.
    @Test("withdrawing since a mark leaves the queue as if nothing had been pushed", arguments: 2...9)
    func withdraw(_ capacity: Int) {
        var g = BatchDifferentialTests.Generator(state: 0x57D7 + UInt64(capacity))
        var withdrawing = EventQueue(capacity: capacity), plain = EventQueue(capacity: capacity)
        var pushed = 0, withdrawn = 0, overflowed = 0
        for _ in 0..<3000 {
            switch g.next() % 3 {
            case 0:
                for _ in 0..<Int(g.next() % 4) { withdrawing.push(Self.event(pushed)); plain.push(Self.event(pushed)); pushed += 1 }
            case 1:
                let mark = withdrawing.mark
                for k in 0..<Int(g.next() % UInt64(capacity + 3)) { withdrawing.push(Self.event(1_000_000 + k)); withdrawn += 1 }
                if withdrawing.lost > mark.lost { overflowed += 1 }
                withdrawing.withdraw(since: mark)
            default:
                let limit = Int(g.next() % 5)
                var got: [Event] = [], want: [Event] = []
                _ = withdrawing.pop(upTo: limit) { got.append($0.pointee) }
                _ = plain.pop(upTo: limit) { want.append($0.pointee) }
                #expect(got == want, "limit \(limit) after \(pushed) pushes")
            }
            #expect(withdrawing.count == plain.count && withdrawing.lost == plain.lost)
        }
        #expect(withdrawn > 1000 && overflowed > 10, "withdrawals cross the ring's wrap and its overflow")
    }
}
