/// The animation runtime: a tree of layers with model and presentation
/// values, the animations attached to them, barriers, transactions and
/// timers, all driven by the host's clock through `tick(_:)`.
///
/// A `Runtime` is a plain object with no locking of its own: one thread at a
/// time (the C ABI serialises calls with a mutex). It never reads a clock.
public final class Runtime {
    /// The digest of every event reported since it was set (nil: not kept).
    /// A recorded trace turns it on. Read for every event, so not checked
    /// for overlapping access (the runtime is one thread at a time).
    @exclusivity(unchecked) public var eventDigest: EventDigest?
    /// Set by `shutdown(delivering:)`: where a full queue's events go
    /// before the next one is queued.
    @exclusivity(unchecked) private var deliverWhenFull: (([Event]) -> Void)?

    /// Tunables fixed at creation.
    public struct Configuration: Sendable {
        /// The most events held before the queue reports an overflow:
        /// 2 ... `Limits.eventCapacity` (a smaller value holds 2).
        public var eventCapacity: Int = 65_536
        public init(eventCapacity: Int = 65_536) { self.eventCapacity = eventCapacity }
    }

    struct PropSlot { var property: Int32; var offset: Int32 }

    /// Where a layer's materialised properties live in the value pools:
    /// three inline (no allocation, no reference counting), more in
    /// `overflow`. Fields are ordered so that the record has no padding.
    struct PropertySlots {
        private var overflow: [PropSlot] = []
        private var s0 = PropSlot(property: -1, offset: 0), s1 = PropSlot(property: -1, offset: 0)
        private var s2 = PropSlot(property: -1, offset: 0)
        private(set) var count: Int32 = 0

        @inline(__always)
        func offset(of property: Int32) -> Int32? {
            if count > 0 && s0.property == property { return s0.offset }
            if count > 1 && s1.property == property { return s1.offset }
            if count > 2 && s2.property == property { return s2.offset }
            if count > 3 { for p in overflow where p.property == property { return p.offset } }
            return nil
        }

        mutating func append(_ p: PropSlot) {
            switch count {
            case 0: s0 = p
            case 1: s1 = p
            case 2: s2 = p
            default: overflow.append(p)
            }
            count += 1
        }

        var all: [PropSlot] { Array([s0, s1, s2].prefix(Int(min(count, 3)))) + overflow }
    }

    /// A layer: 72 bytes (references first, then 4-byte fields: no padding).
    struct LayerRecord {
        var children: [Int32] = []
        var props = PropertySlots()
        var parent: Int32 = -1
        var firstInstance: Int32 = -1
        var lastInstance: Int32 = -1
        /// Where the layer's media timing is in `layerTimings`; -1 is the
        /// default (the parent's time). Few layers have one: it is kept
        /// apart so that a layer record stays small.
        var timingIndex: Int32 = -1
        var generalCount: Int32 = 0
        var generalListIndex: Int32 = -1
    }

    /// An attached animation: 36 bytes (4-byte fields only), paid once per
    /// animation.
    struct Instance {
        /// The description's handle, in two halves (a UInt64 would align
        /// the record to 8 bytes and pad it to 40).
        private var definitionLow: UInt32, definitionHigh: UInt32
        var definition: UInt64 { UInt64(definitionHigh) << 32 | UInt64(definitionLow) }
        /// The layer's slot (a layer outlives its instances, so its handle
        /// is `layers.handle(at: layer)`).
        var layer: Int32
        var keyID: Int32
        /// The property written, or -1 for a group (see `general[...].targets`).
        var property: Int32
        var next: Int32 = -1
        var tierIndex: Int32 = -1
        var membership: Int32 = -1
        /// The batch lane holding it (`BatchSet`), or -1 for the general path.
        var lane: Int16 = -1
        var state: LifeState = .waiting
        var inBatch: Bool { lane >= 0 }
        var pendingBegin = false

        init(layer: Handle, keyID: Int32, property: Int32, definition: UInt64) {
            definitionLow = UInt32(truncatingIfNeeded: definition); definitionHigh = UInt32(truncatingIfNeeded: definition >> 32)
            self.layer = Int32(layer.index); self.keyID = keyID; self.property = property
        }
    }

    struct Membership { var barrier: Handle; var next: Int32 }

    enum NotifyAction {
        case event(EventType, object: Handle, token: UInt64)
        case closure(() -> Void)
    }

