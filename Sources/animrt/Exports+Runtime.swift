// Versions, errors, the runtime object, time, events.
import AnimationCore
import CAnimrt
import Plugins

@c @implementation
public func animrt_version() -> UInt32 {
    UInt32(ANIMRT_VERSION_MAJOR * 10000 + ANIMRT_VERSION_MINOR * 100 + ANIMRT_VERSION_PATCH)
}

@c @implementation
public func animrt_version_string() -> UnsafePointer<CChar>! { cString("0.3.0") }

@c @implementation
public func animrt_status_name(_ status: animrt_status) -> UnsafePointer<CChar>! {
    guard let s = Status(rawValue: status) else { return cString("ANIMRT_E_UNKNOWN") }
    return cString(s.name)
}

@c @implementation
public func animrt_event_type_name(_ type: Int32) -> UnsafePointer<CChar>! {
    guard let t = EventType(rawValue: type) else { return cString("ANIMRT_EVENT_UNKNOWN") }
    return switch t {
    case .animationStarted: cString("ANIMRT_EVENT_ANIMATION_STARTED")
    case .animationStopped: cString("ANIMRT_EVENT_ANIMATION_STOPPED")
    case .barrierNotified: cString("ANIMRT_EVENT_BARRIER_NOTIFIED")
    case .transactionCompleted: cString("ANIMRT_EVENT_TRANSACTION_COMPLETED")
    case .timerFired: cString("ANIMRT_EVENT_TIMER_FIRED")
    case .overflow: cString("ANIMRT_EVENT_OVERFLOW")
    case .machineStateChanged: cString("ANIMRT_EVENT_MACHINE_STATE")
    case .machineEmitted: cString("ANIMRT_EVENT_MACHINE_EMITTED")
    case .machineRequest: cString("ANIMRT_EVENT_MACHINE_REQUEST")
    case .machineStaleResult: cString("ANIMRT_EVENT_MACHINE_STALE")
    case .machineError: cString("ANIMRT_EVENT_MACHINE_ERROR")
    }
}

@c @implementation
public func animrt_stop_reason_name(_ reason: Int32) -> UnsafePointer<CChar>! {
    guard let r = StopReason(rawValue: reason) else { return cString("ANIMRT_STOP_UNKNOWN") }
    return switch r {
    case .finished: cString("ANIMRT_STOP_FINISHED")
    case .removed: cString("ANIMRT_STOP_REMOVED")
    case .replaced: cString("ANIMRT_STOP_REPLACED")
    case .layerDestroyed: cString("ANIMRT_STOP_LAYER_DESTROYED")
    case .runtimeDestroyed: cString("ANIMRT_STOP_RUNTIME_DESTROYED")
    }
}

@c @implementation
public func animrt_last_error_message() -> UnsafePointer<CChar>! { LastError.message }

@c @implementation
public func animrt_runtime_create(_ eventCapacity: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>!) -> animrt_status {
    guard let out else { return fail(.nullPointer, "out is NULL") }
    let capacity = eventCapacity == 0 ? 65_536 : Int(eventCapacity)
    do throws(AnimrtError) {
        let box = RuntimeBox(try Runtime.make(configuration: .init(eventCapacity: capacity)))
        out.pointee = OpaquePointer(Unmanaged.passRetained(box).toOpaque())
        return animrt_status(ANIMRT_OK)
    } catch {
        return fail(error)
    }
}

@c @implementation
public func animrt_runtime_destroy(_ rt: OpaquePointer!) {
    guard let rt else { return }
    Unmanaged<RuntimeBox>.fromOpaque(UnsafeRawPointer(rt)).takeUnretainedValue().destroy()
}

