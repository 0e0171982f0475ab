/// Why an animation stopped. Raw values are part of the C ABI.
public enum StopReason: Int32, Sendable, CaseIterable {
    /// It reached the end of its active duration (`finished == true`).
    case finished = 0
    /// It was removed by key or by remove-all.
    case removed
    /// Another animation was added under its key.
    case replaced
    /// Its layer was destroyed.
    case layerDestroyed
    /// The runtime was destroyed.
    case runtimeDestroyed

    /// Core Animation's `finished` flag.
    public var finished: Bool { self == .finished }
}

/// What happened. Raw values are part of the C ABI.
public enum EventType: Int32, Sendable, CaseIterable {
    case animationStarted = 1
    case animationStopped
    case barrierNotified
    case transactionCompleted
    case timerFired
    /// The queue was full: `count` events after this point were lost.
    case overflow
    /// A machine changed state: `fromState` → `toState`, the new state's
    /// associated values in `payload`.
    case machineStateChanged
    /// A machine emitted an event to the host: `name` (emits id), `payload`.
    case machineEmitted
    /// A machine asks the host to perform request `name` with id `token`.
    case machineRequest
    /// A result carried request id `token`, not the latest: it was not
    /// processed. `name` is the event, `payload` what was sent.
    case machineStaleResult
    /// An action or guard of a machine failed, or an event it caused was
    /// dropped: the message is `payload[0]`; `name` the event being processed or -1.
    case machineError
}

/// Everything the runtime tells the host. Fields that do not apply to a
/// type are zero.
public struct Event: Equatable, Sendable {
    public var type: EventType
    /// The runtime time at which it happened.
    public var time: Double
    public var layer: Handle = Handle(raw: 0)
    /// The attached animation (instance) for lifecycle events; the barrier,
    /// transaction or timer otherwise.
    public var object: Handle = Handle(raw: 0)
    /// The animation description the instance was added from.
    public var animation: Handle = Handle(raw: 0)
    /// The host's token (notify, commit, timer) or the overflow count.
    public var token: UInt64 = 0
    public var reason: StopReason = .finished
    /// Machine events: the event, emitted event or request id (-1: none).
    public var name: Int32 = -1
    /// Machine state changes: the state left (-1 at creation) and entered.
    public var fromState: Int32 = -1
    public var toState: Int32 = -1
    /// Machine events: the values that come with it.
    public var payload: [TaggedValue] = []

    public init(type: EventType, time: Double) { self.type = type; self.time = time }
}

/// An event as the queue holds it: every field of `Event` but the payload,
/// which the queue keeps beside it for the events that have one (machine
/// events; the core's lifecycle events never do). Plain bytes, so pushing,
/// reading and dropping an event copies 56 bytes and counts no references:
/// a frame in which 10^4 animations end and 10^4 start queues 2·10^4 of them.
public struct EventRecord: Sendable {
    public var time: Double
    public var layer: Handle, object: Handle, animation: Handle
    public var token: UInt64
    public var name: Int32, fromState: Int32, toState: Int32
    public var type: EventType
    public var reason: StopReason
    /// Whether a payload is kept for it (`EventQueue.payloads`).
    var hasPayload: Bool

    /// An animation's lifecycle event (started or stopped), which has no payload.
    @inline(__always)
    init(lifecycle type: EventType, time: Double, layer: Handle, object: Handle, animation: Handle, reason: StopReason) {
        self.time = time; self.layer = layer; self.object = object; self.animation = animation; token = 0
        name = -1; fromState = -1; toState = -1; self.type = type; self.reason = reason; hasPayload = false
    }

    /// `e`'s fields (its payload is the queue's to keep).
    @inline(__always)
    public init(_ e: borrowing Event) {
        time = e.time; layer = e.layer; object = e.object; animation = e.animation; token = e.token
        name = e.name; fromState = e.fromState; toState = e.toState; type = e.type; reason = e.reason
        hasPayload = !e.payload.isEmpty
    }
}

