import AnimationCore
import CAnimrt
import StateMachines

extension PluginHost {
    /// The plugin ABI version this library speaks (`ANIMRT_PLUGIN_ABI_VERSION`).
    public static let abiVersion = UInt32(ANIMRT_PLUGIN_ABI_VERSION)

    /// Loads the plugin at `path`: refuses a library this runtime holds as a
    /// plugin already, checks its entry point's ABI version and name before
    /// running any of its code, runs its init with a registrar, and adds
    /// what it registered, all of it or nothing.
    public func load(path: String) throws(AnimrtError) -> Handle {
        guard !isShutDown else { throw AnimrtError(.state, "the runtime is being destroyed") }
        // dlopen("") opens the process itself, which is no plugin's library.
        guard !path.isEmpty else {
            throw AnimrtError(.invalidArgument, "path is empty; name the plugin's shared library (a path, or a soname the loader searches for)")
        }
        guard plugins.count < Self.maximumPlugins else {
            throw AnimrtError(.outOfRange, "\(Self.maximumPlugins) plugins are loaded already, the most a runtime holds")
        }
        let library = try SharedLibrary(path)
        // One load per library per runtime, whatever it registers (a plugin
        // that registers nothing would otherwise load any number of times):
        // refused before any of its code runs.
        for i in 0..<plugins.capacity where plugins.isLive(i) {
            if let loaded = plugins[i], loaded.library.isSame(as: library) {
                let same = loaded.path == path ? "" : " ('\(path)' is the same library)"
                throw AnimrtError(.exists, "\(loaded.label) is loaded into this runtime already\(same); a library loads once per runtime: unload it to load it again")
            }
        }
        let entry: UnsafeMutableRawPointer
        do throws(AnimrtError) { entry = try library.address(of: ANIMRT_PLUGIN_ENTRY_NAME) }
        catch { throw AnimrtError(.notFound, "'\(path)' is not an animrt plugin: it does not export \(ANIMRT_PLUGIN_ENTRY_NAME) (define it with ANIMRT_PLUGIN_DEFINE)") }
        // dlsym searches the libraries it depends on too: an entry point found
        // in one of them is that plugin's, which would load (its init run)
        // under this library's name, twice in a runtime that holds it already.
        guard library.contains(entry) else {
            let owner = SharedLibrary.file(holding: entry).map { "'\($0)'" } ?? "another library"
            throw AnimrtError(.notFound, "'\(path)' is not an animrt plugin: it does not export \(ANIMRT_PLUGIN_ENTRY_NAME) itself (the one found is \(owner)'s, a library it depends on: load that plugin by its own path); define it with ANIMRT_PLUGIN_DEFINE")
        }
        let plugin = try Self.readEntry(entry, path: path)
        guard let initialise = plugin.`init` else {
            throw AnimrtError(.invalidArgument, "'\(path)': its entry point has no init function (it is NULL); a plugin adds what it has from its init: give one to ANIMRT_PLUGIN_DEFINE (its third argument)")
        }
        // The name is how the plugin is reported (messages, animrt_plugin_name): one that
        // cannot be read, or names nothing, is refused before init runs, so nothing is registered.
        let name: String
        do throws(AnimrtError) {
            name = try cText(plugin.name, "its entry point's name")
            guard !name.isEmpty else { throw AnimrtError(.invalidArgument, "its entry point's name is empty") }
        } catch {
            throw AnimrtError(error.status, "'\(path)': \(error.message); give the plugin a name of 1 to 255 bytes of UTF-8 (ANIMRT_PLUGIN_DEFINE's first argument)")
        }
        // The version is read by the same rules, rather than a bad one
        // becoming "" unseen; it may be "": nothing is found by it.
        let pluginVersion: String
        do throws(AnimrtError) { pluginVersion = try cText(plugin.version, "its entry point's version") } catch {
            throw AnimrtError(error.status, "'\(path)': \(error.message); give the plugin a version of at most 255 bytes of UTF-8, \"\" for none (ANIMRT_PLUGIN_DEFINE's second argument)")
        }
        let registrar = Registrar(host: self, library: library)
        let token = RegistrarTokens.open(registrar)
        var state: UnsafeMutableRawPointer? = nil
        _ = Callout.takeMessage()
        let status = Callout.within(runtime.tag) { initialise(HostAPI.table, token, &state) }
        RegistrarTokens.close(token)
        let label = "plugin '\(name)' (\(path))"
        let said = Callout.takeMessage()
        // A registration that failed is the cause, whatever init returned
        // (a plugin usually returns the failing registration's status).
        if let failure = registrar.failure {
            registrar.discard()
            if status == 0 { LoadedPlugin.finish(plugin.fini, state, runtimeTag: runtime.tag) }
            throw AnimrtError(failure.status, "\(label): \(failure.message); nothing of it was loaded")
        }
        guard status == 0 else {
            registrar.discard()
            let code = Status(rawValue: status).map { "\($0.name)" } ?? "status \(status)"
            throw AnimrtError(.callback, "\(label) failed to initialise (\(code)): \(said ?? "it gave no message (api->error_set)"); nothing of it was loaded")
        }
        let record = LoadedPlugin(name: name, version: pluginVersion, path: path, library: library, fini: plugin.fini,
                                  state: state, registrar: registrar)
        do throws(AnimrtError) { try registrar.commit() } catch {
            record.finish(runtimeTag: runtime.tag)
            throw AnimrtError(error.status, "\(label): \(error.message); nothing of it was loaded")
        }
        do throws(AnimrtError) { return try plugins.insert(record) } catch {
            _ = withdraw(record)
            record.finish(runtimeTag: runtime.tag)
            throw error
        }
    }

