extension Runtime {
    // MARK: Barriers (DispatchGroup semantics)

    /// Creates a barrier with a count of zero.
    public func createBarrier() throws(AnimrtError) -> Handle { try barriers.insert(BarrierRecord()) }

    /// Destroys a barrier. Pending notifications never run; animations that
    /// joined it no longer count toward it.
    public func destroyBarrier(_ h: Handle) throws(AnimrtError) {
        barriers.remove(at: try hostBarrier(h))
    }

    /// The index of barrier `h`, which the host made: a transaction's own
    /// barrier (never handed out, but its id can be built by hand) is
    /// `.state`, so that no enter, leave, notify, join or destroy changes
    /// when the transaction completes.
    func hostBarrier(_ h: Handle) throws(AnimrtError) -> Int {
        let i = try barriers.index(of: h)
        guard !barriers[i].transient else {
            throw AnimrtError(.state, "\(h) belongs to a transaction; it goes away when the transaction completes, and only the transaction's animations count toward it")
        }
        return i
    }

    /// The largest count `enter` reaches: animations that join add one each
    /// on top, at most `Limits.objects` of them, so the count never overflows.
    public static let maxBarrierEnterCount = Int.max - Limits.objects

    /// Adds `n` (≥ 1) to the count. A count that would pass
    /// `maxBarrierEnterCount` is refused (`.outOfRange`), the count unchanged.
    public func enter(_ h: Handle, count n: Int = 1) throws(AnimrtError) {
        let i = try hostBarrier(h)
        guard n >= 1 else { throw AnimrtError(.outOfRange, "enter count is \(n); it must be at least 1") }
        guard n <= Runtime.maxBarrierEnterCount - barriers[i].count else {
            throw AnimrtError(.outOfRange, "enter count \(n) on a count of \(barriers[i].count) would pass the largest count (\(Runtime.maxBarrierEnterCount))")
        }
        barriers[i].count += n
    }

    /// Subtracts one from the count; at zero every registered notification
    /// runs, once, in registration order, and the list is emptied. A leave
    /// without a matching enter is `.state` and changes nothing.
    public func leave(_ h: Handle) throws(AnimrtError) {
        let i = try hostBarrier(h)
        guard barriers[i].count > 0 else {
            throw AnimrtError(.state, "leave on \(h) without a matching enter (its count is 0)")
        }
        release(i)
        if !inTick { runDeferred() }
    }

    /// The leave of an animation that stops: as `leave`, but the
    /// notifications it makes due only queue their closures. The stop is
    /// not over (the animation is still linked to its layer, and the call
    /// that stops it may stop more): that call runs them once it is done,
    /// as every call that can stop an animation does.
    func leaveOnStop(_ b: Handle) {
        guard let i = try? barriers.index(of: b), barriers[i].count > 0 else { return }
        release(i)
    }

    /// One fewer outstanding; at zero the notifications are due.
    private func release(_ i: Int) {
        barriers[i].count -= 1
        if barriers[i].count == 0 { drain(i) }
    }

    private func drain(_ i: Int) {
        let actions = barriers[i].actions
        barriers[i].actions = []
        for a in actions { perform(a) }
        if barriers[i].committed { barriers.remove(at: i) }
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

    /// At most `Limits.barrierNotifies` wait on one barrier: one more is
    /// `.outOfRange`, nothing added.
    private func addNotify(_ h: Handle, _ action: NotifyAction) throws(AnimrtError) {
        let i = try hostBarrier(h)
        if barriers[i].count > 0 && barriers[i].actions.count >= Limits.barrierNotifies {
            throw AnimrtError(.outOfRange, "\(h) has \(Limits.barrierNotifies) notifications waiting for its count to reach zero, the most a barrier holds; wait for them, or notify another barrier")
        }
        if barriers[i].count == 0 { perform(action) } else { barriers[i].actions.append(action) }
        if !inTick { runDeferred() }
    }
}
