import AnimationCore
import CAnimrt
import StateMachines

/// A plugin loaded into one runtime: its entry point's name and version,
/// its library, the state its init returned, and what it registered (to
/// withdraw it on unload).
final class LoadedPlugin {
    let name: String
    let version: String
    let path: String
    let library: SharedLibrary
    let fini: animrt_plugin_fini_fn?
    let state: UnsafeMutableRawPointer?
    var families: [TimingFunctionFamily]
    var machineFunctions: [MachineFunction]
    let callables: [String]
    let definitions: [String]
    private var finished = false

    init(name: String, version: String, path: String, library: SharedLibrary, fini: animrt_plugin_fini_fn?,
         state: UnsafeMutableRawPointer?, registrar r: Registrar) {
        self.name = name; self.version = version; self.path = path; self.library = library
        self.fini = fini; self.state = state
        families = r.families
        machineFunctions = r.machineFunctions
        callables = r.callables.keys.sorted()
        definitions = r.definitions.map(\.name)
    }

    /// "plugin 'examples' (/path/libexamples.so)", for messages.
    var label: String { "plugin '\(name)' (\(path))" }

    /// Calls fini once; nothing of the plugin is called afterwards.
    func finish(runtimeTag: UInt16) {
        guard !finished else { return }
        finished = true
        Self.finish(fini, state, runtimeTag: runtimeTag)
    }

    /// Calls a plugin's fini, if it has one, with the state its init set.
    static func finish(_ fini: animrt_plugin_fini_fn?, _ state: UnsafeMutableRawPointer?, runtimeTag: UInt16) {
        if let fini { Callout.within(runtimeTag) { fini(state) } }
    }
}

extension AnimrtError {
    /// A refusal of a name that exists, saying who registered it ("…, by
    /// plugin 'examples' (…)"); any other refusal as it is.
    func held(by holder: String) -> AnimrtError {
        status == .exists ? AnimrtError(.exists, message: "\(message), by \(holder)") : self
    }
}
