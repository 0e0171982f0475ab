// Key paths, properties, layers, values and bulk readers.
import AnimationCore
import CAnimrt

@c @implementation
public func animrt_keypath_id(_ rt: OpaquePointer!, _ keyPath: UnsafePointer<CChar>!,
                              _ out: UnsafeMutablePointer<animrt_keypath>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_keypath_id", [Traced.text(keyPath)])) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = KeyPathIDs.id(try r.keyPathID(try nameString(keyPath, "key_path")), in: r)
    }
}

@c @implementation
public func animrt_keypath_info(_ rt: OpaquePointer!, _ keyPath: animrt_keypath, _ kind: UnsafeMutablePointer<animrt_value_kind>!,
                                _ components: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let kp = try KeyPathIDs.keyPath(keyPath, in: r)
        kind?.pointee = animrt_value_kind(rawValue: UInt32(kp.kind.rawValue))
        components?.pointee = kp.kind.componentCount
    }
}

@c @implementation
public func animrt_property_define(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ kind: animrt_value_kind,
                                   _ initial: UnsafePointer<Double>!, _ count: Int) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_property_define", [Traced.text(name), .integer(Int64(kind.rawValue)), Traced.numbers(initial, count), .integer(Int64(count))])) { r throws(AnimrtError) in
        let name = try nameString(name, "name")
        let k = try enumValue(Int32(bitPattern: kind.rawValue), ValueKind.self, "animrt_value_kind")
        try r.properties.define(name, default: try value(k, initial, count, "initial"))
    }
}

@c @implementation
public func animrt_layer_create(_ rt: OpaquePointer!, _ parent: animrt_id, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_create", [.handle(parent)])) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.createLayer(parent: optionalHandle(parent)).raw
    }
}

@c @implementation
public func animrt_layer_create_many(_ rt: OpaquePointer!, _ parent: animrt_id, _ count: Int,
                                     _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_create_many", [.handle(parent), .integer(Int64(count))])) { r throws(AnimrtError) in
        let n = try checkedCount(count, "count")
        if n == 0 {  // none to make (out may be NULL), but a parent that is no layer is refused all the same
            return try r.createLayers(parent: optionalHandle(parent), into: UnsafeMutableBufferPointer(start: nil, count: 0))
        }
        let out = try required(out, "out")
        try out.withMemoryRebound(to: Handle.self, capacity: n) { (p: UnsafeMutablePointer<Handle>) throws(AnimrtError) in
            try r.createLayers(parent: optionalHandle(parent), into: UnsafeMutableBufferPointer(start: p, count: n))
        }
    }
}

@c @implementation
public func animrt_layer_destroy(_ rt: OpaquePointer!, _ layer: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_destroy", [.handle(layer)])) { r throws(AnimrtError) in try r.destroyLayer(Handle(raw: layer)) }
}

@c @implementation
public func animrt_layer_set_parent(_ rt: OpaquePointer!, _ layer: animrt_id, _ parent: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_parent", [.handle(layer), .handle(parent)])) { r throws(AnimrtError) in try r.setParent(Handle(raw: layer), optionalHandle(parent)) }
}

@c @implementation
public func animrt_layer_set_timing(_ rt: OpaquePointer!, _ layer: animrt_id, _ beginTime: Double, _ speed: Double,
                                    _ timeOffset: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_timing", [.handle(layer), .number(beginTime), .number(speed), .number(timeOffset)])) { r throws(AnimrtError) in
        try r.setTiming(LayerTiming(beginTime: beginTime, speed: speed, timeOffset: timeOffset), of: Handle(raw: layer))
    }
}

