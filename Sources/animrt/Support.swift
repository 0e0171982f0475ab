// What every export shares: the runtime box and its lock, error reporting,
// and conversions from C arguments. No animation logic lives here.
import AnimationCore
import CAnimrt
import Plugins
import StateMachines
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The object behind an `animrt_runtime *` (an unmanaged pointer holding
/// one retain, the host's). Every call holds `lock` while it touches
/// `runtime` or the fields below.
///
/// Event delivery (the rules the header states): one thread at a time is
/// the *deliverer*; it pops events one by one from the runtime's queue and
/// calls the callback with the lock released. A tick that finds a
/// deliverer already at work (another thread's, or an outer frame of its
/// own thread: a tick from inside the callback) only queues its events
/// behind the pending ones. Destroy waits for another thread's delivery
/// to end, then delivers what is left itself; from inside the callback it
/// delivers the rest re-entrantly and leaves the box to the outer loop,
/// which stops and frees it when it unwinds.
final class RuntimeBox: @unchecked Sendable {
    /// Knows its holder: a call from the thread that holds it (a host
    /// curve or function run by a read, a sample or a retarget, calling
    /// back) is refused instead of waiting on itself.
    let lock = Lock(checksOwner: true)
    /// Calls waiting for the lock. Destroy lets each of them in (to find
    /// the runtime closing and leave) before the box and its lock go.
    let waiting = Atomic<Int>(0)
    let runtime: Runtime
    let machines: MachineHost
    /// Plugins, bound C functions and the host's registered functions.
    let plugins: PluginHost
    /// The payloads of the events the last animrt_event_poll returned.
    var polled = PayloadArena()
    /// Timing functions and key paths recently found by their C names, so
    /// that a host building animation after animation with the same few
    /// names neither copies nor hashes them again.
    @exclusivity(unchecked) var curveNames = RecentNames<TimingFunction>()
    @exclusivity(unchecked) var keyPathNames = RecentNames<(String, KeyPath)>()
    /// The trace being recorded (animrt_trace_start), if one is.
    @exclusivity(unchecked) var trace: TraceRecorder?
    @exclusivity(unchecked) var callback: animrt_event_fn?
    @exclusivity(unchecked) var userData: UnsafeMutableRawPointer?
    /// The thread delivering events, if one is.
    @exclusivity(unchecked) var deliverer: ThreadID?
    /// animrt_runtime_destroy has begun: every call is refused.
    @exclusivity(unchecked) var closing = false
    /// Destroy has delivered the last events: a delivery loop still on the
    /// stack stops, and frees the box as it unwinds.
    @exclusivity(unchecked) var finished = false
    /// Calls of the callback the deliverer has begun, and has seen return:
    /// a call is under way while they differ. Clearing or replacing the
    /// callback from another thread waits for that call to return, so that
    /// the host may free the old callback's user data once it has.
    @exclusivity(unchecked) var callsBegun: UInt64 = 0
    @exclusivity(unchecked) var callsEnded: UInt64 = 0
    /// The export a too-small buffer was refused (animrt_definition_export),
    /// kept for the call that fills: a host asks for the size, then fills,
    /// and a large definition's text is built once for both. One at most;
    /// the fill takes it, and it goes with its definition.
    @exclusivity(unchecked) var keptExport: KeptExport?

    init(_ runtime: Runtime) {
        self.runtime = runtime
        machines = MachineHost(runtime: runtime)
        plugins = PluginHost(machines: machines)
        // A batch worker runs curves from outside too: it is marked like the
        // ticking thread, so a curve calling back is refused, not deadlocked.
        let tag = runtime.tag
        runtime.workerScope = { share in Callout.within(tag) { share() } }
    }

    /// Runs `body` with the box borrowed (no retain/release per call).
    @inline(__always)
    static func with<R>(_ p: OpaquePointer, _ body: (RuntimeBox) -> R) -> R {
        Unmanaged<RuntimeBox>.fromOpaque(UnsafeRawPointer(p))._withUnsafeGuaranteedRef(body)
    }

    /// `with`, holding the box's lock while `body` runs (between the calls of
    /// a replay, which take it themselves).
    static func locked<R>(_ p: OpaquePointer, _ body: (RuntimeBox) -> R) -> R {
        with(p) { box in
            box.lock.lock()
            defer { box.lock.unlock() }
            return body(box)
        }
    }

    /// Takes the lock for a call, or refuses it: a call made on a thread
    /// where the runtime is running code from outside (a guard, an action,
    /// a timing function of the host or a plugin) would wait on itself
    /// forever. The check costs nothing when the lock is free.
    @inline(__always)
    func acquire() -> AnimrtError? {
        if lock.tryLock() { return nil }
        if Callout.isBusy(runtime.tag) { return RuntimeBox.reentrantCall() }
        waiting.add(1, ordering: .sequentiallyConsistent)
        let took = lock.lockUnlessHeld()
        waiting.subtract(1, ordering: .relaxed)
        return took ? nil : RuntimeBox.reentrantCall()
    }

    @inline(never)
    static func reentrantCall() -> AnimrtError {
        AnimrtError(.state, "the runtime was called from inside a function it is running (a guard, an action or a timing function of the host or a plugin); such functions must not call back into their runtime")
    }

    /// What a call made while the runtime is being destroyed gets.
    @inline(never)
    static func closingError() -> AnimrtError {
        AnimrtError(.state, "the runtime is being destroyed; calls made while it delivers its last events are refused")
    }

    /// Claims delivery for the calling thread if a callback is set and no
    /// one is delivering. Call with the lock held.
    @inline(__always)
    func claimDelivery() -> Bool {
        guard callback != nil, deliverer == nil else { return false }
        deliverer = .current
        return true
    }

    /// Delivers queued events one by one until the queue is empty, the
    /// callback is cleared or the runtime destroyed. Call, without the
    /// lock, after `claimDelivery()` returned true. The box may be freed
    /// when this returns.
    func deliver() {
        lock.lock()
        while !finished, let callback, let event = runtime.pollEvent() {
            let user = userData
            callsBegun &+= 1
            lock.unlock()
            // The event's payload lives as long as the call.
            let arena = PayloadArena()
            var e = event.c(arena)
            callback(user, &e)
            lock.lock()
            callsEnded &+= 1
            // A thread clearing or replacing the callback waits for this call.
            if waiting.load(ordering: .relaxed) > 0 { lock.broadcast() }
        }
        deliverer = nil
        let free = finished  // destroy ran inside the callback and left the box to us
        lock.broadcast()
        if free { letWaitingCallsLeave() }
        lock.unlock()
        if free { Unmanaged.passUnretained(self).release() }
    }

    /// animrt_runtime_destroy: stops everything, delivers the last events,
    /// frees the box (or leaves that to the delivery loop it runs inside).
    func destroy() {
        // From inside a function the runtime is running, destroying it is refused.
        if let error = acquire() { _ = fail(error); return }
        guard !closing else { lock.unlock(); return }
        closing = true
        let me = ThreadID.current
        // Events reach the callback one at a time: let another thread's
        // delivery finish (its callbacks' calls are refused from now on).
        while let d = deliverer, d != me { lock.wait() }
        let nested = deliverer != nil
        deliverer = me
        machines.shutdown()
        // With a callback, every last event reaches it: a queue that fills
        // while the animations stop is handed over before it would count
        // one lost (calls from the callback are refused: the box is closing).
        let deliver: (([Event]) -> Void)? = callback.map { callback in
            let user = userData
            return { batch in
                self.lock.unlock()
                for event in batch { let arena = PayloadArena(); var e = event.c(arena); callback(user, &e) }
                self.lock.lock()
            }
        }
        let last = runtime.shutdown(delivering: deliver)
        // Nothing stops or runs any more: plugins finish last.
        plugins.shutdown()
        deliver?(last)
        finished = true
        if !nested { deliverer = nil }
        lock.broadcast()
        if !nested { letWaitingCallsLeave() }
        lock.unlock()
        if !nested { Unmanaged.passUnretained(self).release() }
    }

    /// Before the box is freed: calls that came while destroy ran wait for
    /// the lock, and would wait on freed memory. Each is let in, finds the
    /// runtime closing and leaves. Call with the lock held, `closing` set.
    private func letWaitingCallsLeave() {
        while waiting.load(ordering: .sequentiallyConsistent) > 0 {
            lock.unlock()
            sched_yield()
            lock.lock()
        }
    }
}

/// The last few C names looked up and what each gave. Only names that were
/// found are kept, and only names whose meaning never changes afterwards:
/// properties, and the core's own timing functions (a plugin's or the
/// host's can be withdrawn, and are looked up each time).
struct RecentNames<Value> {
    private var names: [ContiguousArray<CChar>] = []
    private var values: [Value] = []
    private var next = 0
    private static var capacity: Int { 8 }

    func find(_ p: UnsafePointer<CChar>) -> Value? {
        for i in 0..<names.count where names[i].withUnsafeBufferPointer({ strcmp($0.baseAddress!, p) == 0 }) { return values[i] }
        return nil
    }

    mutating func remember(_ p: UnsafePointer<CChar>, _ v: Value) {
        let length = strlen(p)
        guard length <= Limits.nameBytes else { return }
        let bytes = ContiguousArray(UnsafeBufferPointer(start: p, count: length + 1))
        if names.count < Self.capacity { names.append(bytes); values.append(v) }
        else { names[next] = bytes; values[next] = v; next = (next + 1) % Self.capacity }
    }
}

/// A static C string.
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Records `error` for animrt_last_error_message and returns its status.
@inline(never)
func fail(_ error: AnimrtError) -> animrt_status {
    LastError.set(error.message)
    return error.status.rawValue
}

@inline(never)
func fail(_ status: Status, _ message: ErrorText) -> animrt_status { fail(AnimrtError(status, message)) }

// withMachines, withPlugins, withRuntime and traced each write out the same
// lock-and-map steps on purpose: routed through one shared box-level helper,
// the compiler no longer inlines the closures, and a presentation read went
// from 17 to 24 ns (bench/abi_bench.c read, interleaved). withBox is that
// shared helper, for the rare calls that need the box itself.

/// Runs `body` with the runtime's machines under the lock. Refused while
/// the runtime is being destroyed.
@inline(__always)
func withMachines(_ rt: OpaquePointer?, _ body: (MachineHost) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        do throws(AnimrtError) { try body(box.machines); return nil } catch { return error }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// Runs `body` with the runtime's box under the lock, for a call that
/// reads what the box keeps besides the runtime. Refused while the runtime
/// is being destroyed.
func withBox(_ rt: OpaquePointer?, _ body: (RuntimeBox) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        do throws(AnimrtError) { try body(box); return nil } catch { return error }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// Runs `body` with the runtime's plugins and extensions under the lock.
/// Refused while the runtime is being destroyed.
@inline(__always)
func withPlugins(_ rt: OpaquePointer?, _ body: (PluginHost) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        do throws(AnimrtError) { try body(box.plugins); return nil } catch { return error }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// Runs `body` on the runtime under its lock; maps a thrown error to its
/// status. Refused while the runtime is being destroyed.
@inline(__always)
func withRuntime(_ rt: OpaquePointer?, _ body: (Runtime) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        do throws(AnimrtError) { try body(box.runtime); return nil } catch { return error }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// `withRuntime` for a call that changes the runtime: when a trace is being
/// recorded and the call succeeds, `call` is written to it.
@inline(__always)
func withRuntime(_ rt: OpaquePointer?, trace call: @autoclosure () -> TraceCall,
                 _ body: (Runtime) throws(AnimrtError) -> Void) -> animrt_status {
    traced(rt, call) { (box: RuntimeBox) throws(AnimrtError) in try body(box.runtime) }
}

/// `withPlugins` for a call that changes the runtime (see `withRuntime(_:trace:_:)`).
@inline(__always)
func withPlugins(_ rt: OpaquePointer?, trace call: @autoclosure () -> TraceCall,
                 _ body: (PluginHost) throws(AnimrtError) -> Void) -> animrt_status {
    traced(rt, call) { (box: RuntimeBox) throws(AnimrtError) in try body(box.plugins) }
}

/// `withMachines` for a call that changes the runtime (see `withRuntime(_:trace:_:)`).
@inline(__always)
func withMachines(_ rt: OpaquePointer?, trace call: @autoclosure () -> TraceCall,
                  _ body: (MachineHost) throws(AnimrtError) -> Void) -> animrt_status {
    traced(rt, call) { (box: RuntimeBox) throws(AnimrtError) in try body(box.machines) }
}

/// Runs `body` under the lock and, if it succeeds while a trace is being
/// recorded, records `call` (its arguments are read only then).
@inline(__always)
func traced(_ rt: OpaquePointer?, _ call: () -> TraceCall, _ body: (RuntimeBox) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        do throws(AnimrtError) { try body(box) } catch { return error }
        if let t = box.trace { t.record(call(), runtime: box.runtime) }
        return nil
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// A required out-pointer.
@inline(__always)
func required<T>(_ p: UnsafeMutablePointer<T>?, _ name: String) throws(AnimrtError) -> UnsafeMutablePointer<T> {
    guard let p else { throw AnimrtError(.nullPointer, "\(name) is NULL") }
    return p
}

/// A C string argument, copied; NULL and invalid UTF-8 are refused.
func string(_ p: UnsafePointer<CChar>?, _ name: String) throws(AnimrtError) -> String {
    guard let p else { throw AnimrtError(.nullPointer, "\(name) is NULL") }
    guard let s = String(validatingCString: p) else { throw AnimrtError(.invalidArgument, "\(name) is not valid UTF-8") }
    return s
}

/// An optional C string argument (NULL is nil).
func optionalString(_ p: UnsafePointer<CChar>?, _ name: String) throws(AnimrtError) -> String? {
    guard p != nil else { return nil }
    return try string(p, name)
}

/// A name (key path, property name, animation key), copied;
/// NULL, invalid UTF-8 and more than `Limits.nameBytes` bytes are refused.
/// At most that many bytes and one more are read, however long the string
/// really is.
func nameString(_ p: UnsafePointer<CChar>?, _ what: String) throws(AnimrtError) -> String {
    guard let p else { throw AnimrtError(.nullPointer, "\(what) is NULL") }
    let n = strnlen(p, Limits.nameBytes + 1)
    guard n <= Limits.nameBytes else {
        throw AnimrtError(.outOfRange, "\(what) is longer than \(Limits.nameBytes) bytes, the most a name may have")
    }
    let bytes = UnsafeRawBufferPointer(start: p, count: n)
    guard let s = String(validating: bytes, as: UTF8.self) else { throw AnimrtError(.invalidArgument, "\(what) is not valid UTF-8") }
    return s
}

/// An optional name (NULL is nil).
func optionalNameString(_ p: UnsafePointer<CChar>?, _ what: String) throws(AnimrtError) -> String? {
    guard p != nil else { return nil }
    return try nameString(p, what)
}

/// The most elements an input array may claim (a larger size_t is a bug in
/// the caller, refused before anything is read or allocated).
let maximumCount = 1 << 28

/// A size_t element count of an input array, checked. Values of 2^63 and
/// more arrive negative; both they and absurd sizes are `.outOfRange`.
func checkedCount(_ n: Int, _ name: String) throws(AnimrtError) -> Int {
    guard n >= 0 && n <= maximumCount else {
        throw AnimrtError(.outOfRange, "\(name) is \(UInt(bitPattern: n)); at most \(maximumCount) elements are accepted")
    }
    return n
}

/// A size_t capacity of an output buffer: any value is fine, the largest
/// ones (negative here) simply mean "enough".
func capacity(_ cap: Int) -> Int { cap < 0 ? Int.max : cap }

/// `count` doubles; NULL is allowed only for an empty array.
func doubles(_ p: UnsafePointer<Double>?, _ count: Int, _ name: String) throws(AnimrtError) -> UnsafeBufferPointer<Double> {
    let count = try checkedCount(count, "the count of \(name)")
    if count == 0 { return UnsafeBufferPointer(start: nil, count: 0) }
    guard let p else { throw AnimrtError(.nullPointer, "\(name) is NULL but its count is \(count)") }
    return UnsafeBufferPointer(start: p, count: count)
}

/// A value of `kind` from `count` doubles.
@inline(__always)
func value(_ kind: ValueKind, _ p: UnsafePointer<Double>?, _ count: Int, _ name: String) throws(AnimrtError) -> AnimatableValue {
    // The common case, a finite scalar, without the general checks.
    if kind == .scalar && count == 1, let p, p.pointee.isFinite { return .scalar(p.pointee) }
    return try checkedValue(kind, p, count, name)
}

@inline(never)
private func checkedValue(_ kind: ValueKind, _ p: UnsafePointer<Double>?, _ count: Int, _ name: String) throws(AnimrtError) -> AnimatableValue {
    let buffer = try doubles(p, count, name)
    do { return try AnimatableValue(kind: kind, components: buffer) }
    catch { throw error.prefixed("\(name): ") }
}

/// A handle that may be 0 meaning "none".
func optionalHandle(_ raw: animrt_id) -> Handle? { raw == 0 ? nil : Handle(raw: raw) }

/// Copies `n` doubles produced by `fill` into a caller buffer with the
/// (out, cap, count) rules: nothing is written when cap is too small.
func copyOut(_ out: UnsafeMutablePointer<Double>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?,
             _ v: AnimatableValue) throws(AnimrtError) {
    let count = try required(count, "count")
    let n = v.kind.componentCount
    count.pointee = n
    guard capacity(cap) >= n, let out else {
        throw AnimrtError(.buffer, "the value has \(counted(n, "component")); the buffer holds \(out == nil ? 0 : cap)")
    }
    for k in 0..<n { out[k] = v.lanes[k] }
}

/// Copies `s` and its NUL into a caller buffer with the (buf, cap, needed)
/// rules: *needed is always set; nothing is written when cap is too small.
func copyString(_ s: String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
                _ what: String) throws(AnimrtError) {
    // Copied from the string's own storage (a native string's UTF-8 is
    // contiguous): an export of hundreds of megabytes is not copied twice.
    var s = s
    let count = s.utf8.count
    needed?.pointee = count + 1
    guard let buf, capacity(cap) > count else {
        throw AnimrtError(.buffer, "\(what) needs \(counted(count + 1, "byte")) with its NUL; the buffer holds \(buf == nil ? 0 : cap)")
    }
    s.withUTF8 { utf8 in
        if let base = utf8.baseAddress { UnsafeMutableRawPointer(buf).copyMemory(from: base, byteCount: utf8.count) }
    }
    buf[count] = 0
}

/// Copies `values` into a caller buffer of doubles with the (out, cap,
/// needed) rules: *needed is always set; nothing is written when cap is too small.
/// `neededName` is what the header calls the count's pointer (`needed`,
/// `count`, `point_count`), so that a NULL one is refused by its own name.
func copyDoubles(_ values: [Double], _ out: UnsafeMutablePointer<Double>?, _ cap: Int,
                 _ needed: UnsafeMutablePointer<Int>?, _ neededName: String, _ what: String) throws(AnimrtError) {
    let needed = try required(needed, neededName)
    needed.pointee = values.count
    guard values.count <= capacity(cap), values.isEmpty || out != nil else {
        throw AnimrtError(.buffer, "\(counted(values.count, "double")) needed for the \(what); the buffer holds \(out == nil ? 0 : cap)")
    }
    for (i, v) in values.enumerated() { out![i] = v }
}

extension Event {
    /// The C form of the event `e` with `payload` (read in place: no copy of
    /// the event); its payload lives in `arena`.
    static func c(_ e: UnsafePointer<EventRecord>, _ payload: borrowing [TaggedValue], _ arena: PayloadArena) -> animrt_event {
        // Lifecycle events carry no payload: nothing to copy, retain or release.
        let (values, count) = payload.isEmpty ? (nil, 0) : arena.store(payload)
        return animrt_event(type: e.pointee.type.rawValue, reason: e.pointee.reason.rawValue, time: e.pointee.time,
                            layer: e.pointee.layer.raw, object: e.pointee.object.raw, animation: e.pointee.animation.raw,
                            token: e.pointee.token, name: e.pointee.name, from_state: e.pointee.fromState,
                            to_state: e.pointee.toState, payload_count: UInt32(count), payload: values)
    }

    /// The C form of the event; its payload lives in `arena`.
    func c(_ arena: PayloadArena) -> animrt_event { withUnsafePointer(to: EventRecord(self)) { Event.c($0, payload, arena) } }
}

/// Processors available to this process.
func processorCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
