import AnimationCore

/// Executable content. An action that fails (a non-finite number where one
/// is needed, an animation the runtime refuses, a function that throws)
/// stops the rest of its block, is reported to the host as an error event
/// and raises `error.execution` (SCXML 5.9); what ran before it stays done.
extension MachineInstance {
    /// Runs `actions`; `entering` is the state whose entry they are (its
    /// barrier is the one `join` refers to).
    func run(_ actions: [Action], payload: [MachineValue], entering: Int?) {
        for a in actions {
            guard alive else { return }
            do throws(AnimrtError) { try perform(a, payload: payload, entering: entering) }
            catch {
                fail("\(a.path): \(error.message)")
                return
            }
        }
    }

    enum Due { case after(Double), at(Double) }

    /// Starts named timer `timer`, which sends `event` with `payload` when it
    /// fires (with no event it only measures time, for `timerActive`).
    func startNamedTimer(_ timer: Int, due: Due, sending event: Int?, _ payload: [MachineValue]) throws(AnimrtError) {
        serial += 1
        let activation = serial
        let me = handle
        let fire: () -> Void = { [unowned(unsafe) host] in
            guard let m = host.instance(me), m.namedTimers[timer]?.serial == activation else { return }
            m.namedTimers[timer] = nil
            guard let event else { m.timerRanOut(timer); return }
            m.deliver(Pending(kind: .event(event), payload: payload, origin: .timer), isInternal: false)
        }
        let h = try startRuntimeTimer(due, fire)
        namedTimers[timer] = (h, activation, (event, payload))
    }

    /// Starts the timer of `after` transition `i` of state `s` (entered as `activation`).
    func startAfterTimer(state s: Int, index i: Int, activation: UInt64, due: Due) throws(AnimrtError) {
        let a = definition.states[s].after[i]
        let me = handle
        let fire: () -> Void = { [unowned(unsafe) host] in
            host.instance(me)?.timerFired(.after(state: s, index: i, activation: activation), named: a.timer)
        }
        let h = try startRuntimeTimer(due, fire)
        afterTimers[s].append((i, h))
        if let n = a.timer { namedTimers[n] = (h, activation, nil) }
    }

    /// A runtime timer for `due`. A delay that would make it due past the
    /// largest time is refused by the runtime: the timer could never fire,
    /// and a snapshot could not be restored with its time.
    private func startRuntimeTimer(_ due: Due, _ fire: @escaping () -> Void) throws(AnimrtError) -> Handle {
        switch due {
        case .at(let time): return try runtime.startTimer(at: time, fire)
        case .after(let delay): return try runtime.startTimer(after: delay, fire)
        }
    }

    /// Records an animation the machine added; forgets those that have gone
    /// when the list has doubled since it was last swept. Sweeping every 64
    /// additions made a macrostep that starts many animations that stay
    /// quadratic (10 microsteps animating 4096 copies took 11 s); doubling
    /// keeps each addition's share constant.
    func noteStarted(_ s: StartedAnimation) {
        started.append(s)
        if started.count >= max(64, 2 * startedAfterSweep) {
            started.removeAll { runtime.isAttached($0.handle) == false }
            startedAfterSweep = started.count
            startedSweeps += 1
        }
    }

    /// The value an assign of one field writes.
    private func assignedValue(_ field: Int, _ e: Expression, payload: [MachineValue]) throws(AnimrtError) -> MachineValue {
        var c = evaluationContext(event: payload)
        let v = try Evaluator.evaluate(e, &c)
        guard v.isFinite else {
            throw AnimrtError(.invalidArgument, "context.\(definition.context[field].name) would be \(v); context numbers must be finite")
        }
        return v
    }

    /// Refuses an assign after which the context's strings would hold more
    /// than `DefinitionLimits.maxTotalStringBytes` together (each string is
    /// bounded on its own, but 4096 fields of them are not).
    private func checkContextStrings(after writes: [(Int, MachineValue)]) throws(AnimrtError) {
        var values = context
        for (field, v) in writes { values[field] = v }
        try MachineHost.checkContextStrings(values)
    }

