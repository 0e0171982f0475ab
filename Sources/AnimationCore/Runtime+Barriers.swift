extension Runtime {
    // MARK: Barriers (DispatchGroup semantics)

    /// Creates a barrier with a count of zero.
    public func createBarrier() throws(AnimrtError) -> Handle { try barriers.insert(BarrierRecord()) }

    /// Destroys a barrier. Pending notifications never run; animations that
    /// joined it no longer count toward it.
    public func destroyBarrier(_ h: Handle) throws(AnimrtError) {
        let i = try barriers.index(of: h)
        guard !barriers[i].transient else {
            throw AnimrtError(.state, "\(h) belongs to a transaction; it goes away when the transaction completes")
        }
        barriers.remove(at: i)
    }

    /// Adds `n` (≥ 1) to the count.
    public func enter(_ h: Handle, count n: Int = 1) throws(AnimrtError) {
        let i = try barriers.index(of: h)
        guard n >= 1 else { throw AnimrtError(.outOfRange, "enter count is \(n); it must be at least 1") }
        barriers[i].count += n
    }

    /// Subtracts one from the count; at zero every registered notification
    /// runs, once, in registration order, and the list is emptied. A leave
    /// without a matching enter is `.state` and changes nothing.
    public func leave(_ h: Handle) throws(AnimrtError) {
        let i = try barriers.index(of: h)
        guard barriers[i].count > 0 else {
            throw AnimrtError(.state, "leave on \(h) without a matching enter (its count is 0)")
        }
        barriers[i].count -= 1
        if barriers[i].count == 0 { drain(i) }
        if !inTick { runDeferred() }
    }

    private func drain(_ i: Int) {
        let actions = barriers[i].actions
        barriers[i].actions = []
        for a in actions { perform(a) }
        if barriers[i].transient { barriers.remove(at: i) }
    }

    /// The current count.
    public func count(of h: Handle) throws(AnimrtError) -> Int { barriers[try barriers.index(of: h)].count }

    /// Queues a `.barrierNotified` event carrying `token` for when the count
    /// is next zero: at once if it is zero now.
    public func notify(_ h: Handle, token: UInt64) throws(AnimrtError) {
        try addNotify(h, .event(.barrierNotified, object: h, token: token))
    }

    /// Runs `body` when the count is next zero (at once if it is zero now),
    /// outside any evaluation, so it may add or remove animations.
    public func notify(_ h: Handle, _ body: @escaping () -> Void) throws(AnimrtError) {
        try addNotify(h, .closure(body))
    }

    private func addNotify(_ h: Handle, _ action: NotifyAction) throws(AnimrtError) {
        let i = try barriers.index(of: h)
        if barriers[i].count == 0 { perform(action) } else { barriers[i].actions.append(action) }
        if !inTick { runDeferred() }
    }

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
            barriers[bi].actions.append(a)
        }
        if !inTick { runDeferred() }
    }

    /// How many transactions are open.
    public var transactionDepth: Int { openTransactions.count }

    // MARK: Timers (on the runtime clock)

    /// Starts a one-shot timer that fires `delay` seconds after the current
    /// runtime time, as a `.timerFired` event with `token`.
    @discardableResult
    public func startTimer(after delay: Double, token: UInt64) throws(AnimrtError) -> Handle {
        try startTimer(after: delay, action: nil, token: token)
    }

    /// Starts a one-shot timer that runs `body` when it fires.
    @discardableResult
    public func startTimer(after delay: Double, _ body: @escaping () -> Void) throws(AnimrtError) -> Handle {
        try startTimer(after: delay, action: .closure(body), token: 0)
    }

    private func startTimer(after delay: Double, action: NotifyAction?, token: UInt64) throws(AnimrtError) -> Handle {
        try requireFinite(delay, "timer delay")
        guard delay >= 0 else { throw AnimrtError(.outOfRange, "timer delay is \(delay); it must be 0 or more") }
        timerSequence += 1
        let record = TimerRecord(fireTime: now() + delay, sequence: timerSequence,
                                 action: action ?? .event(.timerFired, object: Handle(raw: 0), token: token))
        let h = try timers.insert(record)
        if action == nil { timers[h.index].action = .event(.timerFired, object: h, token: token) }
        // Keep the queue ordered by (fire time, start order).
        let pos = timerQueue.firstIndex { let o = timers[$0.index]; return (o.fireTime, o.sequence) > (record.fireTime, record.sequence) }
        timerQueue.insert(h, at: pos ?? timerQueue.endIndex)
        return h
    }

    /// Cancels a timer that has not fired. A cancelled timer never fires.
    public func cancelTimer(_ h: Handle) throws(AnimrtError) {
        let i = try timers.index(of: h)
        timers.remove(at: i)
        timerQueue.removeAll { $0 == h }
    }

    /// Fires, in order, every timer due at `t`.
    func fireTimers(_ t: Double) {
        while let h = timerQueue.first, timers[h.index].fireTime <= t {
            timerQueue.removeFirst()
            let r = timers.remove(at: h.index)
            perform(r.action)
            runDeferred()
        }
    }

    /// Timers waiting to fire.
    public var pendingTimerCount: Int { timerQueue.count }
}
