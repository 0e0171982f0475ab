// Extending animrt: registered and bound functions, plugins.
import AnimationCore
import CAnimrt
import Plugins

@c @implementation
public func animrt_error_set(_ status: animrt_status, _ message: UnsafePointer<CChar>!) -> animrt_status {
    // As a plugin's api->error_set: one stray byte must not drop the message.
    let text = Callout.text(of: message)
    Callout.setError(text)
    LastError.set(text)
    return status
}

@c @implementation
public func animrt_timing_function_register(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ fn: animrt_curve_fn!,
                                            _ userData: UnsafeMutableRawPointer!, _ paramCount: Int,
                                            _ defaults: UnsafePointer<Double>!, _ minimum: UnsafePointer<Double>!,
                                            _ maximum: UnsafePointer<Double>!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in
        try p.registerTimingFunction(name, fn, userData, paramCount, defaults, minimum, maximum)
    }
}

@c @implementation
public func animrt_timing_function_register_block(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ fn: animrt_curve_block_fn!,
                                                  _ userData: UnsafeMutableRawPointer!, _ paramCount: Int,
                                                  _ defaults: UnsafePointer<Double>!, _ minimum: UnsafePointer<Double>!,
                                                  _ maximum: UnsafePointer<Double>!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in
        try p.registerBlockTimingFunction(name, fn, userData, paramCount, defaults, minimum, maximum)
    }
}

@c @implementation
public func animrt_function_register(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ signature: UnsafePointer<CChar>!,
                                     _ fn: animrt_function_fn!, _ userData: UnsafeMutableRawPointer!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in try p.registerFunction(name, signature, fn, userData) }
}

@c @implementation
public func animrt_function_bind(_ rt: OpaquePointer!, _ library: UnsafePointer<CChar>!, _ symbol: UnsafePointer<CChar>!,
                                 _ signature: UnsafePointer<CChar>!, _ name: UnsafePointer<CChar>!) -> animrt_status {
    withPlugins(rt, trace: TraceCall("animrt_function_bind", [Traced.text(library), Traced.text(symbol), Traced.text(signature),
                                                              Traced.text(name)])) { p throws(AnimrtError) in
        try p.bindFunction(library: try optionalString(library, "library"), symbol: try nameString(symbol, "symbol"),
                           signature: try string(signature, "signature"), name: try optionalNameString(name, "name"))
    }
}

@c @implementation
public func animrt_timing_function_bind(_ rt: OpaquePointer!, _ library: UnsafePointer<CChar>!, _ symbol: UnsafePointer<CChar>!,
                                        _ signature: UnsafePointer<CChar>!, _ name: UnsafePointer<CChar>!) -> animrt_status {
    withPlugins(rt, trace: TraceCall("animrt_timing_function_bind", [Traced.text(library), Traced.text(symbol),
                                                                     Traced.text(signature), Traced.text(name)])) { p throws(AnimrtError) in
        try p.bindTimingFunction(library: try optionalString(library, "library"), symbol: try nameString(symbol, "symbol"),
                                 signature: try string(signature, "signature"), name: try optionalNameString(name, "name"))
    }
}

@c @implementation
public func animrt_function_call(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ args: UnsafePointer<animrt_value>!,
                                 _ count: Int, _ result: UnsafeMutablePointer<animrt_value>!, _ buf: UnsafeMutablePointer<CChar>!,
                                 _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in
        let n = try checkedCount(count, "count")
        if n > 0 && args == nil { throw AnimrtError(.nullPointer, "args is NULL but count is \(n)") }
        let f = try p.function(try nameString(name, "name"))
        // The count is checked against the function before any argument is
        // read: a miscounted call is refused as such, and an element past the
        // function's parameters (past the caller's array, maybe) is never
        // touched (its string was read to its NUL).
        try f.checkArgumentCount(n)
        var values: [TaggedValue] = []
        for i in 0..<n { values.append(try taggedValue(args[i], "args[\(i)]")) }
        if f.signature.result != .void && result == nil {
            throw AnimrtError(.nullPointer, "result is NULL but '\(f.name)' returns \(f.signature.result.rawValue)")
        }
        // A string result needs somewhere to go: with no buffer (NULL, or 0
        // bytes, which cannot hold even the NUL) no call could succeed, and
        // the function would run (with whatever it does) for a result lost.
        // Refused before it runs; *needed says what always suffices.
        if f.signature.result == .str && (buf == nil || cap == 0) {
            needed?.pointee = Int(ANIMRT_STRING_MAX) + 1
            throw AnimrtError(buf == nil ? .nullPointer : .buffer,
                              "\(buf == nil ? "buf is NULL" : "cap is 0") but '\(f.name)' returns a string: give a buffer "
                              + "(ANIMRT_STRING_MAX + 1 = \(Int(ANIMRT_STRING_MAX) + 1) bytes always suffice); it was not called")
        }
        guard let value = try f.call(values) else { return }
        result.pointee = try Plugins.cValue(value) { (s: String) throws(AnimrtError) -> UnsafePointer<CChar> in
            try copyString(s, buf, cap, needed, "the string result")
            return UnsafePointer(buf)
        }
    }
}

@c @implementation
public func animrt_plugin_load(_ rt: OpaquePointer!, _ path: UnsafePointer<CChar>!, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withPlugins(rt, trace: TraceCall("animrt_plugin_load", [Traced.text(path)])) { p throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try p.load(path: try string(path, "path")).raw
    }
}

@c @implementation
public func animrt_plugin_unload(_ rt: OpaquePointer!, _ plugin: animrt_id) -> animrt_status {
    withPlugins(rt, trace: TraceCall("animrt_plugin_unload", [.handle(plugin)])) { p throws(AnimrtError) in
        try p.unload(Handle(raw: plugin))
    }
}

@c @implementation
public func animrt_plugin_name(_ rt: OpaquePointer!, _ plugin: animrt_id, _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int,
                               _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in
        try copyString(try p.pluginName(Handle(raw: plugin)), buf, cap, needed, "the plugin's name")
    }
}

@c @implementation
public func animrt_plugin_version(_ rt: OpaquePointer!, _ plugin: animrt_id, _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int,
                                  _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withPlugins(rt) { p throws(AnimrtError) in
        try copyString(try p.pluginVersion(Handle(raw: plugin)), buf, cap, needed, "the plugin's version")
    }
}
