extension Runtime {
    // MARK: Transactions

    /// Opens a transaction: every animation added until the matching
    /// `commitTransaction` counts toward its completion. Transactions nest;
    /// an animation counts toward every open one. `animationDuration`
    /// replaces a zero duration on animations added inside.
    @discardableResult
    public func beginTransaction(animationDuration: Double? = nil) throws(AnimrtError) -> Handle {
        if let d = animationDuration {
            try requireFinite(d, "transaction animationDuration")
            guard d > 0 else { throw AnimrtError(.outOfRange, "transaction animationDuration is \(d); it must be greater than 0") }
        }
        guard openTransactions.count < Limits.transactionDepth else {
            throw AnimrtError(.outOfRange, "\(Limits.transactionDepth) transactions are open, the most at once; commit one first")
        }
        var b = BarrierRecord()
        b.transient = true
        let bh = try barriers.insert(b)
        let h: Handle
        do { h = try transactions.insert(TransactionRecord(barrier: bh, animationDuration: animationDuration)) }
        catch { barriers.remove(at: bh.index); throw error }
        openTransactions.append(h)
        return h
    }

    /// Closes the innermost open transaction. A `.transactionCompleted`
    /// event with `token` follows once every animation added inside has
    /// stopped, at once if none was added or all have stopped.
    public func commitTransaction(token: UInt64) throws(AnimrtError) {
        try commitTransaction(.event(.transactionCompleted, object: Handle(raw: 0), token: token))
    }

    /// Closes the innermost open transaction; `body` runs on completion.
    public func commitTransaction(_ body: @escaping () -> Void) throws(AnimrtError) {
        try commitTransaction(.closure(body))
    }

    private func commitTransaction(_ action: NotifyAction) throws(AnimrtError) {
        guard let h = openTransactions.popLast() else {
            throw AnimrtError(.state, "commit without an open transaction")
        }
        let t = transactions.remove(at: h.index)
        var a = action
        if case .event(let type, _, let token) = action { a = .event(type, object: h, token: token) }
        let bi = t.barrier.index
        if barriers[bi].count == 0 {
            barriers.remove(at: bi)
            perform(a)
        } else {
            barriers[bi].committed = true
            barriers[bi].actions.append(a)
        }
        if !inTick { runDeferred() }
    }

    /// The innermost open transaction, whose handle its
    /// `.transactionCompleted` event carries as `object`.
    public var currentTransaction: Handle? { openTransactions.last }

    /// How many transactions are open.
    public var transactionDepth: Int { openTransactions.count }
}
