import AnimationCore

/// What happened to an event sent to a machine.
public enum SendOutcome: Int32, Sendable, CaseIterable {
    /// A transition was taken (its actions ran).
    case taken = 0
    /// The active state declares the event ignored.
    case ignored = 1
    /// A result carrying a request id other than the latest: not processed,
    /// reported as a stale-result event.
    case stale = 2
    /// Queued behind the event being processed (a send made from inside a
    /// machine's own action); checked as a direct send when its turn comes,
    /// and its outcome is reported by events.
    case queued = 3
    /// Held by the event's throttle: the latest event sent during the
    /// interval is processed when the interval ends.
    case throttled = 4
}

/// Run-to-completion processing (SCXML's algorithm, without parallel
/// states). One external event is one macrostep: its transition, then every
/// eventless transition and internal event (raised, `done`, `onFinal`,
/// `error.execution`) until none is left. In a microstep, states exit
/// innermost first (exit actions, then their timers and barriers are
/// cancelled), the transition's actions run, the state change is reported,
/// and states enter outermost first (entry actions, then `after` timers
/// start and `done` starts waiting).
extension MachineInstance {
    /// Enters the initial configuration (at creation).
    func start() {
        busy = true
        var microsteps = 0
        var chain: [Int] = []
        var s = definition.initial
        while true {
            chain.append(s)
            guard let i = definition.states[s].initial else { break }
            s = i
        }
        currentEvent = -1
        reportStateChange(from: -1, to: chain.last!)
        for s in chain { enter(s) }
        leaf = chain.last!
        afterEntering(leaf)
        runToCompletion(&microsteps, event: -1)
        busy = false
        drainExternal()
    }

    /// Processes an event from the host. Returns the outcome, or throws
    /// `.state` (no transition takes it here: nothing changed). A throttled
    /// event goes through its throttle first.
    ///
    /// Sent while the machine is busy (from inside one of its own actions),
    /// it is queued and returns `.queued`; when its turn comes it goes
    /// through the same checks as a direct send (stale, throttle, closing
    /// its request), and what a direct send would throw is reported as an
    /// error event. A result that is stale already is reported at once: ids
    /// only grow, so it could never become current.
    func send(_ event: Int, payload: [MachineValue]) throws(AnimrtError) -> SendOutcome {
        guard !finished else {
            throw AnimrtError(.state, "\(handle) ('\(definition.name)') has finished (it is in the final state '\(definition.states[leaf].name)'); it takes no more events")
        }
        if busy {
            if definition.events[event].resultOf != nil, !isCurrentResult(event, payload) {
                reportStale(event, payload)
                return .stale
            }
            externalQueue.append(Pending(kind: .event(event), payload: payload, origin: .host))
            return .queued
        }
        defer { drainExternal() }
        return try take(event, payload: payload)
    }

    /// One host event while the machine is idle: checked (stale), throttled
    /// unless `throttling` is false, then selected and taken. Leaves what it
    /// queued (host sends from its actions) for the caller to drain.
    func take(_ event: Int, payload: [MachineValue], throttling: Bool = true) throws(AnimrtError) -> SendOutcome {
        let declaration = definition.events[event]
        if declaration.resultOf != nil, !isCurrentResult(event, payload) {
            reportStale(event, payload)
            return .stale
        }
        if throttling && declaration.throttle != nil { return try sendThrottled(event, payload: payload) }
        let pending = Pending(kind: .event(event), payload: payload, origin: .host)
        busy = true
        defer { busy = false }
        currentEvent = Int32(event)
        switch select(pending) {
        case .rejected(let message):
            throw AnimrtError(.state, message: refusal(message))
        case .ignored:
            // An ignored final result was accepted: the answer came, so a
            // copy of it later is stale, as after a taken one.
            if let op = declaration.resultOf, !declaration.isPartial { requests[op].open = false }
            settleIgnored(event)
            return .ignored
        case .transition(let t):
            if let op = declaration.resultOf, !declaration.isPartial { requests[op].open = false }
            var microsteps = 0
            microstep(t, payload: payload, &microsteps)
            runToCompletion(&microsteps, event: Int32(event))
        }
        return .taken
    }

