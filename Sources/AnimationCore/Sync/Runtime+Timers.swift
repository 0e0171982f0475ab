extension Runtime {
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
