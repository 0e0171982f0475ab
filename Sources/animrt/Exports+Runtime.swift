// Versions, errors, the runtime object, time, events.
import AnimationCore
import CAnimrt

@c @implementation
public func animrt_version() -> UInt32 {
    UInt32(ANIMRT_VERSION_MAJOR * 10000 + ANIMRT_VERSION_MINOR * 100 + ANIMRT_VERSION_PATCH)
}

@c @implementation
public func animrt_version_string() -> UnsafePointer<CChar>! { cString("0.1.0") }

@c @implementation
public func animrt_status_name(_ status: animrt_status) -> UnsafePointer<CChar>! {
    guard let s = Status(rawValue: status) else { return cString("ANIMRT_E_UNKNOWN") }
    return cString(s.name)
}

@c @implementation
public func animrt_last_error_message() -> UnsafePointer<CChar>! { LastError.message }

@c @implementation
public func animrt_runtime_create(_ eventCapacity: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>!) -> animrt_status {
    guard let out else { return fail(.nullPointer, "out is NULL") }
    let capacity = eventCapacity == 0 ? 65_536 : Int(eventCapacity)
    let box = RuntimeBox(Runtime(configuration: .init(eventCapacity: capacity)))
    out.pointee = OpaquePointer(Unmanaged.passRetained(box).toOpaque())
    return animrt_status(ANIMRT_OK)
}

@c @implementation
public func animrt_runtime_destroy(_ rt: OpaquePointer!) {
    guard let rt else { return }
    let unmanaged = Unmanaged<RuntimeBox>.fromOpaque(UnsafeRawPointer(rt))
    let box = unmanaged.takeUnretainedValue()
    let (events, callback, user) = box.lock.withLock { c in
        box.machines.shutdown()
        return (box.runtime.shutdown(), c.callback, c.userData)
    }
    if let callback { for e in events { let arena = PayloadArena(); var c = e.c(arena); callback(user, &c) } }
    unmanaged.release()
}

@c @implementation
public func animrt_runtime_tick(_ rt: OpaquePointer!, _ now: Double) -> animrt_status {
    var pending: [Event] = []
    var callback: animrt_event_fn? = nil
    var user: UnsafeMutableRawPointer? = nil
    let status = withState(rt) { (r: Runtime, c: inout CallbackState) throws(AnimrtError) in
        try r.tick(now)
        guard let cb = c.callback else { return }
        while let e = r.pollEvent() { pending.append(e) }
        callback = cb; user = c.userData
    }
    // The lock is released: the callback may call back into animrt.
    if let callback { for e in pending { let arena = PayloadArena(); var c = e.c(arena); callback(user, &c) } }
    return status
}

@c @implementation
public func animrt_runtime_time(_ rt: OpaquePointer!, _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in try required(out, "out").pointee = r.currentTime ?? 0 }
}

@c @implementation
public func animrt_runtime_set_threads(_ rt: OpaquePointer!, _ threads: UInt32) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
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
            let cap = capacity(cap)
            if cap > 0 && out == nil { throw AnimrtError(.nullPointer, "out is NULL but cap is \(cap)") }
            // The previous poll's payloads expire now.
            let arena = PayloadArena()
            box.polled = arena
            var n = 0
            while n < cap, let e = r.pollEvent() { out[n] = e.c(arena); n += 1 }
            count.pointee = n
        }
    }
}

@c @implementation
public func animrt_event_set_callback(_ rt: OpaquePointer!, _ fn: animrt_event_fn!, _ userData: UnsafeMutableRawPointer!) -> animrt_status {
    withState(rt) { (_: Runtime, c: inout CallbackState) throws(AnimrtError) in
        c.callback = fn
        c.userData = fn == nil ? nil : userData
    }
}

@c @implementation
public func animrt_timing_function_evaluate(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ x: Double,
                                            _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        guard !x.isNaN else { throw AnimrtError(.invalidArgument, "x is NaN") }
        out.pointee = try r.timingFunctions.function(named: try string(name, "name")).evaluate(x)
    }
}
