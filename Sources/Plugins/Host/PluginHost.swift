import AnimationCore
import CAnimrt
import StateMachines

/// What extends one runtime from outside the library: timing functions and
/// functions the host registered, C functions bound through libffi, and
/// plugins. Every call happens on the thread that owns the runtime (the C
/// layer holds its lock), like `Runtime` and `MachineHost`.
public final class PluginHost {
    /// The most plugins one runtime holds at once (`ANIMRT_PLUGINS_MAX`).
    public static let maximumPlugins = 256
    /// The most functions (bound or registered) one runtime holds (`ANIMRT_FUNCTIONS_MAX`).
    public static let maximumFunctions = 65_536

    /// Refuses one more function past `maximumFunctions`.
    func checkRoom(adding n: Int = 1) throws(AnimrtError) {
        guard callables.count + n <= Self.maximumFunctions else {
            throw AnimrtError(.outOfRange, "\(Self.maximumFunctions) functions are registered or bound already, the most a runtime holds")
        }
    }

    public let machines: MachineHost
    public var runtime: Runtime { machines.runtime }
    /// Every function the host can call, by name: bound, the host's, plugins'.
    var callables: [String: ExternalFunction] = [:]
    let plugins: SlotTable<LoadedPlugin?>
    var isShutDown = false
    /// Whether a C function or timing function was ever bound.
    private var hasBound = false

    /// The first thing a trace records that was ever done here, as a
    /// message says it: a plugin loaded (an unloaded one has spent a handle)
    /// or a C function bound; nil while neither was. What the host
    /// registers is code, not recorded, and does not count.
    public var firstUse: String? {
        if plugins.capacity != 0 { return "a plugin was loaded (unloading it does not undo that)" }
        if hasBound { return "a C function was bound" }
        return nil
    }

    public init(machines: MachineHost) {
        self.machines = machines
        plugins = SlotTable(kind: .plugin, tag: machines.runtime.tag, placeholder: nil)
    }

    // MARK: Timing functions and functions from the host

    /// Registers a family of C timing functions (`animrt_timing_function_register`).
    public func registerTimingFunction(_ name: UnsafePointer<CChar>?, _ fn: animrt_curve_fn?, _ user: UnsafeMutableRawPointer?,
                                       _ count: Int, _ defaults: UnsafePointer<Double>?, _ minimum: UnsafePointer<Double>?,
                                       _ maximum: UnsafePointer<Double>?) throws(AnimrtError) {
        let family = try Self.family(name, fn.map { .native($0, context: user) }, count, defaults, minimum, maximum, owner: nil)
        do throws(AnimrtError) { try runtime.timingFunctions.register(family: family) }
        catch { throw naming(error, holderOf: family.name, curve: true) }
    }

    /// Registers a family of C block timing functions (`animrt_timing_function_register_block`).
    public func registerBlockTimingFunction(_ name: UnsafePointer<CChar>?, _ fn: animrt_curve_block_fn?,
                                            _ user: UnsafeMutableRawPointer?, _ count: Int, _ defaults: UnsafePointer<Double>?,
                                            _ minimum: UnsafePointer<Double>?, _ maximum: UnsafePointer<Double>?) throws(AnimrtError) {
        let family = try Self.family(name, fn.map { .block($0, context: user) }, count, defaults, minimum, maximum, owner: nil)
        do throws(AnimrtError) { try runtime.timingFunctions.register(family: family) }
        catch { throw naming(error, holderOf: family.name, curve: true) }
    }

    /// Registers a C callback as a function (`animrt_function_register`).
    public func registerFunction(_ name: UnsafePointer<CChar>?, _ signature: UnsafePointer<CChar>?, _ fn: animrt_function_fn?,
                                 _ user: UnsafeMutableRawPointer?) throws(AnimrtError) {
        try add(try callbackFunction(name, signature, fn, user, library: nil))
    }

    /// A timing function family from C arguments, checked; `body` is nil when the C function is NULL.
    static func family(_ name: UnsafePointer<CChar>?, _ body: CustomCurveBody?, _ count: Int,
                       _ defaults: UnsafePointer<Double>?, _ minimum: UnsafePointer<Double>?, _ maximum: UnsafePointer<Double>?,
                       owner: AnyObject?) throws(AnimrtError) -> TimingFunctionFamily {
        let name = try cText(name, "name")
        guard let body else { throw AnimrtError(.nullPointer, "the timing function '\(name)' is NULL") }
        guard count >= 0 && count <= TimingFunctionFamily.maximumParameters else {
            throw AnimrtError(.outOfRange, "timing function '\(name)' declares \(UInt(bitPattern: count)) parameters; at most \(TimingFunctionFamily.maximumParameters) are allowed")
        }
        if count > 0 && defaults == nil { throw AnimrtError(.nullPointer, "the defaults of timing function '\(name)' are NULL but it has \(counted(count, "parameter"))") }
        var d: [Double] = [], ranges: [ClosedRange<Double>] = []
        for i in 0..<count {
            let lo = minimum?[i] ?? -.infinity, hi = maximum?[i] ?? .infinity
            guard !lo.isNaN, !hi.isNaN, lo <= hi else {
                throw AnimrtError(.invalidArgument, "parameter \(i + 1) of timing function '\(name)' has the range [\(lo), \(hi)]; it must be ordered and not NaN")
            }
            d.append(defaults![i]); ranges.append(lo...hi)
        }
        try TimingFunctionRegistry.checkFamilyName(name)
        return try TimingFunctionFamily(name: name, defaults: d, ranges: ranges, body: body, owner: owner)
    }