@c @implementation
public func animrt_runtime_tick(_ rt: OpaquePointer!, _ now: Double) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let (error, deliver): (AnimrtError?, Bool) = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return (refused, false) }
        defer { box.lock.unlock() }
        if box.closing { return (RuntimeBox.closingError(), false) }
        // Curves and machine functions from outside run inside the tick.
        do throws(AnimrtError) { try Callout.within(box.runtime.tag) { () throws(AnimrtError) in try box.runtime.tick(now) } }
        catch { return (error, false) }
        if let t = box.trace { t.record(TraceCall("animrt_runtime_tick", [.number(now)]), runtime: box.runtime) }
        return (nil, box.claimDelivery())
    }
    // The lock is released: the callback may call back into animrt.
    if deliver { RuntimeBox.with(rt) { $0.deliver() } }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

@c @implementation
public func animrt_runtime_time(_ rt: OpaquePointer!, _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in try required(out, "out").pointee = r.currentTime ?? 0 }
}

@c @implementation
public func animrt_runtime_set_threads(_ rt: OpaquePointer!, _ threads: UInt32) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_runtime_set_threads", [.integer(Int64(threads))])) { r throws(AnimrtError) in
        r.evaluationThreads = threads == 0 ? processorCount() : Int(min(threads, 256))
    }
}

@c @implementation
public func animrt_event_poll(_ rt: OpaquePointer!, _ out: UnsafeMutablePointer<animrt_event>!, _ cap: Int,
                              _ count: UnsafeMutablePointer<Int>!) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    return RuntimeBox.with(rt) { box in
        withRuntime(rt) { r throws(AnimrtError) in
            let count = try required(count, "count")
            // Named as the host passed it (a size_t), before SIZE_MAX becomes "enough".
            if cap != 0 && out == nil { throw AnimrtError(.nullPointer, "out is NULL but cap is \(UInt(bitPattern: cap))") }
            let cap = capacity(cap)
            // The previous poll's payloads expire now.
            let arena = PayloadArena()
            box.polled = arena
            var n = 0
            count.pointee = r.pollEvents(upTo: cap) { e, payload in out[n] = Event.c(e, payload, arena); n += 1 }
        }
    }
}

@c @implementation
public func animrt_event_set_callback(_ rt: OpaquePointer!, _ fn: animrt_event_fn!, _ userData: UnsafeMutableRawPointer!) -> animrt_status {
    guard let rt else { return fail(.nullPointer, "the runtime pointer is NULL") }
    let error: AnimrtError? = RuntimeBox.with(rt) { box in
        if let refused = box.acquire() { return refused }
        defer { box.lock.unlock() }
        if box.closing { return RuntimeBox.closingError() }
        box.callback = fn
        box.userData = fn == nil ? nil : userData
        // Another thread may be inside the old callback: wait for that call
        // to return (the deliverer calls the new one, or none, after it), so
        // that the host may free the old user data once this returns. From
        // inside the callback (this thread delivers) nothing is waited for.
        if box.callsBegun != box.callsEnded, let d = box.deliverer, d != .current {
            let call = box.callsBegun
            box.waiting.add(1, ordering: .sequentiallyConsistent)
            while box.callsEnded < call { box.lock.wait() }
            box.waiting.subtract(1, ordering: .sequentiallyConsistent)
        }
        return nil
    }
    guard let error else { return animrt_status(ANIMRT_OK) }
    return fail(error)
}

@c @implementation
public func animrt_timing_function_evaluate(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ x: Double,
                                            _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        guard !x.isNaN else { throw AnimrtError(.invalidArgument, "x is NaN") }
        let name = try string(name, "name")
        let y = try r.timingFunctions.function(named: name).evaluate(x)
        // Outside [0, 1] a curve follows its end tangents, which a steep
        // tangent or a huge x carry past the largest double.
        guard y.isFinite else {
            throw AnimrtError(.outOfRange, "'\(name)' at x = \(x) gives \(y.isNaN ? "nan" : "\(y)"): outside [0, 1] a built-in timing function carries on past its ends (a curve along its end tangents, steps() by its steps), which give no finite value here")
        }
        out.pointee = y
    }
}