    /// Delivers an event the machine itself caused (timer, barrier,
    /// onFinal): queued if a macrostep is running, else processed now.
    func deliver(_ pending: Pending, isInternal: Bool) {
        guard alive, !finished else { return }
        if busy {
            if isInternal { internalQueue.append(pending) } else { externalQueue.append(pending) }
            return
        }
        busy = true
        var microsteps = 0
        currentEvent = eventID(of: pending)
        process(pending, &microsteps, reportUnhandled: true)
        runToCompletion(&microsteps, event: eventID(of: pending))
        busy = false
        drainExternal()
    }

    private func eventID(of p: Pending) -> Int32 {
        if case .event(let e) = p.kind { return Int32(e) }
        return -1
    }

    /// A refused host event changes nothing (R3.0.1): what its guards
    /// queued is dropped — each failure was reported as an error event
    /// naming the event — and the refusal's message names the first.
    func refusal(_ message: String) -> String {
        let failures = internalQueue[internalHead...].compactMap { p -> String? in
            guard case .event(let e) = p.kind, e == definition.errorEvent else { return nil }
            return p.payload.first?.string
        }
        internalQueue.removeAll(); internalHead = 0
        guard let first = failures.first, let colon = first.firstRange(of: ": ") else { return message }
        return "\(message) (the \(first[..<colon.lowerBound]) failed: \(first[colon.upperBound...]); reported as an error event)"
    }

    /// An ignored host event is accepted: its macrostep still processes
    /// what its guards queued (`error.execution`, SCXML 5.9.1) and tries the
    /// eventless transitions, as SCXML does after every external event and
    /// as a timer's macrostep does when its transition is not taken: what
    /// their guards read may have changed since the last macrostep (a
    /// started timer that ran out, `now()`, a host function).
    func settleIgnored(_ event: Int) {
        guard internalHead < internalQueue.count || definition.hasEventless else { return }
        let wasBusy = busy
        busy = true
        defer { busy = wasBusy }
        var microsteps = 0
        runToCompletion(&microsteps, event: Int32(event))
    }

    /// Processes what was queued while the machine was busy, in order. A
    /// host event goes through `take`, as a direct send does; its refusal,
    /// which no caller is waiting for, is reported as an error event.
    private func drainExternal() {
        while alive, !finished, !busy, !externalQueue.isEmpty {
            let p = externalQueue.removeFirst()
            if p.origin == .host, case .event(let e) = p.kind {
                do throws(AnimrtError) { _ = try take(e, payload: p.payload) }
                catch { report(error: "an event \(p.origin.phrase) was dropped: \(error.message)", event: Int32(e)) }
                continue
            }
            busy = true
            var microsteps = 0
            currentEvent = eventID(of: p)
            process(p, &microsteps, reportUnhandled: true)
            runToCompletion(&microsteps, event: eventID(of: p))
            busy = false
        }
    }

    enum Selection {
        case transition(Transition)
        case ignored
        case rejected(String)
    }

