/// What a definition can be exported as (`animrt_export_format`; raw values
/// are part of the C ABI: never renumber, only append).
public enum ExportFormat: Int32, Sendable, CaseIterable {
    /// The statechart for Graphviz.
    case dot = 0
    /// A page: configuration, events, context, parts, copy, transition table.
    case markdown
}

extension MachineDefinition {
    /// The definition as text in `format`.
    public func export(_ format: ExportFormat) -> String {
        switch format {
        case .dot: dot()
        case .markdown: markdown()
        }
    }
}