    struct BarrierRecord {
        var count = 0
        var actions: [NotifyAction] = []
        /// Internal barriers back transactions and go away after they fire.
        var transient = false
        /// A transaction's barrier whose transaction is committed: it goes
        /// away when its count is next zero. Until then (the transaction
        /// open) it stays, at zero or not, for the animations still to come.
        var committed = false
    }

    struct TransactionRecord {
        var barrier: Handle
        var animationDuration: Double?
    }

    struct TimerRecord {
        var fireTime: Double
        var sequence: UInt64
        var action: NotifyAction
    }

    /// The runtime's handle tag (every handle it gives out carries it; 0:
    /// untagged, see `init`).
    public let tag: UInt16
    public let configuration: Configuration
    /// The time of the last tick; nil before the first.
    @exclusivity(unchecked) public internal(set) var currentTime: Double?
    /// The time of the tick before the last one: between the two, a timed
    /// layer may have turned back or wrapped (see `latestLocalTime`).
    @exclusivity(unchecked) var previousTime: Double?
    /// Layers whose timing or parent changed since the last tick: what
    /// their time was in between is not known, so lifecycles under them
    /// follow the sampled time only for that tick.
    @exclusivity(unchecked) var retimedLayers: Set<Int32> = []
    /// The most separate ranges of time a chain of timed layers is followed
    /// through between two ticks (`latestLocalTime`); a chain whose times
    /// split into more follows the sampled time for that tick. Each timed
    /// layer can split each range it is given in a few, so a deep chain of
    /// wrapping layers could otherwise make them grow without bound.
    /// Lowered only by tests of the limit.
    var timeRangeLimit = 64
    /// Threads that may evaluate a large batch (1: the ticking thread only).
    /// Results do not depend on it.
    public var evaluationThreads = 1 {
        didSet { evaluationThreads = max(1, evaluationThreads) }
    }
    /// What a worker thread of a batch evaluation runs its share inside
    /// (nil: nothing). The C exports mark the thread as running code for
    /// this runtime, so that a timing function from outside that calls
    /// back into the runtime from a worker is refused rather than left
    /// waiting for the lock its own tick holds.
    public var workerScope: WorkerScope?
    /// Whether finished batch entries that fill move out of the per-tick
    /// evaluation (always on; off only to check, in tests, that it changes
    /// nothing the host sees).
    var freezesFinishedFills = true
    /// How the linear and Bézier lanes are evaluated (always `.native`;
    /// the others only to check, in tests, that the results are the same to
    /// the bit).
    var batchPath = BatchPath.native
    /// Doubles below which a bulk read is not worth a second thread (lower
    /// only in tests, to split small reads).
    var readMinimumPerThread = 1 << 17
    /// Named timing functions (plugins add theirs here).
    @exclusivity(unchecked) public var timingFunctions = TimingFunctionRegistry()
    /// Known properties (the host adds its own here).
    @exclusivity(unchecked) public var properties = PropertyRegistry()

    let layers: SlotTable<LayerRecord>
    let definitions: SlotTable<StoredAnimation>
    let instances: SlotTable<Instance>
    let barriers: SlotTable<BarrierRecord>
    let transactions: SlotTable<TransactionRecord>
    let timers: SlotTable<TimerRecord>
    let readers: SlotTable<BulkTargets>
    // Properties marked @exclusivity(unchecked) are read on every call or
    // every frame. The runtime is used by one thread at a time (the C layer
    // holds a lock) and none of them is accessed while it is being modified,
    // so the dynamic exclusivity checks would only cost time (10 ns of a
    // 17 ns read).

    /// Interned key paths: an id is an index here.
    @exclusivity(unchecked) var keyPathTable: [KeyPath] = []
    /// For each interned key path: (property, first component, count) when it
    /// is plain components of its property (reads copy them), else count 0.
    @exclusivity(unchecked) var plainKeyPaths: [(property: Int32, first: Int32, count: Int32)] = []
    var keyPathIDs: [String: Int32] = [:]

    /// Layer media timings (`LayerRecord.timingIndex`), and free entries
    /// (read by every add and every tick, through the layer's ancestors).
    @exclusivity(unchecked) var layerTimings: [MediaTiming] = []
    var freeLayerTimings: [Int32] = []

    @exclusivity(unchecked) var model: [Double] = []
    @exclusivity(unchecked) var presentation: [Double] = []
    /// Freed value slots by component count (1, 2, 4 or 16).
    @exclusivity(unchecked) var freeValueSlots = [[Int32]](repeating: [], count: 17)