    /// The transition that takes `p` in the current configuration.
    func select(_ p: Pending) -> Selection {
        switch p.kind {
        case .event(let e):
            var a = leaf
            var guardedOut = false
            while a >= 0 {
                let state = definition.states[a]
                for t in state.on[e] {
                    guard t.guardExpression != nil else { return .transition(t) }
                    var context = evaluationContext(event: p.payload)
                    if passes(t, &context) { return .transition(t) }
                    guardedOut = true
                }
                if state.ignored.contains(e) { return .ignored }
                a = state.parent
            }
            let name = definition.events[e].name
            let here = definition.states[leaf].name
            if guardedOut {
                return .rejected("'\(name)' is not taken in state '\(here)': no guard of its transitions passed; to take it whatever they say, end them with one without a guard (without a target, it changes no state)")
            }
            let accepted = definition.acceptedEvents(in: leaf)
            return .rejected("'\(name)' is not accepted in state '\(here)' (it accepts \(accepted.isEmpty ? "no event" : accepted.map { "'\($0)'" }.joined(separator: ", ")); list it under \"ignore\" to drop it there)")
        case .after(let s, let i, let activation):
            guard activations[s] == activation else { return .ignored }
            let t = definition.states[s].after[i].transition
            var context = evaluationContext(event: [])
            return passes(t, &context) ? .transition(t) : .ignored
        case .done(let s, let activation):
            guard activations[s] == activation else { return .ignored }
            var context = evaluationContext(event: [])
            for t in definition.states[s].done where passes(t, &context) { return .transition(t) }
            return .ignored
        case .onFinal(let s, let activation):
            guard activations[s] == activation, let t = definition.states[s].onFinal else { return .ignored }
            var context = evaluationContext(event: [])
            return passes(t, &context) ? .transition(t) : .ignored
        case .ranOut:
            // No transition waits for it: its macrostep tries the eventless ones.
            return .ignored
        }
    }

    /// Evaluates a guard; a guard whose function fails counts as false and
    /// raises `error.execution` (SCXML 5.9).
    func passes(_ t: Transition, _ c: inout EvaluationContext) -> Bool {
        guard let g = t.guardExpression else { return true }
        do throws(AnimrtError) {
            return try Evaluator.evaluate(g, &c) == .bool(true)
        } catch {
            fail("guard of \(t.path): \(error.message)")
            return false
        }
    }

    /// Takes the transition that `p` selects; false when none takes it.
    @discardableResult
    private func process(_ p: Pending, _ microsteps: inout Int, reportUnhandled: Bool) -> Bool {
        switch select(p) {
        case .transition(let t):
            microstep(t, payload: p.payload, &microsteps)
            return true
        case .ignored: return false
        case .rejected(let message):
            // Only events (raised, or sent by a timer) can be unhandled here;
            // error.execution is reported already and may go unhandled.
            if case .event(let e) = p.kind, definition.events[e].name != DefinitionLoader.builtinErrorEvent, reportUnhandled {
                report(error: "an event \(p.origin.phrase) was dropped: \(message)", event: Int32(e))
            }
            return false
        }
    }

    /// Eventless transitions and internal events until neither is left, or
    /// until the microstep bound stops the macrostep with an error.
    ///
    /// Eventless guards are evaluated again only after a microstep: until a
    /// transition has run nothing they read has changed, so they would give
    /// the same answer — and a guard that failed would fail again, queueing
    /// `error.execution` forever. An internal event that no transition takes
    /// counts towards the bound too, so a failing guard of an
    /// `error.execution` transition (which queues the next one) is stopped.
    func runToCompletion(_ microsteps: inout Int, event: Int32) {
        var eventlessSettled = false
        while alive && !finished {
            var next: Transition?
            if !eventlessSettled {
                // Eventless transitions belong to the macrostep: their guards',
                // actions' and entries' failures name its event, not the
                // internal event processed before them.
                currentEvent = event
                next = eventless()
                eventlessSettled = next == nil
            }
            // A done or onFinal of a state left since it was queued never
            // acts: it is not something left to do, nor a microstep.
            while internalHead < internalQueue.count, isStale(internalQueue[internalHead]) { internalHead += 1 }
            // Only a step past the bound stops the macrostep: one that took
            // exactly maxMicrosteps and has nothing left to do is complete.
            guard next != nil || internalHead < internalQueue.count else { break }
            if microsteps >= definition.maxMicrosteps {
                internalQueue.removeAll(); internalHead = 0
                report(error: "the macrostep was stopped after \(definition.maxMicrosteps) microsteps in state '\(definition.states[leaf].name)' (an eventless loop?); the machine stays there", event: event)
                return
            }
            if let t = next { microstep(t, payload: [], &microsteps); continue }
            let p = internalQueue[internalHead]
            internalHead += 1
            currentEvent = eventID(of: p)
            if process(p, &microsteps, reportUnhandled: true) {
                eventlessSettled = false
            } else {
                microsteps += 1
            }
        }
        if finished && alive { finish() }
        internalQueue.removeAll(keepingCapacity: true)
        internalHead = 0
    }

