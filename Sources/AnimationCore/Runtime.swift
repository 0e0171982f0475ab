import Synchronization

/// The animation runtime: a tree of layers with model and presentation
/// values, the animations attached to them, barriers, transactions and
/// timers, all driven by the host's clock through `tick(_:)`.
///
/// A `Runtime` is a plain object with no locking of its own: one thread at a
/// time (the C ABI serialises calls with a mutex). It never reads a clock.
public final class Runtime {
    /// Tunables fixed at creation.
    public struct Configuration: Sendable {
        /// The most events held before the queue reports an overflow.
        public var eventCapacity: Int = 65_536
        public init(eventCapacity: Int = 65_536) { self.eventCapacity = eventCapacity }
    }

    struct PropSlot { var property: Int32; var offset: Int32 }

    /// Where a layer's materialised properties live in the value pools: four
    /// inline (no allocation, no reference counting), more in `overflow`.
    struct PropertySlots {
        private var s0 = PropSlot(property: -1, offset: 0), s1 = PropSlot(property: -1, offset: 0)
        private var s2 = PropSlot(property: -1, offset: 0), s3 = PropSlot(property: -1, offset: 0)
        private(set) var count: Int32 = 0
        private var overflow: [PropSlot] = []

        @inline(__always)
        func offset(of property: Int32) -> Int32? {
            if count > 0 && s0.property == property { return s0.offset }
            if count > 1 && s1.property == property { return s1.offset }
            if count > 2 && s2.property == property { return s2.offset }
            if count > 3 && s3.property == property { return s3.offset }
            if count > 4 { for p in overflow where p.property == property { return p.offset } }
            return nil
        }

        mutating func append(_ p: PropSlot) {
            switch count {
            case 0: s0 = p
            case 1: s1 = p
            case 2: s2 = p
            case 3: s3 = p
            default: overflow.append(p)
            }
            count += 1
        }

        var all: [PropSlot] { Array([s0, s1, s2, s3].prefix(Int(min(count, 4)))) + overflow }
    }

    struct LayerRecord {
        var parent: Int32 = -1
        var children: [Int32] = []
        var props = PropertySlots()
        var firstInstance: Int32 = -1
        var lastInstance: Int32 = -1
        var timing: LayerTiming? = nil
        var generalCount: Int32 = 0
        var generalListIndex: Int32 = -1
    }

    /// An attached animation. Field order keeps the record at 40 bytes
    /// (optional included): it is paid once per animation.
    struct Instance {
        var definition: UInt64
        /// The layer's handle (kept whole: events need it, and a layer
        /// outlives its instances).
        var layerHandle: Handle
        var keyID: Int32
        /// The property written, or -1 for a group (see `general[...].targets`).
        var property: Int32
        var next: Int32 = -1
        var tierIndex: Int32 = -1
        var membership: Int32 = -1
        var state: LifeState = .waiting
        /// The batch lane (curve kind) holding it, or -1 for the general path.
        var lane: Int8 = -1
        var inBatch: Bool { lane >= 0 }
        var pendingBegin = false

        init(layer: Handle, keyID: Int32, property: Int32, definition: UInt64) {
            self.definition = definition; self.layerHandle = layer; self.keyID = keyID; self.property = property
        }

        var layer: Int32 { Int32(layerHandle.index) }
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

    let tag: UInt16
    public let configuration: Configuration
    /// The time of the last tick; nil before the first.
    @exclusivity(unchecked) public internal(set) var currentTime: Double?
    /// Threads that may evaluate a large batch (1: the ticking thread only).
    /// Results do not depend on it.
    public var evaluationThreads = 1 {
        didSet { evaluationThreads = max(1, evaluationThreads) }
    }
    /// Named timing functions (plugins add theirs here).
    public var timingFunctions = TimingFunctionRegistry()
    /// Known properties (the host adds its own here).
    public var properties = PropertyRegistry()

    let layers: SlotTable<LayerRecord>
    let definitions: SlotTable<Animation>
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

    @exclusivity(unchecked) var model: [Double] = []
    @exclusivity(unchecked) var presentation: [Double] = []
    var freeValueSlots: [Int: [Int32]] = [:]

