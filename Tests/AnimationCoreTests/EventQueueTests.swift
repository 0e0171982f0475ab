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

    /// Event `k`, with a payload one time in three (a string one time in
    /// six): the queue keeps payloads beside the events, so the scripts
    /// check that each still comes back with its own.
    static func mixed(_ k: Int) -> Event {
        var e = event(k)
        if k % 6 == 0 { e.payload = [.string("s\(k)"), .integer(Int64(k))] }
        else if k % 3 == 0 { e.payload = [.integer(Int64(k))] }
        return e
    }

    @Test("random pushes and pops, capacities 2 to 9, limits 0 to 12", arguments: 2...9)
    func randomScript(_ capacity: Int) {
        var g = BatchDifferentialTests.Generator(state: 0xE7E7 + UInt64(capacity))
        var bulk = EventQueue(capacity: capacity), single = EventQueue(capacity: capacity)
        var pushed = 0, popped = 0, notices = 0, carrying = 0
        for _ in 0..<4000 {
            if g.next() % 2 == 0 {
                for _ in 0..<Int(g.next() % 5) { bulk.push(Self.mixed(pushed)); single.push(Self.mixed(pushed)); pushed += 1 }
            } else {
                let limit = Int(g.next() % 13)
                var got: [Event] = []
                let n = bulk.pop(upTo: limit) { got.append(Event($0.pointee, payload: $1)) }
                var want: [Event] = []
                while want.count < limit, let e = single.pop() { want.append(e) }
                #expect(n == got.count && got == want, "limit \(limit) after \(pushed) pushes")
                popped += n
                notices += got.filter { $0.type == .overflow }.count
                carrying += got.filter { !$0.payload.isEmpty }.count
            }
        }
        #expect(popped > 1000 && notices > 10 && carrying > (popped - notices) / 5, "the script wraps the ring and overflows it, with payloads")
        #expect(bulk.count == single.count)
        // The payloads go with their events, and the store beside the ring
        // empties once the queue does.
        var rest: [Event] = []
        _ = bulk.pop(upTo: Int.max) { rest.append(Event($0.pointee, payload: $1)) }
        var want: [Event] = []
        while let e = single.pop() { want.append(e) }
        #expect(rest == want && bulk.payloadBacklog == 0 && single.payloadBacklog == 0)
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
                for _ in 0..<Int(g.next() % 4) { withdrawing.push(Self.mixed(pushed)); plain.push(Self.mixed(pushed)); pushed += 1 }
            case 1:
                let mark = withdrawing.mark
                for k in 0..<Int(g.next() % UInt64(capacity + 3)) { withdrawing.push(Self.mixed(1_000_000 + k)); withdrawn += 1 }
                if withdrawing.lost > mark.lost { overflowed += 1 }
                withdrawing.withdraw(since: mark)
            default:
                let limit = Int(g.next() % 5)
                var got: [Event] = [], want: [Event] = []
                _ = withdrawing.pop(upTo: limit) { got.append(Event($0.pointee, payload: $1)) }
                _ = plain.pop(upTo: limit) { want.append(Event($0.pointee, payload: $1)) }
                #expect(got == want, "limit \(limit) after \(pushed) pushes")
            }
            #expect(withdrawing.count == plain.count && withdrawing.lost == plain.lost
                    && withdrawing.payloadBacklog == plain.payloadBacklog && withdrawing.stringBytes == plain.stringBytes)
        }
        #expect(withdrawn > 1000 && overflowed > 10, "withdrawals cross the ring's wrap and its overflow")
    }
}

/// The event queue and the event digest with exact values: which events are
/// kept, what the overflow notice says, and which fields the digest reads
/// (R0.5: nothing is dropped without the host being told).
@Suite("R0.5 event queue and R0.2 digest: exact values")
struct EventQueueValueTests {
    static func tokens(_ events: [Event]) -> [UInt64] { events.map(\.token) }

    @Test("capacity 4: three events are kept, the rest counted, the notice says how many and from when")
    func overflowNotice() {
        var q = EventQueue(capacity: 4)
        for k in 0..<10 { q.push(EventQueueTests.event(k)) }
        #expect(q.count == 3 && q.lost == 7)
        #expect(q.pop()?.token == 0)
        // Room again, but the loss comes first: a later event is lost too,
        // never stored ahead of the notice.
        q.push(EventQueueTests.event(10))
        #expect(q.count == 2 && q.lost == 8)
        #expect(q.pop()?.token == 1)
        #expect(q.pop()?.token == 2)
        let notice = q.pop()
        #expect(notice?.type == .overflow)
        #expect(notice?.token == 8)  // events 3 ... 10
        #expect(notice?.time == 3)   // the first one lost
        #expect(q.pop() == nil)
        q.push(EventQueueTests.event(11))
        #expect(q.pop()?.token == 11)
        #expect(q.pop() == nil)
    }