    /// Whether `p` is the done or onFinal of an activation that has ended
    /// (activations are never reused, so it can never act).
    private func isStale(_ p: Pending) -> Bool {
        switch p.kind {
        case .done(let s, let activation), .onFinal(let s, let activation): activations[s] != activation
        case .event, .after, .ranOut: false
        }
    }

    private func eventless() -> Transition? {
        guard definition.hasEventless else { return nil }
        var a = leaf
        var context = evaluationContext(event: [])
        while a >= 0 {
            for t in definition.states[a].always where passes(t, &context) { return t }
            a = definition.states[a].parent
        }
        return nil
    }

    /// Takes one transition: exit, actions, report, enter.
    func microstep(_ t: Transition, payload: [MachineValue], _ microsteps: inout Int) {
        microsteps += 1
        guard let target = t.target else {
            run(t.actions, payload: payload, entering: nil)
            return
        }
        let domain = transitionDomain(t, target: target)
        let from = leaf
        var s = leaf
        while s != domain && s >= 0 {
            exit(s)
            s = definition.states[s].parent
        }
        run(t.actions, payload: payload, entering: nil)
        guard alive else { return }
        var path: [Int] = []
        var x = target
        while x != domain && x >= 0 { path.append(x); x = definition.states[x].parent }
        path.reverse()
        var d = target
        while let i = definition.states[d].initial { path.append(i); d = i }
        reportStateChange(from: from, to: d)
        for s in path {
            enter(s)
            guard alive else { return }
        }
        leaf = d
        afterEntering(d)
    }

    /// The state whose descendants a transition exits and enters: the
    /// source for an internal transition, else the nearest state that is a
    /// proper ancestor of both the source and the target (-1: the top
    /// level). So a transition to an ancestor of its source exits and
    /// re-enters that ancestor, as SCXML's findLCCA does.
    func transitionDomain(_ t: Transition, target: Int) -> Int {
        if t.isInternal { return t.source }
        var a = definition.states[t.source].parent
        while a >= 0 && (a == target || !definition.isAncestor(a, of: target)) { a = definition.states[a].parent }
        return a
    }

    /// After the leaf `d` is entered: a final state completes its parent
    /// (onFinal) or, at the top level, the machine (which finishes when the
    /// macrostep has no more microsteps: Engine/Finish.swift).
    private func afterEntering(_ d: Int) {
        guard definition.states[d].kind == .final else { return }
        let p = definition.states[d].parent
        if p >= 0 {
            // A parent without onFinal has nothing to take: queued, the
            // notification would only spend a microstep of the bound.
            if definition.states[p].onFinal != nil {
                internalQueue.append(Pending(kind: .onFinal(state: p, activation: activations[p]), payload: []))
            }
        } else {
            finished = true
        }
    }

    func enter(_ s: Int) {
        serial += 1
        let activation = serial
        activations[s] = activation
        let state = definition.states[s]
        if !state.done.isEmpty {
            // Without a barrier the done could never come: said, not hung.
            do throws(AnimrtError) { stateBarriers[s] = try runtime.createBarrier() }
            catch { fail("\(state.done[0].path): the state's done cannot wait for its animations: \(error.message)") }
        }
        run(state.entry, payload: [], entering: s)
        guard alive, activations[s] == activation else { return }
        for (i, a) in state.after.enumerated() {
            var c = evaluationContext(event: [])
            let delay: Double
            do throws(AnimrtError) { delay = try Evaluator.evaluate(a.delay, &c).number ?? .nan }
            catch { fail("the delay of \(a.transition.path): \(error.message)"); continue }
            guard delay.isFinite, delay >= 0 else {
                fail("the delay of \(a.transition.path) is \(NumberText.given(delay)); it must be a finite number of seconds, 0 or more")
                continue
            }
            do throws(AnimrtError) { try startAfterTimer(state: s, index: i, activation: activation, due: .after(delay)) }
            catch { fail("the timer of \(a.transition.path): \(error.message)") }
        }
        guard let b = stateBarriers[s] else { return }
        // A state that joined nothing is done within this macrostep, as an
        // internal event under its bound. Through the runtime's notification
        // it would run after a tick's evaluation as a macrostep of its own,
        // and `done` cycles of such states would never end the tick.
        if (try? runtime.count(of: b)) == 0 {
            internalQueue.append(Pending(kind: .done(state: s, activation: activation), payload: []))
            return
        }
        donePending[s] = true
        waitForDone(s)
    }