extension Event {
    /// The event `record` with `payload`.
    public init(_ record: EventRecord, payload: [TaggedValue]) {
        type = record.type; time = record.time; layer = record.layer; object = record.object
        animation = record.animation; token = record.token; reason = record.reason; name = record.name
        fromState = record.fromState; toState = record.toState
        self.payload = payload
    }
}

/// A bounded FIFO of events. When full, further events are counted instead
/// of stored, and an `.overflow` event carrying the count is delivered as
/// soon as there is room again, in the place where the loss happened.
/// Nothing is dropped without the host being told.
struct EventQueue {
    private var ring: [EventRecord] = []
    /// The payloads of the queued events that have one, in queue order
    /// (the oldest at `payloadHead`): each such event takes the next.
    private var payloads: [[TaggedValue]] = []
    private var payloadHead = 0
    /// The payloads held, read or not (the read ones go once all are read,
    /// or once they are a capacity's worth: see `consume`).
    var payloadBacklog: Int { payloads.count }
    private var head = 0
    private(set) var count = 0
    private(set) var lost: UInt64 = 0
    private var lostAt: Double = 0
    /// The most events held at once (the overflow notice takes one slot).
    let capacity: Int
    /// Bytes of strings the queued events' payloads hold together, and the
    /// most they may (`Limits.queuedStringBytes`): an event that would pass
    /// it is counted lost, as one past the capacity is.
    private(set) var stringBytes = 0
    let stringByteLimit: Int

    init(capacity: Int, stringByteLimit: Int = Limits.queuedStringBytes) {
        self.capacity = max(capacity, 2)
        self.stringByteLimit = stringByteLimit
    }

    /// Whether the next event pushed would be counted lost, not stored.
    var isFull: Bool { lost > 0 || count >= capacity - 1 }

    mutating func push(_ e: consuming Event) { push(e, stringBytes: EventQueue.stringBytes(of: e.payload)) }

    /// `push` of an event whose payload's strings hold `bytes` bytes, counted
    /// where the payload was made (the core's own events carry none).
    @inline(__always)
    mutating func push(_ e: consuming Event, stringBytes bytes: Int) {
        if wouldLose(bytes) { countLost(at: e.time); return }
        stringBytes += bytes
        let record = EventRecord(e)
        if record.hasPayload { payloads.append(e.payload) }
        append(record)
    }

    /// `push` of an event with no payload, as the queue holds it (no
    /// payload to look at or keep: the core's lifecycle events).
    @inline(__always)
    mutating func push(_ r: EventRecord) {
        if isFull { countLost(at: r.time); return }
        append(r)
    }

    /// An event not stored: counted, the last slot kept for the overflow
    /// notice, which tells when the loss began.
    private mutating func countLost(at time: Double) {
        if lost == 0 { lostAt = time }
        lost += 1
    }

    /// Whether an event whose payload holds `bytes` bytes of strings would
    /// be counted lost, not stored.
    func wouldLose(_ bytes: Int) -> Bool { isFull || bytes > stringByteLimit - stringBytes }

    /// The UTF-8 bytes of the strings in `payload`.
    static func stringBytes(of payload: [TaggedValue]) -> Int {
        var n = 0
        for v in payload { if case .string(let s) = v { n += s.utf8.count } }
        return n
    }

    @inline(__always)
    private mutating func append(_ e: EventRecord) {
        if ring.count < capacity { ring.append(e) }
        else {
            let i = head &+ count
            ring[i >= capacity ? i &- capacity : i] = e
        }
        count += 1
    }

    /// The oldest payload, taken out of the queue (its event is being popped).
    private mutating func takePayload() -> [TaggedValue] {
        let p = payloads[payloadHead]
        payloads[payloadHead] = []
        payloadHead += 1
        return p
    }

    mutating func pop() -> Event? {
        if count == 0 {
            guard lost > 0 else { return nil }
            var notice = Event(type: .overflow, time: lostAt)
            notice.token = lost
            lost = 0
            return notice
        }
        let r = ring[head]
        let payload = r.hasPayload ? takePayload() : []
        // While no queued payload holds a string (the core's events only), none is walked.
        if stringBytes > 0 { stringBytes -= EventQueue.stringBytes(of: payload) }
        consume(1)
        return Event(r, payload: payload)
    }

