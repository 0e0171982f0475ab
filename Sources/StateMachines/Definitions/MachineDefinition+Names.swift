import AnimationCore

/// The name spaces of a definition (`animrt_name_kind`; raw values are part
/// of the C ABI: never renumber, only append).
public enum NameKind: Int32, Sendable, CaseIterable {
    case state = 0, event, context, emit, request, part, config

    /// How a message names one of these ("context field", …).
    public var description: String {
        switch self {
        case .state: "state"; case .event: "event"; case .context: "context field"; case .emit: "emitted event"
        case .request: "request"; case .part: "part"; case .config: "config parameter"
        }
    }
}

extension MachineDefinition {
    /// The names of `kind`, in id order (states by their full dotted names).
    public func names(_ kind: NameKind) -> [String] {
        switch kind {
        case .state: states.map(\.name)
        case .event: events.map(\.name)
        case .context: context.map(\.name)
        case .emit: emits.map(\.name)
        case .request: requests.map(\.name)
        case .part: parts.map(\.name)
        case .config: config.map(\.name)
        }
    }

    /// How many of `kind` there are: the ids run from 0 to this − 1.
    public func count(_ kind: NameKind) -> Int {
        switch kind {
        case .state: states.count
        case .event: events.count
        case .context: context.count
        case .emit: emits.count
        case .request: requests.count
        case .part: parts.count
        case .config: config.count
        }
    }

    /// Refuses id `id` of `kind` unless it is one of this definition's (0 to
    /// count − 1): ANIMRT_E_RANGE, as for any number out of its range,
    /// naming the ids there are, or that there are none (a range "0 to -1"
    /// would read as a fault of the library).
    public func checkID(_ id: Int, _ kind: NameKind) throws(AnimrtError) {
        let count = self.count(kind)
        guard id < 0 || id >= count else { return }
        let what = kind.description
        guard count > 0 else { throw AnimrtError(.outOfRange, "\(what) id \(id) is out of range: '\(name)' has no \(what)s") }
        throw AnimrtError(.outOfRange, "\(what) id \(id) is out of range (0 to \(count - 1)): '\(name)' has \(count) \(what)\(count == 1 ? "" : "s")")
    }
}
