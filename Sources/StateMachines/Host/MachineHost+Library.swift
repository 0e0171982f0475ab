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
}