    let batches = BatchSet()
    var curves = CurveTable()
    @exclusivity(unchecked) var general: [GeneralRecord] = []
    @exclusivity(unchecked) var generalLayers: [Int32] = []
    var memberships: [Membership] = []
    var freeMemberships: [Int32] = []
    var keyNames: [String] = [""]
    var keyIDs: [String: Int32] = [:]
    @exclusivity(unchecked) var pendingBegins: [Handle] = []
    var openTransactions: [Handle] = []
    @exclusivity(unchecked) var timerQueue: [Handle] = []
    var timerSequence: UInt64 = 0
    @exclusivity(unchecked) var deferred: [() -> Void] = []
    @exclusivity(unchecked) var events: EventQueue
    @exclusivity(unchecked) var inTick = false
    @exclusivity(unchecked) var transitions: [(Int32, LifeState)] = []
    /// (layer, property) pairs whose presentation must catch up with the
    /// model at the next tick (model set, or last animation removed).
    @exclusivity(unchecked) var staleProperties: [(Int32, Int32)] = []

    struct GeneralRecord {
        var instance: Int32
        var animation: ResolvedAnimation
    }

    private static let nextTag = Atomic<UInt16>(0)

    public init(configuration: Configuration = Configuration()) {
        var t = Runtime.nextTag.add(1, ordering: .relaxed).newValue
        if t == 0 { t = Runtime.nextTag.add(1, ordering: .relaxed).newValue }
        tag = t
        self.configuration = configuration
        layers = SlotTable(kind: .layer, tag: t, placeholder: LayerRecord())
        definitions = SlotTable(kind: .animation, tag: t, placeholder: .group([]))
        instances = SlotTable(kind: .instance, tag: t, placeholder: Instance(layer: Handle(raw: 0), keyID: 0, property: -1, definition: 0))
        barriers = SlotTable(kind: .barrier, tag: t, placeholder: BarrierRecord())
        transactions = SlotTable(kind: .transaction, tag: t, placeholder: TransactionRecord(barrier: Handle(raw: 0)))
        timers = SlotTable(kind: .timer, tag: t, placeholder: TimerRecord(fireTime: 0, sequence: 0, action: .event(.timerFired, object: Handle(raw: 0), token: 0)))
        readers = SlotTable(kind: .reader, tag: t, placeholder: BulkTargets(offsets: [], special: [:], width: 1))
        events = EventQueue(capacity: configuration.eventCapacity)
    }

    /// Stops every animation (reason `.runtimeDestroyed`), so that barriers
    /// and transactions waiting on them are told, then drops everything.
    /// Returns the events produced (the queue is about to disappear).
    public func shutdown() -> [Event] {
        for i in 0..<instances.capacity where instances.isLive(i) {
            stop(instance: i, reason: .runtimeDestroyed)
        }
        runDeferred()
        var out: [Event] = []
        while let e = events.pop() { out.append(e) }
        return out
    }

    // MARK: Events

    /// The oldest queued event, or nil.
    public func pollEvent() -> Event? { events.pop() }

    /// How many events are queued.
    public var pendingEventCount: Int { events.count + (events.lost > 0 ? 1 : 0) }

    func emit(_ e: Event) { events.push(e) }

    func now() -> Double { currentTime ?? 0 }

    /// Runs queued notify closures in order; closures may queue more.
    func runDeferred() {
        var i = 0
        while i < deferred.count { deferred[i](); i += 1 }
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

    // MARK: Layers

    /// Creates a layer, optionally as the last child of `parent`.
    public func createLayer(parent: Handle? = nil) throws(AnimrtError) -> Handle {
        let p = try parent.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        let h = try layers.insert(LayerRecord())
        if let p { layers[h.index].parent = Int32(p); layers[p].children.append(Int32(h.index)) }
        return h
    }

    /// Destroys a layer: its animations stop (`.layerDestroyed`), its
    /// children become roots, its handle becomes stale.
    public func destroyLayer(_ h: Handle) throws(AnimrtError) {
        let i = try layers.index(of: h)
        while layers[i].firstInstance >= 0 { stop(instance: Int(layers[i].firstInstance), reason: .layerDestroyed) }
        for c in layers[i].children { layers[Int(c)].parent = -1 }
        detachFromParent(i)
        for p in layers[i].props.all { releaseValueSlot(p.offset, count: properties.info(p.property).kind.componentCount) }
        layers.remove(at: i)
        if !inTick { runDeferred() }
    }

    private func detachFromParent(_ i: Int) {
        let p = layers[i].parent
        guard p >= 0 else { return }
        layers[Int(p)].children.removeAll { $0 == Int32(i) }
        layers[i].parent = -1
    }

    /// Moves `layer` under `parent` (nil: makes it a root). A layer cannot
    /// become its own descendant.
    public func setParent(_ layer: Handle, _ parent: Handle?) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        var p: Int32 = -1
        if let parent {
            p = Int32(try layers.index(of: parent))
            var a = p
            while a >= 0 {
                if a == Int32(i) { throw AnimrtError(.invalidArgument, "\(parent) is \(layer) or inside it; a layer cannot be its own ancestor") }
                a = layers[Int(a)].parent
            }
        }
        detachFromParent(i)
        if p >= 0 { layers[i].parent = p; layers[Int(p)].children.append(Int32(i)) }
        if !hasIdentityTime(i) { demoteSubtree(i) }
    }

