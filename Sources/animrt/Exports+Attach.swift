// Attaching animations to layers; barriers, transactions and timers.
import AnimationCore
import CAnimrt

@c @implementation
public func animrt_layer_add_animation(_ rt: OpaquePointer!, _ layer: animrt_id, _ animation: animrt_id, _ key: UnsafePointer<CChar>!,
                                       _ barrier: animrt_id, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_add_animation", [.handle(layer), .handle(animation), Traced.text(key), .handle(barrier)])) { r throws(AnimrtError) in
        let key = try optionalNameString(key, "key")
        let h = try r.addAnimation(Handle(raw: animation), to: Handle(raw: layer), forKey: key, joining: optionalHandle(barrier))
        out?.pointee = h.raw
    }
}

@c @implementation
public func animrt_layer_add_animations(_ rt: OpaquePointer!, _ animation: animrt_id, _ layers: UnsafePointer<animrt_id>!,
                                        _ count: Int, _ columns: UnsafePointer<animrt_column>!, _ columnCount: Int,
                                        _ key: UnsafePointer<CChar>!, _ barrier: animrt_id,
                                        _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    // The trace line is made before the call: `out` may be `layers` itself,
    // and the handles written over them are not the layers it was given.
    var line: TraceCall?
    return traced(rt, { line! }) { (box: RuntimeBox) throws(AnimrtError) in
        let r = box.runtime
        let n = try checkedCount(count, "count")
        let m = try checkedCount(columnCount, "column_count")
        if n > 0 && layers == nil { throw AnimrtError(.nullPointer, "layers is NULL but count is \(n)") }
        if m > 0 && columns == nil { throw AnimrtError(.nullPointer, "columns is NULL but column_count is \(m)") }
        let name = try optionalNameString(key, "key")
        var list: [BulkColumn] = []
        for c in 0..<m {
            let raw = Int32(bitPattern: columns[c].field.rawValue)
            guard let field = BulkField(rawValue: raw) else {
                throw AnimrtError(.unknownEnum, "columns[\(c)].field: \(raw) is not a valid animrt_column_field; it is one of \(EnumNames.columnFields)")
            }
            guard let values = columns[c].values else {
                if n == 0 { continue }
                throw AnimrtError(.nullPointer, "columns[\(c)].values is NULL")
            }
            list.append(BulkColumn(field, values))
        }
        let targets = UnsafeBufferPointer(start: UnsafeRawPointer(layers)?.assumingMemoryBound(to: Handle.self), count: n)
        let handles = out.map { UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer($0).assumingMemoryBound(to: Handle.self), count: n) }
        // Read once the counts and pointers are checked.
        if box.trace != nil { line = bulkTrace(rt, animation, layers, count, columns, columnCount, key, barrier) }
        try r.addAnimations(Handle(raw: animation), to: targets, columns: list, forKey: name, joining: optionalHandle(barrier),
                            handles: handles)
    }
}

/// The trace line of a bulk add that succeeded: each column as its field,
/// its length (the key path's components per animation for values) and its
/// numbers, end to end.
private func bulkTrace(_ rt: OpaquePointer?, _ animation: animrt_id, _ layers: UnsafePointer<animrt_id>?, _ count: Int,
                       _ columns: UnsafePointer<animrt_column>?, _ columnCount: Int, _ key: UnsafePointer<CChar>?,
                       _ barrier: animrt_id) -> TraceCall {
    var width = 1
    if let rt { RuntimeBox.with(rt) { box in width = (try? box.runtime.valueKind(ofAnimation: Handle(raw: animation)).componentCount) ?? 1 } }
    var fields: [Int64] = [], lengths: [Int64] = [], flat: [Double] = []
    for c in 0..<(columns == nil ? 0 : columnCount) {
        let field = Int32(bitPattern: columns![c].field.rawValue)
        let n = count * (field >= BulkField.valueBase ? width : 1)
        fields.append(Int64(field)); lengths.append(Int64(n))
        if let v = columns![c].values { flat += UnsafeBufferPointer(start: v, count: n) }
    }
    return TraceCall("animrt_layer_add_animations", [.handle(animation), Traced.handles(layers, count), .integers(fields),
                                                     .integers(lengths), .numbers(flat), Traced.text(key), .integer(Int64(count)),
                                                     .handle(barrier)])
}

@c @implementation
public func animrt_layer_remove_animation(_ rt: OpaquePointer!, _ layer: animrt_id, _ key: UnsafePointer<CChar>!,
                                          _ removed: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_remove_animation", [.handle(layer), Traced.text(key)])) { r throws(AnimrtError) in
        guard key != nil else {
            throw AnimrtError(.nullPointer, "key is NULL; an animation added without a key is removed with animrt_layer_remove_all_animations")
        }
        let found = try r.removeAnimation(forKey: try nameString(key, "key"), from: Handle(raw: layer))
        removed?.pointee = found ? 1 : 0
    }
}