    /// A function backed by a C callback, from C arguments, checked.
    func callbackFunction(_ name: UnsafePointer<CChar>?, _ signature: UnsafePointer<CChar>?, _ fn: animrt_function_fn?,
                          _ user: UnsafeMutableRawPointer?, library: SharedLibrary?) throws(AnimrtError) -> ExternalFunction {
        let name = try cText(name, "name")
        let signature = try Signature.parse(try cText(signature, "signature"))
        guard let fn else { throw AnimrtError(.nullPointer, "the function '\(name)' is NULL") }
        return ExternalFunction(name: name, signature: signature, implementation: .callback(fn, user, library), runtimeTag: runtime.tag)
    }

    /// Adds a function for machines (when its types allow) and for the host.
    func add(_ f: ExternalFunction) throws(AnimrtError) {
        try checkFree(f.name)
        try checkRoom()
        if let m = f.machineFunction() { try machines.functions.register(m) }
        callables[f.name] = f
    }

    /// Whether a function may be added under `name`: a valid name no function has.
    func checkFree(_ name: String) throws(AnimrtError) {
        try FunctionRegistry.checkName(name)
        guard callables[name] == nil, machines.functions[name] == nil else {
            throw naming(AnimrtError(.exists, "a function named '\(name)' is already registered"), holderOf: name, curve: false)
        }
    }

    /// A refusal of a name that exists (`.exists`) held by a loaded plugin,
    /// with that plugin named: the author of another plugin, or the host,
    /// learns whose name it is. Any other refusal is returned as it is.
    func naming(_ error: AnimrtError, holderOf name: String, curve: Bool) -> AnimrtError {
        for i in 0..<plugins.capacity where plugins.isLive(i) {
            guard let p = plugins[i] else { continue }
            if curve ? p.families.contains(where: { $0.name == name }) : p.callables.contains(name) {
                return error.held(by: p.label)
            }
        }
        return error
    }

    // MARK: Binding C functions

    /// Binds `symbol` of `library` (nil: the process) as the function `name`.
    /// The name is checked first: a library is opened (its constructors run) only for a bind that can succeed.
    public func bindFunction(library: String?, symbol: String, signature: String, name: String?) throws(AnimrtError) {
        try Self.checkLibrary(library)
        let sig = try Signature.parse(signature)
        try checkFree(name ?? symbol)
        // Refused before the library is opened (its constructors run then).
        try checkRoom()
        let lib = try SharedLibrary(library)
        let descriptor = try CallDescriptor(sig, function: try lib.address(of: symbol), library: lib)
        try add(ExternalFunction(name: name ?? symbol, signature: sig, implementation: .bound(descriptor), runtimeTag: runtime.tag))
        hasBound = true
    }

    /// Binds `double symbol(double)` of `library` as the timing function `name`.
    public func bindTimingFunction(library: String?, symbol: String, signature: String, name: String?) throws(AnimrtError) {
        try Self.checkLibrary(library)
        let sig = try Signature.parse(signature)
        let name = name ?? symbol
        guard sig == .curve else {
            throw AnimrtError(.kind, "timing function '\(name)' is bound as \(sig); a timing function must be f64(f64) (progress in, eased progress out)")
        }
        try TimingFunctionRegistry.checkFamilyName(name)
        if runtime.timingFunctions.names.contains(name) {
            throw naming(runtime.timingFunctions.nameTaken(name), holderOf: name, curve: true)
        }
        try runtime.timingFunctions.checkRoom()
        let lib = try SharedLibrary(library)
        let descriptor = try CallDescriptor(sig, function: try lib.address(of: symbol), library: lib)
        let family = try TimingFunctionFamily(name: name, body: .unary(descriptor.unaryCurve!), owner: descriptor)
        try runtime.timingFunctions.register(family: family)
        hasBound = true
    }

    /// Refuses an empty library name: dlopen("") opens the process, which
    /// the host asks for with NULL, so "" would bind from it without a word.
    static func checkLibrary(_ library: String?) throws(AnimrtError) {
        guard library != "" else {
            throw AnimrtError(.invalidArgument, "library is empty; name a library (a path, or a soname the loader searches for), or pass NULL for the process and the libraries it has loaded")
        }
    }

    // MARK: Calling

    /// The function `name` (bound, the host's or a plugin's), or `.notFound` with a suggestion.
    public func function(_ name: String) throws(AnimrtError) -> ExternalFunction {
        guard let f = callables[name] else {
            // With none registered or bound there is nothing to list (the message says so already).
            throw AnimrtError(.notFound, "no function named '\(name)' is registered or bound"
                              + (callables.isEmpty ? "" : unknownName(name, among: callables.keys.sorted(), "functions")))
        }
        return f
    }

    /// Calls function `name` with tagged arguments (`animrt_function_call`).
    public func call(_ name: String, _ arguments: [TaggedValue]) throws(AnimrtError) -> TaggedValue? {
        try function(name).call(arguments)
    }

    /// The function `name`, if registered or bound.
    public func function(named name: String) -> ExternalFunction? { callables[name] }
}