@c @implementation
public func animrt_layer_set_timing_param(_ rt: OpaquePointer!, _ layer: animrt_id, _ param: animrt_timing_param,
                                          _ v: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_timing_param", [.handle(layer), .integer(Int64(param.rawValue)), .number(v)])) { r throws(AnimrtError) in
        let p = try enumValue(Int32(bitPattern: param.rawValue), TimingParameter.self, "animrt_timing_param")
        // A layer's zero duration is unbounded: the animation message's "default 0.25 s" would mislead.
        if p == .duration && v < 0 && v.isFinite {
            var t = MediaTiming()
            t.duration = v
            try Runtime.checkLayerTiming(t)  // refuses it, as a layer's
        }
        try r.updateMediaTiming(of: Handle(raw: layer)) { (t: inout MediaTiming) throws(AnimrtError) in try t.set(p, v) }
    }
}

@c @implementation
public func animrt_layer_get_timing_param(_ rt: OpaquePointer!, _ layer: animrt_id, _ param: animrt_timing_param,
                                          _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let p = try enumValue(Int32(bitPattern: param.rawValue), TimingParameter.self, "animrt_timing_param")
        out.pointee = try r.mediaTiming(of: Handle(raw: layer)).layerParameter(p)
    }
}

@c @implementation
public func animrt_layer_set_fill_mode(_ rt: OpaquePointer!, _ layer: animrt_id, _ mode: animrt_fill_mode) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_fill_mode", [.handle(layer), .integer(Int64(mode.rawValue))])) { r throws(AnimrtError) in
        let m = try enumValue(Int32(bitPattern: mode.rawValue), FillMode.self, "animrt_fill_mode")
        try r.updateMediaTiming(of: Handle(raw: layer)) { (t: inout MediaTiming) throws(AnimrtError) in t.fillMode = m }
    }
}

@c @implementation
public func animrt_layer_set_direction(_ rt: OpaquePointer!, _ layer: animrt_id, _ direction: animrt_direction) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_direction", [.handle(layer), .integer(Int64(direction.rawValue))])) { r throws(AnimrtError) in
        let d = try enumValue(Int32(bitPattern: direction.rawValue), PlaybackDirection.self, "animrt_direction")
        try r.updateMediaTiming(of: Handle(raw: layer)) { (t: inout MediaTiming) throws(AnimrtError) in t.direction = d }
    }
}

@c @implementation
public func animrt_layer_set_autoreverses(_ rt: OpaquePointer!, _ layer: animrt_id, _ on: Int32) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_autoreverses", [.handle(layer), .integer(Int64(on))])) { r throws(AnimrtError) in
        try r.updateMediaTiming(of: Handle(raw: layer)) { (t: inout MediaTiming) throws(AnimrtError) in t.autoreverses = on != 0 }
    }
}

@c @implementation
public func animrt_layer_convert_time(_ rt: OpaquePointer!, _ time: Double, _ from: animrt_id, _ to: animrt_id,
                                      _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.convertTime(time, from: optionalHandle(from), to: optionalHandle(to))
    }
}

@c @implementation
public func animrt_layer_set_value(_ rt: OpaquePointer!, _ layer: animrt_id, _ keyPath: animrt_keypath,
                                   _ v: UnsafePointer<Double>!, _ count: Int) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_value", [.handle(layer), .integer(KeyPathIDs.traced(keyPath)), Traced.numbers(v, count), .integer(Int64(count))])) { r throws(AnimrtError) in
        let kp = try KeyPathIDs.keyPath(keyPath, in: r)
        try r.setModelValue(try value(kp.kind, v, count, "value for '\(kp.name)'"), keyPath: kp, of: Handle(raw: layer))
    }
}