    /// The parent of `layer`, or nil for a root.
    public func parent(of layer: Handle) throws(AnimrtError) -> Handle? {
        let p = layers[try layers.index(of: layer)].parent
        return p < 0 ? nil : layers.handle(at: Int(p))
    }

    /// The children of `layer` in order.
    public func children(of layer: Handle) throws(AnimrtError) -> [Handle] {
        layers[try layers.index(of: layer)].children.map { layers.handle(at: Int($0)) }
    }

    /// The number of live layers.
    public var layerCount: Int { layers.count }

    /// Sets a layer's own time transform (beginTime, speed, timeOffset),
    /// which applies to its animations and to every descendant.
    public func setTiming(_ timing: LayerTiming, of layer: Handle) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        try requireFinite(timing.beginTime, "layer beginTime")
        try requireFinite(timing.speed, "layer speed")
        try requireFinite(timing.timeOffset, "layer timeOffset")
        layers[i].timing = timing.isIdentity ? nil : timing
        if !timing.isIdentity { demoteSubtree(i) }
    }

    public func timing(of layer: Handle) throws(AnimrtError) -> LayerTiming {
        layers[try layers.index(of: layer)].timing ?? LayerTiming()
    }

    func hasIdentityTime(_ i: Int) -> Bool {
        var a = Int32(i)
        while a >= 0 {
            if layers[Int(a)].timing != nil { return false }
            a = layers[Int(a)].parent
        }
        return true
    }

    /// The layer's local time for runtime time `t` (its ancestors' time
    /// transforms applied from the root down).
    func localTime(of i: Int, at t: Double) -> Double {
        let p = layers[i].parent
        let parentTime = p >= 0 ? localTime(of: Int(p), at: t) : t
        return layers[i].timing?.localTime(parentTime) ?? parentTime
    }

    /// The layer's local time at the runtime's current time.
    public func localTime(of layer: Handle) throws(AnimrtError) -> Double {
        localTime(of: try layers.index(of: layer), at: now())
    }

    // MARK: Values

    func valueSlot(layer i: Int, property: Int32, create: Bool) -> Int32? {
        if let offset = layers[i].props.offset(of: property) { return offset }
        guard create else { return nil }
        let info = properties.info(property)
        let n = info.kind.componentCount
        let offset: Int32
        if let reused = freeValueSlots[n]?.popLast() { offset = reused }
        else {
            offset = Int32(model.count)
            model.append(contentsOf: repeatElement(0, count: n))
            presentation.append(contentsOf: repeatElement(0, count: n))
        }
        for k in 0..<n {
            model[Int(offset) + k] = info.defaultValue.lanes[k]
            presentation[Int(offset) + k] = info.defaultValue.lanes[k]
        }
        layers[i].props.append(PropSlot(property: property, offset: offset))
        return offset
    }

    private func releaseValueSlot(_ offset: Int32, count n: Int) { freeValueSlots[n, default: []].append(offset) }

    func wholeValue(_ pool: [Double], layer i: Int, property: Int32) -> AnimatableValue {
        let info = properties.info(property)
        guard let off = valueSlot(layer: i, property: property, create: false) else { return info.defaultValue }
        var lanes = SIMD16<Double>()
        for k in 0..<info.kind.componentCount { lanes[k] = pool[Int(off) + k] }
        return AnimatableValue(kind: info.kind, lanes: lanes)
    }

    func writeWhole(_ v: AnimatableValue, toPresentation: Bool, toModel: Bool, layer i: Int, property: Int32) {
        let off = Int(valueSlot(layer: i, property: property, create: true)!)
        for k in 0..<v.kind.componentCount {
            if toModel { model[off + k] = v.lanes[k] }
            if toPresentation { presentation[off + k] = v.lanes[k] }
        }
    }

    /// A small integer naming `path` in this runtime, for calls that are
    /// made often (reads every frame): the string is parsed once.
    public func keyPathID(_ path: String) throws(AnimrtError) -> Int32 {
        if let id = keyPathIDs[path] { return id }
        let kp = try properties.resolve(path)
        let id = Int32(keyPathTable.count)
        keyPathTable.append(kp)
        let plain = kp.plainComponents ?? (0, 0)
        plainKeyPaths.append((kp.property, Int32(plain.first), Int32(plain.count)))
        keyPathIDs[path] = id
        return id
    }

