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
        let mine = transactionStacks.firstIndex { $0.thread == me }
        guard (mine.map { transactionStacks[$0].open.count } ?? 0) < Limits.transactionDepth else {
            throw AnimrtError(.outOfRange, "\(Limits.transactionDepth) transactions are open, the most at once; commit one first")
        }
        var b = BarrierRecord()
        b.transient = true
        let bh = try barriers.insert(b)
        let h: Handle
        do { h = try transactions.insert(TransactionRecord(barrier: bh, animationDuration: animationDuration)) }
        catch { barriers.remove(at: bh.index); throw error }
        if let mine { transactionStacks[mine].open.append(h) } else { transactionStacks.append((me, [h])) }
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
        guard let mine = transactionStacks.firstIndex(where: { $0.thread == me }),
              let h = transactionStacks[mine].open.popLast() else {
            let others = transactionStacks.reduce(0) { $0 + $1.open.count }
            throw AnimrtError(.state, "commit without an open transaction on this thread" + (others == 0 ? "" :
                "; \(others) open on other threads belong to them: a transaction is committed by the thread that began it"))
        }
        if transactionStacks[mine].open.isEmpty { transactionStacks.remove(at: mine) }
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
        if transactionStacks.isEmpty { return [] }
        let me = callingThread
        return transactionStacks.first { $0.thread == me }?.open ?? []
    }

    /// The calling thread's innermost open transaction, whose handle its
    /// `.transactionCompleted` event carries as `object`.
    public var currentTransaction: Handle? { openTransactions.last }

    /// How many transactions the calling thread has open.
    public var transactionDepth: Int { openTransactions.count }
}