    let batches = BatchSet()
    @exclusivity(unchecked) var curves = CurveTable()
    @exclusivity(unchecked) var general: [GeneralRecord] = []
    @exclusivity(unchecked) var generalLayers: [Int32] = []
    @exclusivity(unchecked) var memberships: [Membership] = []
    @exclusivity(unchecked) var freeMemberships: [Int32] = []
    /// Animation keys in use, interned: id 0 is "no key". An id is freed
    /// when the last animation under its key goes away.
    @exclusivity(unchecked) var keyNames: [String] = [""]
    @exclusivity(unchecked) var keyIDs: [String: Int32] = [:]
    @exclusivity(unchecked) var keyUses: [Int32] = [0]
    @exclusivity(unchecked) var freeKeyIDs: [Int32] = []
    /// Counts layer destructions, so a reader knows when to recheck its targets.
    var layerEpoch: UInt64 = 0
    /// The owners of layers made for something above the core (a machine's
    /// parts), by layer slot: only the owner destroys such a layer (see
    /// `LayerOwner`). Held weakly: a layer whose owner is gone is the host's.
    var layerOwners: [Int32: WeakLayerOwner] = [:]
    /// The rank of each owned layer among its owner's layers, by layer
    /// slot, -1 for a layer no one owns (`own(_:by:rank:)`): read for each
    /// lifecycle change of a tick while any layer is owned
    /// (`orderOwnedTransitions`), where the mark's weak owner costs an
    /// atomic copy and its table a hash. Only as long as the highest slot
    /// ever owned.
    @exclusivity(unchecked) var layerRanks: [Int32] = []
    /// The most doubles in each value pool (`Limits.valuePool`; smaller in
    /// tests of the limit, which real memory would not let them reach).
    var valuePoolLimit = Limits.valuePool
    @exclusivity(unchecked) var pendingBegins: [Handle] = []
    /// Each thread's open transactions, innermost last, for the threads
    /// that have one open, by `ThreadOrdinal`: a transaction belongs to the
    /// thread that opened it, as Core Animation's do (see `openTransactions`).
    @exclusivity(unchecked) var transactionStacks: [UInt64: [Handle]] = [:]
    /// The thread whose transactions the calls made now reach, in place of
    /// the calling thread's: a replay names here the thread that made the
    /// recorded call (nil: the calling thread, `ThreadOrdinal.current`).
    /// It stands in only for the thread that set it (`replayingThread`):
    /// another thread calling meanwhile reaches its own transactions.
    public var replayedThread: UInt64? {
        didSet { replayingThread = replayedThread == nil ? 0 : ThreadOrdinal.current }
    }
    /// The thread that set `replayedThread` (0: none).
    private(set) var replayingThread: UInt64 = 0
    @exclusivity(unchecked) var timerQueue = TimerQueue()
    var timerSequence: UInt64 = 0
    /// While a timer fires: its due time, from which timers started by what
    /// it runs are measured (so timer chains do not depend on the tick rate).
    @exclusivity(unchecked) var firingTimerTime: Double?
    @exclusivity(unchecked) var deferred: [() -> Void] = []
    /// Whether `runDeferred` is running the queued closures (a closure that
    /// calls the runtime queues more, which that same loop runs in turn).
    var runningDeferred = false
    @exclusivity(unchecked) var events: EventQueue
    @exclusivity(unchecked) var inTick = false
    @exclusivity(unchecked) var transitions: [(Int32, LifeState)] = []
    /// An empty buffer that `processTransitions` swaps with `transitions`.
    @exclusivity(unchecked) var spareTransitions: [(Int32, LifeState)] = []
    /// (layer, property) pairs whose presentation must catch up with the
    /// model at the next tick (model set, or last animation removed).
    @exclusivity(unchecked) var staleProperties: [(Int32, Int32)] = []
    /// Layers no tick has shown yet (created since the last tick), as bits
    /// by slot, and their slots to clear at the next tick: such a layer has
    /// no on-screen value, so its presentation follows its model (a layer
    /// Core Animation has not rendered has no presentation layer, and
    /// UIKit then starts from the model).
    @exclusivity(unchecked) var unshownLayerBits: [UInt64] = []
    @exclusivity(unchecked) var unshownLayers: [Int32] = []

