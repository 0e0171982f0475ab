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
}