    @Test("a queue kept near full hands its events in order across many wraps of the ring")
    func fifoAcrossWraps() {
        var q = EventQueue(capacity: 4)
        var popped: [UInt64] = []
        for k in 0..<40 {
            q.push(EventQueueTests.event(k))
            if k >= 2, let e = q.pop() { popped.append(e.token) }
        }
        #expect(popped == (0..<38).map(UInt64.init))
        #expect(q.lost == 0 && q.count == 2)
        #expect(q.pop()?.token == 38 && q.pop()?.token == 39)
    }

    /// An event whose payload holds one string of `bytes` bytes.
    static func carrying(_ k: Int, _ bytes: Int) -> Event {
        var e = EventQueueTests.event(k)
        e.type = .machineEmitted
        e.payload = [.string(String(repeating: "s", count: bytes)), .number(1)]
        return e
    }

    @Test("R0.4 the strings of queued payloads hold at most the queue's byte limit together: past it an event is counted lost and reported; popping, one at a time or in bulk, and withdrawing give the room back")
    func stringByteLimit() {
        var q = EventQueue(capacity: 100, stringByteLimit: 10)
        q.push(Self.carrying(0, 6))
        q.push(EventQueueTests.event(1))          // no payload: always room for it
        q.push(Self.carrying(2, 4))    // exactly at the limit
        #expect(q.count == 3 && q.lost == 0 && q.stringBytes == 10)
        q.push(Self.carrying(3, 1))    // one byte past it
        #expect(q.count == 3 && q.lost == 1 && q.stringBytes == 10)
        #expect(q.pop()?.token == 0 && q.stringBytes == 4)
        var got: [Event] = []
        #expect(q.pop(upTo: 10) { got.append(Event($0.pointee, payload: $1)) } == 3)
        #expect(EventQueueValueTests.tokens(got) == [1, 2, 1] && got.last?.type == .overflow && q.stringBytes == 0)
        // Withdrawn events give their bytes back, as popped ones do.
        q.push(Self.carrying(4, 3))
        let mark = q.mark
        q.push(Self.carrying(5, 7))
        #expect(q.stringBytes == 10)
        q.withdraw(since: mark)
        #expect(q.stringBytes == 3 && q.count == 1)
        q.push(Self.carrying(6, 7))
        #expect(q.lost == 0 && q.count == 2 && q.stringBytes == 10)
        // A runtime's queue has the library's limit.
        #expect(Runtime().pendingEventCount == 0 && EventQueue(capacity: 2).stringByteLimit == Limits.queuedStringBytes)
    }

    @Test("R0.4 a runtime counts the strings of the payloads posted to it: events of 1 MiB fill its 64 MiB, and the next is counted lost and reported")
    func postedPayloadBytes() {
        let rt = Runtime()
        let mib = 1 << 20
        for k in 0..<(Limits.queuedStringBytes / mib) { rt.post(Self.carrying(k, mib)) }
        #expect(rt.pendingEventCount == 64)
        rt.post(Self.carrying(64, mib))
        rt.post(EventQueueTests.event(65))  // behind a loss, counted too, as past the capacity
        var got: [Event] = []
        #expect(rt.pollEvents(upTo: 100) { got.append(Event($0.pointee, payload: $1)) } == 65)
        #expect(got.last?.type == .overflow && got.last?.token == 2)
        rt.post(Self.carrying(66, mib))
        #expect(rt.pendingEventCount == 1, "polling gave the room back")
    }

    @Test("a bulk pop hands at most its limit: the overflow notice waits for the next one")
    func bulkPopLimit() {
        var q = EventQueue(capacity: 3)
        for k in 0..<5 { q.push(EventQueueTests.event(k)) }
        var got: [Event] = []
        #expect(q.pop(upTo: 2) { got.append(Event($0.pointee, payload: $1)) } == 2)
        #expect(Self.tokens(got) == [0, 1] && got.allSatisfy { $0.type == .timerFired })
        got = []
        #expect(q.pop(upTo: 2) { got.append(Event($0.pointee, payload: $1)) } == 1)
        #expect(got.map(\.type) == [.overflow] && got.first?.token == 3 && got.first?.time == 2)
    }

    /// `Runtime.pollEvents(upTo:)` is public and takes an Int: a limit of 0
    /// or below hands nothing and says 0, leaving the events and the
    /// overflow notice queued (a negative count would tell a caller that
    /// sums the results it polled fewer than it had).
    @Test("a bulk pop with a limit of 0 or below hands nothing and says 0", arguments: [0, -1, Int.min])
    func bulkPopNoLimit(_ limit: Int) {
        let rt = Runtime(configuration: .init(eventCapacity: 3))
        for k in 0..<4 { rt.post(EventQueueTests.event(k)) }
        var got: [Event] = []
        #expect(rt.pollEvents(upTo: limit) { got.append(Event($0.pointee, payload: $1)) } == 0)
        #expect(got.isEmpty && rt.pendingEventCount == 3)
        #expect(rt.pollEvents(upTo: 3) { got.append(Event($0.pointee, payload: $1)) } == 3)
        #expect(Self.tokens(got) == [0, 1, 2] && got.last?.type == .overflow)
    }

