import AnimationCore
import CAnimrt

/// The host API table every plugin's init receives (`animrt_host_api`):
/// one table for the process, its functions forwarding to the registrar
/// they are given.
enum HostAPI {
    nonisolated(unsafe) static let table: UnsafePointer<animrt_host_api> = {
        let t = UnsafeMutablePointer<animrt_host_api>.allocate(capacity: 1)
        t.initialize(to: animrt_host_api(
            size: UInt32(MemoryLayout<animrt_host_api>.size),
            abi_version: UInt32(ANIMRT_PLUGIN_ABI_VERSION),
            version: { UInt32(ANIMRT_VERSION_MAJOR * 10000 + ANIMRT_VERSION_MINOR * 100 + ANIMRT_VERSION_PATCH) },
            add_timing_function: { reg, name, fn, user, count, defaults, minimum, maximum in
                Registrar.register(reg, "add a timing function") { (r: Registrar) throws(AnimrtError) in
                    let family = try PluginHost.family(name, fn.map { .native($0, context: user) }, count, defaults, minimum, maximum,
                                                       owner: r.library)
                    try r.addTimingFunction(family)
                }
            },
            add_function: { reg, name, signature, fn, user in
                Registrar.register(reg, "add a function") { (r: Registrar) throws(AnimrtError) in
                    try r.addFunction(try r.host.callbackFunction(name, signature, fn, user, library: r.library))
                }
            },
            add_definition: { reg, name, json in
                Registrar.register(reg, "add a definition") { (r: Registrar) throws(AnimrtError) in
                    try r.addDefinition(try cText(name, "name"), try cText(json, "json", limit: 4 << 20))
                }
            },
            error_set: { status, message in HostAPI.setError(status, message) },
            add_timing_function_block: { reg, name, fn, user, count, defaults, minimum, maximum in
                Registrar.register(reg, "add a block timing function") { (r: Registrar) throws(AnimrtError) in
                    let family = try PluginHost.family(name, fn.map { .block($0, context: user) }, count, defaults, minimum, maximum,
                                                       owner: r.library)
                    try r.addTimingFunction(family)
                }
            }))
        return UnsafePointer(t)
    }()

    /// animrt_error_set: records the message for the function's caller.
    @discardableResult
    static func setError(_ status: animrt_status, _ message: UnsafePointer<CChar>?) -> animrt_status {
        Callout.setError(Callout.text(of: message))
        return status
    }
}

/// A C string argument of a registration, copied; NULL, invalid UTF-8 and
/// more than `limit` bytes are refused.
func cText(_ p: UnsafePointer<CChar>?, _ what: String, limit: Int = 255) throws(AnimrtError) -> String {
    guard let p else { throw AnimrtError(.nullPointer, "\(what) is NULL") }
    let n = RawCalls.length(p, limit: limit + 1)
    guard n <= limit else { throw AnimrtError(.outOfRange, "\(what) is longer than \(limit) bytes") }
    guard let s = String(validating: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self) else {
        throw AnimrtError(.invalidArgument, "\(what) is not valid UTF-8")
    }
    return s
}