    /// The key path named by an id from `keyPathID(_:)`.
    public func keyPath(id: Int32) throws(AnimrtError) -> KeyPath {
        guard id >= 0 && Int(id) < keyPathTable.count else {
            throw AnimrtError(.notFound, "key path id \(id) is not known to this runtime (get ids from animrt_keypath_id)")
        }
        return keyPathTable[Int(id)]
    }

    /// Writes the presentation value of key path `id` into `out` and returns
    /// how many doubles it has; nothing is written if `out` is too small.
    public func readPresentation(keyPathID id: Int32, of layer: Handle, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) -> Int {
        let i = try layers.index(of: layer)
        guard id >= 0 && Int(id) < plainKeyPaths.count else { _ = try keyPath(id: id); return 0 }
        let plain = plainKeyPaths[Int(id)]
        if plain.count > 0 {
            let n = Int(plain.count)
            guard out.count >= n else { return n }
            let slot = layers.elements.withUnsafeBufferPointer { $0[i].props.offset(of: plain.property) }
            if let off = slot {
                let base = Int(off + plain.first)
                presentation.withUnsafeBufferPointer { pool in for k in 0..<n { out[k] = pool[base + k] } }
            } else {
                let d = properties.info(plain.property).defaultValue
                for k in 0..<n { out[k] = d.lanes[Int(plain.first) + k] }
            }
            return n
        }
        let kp = keyPathTable[Int(id)]
        let n = kp.kind.componentCount
        guard out.count >= n else { return n }
        let v = kp.get(wholeValue(presentation, layer: i, property: kp.property))
        for k in 0..<n { out[k] = v.lanes[k] }
        return n
    }

    /// Sets the model value of `keyPath`. The presentation value is what the
    /// last tick put on screen: it follows the model at the next tick. So
    /// "set the model, then animate from the presentation value" works in
    /// either order.
    public func setModelValue(_ value: AnimatableValue, forKeyPath path: String, of layer: Handle) throws(AnimrtError) {
        _ = try layers.index(of: layer)
        try setModelValue(value, keyPath: try properties.resolve(path), of: layer)
    }

