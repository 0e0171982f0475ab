import AnimationCore

/// The library of named definitions: the machines that come with animrt
/// (Sources/StateMachines/Library, embedded at build time) and those the
/// host or its plugins register.
extension MachineHost {
    /// The JSON of the shipped definition named `name`.
    static func shippedDefinition(named name: String) -> String? {
        ShippedMachines.all.first { $0.name == name }?.json
    }

    /// The names of the machines that come with animrt.
    public static var shippedNames: [String] { ShippedMachines.all.map(\.name).sorted() }

    /// Every name `load(named:)` accepts: the shipped machines and the registered ones.
    public var libraryNames: [String] { Array(Set(MachineHost.shippedNames).union(library.keys)).sorted() }

    // Checking and withdrawing named definitions, for extensions that add
    // several things at once (a plugin: curves, functions and definitions
    // that use them) and must add all or nothing.

    /// Checks `json` as `register(definition:as:)` would, but against the
    /// given curves and functions (what the registries will hold once the
    /// caller's pending additions are made), and checks that `name` is free.
    public func check(definition json: String, as name: String, curves: TimingFunctionRegistry,
                      functions: FunctionRegistry) throws(AnimrtError) {
        try MachineHost.checkLibraryName(name)
        guard library[name] == nil else { throw AnimrtError(.exists, "a machine definition named '\(name)' is registered already") }
        guard MachineHost.shippedDefinition(named: name) == nil else {
            throw AnimrtError(.exists, "'\(name)' is a machine that comes with animrt; register yours under another name")
        }
        _ = try DefinitionLoader.load(json, properties: runtime.properties, curves: curves, functions: functions)
    }

    /// Forgets the definition registered as `name` (handles already loaded
    /// from it stay valid). Returns its JSON, or nil if there was none.
    @discardableResult
    public func unregister(definitionNamed name: String) -> String? { library.removeValue(forKey: name) }

    /// Puts back a definition `unregister(definitionNamed:)` withdrew, as it
    /// was: it was checked when registered, and is not checked again (what
    /// it uses may have gone since, as it may for any registered definition;
    /// a load by name says so).
    public func reinstate(definition json: String, as name: String) { library[name] = json }
}

/// What holds a function or a timing function family: an extension (a
/// plugin) that is asked to go while something still uses what it added
/// names the holders.
extension MachineHost {
    /// The holders `holders(of:)` finds, each by its definition's name (a
    /// name once per holder, in slot order).
    public struct Holders: Sendable, Equatable {
        /// The loaded definitions (handles not unloaded) that hold it.
        public var definitions: [String] = []
        /// The machines whose definition holds it (each holds its
        /// definition, unloaded or not).
        public var machines: [String] = []
        public init(definitions: [String] = [], machines: [String] = []) { self.definitions = definitions; self.machines = machines }
    }

    /// For each of `objects` (machine functions and timing function
    /// families), the loaded definitions and the machines that hold it. One
    /// pass over both tables, each distinct definition looked at once.
    public func holders(of objects: [AnyObject]) -> [Holders] {
        var found = [Holders](repeating: Holders(), count: objects.count)
        guard !objects.isEmpty else { return found }
        var index: [ObjectIdentifier: Int] = [:]
        for (k, o) in objects.enumerated() { index[ObjectIdentifier(o)] = k }
        // The tables hold every definition looked at, so no identifier is reused meanwhile.
        var known: [ObjectIdentifier: [Int]] = [:]
        func held(by d: MachineDefinition) -> [Int] {
            if let ks = known[ObjectIdentifier(d)] { return ks }
            var ks: [Int] = []
            for f in d.functions { if let k = index[ObjectIdentifier(f)] { ks.append(k) } }
            for f in d.families { if let k = index[ObjectIdentifier(f)] { ks.append(k) } }
            known[ObjectIdentifier(d)] = ks
            return ks
        }
        for i in 0..<definitions.capacity where definitions.isLive(i) {
            if let d = definitions[i] { for k in held(by: d) { found[k].definitions.append(d.name) } }
        }
        for i in 0..<instances.capacity where instances.isLive(i) {
            if let m = instances[i] { for k in held(by: m.definition) { found[k].machines.append(m.definition.name) } }
        }
        return found
    }
}
