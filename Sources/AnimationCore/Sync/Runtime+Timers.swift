extension Runtime {
    // MARK: Timers (on the runtime clock)

    /// Starts a one-shot timer that fires `delay` seconds after the current
    /// runtime time, as a `.timerFired` event with `token`. A timer started
    /// by a timer's work while it fires is measured from that timer's due
    /// time, not from the tick that fired it: a chain of timers fires at the
    /// same times whatever the tick rate (SCXML measures a delayed send from
    /// when it executes).
    @discardableResult
    public func startTimer(after delay: Double, token: UInt64) throws(AnimrtError) -> Handle {
        try startTimer(after: delay, action: nil, token: token)
    }

    /// Starts a one-shot timer that runs `body` when it fires.
    @discardableResult
    public func startTimer(after delay: Double, _ body: @escaping () -> Void) throws(AnimrtError) -> Handle {
        try startTimer(after: delay, action: .closure(body), token: 0)
    }

    /// Starts a timer due at runtime time `time` exactly (a restored
    /// snapshot's timers keep their due times to the bit).
    @discardableResult
    public func startTimer(at time: Double, _ body: @escaping () -> Void) throws(AnimrtError) -> Handle {
        try requireFinite(time, "timer time")
        guard time >= now() else { throw AnimrtError(.outOfRange, "timer time \(time) is before the runtime's time \(now())") }
        timerSequence += 1
        let h = try timers.insert(TimerRecord(fireTime: time, sequence: timerSequence, action: .closure(body)))
        timerQueue.push(.init(time: time, sequence: timerSequence, timer: h))
        return h
    }

    /// When a pending timer is due, and its start order among timers due at the same time.
    public func dueTime(of h: Handle) throws(AnimrtError) -> (time: Double, sequence: UInt64) {
        let r = timers[try timers.index(of: h)]
        return (r.fireTime, r.sequence)
    }

    private func startTimer(after delay: Double, action: NotifyAction?, token: UInt64) throws(AnimrtError) -> Handle {
        try requireFinite(delay, "timer delay")
        guard delay >= 0 else { throw AnimrtError(.outOfRange, "timer delay is \(delay); it must be 0 or more") }
        let base = firingTimerTime ?? now()
        // A due time that overflows to +inf would never come (and no
        // snapshot could carry it): refused, as a time past the clock's end.
        guard (base + delay).isFinite else {
            throw AnimrtError(.outOfRange, "timer delay \(delay) from time \(base) would be due past the largest time (\(Double.greatestFiniteMagnitude))")
        }
        timerSequence += 1
        let record = TimerRecord(fireTime: base + delay, sequence: timerSequence,
                                 action: action ?? .event(.timerFired, object: Handle(raw: 0), token: token))
        let h = try timers.insert(record)
        if action == nil { timers[h.index].action = .event(.timerFired, object: h, token: token) }
        timerQueue.push(.init(time: record.fireTime, sequence: record.sequence, timer: h))
        return h
    }

    /// Cancels a timer that has not fired. A cancelled timer never fires.
    public func cancelTimer(_ h: Handle) throws(AnimrtError) {
        let i = try timers.index(of: h)
        timers.remove(at: i)
        // Its heap entry is dropped when it reaches the top, or now if the
        // cancelled entries outnumber the live ones.
        if timerQueue.count > 2 * timers.count + 64 { timerQueue.compact { (try? timers.index(of: $0)) != nil } }
    }

    /// Whether timer `h` is still to fire: false once it has fired (its
    /// record goes when it fires, before its event is delivered or lost to
    /// a full queue) or was cancelled.
    public func isTimerPending(_ h: Handle) throws(AnimrtError) -> Bool { try timers.isLive(h) }

    /// The runtime's clock starts at its first tick, `t`: the timers started
    /// before it counted from 0 (the runtime's time until then), and now
    /// count from `t` instead, as an animation added then begins at `t`, so
    /// that a host whose clock is far from 0 does not see them fire at once.
    /// A due time past the largest double is the largest double (never
    /// reached, as such a delay would be refused after the first tick).
    func startClock(at t: Double) {
        guard t != 0, timers.count > 0 else { return }
        for i in 0..<timers.capacity where timers.isLive(i) { timers[i].fireTime = TimerQueue.shifted(timers[i].fireTime, by: t) }
        timerQueue.shift(by: t)
    }

    /// Timers one tick fires at most. Measured from their firing timer's
    /// due time, timers that start one another (a machine's `after` loop)
    /// would otherwise replay every step since a stalled frame in one tick,
    /// or never return for a delay of 0.
    public static let maxTimerFiringsPerTick = 65_536

    /// Fires, in due order, every timer due at `t`, including those that
    /// the timers firing start and that are due by `t`, up to
    /// `maxTimerFiringsPerTick`. Past it, the timers still due are due at
    /// `t` instead, in the order they were started, and fire first at the
    /// next tick: a chain that fell behind resumes from this tick's time.
    func fireTimers(_ t: Double) {
        defer { firingTimerTime = nil }
        var fired = 0
        while let top = timerQueue.top {
            guard let i = try? timers.index(of: top.timer) else { timerQueue.popTop(); continue }
            guard top.time <= t else { return }
            guard fired < Runtime.maxTimerFiringsPerTick else { postponeDueTimers(to: t); return }
            timerQueue.popTop()
            let r = timers.remove(at: i)
            firingTimerTime = r.fireTime
            perform(r.action)
            runDeferred()
            firingTimerTime = nil
            fired += 1
        }
    }

    /// Makes every timer due by `t` due at `t` (kept in start order).
    private func postponeDueTimers(to t: Double) {
        var due: [TimerQueue.Entry] = []
        while let top = timerQueue.top, top.time <= t {
            timerQueue.popTop()
            guard let i = try? timers.index(of: top.timer) else { continue }
            timers[i].fireTime = t
            due.append(.init(time: t, sequence: top.sequence, timer: top.timer))
        }
        for e in due { timerQueue.push(e) }
    }

    /// Timers waiting to fire.
    public var pendingTimerCount: Int { timers.count }
}
