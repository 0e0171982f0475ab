import AnimationCore

/// Finishing: the macrostep that enters a top-level final state ends the
/// machine, as SCXML's exitInterpreter does. The active states' exit actions
/// run (innermost first: the final state's own), its timers and throttle
/// intervals are cancelled, and every event still waiting — raised by the
/// machine, sent by the host or a timer while the macrostep ran, held by a
/// throttle — is reported to the host as an error event naming it: the
/// machine will never process it. The machine stays in its final state
/// (`state` and `in_state` say so) and refuses every later send.
extension MachineInstance {
    /// Called once, when the macrostep that set `finished` has no more
    /// microsteps to run (what is queued then is not processed).
    func finish() {
        for s in definition.ancestry(leaf) {
            guard alive else { return }
            run(definition.states[s].exit, payload: [], entering: nil)
        }
        guard alive else { return }
        let here = "the machine finished in its final state '\(definition.states[leaf].name)' before it was processed"
        // Timer and barrier notifications (after, done, onFinal) belong to
        // states that have been exited: they would be ignored, and are not
        // events the host or the machine sent. error.execution was reported
        // when its failure happened.
        let waiting = internalQueue[internalHead...] + externalQueue
        for p in waiting {
            guard case .event(let e) = p.kind, e != definition.errorEvent else { continue }
            report(error: "an event \(p.origin.phrase) was dropped: \(here)", event: Int32(e))
        }
        internalQueue.removeAll(); internalHead = 0
        externalQueue.removeAll()
        for (e, window) in throttleWindows.enumerated() where window?.pending != nil {
            report(error: "an event \(Pending.Origin.throttle.phrase) was dropped: \(here)", event: Int32(e))
        }
        closeThrottleWindows()
        for t in namedTimers.indices {
            if let running = namedTimers[t] { try? runtime.cancelTimer(running.timer) }
            namedTimers[t] = nil
        }
    }
}

extension MachineInstance.Pending.Origin {
    /// Where an event came from, for messages: "an event \(phrase) was dropped".
    var phrase: String {
        switch self {
        case .timer: "sent by a timer"
        case .host: "sent by the host"
        case .throttle: "held by its throttle"
        case .machine: "raised by the machine"
        }
    }
}