    /// The values an assign writes, all computed before any is written.
    private func assignedValues(_ list: [(field: Int, value: Expression)], payload: [MachineValue]) throws(AnimrtError) -> [(Int, MachineValue)] {
        var c = evaluationContext(event: payload)
        var values: [(Int, MachineValue)] = []
        values.reserveCapacity(list.count)
        for (field, e) in list {
            let v = try Evaluator.evaluate(e, &c)
            guard v.isFinite else {
                throw AnimrtError(.invalidArgument, "context.\(definition.context[field].name) would be \(v); context numbers must be finite")
            }
            values.append((field, v))
        }
        return values
    }

    private func perform(_ a: Action, payload: [MachineValue], entering: Int?) throws(AnimrtError) {
        if case .assign(let list) = a.body {
            // Evaluated in a scope of its own, so that the context array is
            // not shared while it is written (no copy per assignment).
            if list.count == 1 {
                let v = try assignedValue(list[0].field, list[0].value, payload: payload)
                if v.stringBytes > 0 { try checkContextStrings(after: [(list[0].field, v)]) }
                context[list[0].field] = v
            } else {
                let values = try assignedValues(list, payload: payload)
                if values.contains(where: { $0.1.stringBytes > 0 }) { try checkContextStrings(after: values) }
                for (field, v) in values { context[field] = v }
            }
            return
        }
        var c = evaluationContext(event: payload)
        switch a.body {
        case .assign:
            break
        case .animate(let part, let key, let template, let joins):
            let barrier = joins ? entering.flatMap { stateBarriers[$0] } : nil
            // Every copy of a repeated part, each with its `index`; every
            // copy's animation is built, then all are added at once (the
            // runtime checks them all first), so that one whose expressions
            // fail or that the runtime refuses leaves every copy as it was.
            var animations: [Animation] = []
            for i in 0..<partCount[part] {
                c.index = Double(i)
                animations.append(try build(template, &c))
            }
            let layers = partStart[part]..<(partStart[part] + partCount[part])
            let handles = try runtime.add(animations, to: layers.map { parts[$0] }, forKey: key, joining: barrier)
            for (layer, (h, animation)) in zip(layers, zip(handles, animations)) {
                noteStarted(StartedAnimation(handle: h, animation: animation, layer: layer, key: key,
                                             joined: barrier == nil ? nil : entering))
            }
        case .remove(let part, let key):
            for i in 0..<partCount[part] { try runtime.removeAnimation(forKey: key, from: parts[partStart[part] + i]) }
        case .removeAll(let part):
            for i in 0..<partCount[part] { try runtime.removeAllAnimations(from: parts[partStart[part] + i]) }
        case .set(let part, let keyPath, let kind, let slot):
            // Every copy's value is computed before any is written, as an
            // assign's are, then all are set at once (the runtime checks
            // them all first): one whose expression fails or that the
            // runtime refuses (a transform part that overflows) sets no copy.
            var values: [AnimatableValue] = []
            for i in 0..<partCount[part] {
                c.index = Double(i)
                values.append(try value(slot, kind: kind, &c, what: "the value of '\(keyPath)'"))
            }
            try runtime.setModelValues(values, forKeyPath: keyPath, of: (0..<partCount[part]).map { parts[partStart[part] + $0] })
        case .emit(let id, let exprs):
            var e = Event(type: .machineEmitted, time: clock)
            e.object = handle
            e.name = Int32(id)
            e.payload = definition.emits[id].tagged(try evaluatePayload(definition.emits[id], exprs, &c))
            runtime.post(e)
        case .raise(let id, let exprs):
            let values = try evaluatePayload(definition.events[id], exprs, &c)
            // The macrostep processes at most maxMicrosteps internal events:
            // a raise past that many waiting could never be processed, and
            // raises that fan out would fill memory before the bound stops them.
            guard internalQueue.count - internalHead < definition.maxMicrosteps else {
                throw AnimrtError(.outOfRange, "'\(definition.events[id].name)' cannot be raised: \(definition.maxMicrosteps) raised events wait already, as many as a macrostep processes (maxMicrosteps)")
            }
            internalQueue.append(Pending(kind: .event(id), payload: values))
        case .request(let op, let exprs):
            let values = try evaluatePayload(definition.requests[op], exprs, &c)
            guard host.lastRequestNumber < MachineHost.maxRequestNumber else {
                throw AnimrtError(.outOfRange, "request '\(definition.requests[op].name)': this runtime has issued every request number up to 2^53; no result could name another")
            }
            host.lastRequestNumber += 1
            requests[op] = (host.lastRequestNumber, true)
            var e = Event(type: .machineRequest, time: clock)
            e.object = handle
            e.name = Int32(op)
            e.token = host.lastRequestNumber
            e.payload = definition.requests[op].tagged(values)
            runtime.post(e)
        case .cancelRequest(let op):
            requests[op].open = false
        case .startTimer(let timer, let delayExpression, let event, let exprs):
            let delay = try Evaluator.evaluate(delayExpression, &c).number ?? .nan
            guard delay.isFinite, delay >= 0 else {
                throw AnimrtError(.outOfRange, "the delay is \(NumberText.given(delay)); it must be a finite number of seconds, 0 or more")
            }
            let values = try event.map { (e: Int) throws(AnimrtError) in try evaluatePayload(definition.events[e], exprs, &c) } ?? []
            if let running = namedTimers[timer] { try? runtime.cancelTimer(running.timer) }
            try startNamedTimer(timer, due: .after(delay), sending: event, values)
        case .cancelTimer(let timer):
            if let running = namedTimers[timer] {
                try? runtime.cancelTimer(running.timer)
                namedTimers[timer] = nil
            }
        case .call(let f, let exprs):
            var args: [MachineValue] = []
            for e in exprs { args.append(try Evaluator.evaluate(e, &c)) }
            _ = try f.call(args)
        }
    }

