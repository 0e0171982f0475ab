extension Runtime {
    /// Lowers the most objects of `kind` this runtime holds at once to `n`
    /// (never below the slots its table has made already: those stay
    /// usable). For tests of what a full table does — the refusal, and what
    /// the caller undoes — which would otherwise need 16 million objects.
    /// Only this package sees it: it is no library API and has no C function.
    /// Machines, their definitions and plugins are not the runtime's tables:
    /// for them it does nothing.
    package func limitTable(_ kind: HandleKind, to n: Int) {
        switch kind {
        case .layer: layers.lowerLimit(to: n)
        case .animation: definitions.lowerLimit(to: n)
        case .instance: instances.lowerLimit(to: n)
        case .barrier: barriers.lowerLimit(to: n)
        case .transaction: transactions.lowerLimit(to: n)
        case .timer: timers.lowerLimit(to: n)
        case .reader: readers.lowerLimit(to: n)
        case .definition, .machine, .plugin: break
        }
    }
}