    /// Unloads a plugin: withdraws its names, runs its fini, lets its
    /// library go. Refused (`.state`, nothing changes) while anything in the
    /// runtime still uses one of its timing functions or functions; the
    /// refusal names, for each of those, how many of what hold it.
    public func unload(_ h: Handle) throws(AnimrtError) {
        let i = try plugins.index(of: h)
        let p = plugins[i]!
        let undo = withdraw(p)
        var heldFamilies: [Int] = [], heldFunctions: [Int] = []
        for k in p.families.indices where !isKnownUniquelyReferenced(&p.families[k]) { heldFamilies.append(k) }
        for k in p.machineFunctions.indices where !isKnownUniquelyReferenced(&p.machineFunctions[k]) { heldFunctions.append(k) }
        guard heldFamilies.isEmpty && heldFunctions.isEmpty else {
            let message = inUse(p, families: heldFamilies.map { p.families[$0] }, functions: heldFunctions.map { p.machineFunctions[$0] })
            undo()
            throw AnimrtError(.state, message: message)
        }
        plugins.remove(at: i)
        p.finish(runtimeTag: runtime.tag)
    }

    /// Why `p` cannot go: for each of its timing function families and
    /// functions that something holds, what holds it, counted ("its timing
    /// function 'bounce' is used by 2 animation descriptions and 1 attached
    /// animation"), and what to do about each kind of holder. Reads the
    /// tables, changes nothing.
    func inUse(_ p: LoadedPlugin, families: [TimingFunctionFamily], functions: [MachineFunction]) -> String {
        var items: [String] = [], unshown = 0
        // Kinds of holder found: 0 descriptions, 1 attached animations, 2 definitions, 3 machines.
        var kinds = Set<Int>()
        // The first few names are described (a plugin may hold thousands),
        // the rest counted; what to do covers them all.
        func item(_ what: String, _ curve: CurveUses, _ machines: MachineHost.Holders) {
            let counts = [curve.descriptions, curve.attached, machines.definitions.count, machines.machines.count]
            for (kind, n) in counts.enumerated() where n > 0 { kinds.insert(kind) }
            guard items.count < Self.shownNames else { unshown += 1; return }
            var by: [String] = []
            if curve.descriptions > 0 { by.append(counted(curve.descriptions, "animation description")) }
            if curve.attached > 0 { by.append(counted(curve.attached, "attached animation")) }
            if !machines.definitions.isEmpty {
                by.append(counted(machines.definitions.count, "loaded definition") + " (" + Self.names(machines.definitions) + ")")
            }
            if !machines.machines.isEmpty { by.append(counted(machines.machines.count, "machine") + " (of " + Self.names(machines.machines) + ")") }
            // Nothing the tables name: still held, by what is not said.
            items.append(by.isEmpty ? "\(what) is still held" : "\(what) is used by " + Self.listed(by))
        }
        // One pass over each table for every name.
        let curveUses = runtime.curveUses(of: families)
        let holders = machines.holders(of: families.map { $0 as AnyObject } + functions.map { $0 as AnyObject })
        for (k, f) in families.enumerated() { item("its timing function '\(f.name)'", curveUses[k], holders[k]) }
        for (k, f) in functions.enumerated() { item("its function '\(f.name)'", CurveUses(), holders[families.count + k]) }
        if unshown > 0 { items.append("\(unshown) more of its names \(unshown == 1 ? "is" : "are") held") }
        let destroyed = [(0, "the animation descriptions"), (2, "the definitions"), (3, "the machines")]
            .filter { kinds.contains($0.0) }.map(\.1)
        var remedies: [String] = []
        if !destroyed.isEmpty { remedies.append("destroy " + Self.listed(destroyed)) }
        if kinds.contains(1) { remedies.append("remove the attached animations (or destroy their layers)") }
        // "destroy a, b and c, and remove …": the comma keeps the two lists apart.
        let ending = remedies.isEmpty ? "release what holds it first"
            : remedies.joined(separator: destroyed.count > 1 ? ", and " : " and ") + " first"
        return "\(p.label) is in use: \(items.joined(separator: "; ")); \(ending)"
    }

    /// The most names of a plugin a refused unload describes.
    static let shownNames = 8

