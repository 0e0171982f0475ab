// What every export shares: the runtime box and its lock, error reporting,
// and conversions from C arguments. No animation logic lives here.
import AnimationCore
import CAnimrt
import StateMachines
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host's event callback, if any.
struct CallbackState {
    var callback: animrt_event_fn?
    var userData: UnsafeMutableRawPointer?
}

/// The object behind an `animrt_runtime *` (an unmanaged, retained pointer).
/// Every call holds `lock` while it touches `runtime`.
final class RuntimeBox: @unchecked Sendable {
    let lock = Mutex(CallbackState())
    let runtime: Runtime
    let machines: MachineHost
    /// The payloads of the events the last animrt_event_poll returned.
    var polled = PayloadArena()

    init(_ runtime: Runtime) {
        self.runtime = runtime
        machines = MachineHost(runtime: runtime)
    }

    /// Runs `body` with the box borrowed (no retain/release per call).
    @inline(__always)
    static func with<R>(_ p: OpaquePointer, _ body: (RuntimeBox) -> R) -> R {
        Unmanaged<RuntimeBox>.fromOpaque(UnsafeRawPointer(p))._withUnsafeGuaranteedRef(body)
    }
}

/// The calling thread's last error message, as a C string it owns.
enum LastError {
    static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { free($0) }
        return k
    }()

    static func set(_ message: String) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(old)
    }

    static var message: UnsafePointer<CChar> {
        if let p = pthread_getspecific(key) { return UnsafePointer(p.assumingMemoryBound(to: CChar.self)) }
        return cString("")
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
func fail(_ status: Status, _ message: String) -> animrt_status { fail(AnimrtError(status, message)) }

/// Runs `body` on the runtime under its lock; maps a thrown error to its status.
@inline(__always)
func withState(_ rt: OpaquePointer?, _ body: (Runtime, inout CallbackState) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        box.lock.withLock { (c: inout CallbackState) -> AnimrtError? in
            do throws(AnimrtError) { try body(box.runtime, &c); return nil } catch { return error }
        }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// Runs `body` with the runtime's machines under the lock.
@inline(__always)
func withMachines(_ rt: OpaquePointer?, _ body: (MachineHost) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        box.lock.withLock { (_: inout CallbackState) -> AnimrtError? in
            do throws(AnimrtError) { try body(box.machines); return nil } catch { return error }
        }
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

/// `withState` for calls that do not touch the callback (one closure level
/// less: this is the path of every per-frame read).
@inline(__always)
func withRuntime(_ rt: OpaquePointer?, _ body: (Runtime) throws(AnimrtError) -> Void) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        box.lock.withLock { (_: inout CallbackState) -> AnimrtError? in
            do throws(AnimrtError) { try body(box.runtime); return nil } catch { return error }
        }
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
func value(_ kind: ValueKind, _ p: UnsafePointer<Double>?, _ count: Int, _ name: String) throws(AnimrtError) -> AnimatableValue {
    let buffer = try doubles(p, count, name)
    do { return try AnimatableValue(kind: kind, components: buffer) }
    catch { throw AnimrtError(error.status, "\(name): \(error.message)") }
}

/// An enum argument from C, checked.
func enumValue<E: RawRepresentable>(_ raw: E.RawValue, _ type: E.Type, _ name: String) throws(AnimrtError) -> E {
    guard let e = E(rawValue: raw) else { throw AnimrtError(.unknownEnum, "\(raw) is not a valid \(name)") }
    return e
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
        throw AnimrtError(.buffer, "the value has \(n) component\(n == 1 ? "" : "s"); the buffer holds \(out == nil ? 0 : cap)")
    }
    for k in 0..<n { out[k] = v.lanes[k] }
}

/// Copies `s` and its NUL into a caller buffer with the (buf, cap, needed)
/// rules: *needed is always set; nothing is written when cap is too small.
func copyString(_ s: String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int, _ needed: UnsafeMutablePointer<Int>?,
                _ what: String) throws(AnimrtError) {
    let utf8 = Array(s.utf8)
    needed?.pointee = utf8.count + 1
    guard let buf, capacity(cap) > utf8.count else {
        throw AnimrtError(.buffer, "the \(what) needs \(utf8.count + 1) bytes with its NUL; the buffer holds \(buf == nil ? 0 : cap)")
    }
    for (i, b) in utf8.enumerated() { buf[i] = CChar(bitPattern: b) }
    buf[utf8.count] = 0
}

/// Copies `values` into a caller buffer of doubles with the (out, cap,
/// needed) rules: *needed is always set; nothing is written when cap is too small.
func copyDoubles(_ values: [Double], _ out: UnsafeMutablePointer<Double>?, _ cap: Int,
                 _ needed: UnsafeMutablePointer<Int>?, _ what: String) throws(AnimrtError) {
    let needed = try required(needed, "needed")
    needed.pointee = values.count
    guard values.count <= capacity(cap), values.isEmpty || out != nil else {
        throw AnimrtError(.buffer, "the \(what) need \(values.count) doubles; the buffer holds \(out == nil ? 0 : cap)")
    }
    for (i, v) in values.enumerated() { out![i] = v }
}

extension Event {
    /// The C form of the event; its payload lives in `arena`.
    func c(_ arena: PayloadArena) -> animrt_event {
        let (values, count) = arena.store(payload)
        return animrt_event(type: type.rawValue, reason: reason.rawValue, time: time, layer: layer.raw,
                            object: object.raw, animation: animation.raw, token: token, name: name,
                            from_state: fromState, to_state: toState, payload_count: UInt32(count), payload: values)
    }
}

/// Processors available to this process.
func processorCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