    /// Sets the model value of a resolved key path.
    public func setModelValue(_ value: AnimatableValue, keyPath kp: KeyPath, of layer: Handle) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        guard value.kind == kp.kind else {
            let n = kp.kind.componentCount
            throw AnimrtError(.kind, "'\(kp.name)' takes a \(kp.kind.name) (\(n) number\(n == 1 ? "" : "s")), not a \(value.kind.name)")
        }
        for k in 0..<value.kind.componentCount { try requireFinite(value.lanes[k], "component \(k) of the value for '\(kp.name)'") }
        let whole = kp.set(value, in: wholeValue(model, layer: i, property: kp.property))
        writeWhole(whole, toPresentation: false, toModel: true, layer: i, property: kp.property)
        staleProperties.append((Int32(i), kp.property))
    }

    /// The model value of `keyPath`.
    public func modelValue(forKeyPath path: String, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        _ = try layers.index(of: layer)
        return try modelValue(keyPath: try properties.resolve(path), of: layer)
    }

    /// The model value of a resolved key path.
    public func modelValue(keyPath kp: KeyPath, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        let i = try layers.index(of: layer)
        return kp.get(wholeValue(model, layer: i, property: kp.property))
    }

    /// The presentation value of `keyPath` as of the last tick.
    public func presentationValue(forKeyPath path: String, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        let i = try layers.index(of: layer)
        let kp = try properties.resolve(path)
        return kp.get(wholeValue(presentation, layer: i, property: kp.property))
    }

    /// Where a bulk read finds each value.
    public struct BulkTargets: Sendable {
        /// Offset of each plain component in the presentation pool, or -1
        /// when the key path needs computing (`special`).
        var offsets: [Int32]
        var special: [Int: (layer: Handle, keyPath: KeyPath)]
        /// Doubles written per target.
        public let width: Int
        public var count: Int { offsets.count }
    }

    /// Resolves (layer, key path) pairs once for `readPresentation`. Every key
    /// path must have the same kind (`width` doubles per target).
    public func resolveTargets(_ targets: [(Handle, String)]) throws(AnimrtError) -> BulkTargets {
        var resolved: [(Handle, KeyPath)] = []
        resolved.reserveCapacity(targets.count)
        for (n, (layer, path)) in targets.enumerated() {
            do { resolved.append((layer, try properties.resolve(path))) }
            catch { throw AnimrtError(error.status, "target \(n): \(error.message)") }
        }
        return try resolveTargets(keyPaths: resolved)
    }

    /// Resolves (layer, key path) pairs whose key paths are already resolved.
    public func resolveTargets(keyPaths targets: [(Handle, KeyPath)]) throws(AnimrtError) -> BulkTargets {
        var offsets: [Int32] = []
        offsets.reserveCapacity(targets.count)
        var special: [Int: (Handle, KeyPath)] = [:]
        var width: Int? = nil
        for (n, (layer, kp)) in targets.enumerated() {
            let i: Int
            do { i = try layers.index(of: layer) }
            catch { throw AnimrtError(error.status, "target \(n): \(error.message)") }
            let path = kp.name
            let w = kp.kind.componentCount
            if let width, width != w {
                throw AnimrtError(.kind, "target \(n): '\(path)' is a \(kp.kind.name); every target of one bulk read must have \(width) component(s)")
            }
            width = w
            let base = valueSlot(layer: i, property: kp.property, create: true)!
            if let plain = kp.plainComponents { offsets.append(base + Int32(plain.first)) }
            else { offsets.append(-1); special[n] = (layer, kp) }
        }
        return BulkTargets(offsets: offsets, special: special, width: width ?? 1)
    }

    /// Copies the presentation value of every target into `out`
    /// (`targets.count × targets.width` doubles). A target whose layer was
    /// destroyed since it was resolved fails with `.handle`, and nothing is
    /// written past the previous targets.
    public func readPresentation(_ targets: BulkTargets, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) {
        guard out.count >= targets.count * targets.width else {
            throw AnimrtError(.buffer, "the buffer holds \(out.count) doubles; \(targets.count * targets.width) are needed")
        }
        for (layer, _) in targets.special.values { _ = try layers.index(of: layer) }
        let w = targets.width
        presentation.withUnsafeBufferPointer { pool in
            targets.offsets.withUnsafeBufferPointer { offs in
                if w == 1 {
                    for n in 0..<offs.count where offs[n] >= 0 { out[n] = pool[Int(offs[n])] }
                } else {
                    for n in 0..<offs.count where offs[n] >= 0 {
                        for k in 0..<w { out[n * w + k] = pool[Int(offs[n]) + k] }
                    }
                }
            }
        }
        for (n, (layer, kp)) in targets.special {
            let v = kp.get(wholeValue(presentation, layer: layer.index, property: kp.property))
            for k in 0..<w { out[n * w + k] = v.lanes[k] }
        }
    }

    /// Stores resolved bulk-read targets under a handle.
    public func createReader(_ targets: [(Handle, KeyPath)]) throws(AnimrtError) -> Handle {
        try readers.insert(try resolveTargets(keyPaths: targets))
    }

    /// The targets stored under a reader handle.
    public func reader(_ h: Handle) throws(AnimrtError) -> BulkTargets { readers[try readers.index(of: h)] }

    public func destroyReader(_ h: Handle) throws(AnimrtError) { readers.remove(at: try readers.index(of: h)) }

    // MARK: Animation descriptions

    /// Stores an animation description under a handle (for hosts that build
    /// animations step by step, as the C ABI does).
    public func createAnimation(_ a: Animation) throws(AnimrtError) -> Handle {
        if let path = a.keyPath { _ = try properties.resolve(path) }
        return try definitions.insert(a)
    }

    public func animation(_ h: Handle) throws(AnimrtError) -> Animation { definitions[try definitions.index(of: h)] }

    /// Changes a stored description; the change is kept only if `body`
    /// does not throw (no half-applied change).
    public func updateAnimation(_ h: Handle, _ body: (inout Animation) throws(AnimrtError) -> Void) throws(AnimrtError) {
        let i = try definitions.index(of: h)
        var copy = definitions[i]
        try body(&copy)
        definitions[i] = copy
    }

    /// Destroys a description. Attached copies keep running.
    public func destroyAnimation(_ h: Handle) throws(AnimrtError) { definitions.remove(at: try definitions.index(of: h)) }

    /// Adds the stored description `h` to `layer` (see `add(_:to:forKey:joining:)`).
    @discardableResult
    public func addAnimation(_ h: Handle, to layer: Handle, forKey key: String?, joining barrier: Handle? = nil) throws(AnimrtError) -> Handle {
        _ = try layers.index(of: layer)
        let a = definitions[try definitions.index(of: h)]
        return try add(a, to: layer, forKey: key, joining: barrier, definition: h)
    }
}