@c @implementation
public func animrt_layer_set_values(_ rt: OpaquePointer!, _ layers: UnsafePointer<animrt_id>!, _ count: Int,
                                    _ keyPath: animrt_keypath, _ values: UnsafePointer<Double>!, _ valueCount: Int) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_layer_set_values", [Traced.handles(layers, count), .integer(Int64(count)), .integer(KeyPathIDs.traced(keyPath)),
                                                                 Traced.numbers(values, valueCount), .integer(Int64(valueCount))])) { r throws(AnimrtError) in
        let n = try checkedCount(count, "count")
        let m = try checkedCount(valueCount, "value_count")
        if n > 0 && layers == nil { throw AnimrtError(.nullPointer, "layers is NULL but count is \(n)") }
        if m > 0 && values == nil { throw AnimrtError(.nullPointer, "values is NULL but value_count is \(m)") }
        let kp = try KeyPathIDs.keyPath(keyPath, in: r)
        let targets = UnsafeBufferPointer(start: UnsafeRawPointer(layers)?.assumingMemoryBound(to: Handle.self), count: n)
        try r.setModelValues(UnsafeBufferPointer(start: values, count: m), keyPath: kp, of: targets)
    }
}

@c @implementation
public func animrt_layer_get_value(_ rt: OpaquePointer!, _ layer: animrt_id, _ keyPath: animrt_keypath,
                                   _ out: UnsafeMutablePointer<Double>!, _ cap: Int, _ count: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        try copyOut(out, cap, count, try r.modelValue(keyPath: try KeyPathIDs.keyPath(keyPath, in: r), of: Handle(raw: layer)))
    }
}

@c @implementation
public func animrt_layer_get_presentation(_ rt: OpaquePointer!, _ layer: animrt_id, _ keyPath: animrt_keypath,
                                          _ out: UnsafeMutablePointer<Double>!, _ cap: Int,
                                          _ count: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let count = try required(count, "count")
        let buffer = UnsafeMutableBufferPointer(start: out, count: out == nil ? 0 : capacity(cap))
        let n = try r.readPresentation(keyPathID: try KeyPathIDs.index(keyPath, in: r), of: Handle(raw: layer), into: buffer)
        count.pointee = n
        if buffer.count < n { throw AnimrtError(.buffer, "the value has \(counted(n, "component")); the buffer holds \(buffer.count)") }
    }
}

@c @implementation
public func animrt_reader_create(_ rt: OpaquePointer!, _ layers: UnsafePointer<animrt_id>!, _ keyPaths: UnsafePointer<animrt_keypath>!,
                                 _ count: Int, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_reader_create", [Traced.handles(layers, count), Traced.keyPaths(keyPaths, count), .integer(Int64(count))])) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let count = try checkedCount(count, "count")
        if count > 0 && (layers == nil || keyPaths == nil) {
            throw AnimrtError(.nullPointer, "layers or key_paths is NULL but count is \(count)")
        }
        var targets: [(Handle, KeyPath)] = []
        targets.reserveCapacity(count)
        for i in 0..<count {
            do throws(AnimrtError) { targets.append((Handle(raw: layers[i]), try KeyPathIDs.keyPath(keyPaths[i], in: r))) }
            catch { throw error.prefixed("target \(i): ") }
        }
        out.pointee = try r.createReader(targets).raw
    }
}

@c @implementation
public func animrt_reader_read(_ rt: OpaquePointer!, _ reader: animrt_id, _ out: UnsafeMutablePointer<Double>!, _ cap: Int,
                               _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let n = try r.readerSize(Handle(raw: reader))
        // Required, as every array getter's count is; set on success and on
        // ANIMRT_E_BUFFER only (a destroyed target fails with it untouched).
        let needed = try required(needed, "needed")
        // An empty reader needs no buffer at all (NULL, 0 is enough).
        guard capacity(cap) >= n, out != nil || n == 0 else {
            needed.pointee = n
            throw AnimrtError(.buffer, "the reader needs \(counted(n, "double")); the buffer holds \(out == nil ? 0 : cap)")
        }
        try r.readPresentation(reader: Handle(raw: reader), into: UnsafeMutableBufferPointer(start: out, count: n))
        needed.pointee = n
    }
}

@c @implementation
public func animrt_reader_destroy(_ rt: OpaquePointer!, _ reader: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_reader_destroy", [.handle(reader)])) { r throws(AnimrtError) in try r.destroyReader(Handle(raw: reader)) }
}
