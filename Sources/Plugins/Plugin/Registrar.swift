import AnimationCore
import CAnimrt
import StateMachines

/// What a plugin registers while its init runs, checked as it goes and held
/// apart from the runtime until `commit()`: a plugin is added whole or not
/// at all. The plugin receives a token for it (`RegistrarTokens`), which
/// refuses calls once init has returned.
final class Registrar {
    unowned let host: PluginHost
    /// The plugin's library (what its functions keep alive).
    let library: SharedLibrary
    /// The first registration that failed; the load fails with it.
    private(set) var failure: AnimrtError?

    // What the registries will be once committed (copies: the runtime's own
    // are untouched until then).
    private var curves: TimingFunctionRegistry?
    private var functions: FunctionRegistry?
    private(set) var callables: [String: ExternalFunction] = [:]
    private(set) var families: [TimingFunctionFamily] = []
    private(set) var machineFunctions: [MachineFunction] = []
    private(set) var definitions: [(name: String, json: String)] = []

    init(host: PluginHost, library: SharedLibrary) {
        self.host = host; self.library = library
        curves = host.runtime.timingFunctions
        functions = host.machines.functions
    }

    /// Runs one registration with the registrar of `token`: refused once
    /// its init has returned, recorded if it fails.
    static func register(_ token: OpaquePointer?, _ what: String,
                         _ body: (Registrar) throws(AnimrtError) -> Void) -> animrt_status {
        guard let token else {
            let e = AnimrtError(.nullPointer, "the registrar is NULL (asked to \(what)); pass the registrar init was given (its second argument)")
            // Read by the plugin's thread (animrt_last_error_message) as after
            // any failed call, and by the load if init returns this status.
            Callout.setError(e.message)
            LastError.set(e.message)
            return e.status.rawValue
        }
        let status = RegistrarTokens.with(token) { r in
            do throws(AnimrtError) {
                try body(r)
                return animrt_status(0)
            } catch {
                if r.failure == nil { r.failure = error }
                Callout.setError(error.message)
                // As after any failed call: the plugin may read why with
                // animrt_last_error_message before its init returns.
                LastError.set(error.message)
                return error.status.rawValue
            }
        }
        if let status { return status }
        let e = AnimrtError(.state, "a plugin called the registrar to \(what) after its init returned; the registrar is valid only during init")
        // Outside a load no call of the host picks up the callout's
        // message: the plugin's thread reads it with animrt_last_error_message.
        Callout.setError(e.message)
        LastError.set(e.message)
        return e.status.rawValue
    }

    func addTimingFunction(_ family: TimingFunctionFamily) throws(AnimrtError) {
        do throws(AnimrtError) { try curves!.register(family: family) } catch {
            if families.contains(where: { $0.name == family.name }) { throw error.held(by: "this plugin") }
            throw host.naming(error, holderOf: family.name, curve: true)
        }
        families.append(family)
    }

    func addFunction(_ f: ExternalFunction) throws(AnimrtError) {
        try FunctionRegistry.checkName(f.name)
        guard callables[f.name] == nil, host.callables[f.name] == nil, functions![f.name] == nil else {
            let taken = AnimrtError(.exists, "a function named '\(f.name)' is already registered")
            throw callables[f.name] != nil ? taken.held(by: "this plugin") : host.naming(taken, holderOf: f.name, curve: false)
        }
        try host.checkRoom(adding: callables.count + 1)
        if let m = f.machineFunction() {
            try functions!.register(m)
            machineFunctions.append(m)
        }
        callables[f.name] = f
    }

    func addDefinition(_ name: String, _ json: String) throws(AnimrtError) {
        guard !definitions.contains(where: { $0.name == name }) else {
            throw AnimrtError(.exists, "a machine definition named '\(name)' is registered already")
        }
        try host.machines.check(definition: json, as: name, curves: curves!, functions: functions!)
        definitions.append((name, json))
    }

    /// Adds everything to the runtime, all or nothing.
    func commit() throws(AnimrtError) {
        let (oldCurves, oldFunctions) = (host.runtime.timingFunctions, host.machines.functions)
        host.runtime.timingFunctions = curves!
        host.machines.functions = functions!
        var added: [String] = []
        do throws(AnimrtError) {
            for d in definitions {
                try host.machines.register(definition: d.json, as: d.name)
                added.append(d.name)
            }
        } catch {
            for n in added { host.machines.unregister(definitionNamed: n) }
            host.runtime.timingFunctions = oldCurves
            host.machines.functions = oldFunctions
            discard()
            throw error
        }
        host.callables.merge(callables) { old, _ in old }
        discard()
    }

    /// Drops the staged copies (they hold references that would make the
    /// plugin look in use).
    func discard() {
        curves = nil
        functions = nil
        callables = [:]
        families = []
        machineFunctions = []
        definitions = []
    }
}