    /// Waits for state `s`'s barrier: when it drains, its `done` is tried.
    func waitForDone(_ s: Int) {
        guard let b = stateBarriers[s] else { return }
        let me = handle, activation = activations[s]
        try? runtime.notify(b) { [unowned(unsafe) host] in
            guard let m = host.instance(me), m.activations[s] == activation else { return }
            m.donePending[s] = false
            m.deliver(Pending(kind: .done(state: s, activation: activation), payload: []), isInternal: true)
        }
    }

    func exit(_ s: Int) {
        let state = definition.states[s]
        run(state.exit, payload: [], entering: nil)
        for t in afterTimers[s] { try? runtime.cancelTimer(t.timer) }
        afterTimers[s].removeAll()
        donePending[s] = false
        for a in state.after { if let n = a.timer, namedTimers[n]?.serial == activations[s] { namedTimers[n] = nil } }
        if let b = stateBarriers[s] { try? runtime.destroyBarrier(b); stateBarriers[s] = nil }
        activations[s] = 0
    }

    /// A started timer that sends no event ran out: `timerActive` changed
    /// with no transition, so the eventless transitions are tried, in a
    /// macrostep of its own (as after a timer whose transition is not taken).
    func timerRanOut(_ timer: Int) {
        guard definition.hasEventless else { return }
        deliver(Pending(kind: .ranOut(timer: timer), payload: [], origin: .timer), isInternal: false)
    }

    /// A runtime timer of this machine fired.
    func timerFired(_ kind: Pending.Kind, named: Int?) {
        if let named, case .after(_, _, let activation) = kind, namedTimers[named]?.serial == activation { namedTimers[named] = nil }
        deliver(Pending(kind: kind, payload: [], origin: .timer), isInternal: false)
    }

    // MARK: Reports

    /// Whether a result event carries the latest id of its request, which
    /// is still open.
    func isCurrentResult(_ event: Int, _ payload: [MachineValue]) -> Bool {
        guard let op = definition.events[event].resultOf else { return true }
        let id = payload[0].number.map { UInt64(exactly: $0) } ?? nil
        return id != nil && requests[op].open && requests[op].latest == id
    }

    /// Reports a result that was not processed because it is stale.
    func reportStale(_ event: Int, _ payload: [MachineValue]) {
        var e = Event(type: .machineStaleResult, time: clock)
        e.object = handle
        e.name = Int32(event)
        e.token = payload[0].number.map { UInt64(exactly: $0) ?? 0 } ?? 0
        e.payload = definition.events[event].tagged(payload)
        runtime.post(e)
    }

    func reportStateChange(from: Int, to: Int) {
        var e = Event(type: .machineStateChanged, time: clock)
        e.object = handle
        e.fromState = Int32(from)
        e.toState = Int32(to)
        e.payload = definition.associatedValues(of: to).map { context[$0].tagged }
        runtime.post(e)
    }

    /// Reports an error to the host (it is never silent).
    func report(error message: String, event: Int32) {
        var e = Event(type: .machineError, time: clock)
        e.object = handle
        e.name = event
        e.payload = [.string(message)]
        runtime.post(e)
    }

    /// An action or guard failed: reported to the host (naming the event
    /// being processed), and `error.execution` is queued for the machine (it
    /// may handle it).
    func fail(_ message: String) {
        report(error: message, event: currentEvent)
        if definition.errorEvent >= 0 {
            internalQueue.append(Pending(kind: .event(definition.errorEvent), payload: [.string(message)]))
        }
    }
}
