import AnimationCore

/// An open throttle window of one event: the runtime timer that closes it
/// and the latest payload sent while it was open, which waits for the end.
struct ThrottleWindow {
    var timer: Handle
    var serial: UInt64
    var pending: [MachineValue]?
}

/// Throttled events (`"throttle": seconds` on an event declaration): the
/// first one is processed at once and opens a window of that many seconds;
/// while it is open, each new one is checked (refused or ignored as usual)
/// and, if it would be taken, replaces the one waiting. When the window
/// closes the waiting one, the latest, is processed and opens the next
/// window. So the machine processes at most one per interval, and the last
/// value sent is always processed. Windows run on runtime timers: they
/// follow the host's clock and are cancelled when the machine is destroyed.
extension MachineInstance {
    /// Each throttled event's interval, computed from config at creation.
    func prepareThrottles() throws(AnimrtError) {
        guard definition.hasThrottles else { return }
        var c = evaluationContext(event: [])
        var intervals = [Double](repeating: 0, count: definition.events.count)
        for (e, d) in definition.events.enumerated() {
            guard let t = d.throttle else { continue }
            let v = try Evaluator.evaluate(t, &c).number ?? .nan
            guard v.isFinite, v >= 0 else {
                throw AnimrtError(.outOfRange, "the throttle of '\(d.name)' is \(NumberText.given(v)) s (\(t.text)); it must be a finite number of seconds, 0 or more")
            }
            intervals[e] = v
        }
        throttleIntervals = intervals
        throttleWindows = .init(repeating: nil, count: definition.events.count)
    }

    /// `take` for a throttled event.
    func sendThrottled(_ event: Int, payload: [MachineValue]) throws(AnimrtError) -> SendOutcome {
        guard throttleIntervals[event] > 0 else { return try take(event, payload: payload, throttling: false) }
        guard var window = throttleWindows[event] else {
            let outcome = try take(event, payload: payload, throttling: false)
            if outcome == .taken, alive, !finished { openThrottleWindow(event) }
            return outcome
        }
        // Checked now, so that the host hears of a refusal from this call.
        // Its guards run as part of the machine: what they send waits.
        busy = true
        defer { busy = false }
        currentEvent = Int32(event)
        switch select(Pending(kind: .event(event), payload: payload, origin: .host)) {
        case .rejected(let message): throw AnimrtError(.state, message: refusal(message))
        case .ignored:
            settleIgnored(event)
            return .ignored
        case .transition:
            // Selected again when the interval ends: a guard failing now is
            // reported now, and raised for the machine then.
            internalQueue.removeAll(); internalHead = 0
            window.pending = payload
            throttleWindows[event] = window
            return .throttled
        }
    }

    /// Opens the window of `event`, processed just now. Without a timer (the
    /// runtime's table is full, or the interval would end past the largest
    /// time) the event is not throttled: the next one is processed at once,
    /// and an error event says why.
    private func openThrottleWindow(_ event: Int) {
        // From the tick that processes the event, even when a timer (the end
        // of the previous interval) made it: processings of a throttled event
        // are at least an interval apart on the host's clock.
        do throws(AnimrtError) { try startThrottleWindow(event, endingAt: clock + throttleIntervals[event], pending: nil) }
        catch {
            report(error: "the throttle of '\(definition.events[event].name)' did not start its interval (\(error.message)); the next '\(definition.events[event].name)' is processed at once", event: Int32(event))
        }
    }

    /// Opens the window of throttled event `event` again, ending at `time`
    /// with `pending` waiting (a restored snapshot). A window that cannot
    /// start throws: the restore is refused and undone rather than continue
    /// with the event no longer throttled and its waiting payload lost.
    func reopenThrottleWindow(_ event: Int, at time: Double, pending: [MachineValue]?) throws(AnimrtError) {
        try startThrottleWindow(event, endingAt: time, pending: pending)
    }

    private func startThrottleWindow(_ event: Int, endingAt time: Double, pending: [MachineValue]?) throws(AnimrtError) {
        serial += 1
        let mine = serial
        let me = handle
        let end: () -> Void = { [unowned(unsafe) host] in host.instance(me)?.throttleWindowEnded(event, serial: mine) }
        let timer = try runtime.startTimer(at: time, end)
        throttleWindows[event] = ThrottleWindow(timer: timer, serial: mine, pending: pending)
    }

    private func throttleWindowEnded(_ event: Int, serial: UInt64) {
        guard alive, let window = throttleWindows[event], window.serial == serial else { return }
        throttleWindows[event] = nil
        guard let payload = window.pending, !finished else { return }
        // A partial result may have gone stale while it waited.
        guard isCurrentResult(event, payload) else { reportStale(event, payload); return }
        openThrottleWindow(event)
        deliver(Pending(kind: .event(event), payload: payload, origin: .throttle), isInternal: false)
    }

    /// Cancels every open window (the machine is being destroyed).
    func closeThrottleWindows() {
        for e in throttleWindows.indices {
            if let w = throttleWindows[e] { try? runtime.cancelTimer(w.timer) }
            throttleWindows[e] = nil
        }
    }
}