    /// Drops the `k` oldest events (read already); an emptied ring starts
    /// again at its first slot.
    private mutating func consume(_ k: Int) {
        head = head &+ k
        if head >= capacity { head &-= capacity }
        count -= k
        if count == 0 { head = 0; ring.removeAll(keepingCapacity: true) }
        // Every payload read: the store starts again at its first slot.
        if payloadHead == payloads.count && payloadHead > 0 { payloadHead = 0; payloads.removeAll(keepingCapacity: true) }
        // Some still unread (a host that polls fewer than are queued, or
        // lags a frame behind, never empties the queue): the read slots go
        // once they are a capacity's worth, so that the store, as the ring,
        // stays within twice the capacity (the unread ones, fewer than the
        // capacity, move once per capacity read).
        if payloadHead >= capacity { payloads.removeFirst(payloadHead); payloadHead = 0 }
    }

    /// Where the queue stands, for `withdraw(since:)`.
    struct Mark { let count: Int; let lost: UInt64; let lostAt: Double; let stringBytes: Int }
    var mark: Mark { Mark(count: count, lost: lost, lostAt: lostAt, stringBytes: stringBytes) }

    /// Takes back every event pushed since `mark`, stored or only counted as
    /// lost. Nothing may have been popped since (the runtime's caller holds
    /// it throughout); if something was, only what is stored past the mark's
    /// count goes.
    mutating func withdraw(since mark: Mark) {
        let extra = count - mark.count
        if extra > 0 {
            // The newest payloads are those of the events withdrawn that have one.
            var withPayload = 0
            for q in mark.count..<count {
                let i = head &+ q
                if ring[i >= capacity ? i &- capacity : i].hasPayload { withPayload += 1 }
            }
            payloads.removeLast(withPayload)
            // A ring not yet grown to its capacity ends at its last stored
            // event (`append` relies on it); a grown one wraps, and its freed
            // slots are overwritten later.
            if ring.count < capacity { ring.removeLast(extra) }
            count = mark.count
            stringBytes = mark.stringBytes
            if count == 0 { head = 0; ring.removeAll(keepingCapacity: true) }
        }
        if lost != mark.lost { lost = mark.lost; lostAt = mark.lostAt }
    }

    /// Hands up to `limit` of the oldest events to `body`, in order, as
    /// `pop` would one by one, but read in place: `body` gets the address of
    /// each record, valid during the call, and its payload (empty for the
    /// core's events: no event is built, retained or released); returns how many.
    mutating func pop(upTo limit: Int, _ body: (UnsafePointer<EventRecord>, borrowing [TaggedValue]) -> Void) -> Int {
        let k = Swift.min(Swift.max(limit, 0), count)
        if k > 0 {
            let none: [TaggedValue] = []
            // While no queued payload holds a string (the core's events only), none is walked.
            let counting = stringBytes > 0
            var bytes = 0
            // A second reference to the ring (no copy: nothing writes it
            // here), so that taking the payloads may change `self` meanwhile.
            // It ends with this block, before `consume` empties the ring.
            do {
                let records = ring
                records.withUnsafeBufferPointer { events in
                    // Stored at head ..< head + count, wrapping at the capacity
                    // (reached only once the ring has grown to it).
                    let base = events.baseAddress.unsafelyUnwrapped
                    var i = head
                    for _ in 0..<k {
                        if base[i].hasPayload {
                            let p = takePayload()
                            if counting { bytes += EventQueue.stringBytes(of: p) }
                            body(base + i, p)
                        } else {
                            body(base + i, none)
                        }
                        i &+= 1
                        if i == capacity { i = 0 }
                    }
                }
            }
            stringBytes -= bytes
            consume(k)
        }
        // The overflow notice comes after the events kept before the loss.
        if k < limit, count == 0, lost > 0, let notice = pop() {
            withUnsafePointer(to: EventRecord(notice)) { body($0, notice.payload) }
            return k + 1
        }
        return k
    }
}