    @Test("capacities below 2 hold 2: one event is kept and the notice has its slot", arguments: [-1, 0, 1])
    func smallestCapacity(_ asked: Int) {
        var q = EventQueue(capacity: asked)
        #expect(q.capacity == 2)
        q.push(EventQueueTests.event(7))
        q.push(EventQueueTests.event(8))
        #expect(q.pop()?.token == 7)
        let notice = q.pop()
        #expect(notice?.type == .overflow && notice?.token == 1 && notice?.time == 8)
    }

    @Test("events withdrawn before the ring grew to its capacity are not read after the next push")
    func withdrawBeforeGrowth() {
        var q = EventQueue(capacity: 8)
        q.push(EventQueueTests.event(0)); q.push(EventQueueTests.event(1))
        let mark = q.mark
        q.push(EventQueueTests.event(100)); q.push(EventQueueTests.event(101))
        q.withdraw(since: mark)
        q.push(EventQueueTests.event(2))
        var got: [UInt64] = []
        while let e = q.pop() { got.append(e.token) }
        #expect(got == [0, 1, 2])
    }

    @Test("the runtime counts the overflow notice among its pending events")
    func pendingCountsNotice() throws {
        let rt = Runtime(configuration: .init(eventCapacity: 4))
        for k in 0..<6 { rt.post(EventQueueTests.event(k)) }
        #expect(rt.pendingEventCount == 4)  // 3 kept and the notice
        var got: [Event] = []
        while let e = rt.pollEvent() { got.append(e) }
        #expect(got.count == 4)
        #expect(Self.tokens(got) == [0, 1, 2, 3] && got.last?.type == .overflow)
        #expect(rt.pendingEventCount == 0)
    }

    @Test("a runtime takes the largest event capacity, and refuses one more")
    func capacityLimit() throws {
        let rt = try Runtime.make(configuration: .init(eventCapacity: Limits.eventCapacity))
        #expect(rt.configuration.eventCapacity == 1 << 24)
        for k in 0..<3 { rt.post(EventQueueTests.event(k)) }
        #expect(rt.pendingEventCount == 3)
        _ = expectFailure(.outOfRange, containing: "event capacity 16777217 is more than the 16777216 allowed") {
            _ = try Runtime.make(configuration: .init(eventCapacity: Limits.eventCapacity + 1))
        }
    }

    static func digest(_ events: Event...) -> UInt64 {
        var d = EventDigest()
        for e in events { d.add(e) }
        return d.value
    }

    /// 64-bit FNV-1a over the bytes of `words`, least significant first.
    static func fnv1a(_ words: [UInt64]) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for w in words { for b in 0..<8 { h = (h ^ ((w >> (8 * UInt64(b))) & 0xff)) &* 1_099_511_628_211 } }
        return h
    }

    @Test("the digest is FNV-1a over every byte of each value")
    func digestIsFNV() {
        let values: [Double] = [1, 2, -0.5, 1e300]
        #expect(values.withUnsafeBufferPointer { EventDigest.of($0) } == Self.fnv1a(values.map(\.bitPattern)))
        #expect(EventDigest().value == Self.fnv1a([]))
        var e = Event(type: .timerFired, time: 1)
        e.token = 42
        // type, time, layer, object, animation, token, reason, name | from << 32, to.
        let words: [UInt64] = [5, (1.0).bitPattern, 0, 0, 0, 42, 0, 0xffff_ffff_ffff_ffff, 0xffff_ffff]
        #expect(Self.digest(e) == Self.fnv1a(words))
    }

    @Test("the digest tells apart events differing in one field, but not in the runtime's tag")
    func digestFields() {
        let base = Event(type: .machineStateChanged, time: 1)
        var later = base; later.time = 2
        #expect(Self.digest(base) != Self.digest(later))
        var from = base; from.fromState = 3
        #expect(Self.digest(base) != Self.digest(from))
        var to = base; to.toState = 3
        #expect(Self.digest(from) != Self.digest(to))
        var integer = base; integer.payload = [.integer(5)]
        var pointer = base; pointer.payload = [.pointer(5)]
        #expect(Self.digest(integer) != Self.digest(pointer))
        var one = base, two = base
        one.layer = Handle(runtime: 1, kind: .layer, generation: 1, index: 7)
        two.layer = Handle(runtime: 2, kind: .layer, generation: 1, index: 7)
        #expect(Self.digest(one) == Self.digest(two))
        var other = base; other.layer = Handle(runtime: 1, kind: .layer, generation: 1, index: 8)
        #expect(Self.digest(one) != Self.digest(other))
    }
}