    struct GeneralRecord {
        var instance: Int32
        var animation: ResolvedAnimation
        /// Evaluated with a begin time by an earlier tick: it was attached
        /// for all the time since the previous tick.
        var evaluated = false
    }

    /// A runtime, or `.noMemory` when `Limits.runtimes` runtimes are alive,
    /// `.outOfRange` for an event capacity above `Limits.eventCapacity`.
    public static func make(configuration: Configuration = Configuration()) throws(AnimrtError) -> Runtime {
        guard configuration.eventCapacity <= Limits.eventCapacity else {
            throw AnimrtError(.outOfRange, "event capacity \(configuration.eventCapacity) is more than the \(Limits.eventCapacity) allowed")
        }
        guard let tag = RuntimeTags.shared.acquire() else {
            throw AnimrtError(.noMemory, "\(Limits.runtimes) runtimes are alive, the most at once; destroy one first")
        }
        return Runtime(configuration: configuration, tag: tag)
    }

    /// A runtime. While fewer than `Limits.runtimes` runtimes are alive it
    /// gets a tag of its own, so handles of other live runtimes are refused;
    /// past that it is untagged: its handles are still checked for kind,
    /// slot and generation, but not told apart from other untagged
    /// runtimes' (`make(configuration:)` refuses instead).
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, tag: RuntimeTags.shared.acquire() ?? 0)
    }

    private init(configuration: Configuration, tag t: UInt16) {
        tag = t
        self.configuration = configuration
        layers = SlotTable(kind: .layer, tag: t, placeholder: LayerRecord())
        definitions = SlotTable(kind: .animation, tag: t, placeholder: StoredAnimation(animation: .group([]), keyPath: nil))
        instances = SlotTable(kind: .instance, tag: t, placeholder: Instance(layer: Handle(raw: 0), keyID: 0, property: -1, definition: 0))
        barriers = SlotTable(kind: .barrier, tag: t, placeholder: BarrierRecord())
        transactions = SlotTable(kind: .transaction, tag: t, placeholder: TransactionRecord(barrier: Handle(raw: 0)))
        timers = SlotTable(kind: .timer, tag: t, placeholder: TimerRecord(fireTime: 0, sequence: 0, action: .event(.timerFired, object: Handle(raw: 0), token: 0)))
        readers = SlotTable(kind: .reader, tag: t, placeholder: BulkTargets(offsets: [], special: [:], layers: [], checkedEpoch: 0, width: 1))
        events = EventQueue(capacity: min(configuration.eventCapacity, Limits.eventCapacity))
    }

    deinit { if tag != 0 { RuntimeTags.shared.release(tag) } }

    /// Stops every animation (reason `.runtimeDestroyed`), so that barriers
    /// and transactions waiting on them are told, then drops everything.
    /// Returns the events still queued (the queue is about to disappear).
    /// With `deliver`, none is lost to the queue's bound: whenever the queue
    /// is full, what it holds goes to `deliver` (in order, in batches)
    /// before the next event is queued, and the rest is returned.
    public func shutdown(delivering deliver: (([Event]) -> Void)? = nil) -> [Event] {
        deliverWhenFull = deliver
        defer { deliverWhenFull = nil }
        // Every animation stops first, in slot order, with its event and its
        // barriers left: detaching reports nothing, so the events are those
        // of stopping each in turn.
        for i in 0..<instances.capacity where instances.isLive(i) { reportStop(instance: i, reason: .runtimeDestroyed) }
        // Then each lane is emptied from its end, which moves no entry (a
        // removal from the middle moves the last entry into the hole: at
        // 10^6 animations, scattered over the lanes by churn, those moves
        // took most of a runtime's destruction), and the rest go one by one.
        for lane in batches.lanes {
            while lane.count > 0 {
                // The owners' records and layers, a chunk at a time (see `warm`).
                let lower = Swift.max(0, lane.count - Runtime.warmChunk)
                warmDetaching(lane, lower..<lane.count)
                for k in (lower..<lane.count).reversed() { detach(Int(lane.owner[k]), presentationIsModel: true) }
            }
        }
        for i in 0..<instances.capacity where instances.isLive(i) { detach(i) }
        runDeferred()
        return takeQueuedEvents()
    }

    /// Every queued event, in order (an overflow notice included), leaving
    /// the queue empty.
    private func takeQueuedEvents() -> [Event] {
        var out: [Event] = []
        while let e = events.pop() { out.append(e) }
        return out
    }

    // MARK: Events

    /// The oldest queued event, or nil.
    public func pollEvent() -> Event? { events.pop() }

    /// Hands up to `limit` of the oldest events to `body`, in order, and
    /// removes them; returns how many (a bulk `pollEvent`). `body` gets each
    /// event's fields, read in place, and its payload.
    public func pollEvents(upTo limit: Int, _ body: (UnsafePointer<EventRecord>, borrowing [TaggedValue]) -> Void) -> Int {
        events.pop(upTo: limit, body)
    }

    /// How many events are queued.
    public var pendingEventCount: Int { events.count + (events.lost > 0 ? 1 : 0) }

    /// Queues `e` (moved into the queue, not copied), whose payload's
    /// strings hold `stringBytes` bytes: the core's own events carry no
    /// payload; those that do come through `post`, which counts them.
    @inline(__always)
    func emit(_ e: consuming Event, stringBytes: Int = 0) {
        if eventDigest != nil { eventDigest!.add(e) }
        if deliverWhenFull != nil && events.wouldLose(stringBytes) { deliverWhenFull!(takeQueuedEvents()) }
        events.push(e, stringBytes: stringBytes)
    }

    /// Queues a lifecycle event, which has no payload, as the queue holds it
    /// (no `Event` is made unless a trace's digest reads it).
    @inline(__always)
    func emit(_ r: EventRecord) {
        if eventDigest != nil { eventDigest!.add(Event(r, payload: [])) }
        if deliverWhenFull != nil && events.wouldLose(0) { deliverWhenFull!(takeQueuedEvents()) }
        events.push(r)
    }

    /// Where the event queue (and the trace's digest) stand, for
    /// `withdrawEvents(since:)`.
    package struct EventMark {
        let queue: EventQueue.Mark
        let digest: EventDigest?
    }

    package func eventMark() -> EventMark { EventMark(queue: events.mark, digest: eventDigest) }

    /// Takes back every event queued since `mark`, as if it had never been
    /// reported: an operation that is refused after it began, and undone
    /// (a machine restore that finds a table full), tells the host nothing
    /// but its status. Events must not be polled in between.
    package func withdrawEvents(since mark: EventMark) {
        events.withdraw(since: mark.queue)
        if mark.digest != nil { eventDigest = mark.digest }
    }

    /// Queues an event for the host (modules above the core report theirs
    /// here, so that every event reaches the host in one order).
    public func post(_ e: Event) { emit(e, stringBytes: EventQueue.stringBytes(of: e.payload)) }

    /// The first thing ever made or done in the runtime, as a message says
    /// it; nil while nothing was (what a trace needs to start from: the
    /// same calls then give the same handles and key path ids).
    public var firstUse: String? {
        if currentTime != nil { return "it was ticked" }
        if layers.capacity != 0 { return "a layer was created" }
        if definitions.capacity != 0 { return "an animation was created" }
        if instances.capacity != 0 { return "an animation was added to a layer" }
        if barriers.capacity != 0 { return "a barrier was created" }
        if transactions.capacity != 0 { return "a transaction was begun" }
        if timers.capacity != 0 { return "a timer was started" }
        if readers.capacity != 0 { return "a reader was created" }
        if !keyPathTable.isEmpty { return "a key path was resolved (animrt_keypath_id)" }
        if properties.properties.count != PropertyRegistry().properties.count {
            return "a property was defined (animrt_property_define)"
        }
        return nil
    }

    /// A hash of every presentation value, for checking that two runtimes
    /// show the same thing (a trace's replay).
    public func presentationDigest() -> UInt64 {
        presentation.withUnsafeBufferPointer { EventDigest.of($0) }
    }

    func now() -> Double { currentTime ?? 0 }

    /// Runs queued notify closures in order; closures may queue more. A
    /// closure's own calls on the runtime (an add, a leave) come back here:
    /// they leave what they queue to the loop already running, which runs
    /// it after the closures queued before it, and run nothing twice.
    func runDeferred() {
        guard !runningDeferred else { return }
        runningDeferred = true
        defer { runningDeferred = false }
        var i = 0
        while i < deferred.count { let body = deferred[i]; i += 1; body() }
        deferred.removeAll()
    }

    func perform(_ action: NotifyAction) {
        switch action {
        case .event(let type, let object, let token):
            var e = Event(type: type, time: now())
            e.object = object; e.token = token
            emit(e)
        case .closure(let body):
            deferred.append(body)
        }
    }
}