    /// "a", "a and b", "a, b and c".
    static func listed(_ parts: [String]) -> String {
        parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }

    /// Definition names, each once, in order of first appearance: at most
    /// four, then how many more ("'card' and 'list'", "'a', 'b', 'c', 'd' and 3 more").
    static func names(_ all: [String]) -> String {
        var seen = Set<String>(), unique: [String] = []
        for n in all where seen.insert(n).inserted { unique.append(n) }
        let shown = unique.prefix(4).map { "'\($0)'" }
        return unique.count > 4 ? shown.joined(separator: ", ") + " and \(unique.count - 4) more" : listed(shown)
    }

    /// Removes what `p` registered from the registries; returns how to put it back.
    private func withdraw(_ p: LoadedPlugin) -> () -> Void {
        // The undo closure must not hold the families or functions: unload
        // checks that nothing but `p` does. It keeps slots and names, and
        // takes the objects from `p` when called.
        let slots = p.families.map { runtime.timingFunctions.unregister(family: $0) }
        for m in p.machineFunctions { machines.functions.unregister(m.name) }
        var callables: [ExternalFunction] = []
        for n in p.callables { if let f = self.callables.removeValue(forKey: n) { callables.append(f) } }
        var definitions: [(String, String)] = []
        for n in p.definitions { if let json = machines.unregister(definitionNamed: n) { definitions.append((n, json)) } }
        return { [unowned self, unowned p] in
            for (f, id) in zip(p.families, slots) { if let id { self.runtime.timingFunctions.restore(f, at: id) } }
            for m in p.machineFunctions { try? self.machines.functions.register(m) }
            for f in callables { self.callables[f.name] = f }
            for (n, json) in definitions { self.machines.reinstate(definition: json, as: n) }
        }
    }

    /// The name a plugin's entry point gives.
    public func pluginName(_ h: Handle) throws(AnimrtError) -> String { plugins[try plugins.index(of: h)]!.name }

    /// The version a loaded plugin's entry point gives ("" for none).
    public func pluginVersion(_ h: Handle) throws(AnimrtError) -> String { plugins[try plugins.index(of: h)]!.version }

    /// How many plugins are loaded.
    public var pluginCount: Int { plugins.count }

    /// Runs every plugin's fini, the last loaded first, before the runtime
    /// goes (after its machines and animations have stopped): nothing of a
    /// plugin is called after this.
    public func shutdown() {
        isShutDown = true
        for i in (0..<plugins.capacity).reversed() where plugins.isLive(i) {
            plugins[i]!.finish(runtimeTag: runtime.tag)
        }
    }

    private static var versionText: String { "\(ANIMRT_VERSION_MAJOR).\(ANIMRT_VERSION_MINOR).\(ANIMRT_VERSION_PATCH)" }
}

extension PluginHost {
    /// The entry point at `entry` (the library at `path`), checked field by
    /// field in the order every version lays them out: the version first,
    /// then the size, then the rest, each read only once the fields before
    /// it allow it.
    static func readEntry(_ entry: UnsafeRawPointer, path: String) throws(AnimrtError) -> animrt_plugin {
        // The version is the first field in every version of the entry point:
        // it is read, and checked, before anything else of the plugin is touched.
        // Unaligned loads: the symbol may be anything, at any address.
        let version = entry.loadUnaligned(as: UInt32.self)
        // Versions count up from 1: a first field past this bound is not a
        // version at all (an entry point defined as a function reads its code).
        guard version <= 0xFFFF else {
            throw AnimrtError(.version, "'\(path)': \(ANIMRT_PLUGIN_ENTRY_NAME) does not hold an animrt_plugin (its first field reads as ABI version \(version), which no animrt has had; is it a function?); define it with ANIMRT_PLUGIN_DEFINE")
        }
        guard version == Self.abiVersion else {
            let age = version < Self.abiVersion ? "too old" : "too new"
            throw AnimrtError(.version, "'\(path)' is \(age): it was built for plugin ABI version \(version), and this animrt (\(Self.versionText)) loads version \(Self.abiVersion); rebuild the plugin against this animrt.h")
        }
        // The size is the second field in every version: it is read alone
        // and checked before the rest is copied, so that an entry point
        // smaller than this version's is never read past its end.
        let size = entry.loadUnaligned(fromByteOffset: MemoryLayout<animrt_plugin>.offset(of: \.size)!, as: UInt32.self)
        guard size >= UInt32(MemoryLayout<animrt_plugin>.size) else {
            throw AnimrtError(.version, "'\(path)': its entry point is \(size) bytes, smaller than an animrt_plugin of ABI version \(Self.abiVersion) (\(MemoryLayout<animrt_plugin>.size)); rebuild the plugin against this animrt.h")
        }
        var plugin = animrt_plugin()
        withUnsafeMutableBytes(of: &plugin) { $0.copyMemory(from: UnsafeRawBufferPointer(start: entry, count: $0.count)) }
        return plugin
    }
}
