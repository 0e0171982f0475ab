extension Runtime {
    // MARK: Transactions

    /// Opens a transaction on the calling thread: every animation the
    /// thread adds until the matching `commitTransaction` counts toward its
    /// completion. Transactions nest; an animation counts toward every one
    /// open on its thread. `animationDuration` replaces a zero duration on
    /// animations added inside. As with Core Animation's, each thread has
    /// its own: threads that open transactions at the same time never
    /// commit, join or look up each other's.
    @discardableResult
    public func beginTransaction(animationDuration: Double? = nil) throws(AnimrtError) -> Handle {
        if let d = animationDuration {
            try requireFinite(d, "transaction animationDuration")
            guard d > 0 else { throw AnimrtError(.outOfRange, "transaction animationDuration is \(d); it must be greater than 0") }
        }
        let me = callingThread
        guard (transactionStacks[me]?.count ?? 0) < Limits.transactionDepth else {
            throw AnimrtError(.outOfRange, "\(Limits.transactionDepth) transactions are open on this thread, the most at once; commit one first")
        }
        var b = BarrierRecord()
        b.transient = true
        let bh = try barriers.insert(b)
        let h: Handle
        do { h = try transactions.insert(TransactionRecord(barrier: bh, animationDuration: animationDuration)) }
        catch { barriers.remove(at: bh.index); throw error }
        transactionStacks[me, default: []].append(h)
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
        let me = callingThread
        guard var open = transactionStacks[me], let h = open.popLast() else {
            throw AnimrtError(.state, "commit without an open transaction on this thread" + elsewhere("a transaction is committed by the thread that began it"))
        }
        transactionStacks[me] = open.isEmpty ? nil : open
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

    /// The thread whose transactions a call reaches: the calling thread,
    /// or, for the replaying thread's calls, the recorded one in a replay.
    var callingThread: UInt64 {
        let me = ThreadOrdinal.current
        if let replayed = replayedThread, me == replayingThread { return replayed }
        return me
    }

    /// The calling thread's open transactions, innermost last.
    var openTransactions: [Handle] {
        transactionStacks.isEmpty ? [] : transactionStacks[callingThread] ?? []
    }

    /// For a message to a thread with no transaction open: those other
    /// threads have open, which are theirs, and `rule`; "" if none is open.
    public func elsewhere(_ rule: String) -> String {
        let others = transactionStacks.values.reduce(0) { $0 + $1.count }
        if others == 0 { return "" }
        if others == 1 { return "; 1 is open on another thread and belongs to it: \(rule)" }
        // Counted by thread too: two open on one thread are not "on other threads".
        if transactionStacks.count == 1 { return "; \(others) are open on another thread and belong to it: \(rule)" }
        return "; \(others) are open on \(transactionStacks.count) other threads and belong to them: \(rule)"
    }

    /// The calling thread's innermost open transaction, whose handle its
    /// `.transactionCompleted` event carries as `object`.
    public var currentTransaction: Handle? { openTransactions.last }

    /// How many transactions the calling thread has open.
    public var transactionDepth: Int { openTransactions.count }
}