    /// Evaluates a payload; omitted fields take their defaults; numbers are
    /// checked (finite, in range, clamped where declared).
    func evaluatePayload(_ declaration: EventDeclaration, _ exprs: [Expression?],
                         _ c: inout EvaluationContext) throws(AnimrtError) -> [MachineValue] {
        var out: [MachineValue] = []
        out.reserveCapacity(exprs.count)
        var bytes = 0
        for (field, e) in zip(declaration.payload, exprs) {
            let v = try e.map { (x: Expression) throws(AnimrtError) in try Evaluator.evaluate(x, &c) } ?? field.defaultValue!
            // Counted as each field is made, so that no more than one string past the limit is ever built.
            bytes += v.stringBytes
            guard bytes <= DefinitionLimits.maxTotalStringBytes else {
                throw AnimrtError(.outOfRange, "the payload of '\(declaration.name)' would hold \(bytes) bytes of strings by field '\(field.name)'; a payload's strings together are at most \(DefinitionLimits.maxTotalStringBytes) bytes")
            }
            out.append(try MachineHost.check(v, field, of: declaration))
        }
        return out
    }

    /// A value for a key path of `kind` from its slot.
    func value(_ slot: ValueSlot, kind: ValueKind, _ c: inout EvaluationContext, what: String) throws(AnimrtError) -> AnimatableValue {
        switch slot {
        case .expression(let e):
            let v = try Evaluator.evaluate(e, &c)
            let result: AnimatableValue
            switch v {
            case .number(let d): result = .scalar(d)
            case .vector(let x): result = x
            default: throw AnimrtError(.kind, "\(what) is \(v); a \(kind.name) is needed")
            }
            for (i, x) in result.components.enumerated() where !x.isFinite {
                throw AnimrtError(.invalidArgument, "\(what): component \(i) is \(x); values must be finite")
            }
            return result
        case .components(let list):
            var numbers: [Double] = []
            for e in list { numbers.append(try Evaluator.evaluate(e, &c).number ?? .nan) }
            do throws(AnimrtError) { return try AnimatableValue(kind: kind, components: numbers) }
            catch { throw AnimrtError(error.status, "\(what): \(error.message)") }
        }
    }