@c @implementation
public func animrt_layer_remove_all_animations(_ rt: OpaquePointer!, _ layer: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_remove_all_animations", [.handle(layer)])) { r throws(AnimrtError) in try r.removeAllAnimations(from: Handle(raw: layer)) }
}

@c @implementation
public func animrt_layer_animation_for_key(_ rt: OpaquePointer!, _ layer: animrt_id, _ key: UnsafePointer<CChar>!,
                                          _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let key = try nameString(key, "key")
        guard let h = try r.instance(forKey: key, of: Handle(raw: layer)) else {
            throw AnimrtError(.notFound, "no animation is attached under the key '\(key)'")
        }
        out.pointee = h.raw
    }
}

@c @implementation
public func animrt_layer_animation_count(_ rt: OpaquePointer!, _ layer: animrt_id, _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.animationKeys(of: Handle(raw: layer)).count
    }
}

@c @implementation
public func animrt_layer_animation_key(_ rt: OpaquePointer!, _ layer: animrt_id, _ index: Int, _ buf: UnsafeMutablePointer<CChar>!,
                                       _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let keys = try r.animationKeys(of: Handle(raw: layer))
        guard index >= 0 && index < keys.count else {
            throw AnimrtError(.outOfRange, "index \(UInt(bitPattern: index)) is past the layer's \(counted(keys.count, "keyed animation"))")
        }
        try copyString(keys[index], buf, cap, needed, "the key")
    }
}

@c @implementation
public func animrt_barrier_create(_ rt: OpaquePointer!, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_barrier_create", [])) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.createBarrier().raw
    }
}

@c @implementation
public func animrt_barrier_destroy(_ rt: OpaquePointer!, _ barrier: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_barrier_destroy", [.handle(barrier)])) { r throws(AnimrtError) in try r.destroyBarrier(Handle(raw: barrier)) }
}

@c @implementation
public func animrt_barrier_enter(_ rt: OpaquePointer!, _ barrier: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_barrier_enter", [.handle(barrier)])) { r throws(AnimrtError) in try r.enter(Handle(raw: barrier)) }
}

@c @implementation
public func animrt_barrier_leave(_ rt: OpaquePointer!, _ barrier: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_barrier_leave", [.handle(barrier)])) { r throws(AnimrtError) in try r.leave(Handle(raw: barrier)) }
}

@c @implementation
public func animrt_barrier_notify(_ rt: OpaquePointer!, _ barrier: animrt_id, _ token: UInt64) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_barrier_notify", [.handle(barrier), .integer(Int64(bitPattern: token))])) { r throws(AnimrtError) in try r.notify(Handle(raw: barrier), token: token) }
}

@c @implementation
public func animrt_barrier_count(_ rt: OpaquePointer!, _ barrier: animrt_id, _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.count(of: Handle(raw: barrier))
    }
}

@c @implementation
public func animrt_transaction_begin(_ rt: OpaquePointer!, _ animationDuration: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_transaction_begin", [.number(animationDuration)])) { r throws(AnimrtError) in
        // Here 0 is a duration too (the enclosing transaction's), where Swift's is nil: the refusal says so.
        if animationDuration.isFinite && animationDuration < 0 {
            throw AnimrtError(.outOfRange, "animation_duration is \(animationDuration); it must be 0 (the enclosing transaction's, else 0.25 s) or more")
        }
        try r.beginTransaction(animationDuration: animationDuration == 0 ? nil : animationDuration)
    }
}

@c @implementation
public func animrt_transaction_commit(_ rt: OpaquePointer!, _ token: UInt64) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_transaction_commit", [.integer(Int64(bitPattern: token))])) { r throws(AnimrtError) in try r.commitTransaction(token: token) }
}

@c @implementation
public func animrt_transaction_current(_ rt: OpaquePointer!, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        guard let h = r.currentTransaction else {
            throw AnimrtError(.state, "no transaction is open on this thread (animrt_transaction_begin opens one)" + r.elsewhere("a thread sees only its own"))
        }
        out.pointee = h.raw
    }
}

@c @implementation
public func animrt_timer_start(_ rt: OpaquePointer!, _ delay: Double, _ token: UInt64, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_timer_start", [.number(delay), .integer(Int64(bitPattern: token))])) { r throws(AnimrtError) in
        let h = try r.startTimer(after: delay, token: token)
        out?.pointee = h.raw
    }
}

@c @implementation
public func animrt_timer_cancel(_ rt: OpaquePointer!, _ timer: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_timer_cancel", [.handle(timer)])) { r throws(AnimrtError) in try r.cancelTimer(Handle(raw: timer)) }
}

@c @implementation
public func animrt_timer_pending(_ rt: OpaquePointer!, _ timer: animrt_id, _ out: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.isTimerPending(Handle(raw: timer)) ? 1 : 0
    }
}