    /// The `Animation` a template describes, with its expressions evaluated.
    func build(_ t: Template, _ c: inout EvaluationContext) throws(AnimrtError) -> Animation {
        func number(_ e: Expression, _ what: String) throws(AnimrtError) -> Double {
            let d = try Evaluator.evaluate(e, &c).number ?? .nan
            guard !d.isNaN else { throw AnimrtError(.invalidArgument, "\(what) is NaN") }
            return d
        }
        func slot(_ s: ValueSlot?, _ what: String) throws(AnimrtError) -> AnimatableValue? {
            guard let s, let k = t.valueKind else { return nil }
            return try value(s, kind: k, &c, what: what)
        }
        var timing = MediaTiming()
        for (field, e) in t.timing {
            let v = try number(e, field.rawValue)
            switch field {
            case .beginTime: timing.beginTime = v
            case .duration: timing.duration = v
            case .speed: timing.speed = v
            case .timeOffset: timing.timeOffset = v
            case .repeatCount: timing.repeatCount = v
            case .repeatDuration: timing.repeatDuration = v
            case .iterationStart: timing.iterationStart = v
            case .endDelay: timing.endDelay = v
            }
        }
        if let f = t.fillMode { timing.fillMode = f }
        if let d = t.direction { timing.direction = d }
        var flags: [Template.FlagField: Bool] = [:]
        for (field, e) in t.flags { flags[field] = try Evaluator.evaluate(e, &c).bool ?? false }
        timing.autoreverses = flags[.autoreverses] ?? false
        var a: Animation
        switch t.kind {
        case .basic:
            a = .basic(t.keyPath!, from: try slot(t.from, "from"), to: try slot(t.to, "to"), by: try slot(t.by, "by"), timing: timing)
        case .spring:
            var s = Spring()
            if let e = t.spring[.mass] { s.mass = try number(e, "mass") }
            if let e = t.spring[.stiffness] { s.stiffness = try number(e, "stiffness") }
            if let e = t.spring[.damping] { s.damping = try number(e, "damping") }
            if let e = t.spring[.initialVelocity] { s.initialVelocity = try number(e, "initialVelocity") }
            s.allowsOverdamping = flags[.allowsOverdamping] ?? false
            a = .spring(t.keyPath!, s, from: try slot(t.from, "from"), to: try slot(t.to, "to"), by: try slot(t.by, "by"), timing: timing)
            // Its duration is then the spring's settling duration, computed when it is added (as in the C API).
            a.usesSettlingDuration = flags[.usesSettlingDuration] ?? false
        case .keyframe:
            var values: [AnimatableValue] = []
            for (i, v) in (t.values ?? []).enumerated() { values.append(try value(v, kind: t.valueKind!, &c, what: "keyframe value \(i)")) }
            var k = Keyframes(values: values, calculationMode: t.calculationMode ?? .linear)
            if let times = t.keyTimes { k.keyTimes = try times.enumerated().map { (i, e) throws(AnimrtError) in try number(e, "key time \(i)") } }
            if let f = t.timingFunctions { k.timingFunctions = f }
            if let l = t.tension { k.tensionValues = try l.map { (e: Expression) throws(AnimrtError) in try number(e, "tension") } }
            if let l = t.continuity { k.continuityValues = try l.map { (e: Expression) throws(AnimrtError) in try number(e, "continuity") } }
            if let l = t.bias { k.biasValues = try l.map { (e: Expression) throws(AnimrtError) in try number(e, "bias") } }
            a = .keyframe(t.keyPath!, k, timing: timing)
        case .group:
            var children: [Animation] = []
            for child in t.children { children.append(try build(child, &c)) }
            a = .group(children, timing: timing)
        }
        a.timingFunction = t.timingFunction
        if let v = flags[.removedOnCompletion] { a.isRemovedOnCompletion = v }
        a.isAdditive = flags[.additive] ?? false
        a.isCumulative = flags[.cumulative] ?? false
        a.startsFromPresentation = flags[.fromPresentation] ?? false
        return a
    }
}
