extension Runtime {
    /// Advances the runtime to `now` (seconds, the host's monotonic clock).
    ///
    /// In order: at the first tick, timers started before it are moved to
    /// count from `now`; animations added with beginTime 0 since the last
    /// tick are stamped with `now`; due timers fire; every attached animation is
    /// evaluated into presentation values (the batch in one loop, the rest
    /// per layer); then lifecycle changes are reported in a fixed order —
    /// started, stopped (animations that finished and are removed on
    /// completion are already excluded from this frame's values), barrier
    /// and transaction notifications. Work added by notifications is first
    /// evaluated at the next tick.
    ///
    /// `now` must be finite and not earlier than the previous tick (`.time`).
    /// A tick called from a closure the tick runs is refused (`.state`).
    public func tick(_ now: Double) throws(AnimrtError) {
        guard now.isFinite else { throw AnimrtError(.time, "tick time is \(now); it must be a finite number of seconds") }
        // A closure the tick runs (a timer's, a notification's, a
        // transaction's) that ticks again would advance the clock under the
        // tick still running, which then evaluates its own, earlier time over
        // the later one and finishes outside any tick.
        guard !inTick else {
            throw AnimrtError(.state, "tick(\(now)) was called while the tick to \(self.now()) is running (from a timer's, a notification's or a transaction's closure); nothing changed: tick again after it returns")
        }
        if let c = currentTime, now < c {
            throw AnimrtError(.time, "tick time \(now) is earlier than the previous tick (\(c)); time must not go backwards")
        }
        let first = currentTime == nil
        previousTime = currentTime
        currentTime = now
        inTick = true
        defer { inTick = false }
        if first { startClock(at: now) }
        markLayersShown()
        stampPendingBegins(now)
        fireTimers(now)
        syncStaleProperties(now)
        transitions.removeAll(keepingCapacity: true)
        if batches.count > 0 {
        model.withUnsafeBufferPointer { m in
            presentation.withUnsafeMutableBufferPointer { p in
                batches.evaluate(now: now, curves: curves, model: m.baseAddress!, presentation: p.baseAddress!,
                               threads: evaluationThreads, scope: workerScope, path: batchPath,
                               transitions: &transitions)
            }
        }
        }
        evaluateGeneral(now)
        processTransitions()
        runDeferred()
    }

    /// Presentation = model for properties whose model changed or whose
    /// animations went away; the evaluation that follows overwrites what is
    /// animated (a batch entry writes one component: the others follow the model).
    private func syncStaleProperties(_ now: Double) {
        guard !staleProperties.isEmpty else { return }
        let warming = staleProperties.count >= Runtime.warmThreshold
        for (k, (li, p)) in staleProperties.enumerated() {
            if warming && k % Runtime.warmChunk == 0 {
                warmStale(staleProperties[k..<min(k + Runtime.warmChunk, staleProperties.count)])
            }
            guard layers.isLive(Int(li)) else { continue }
            if let off = valueSlot(layer: Int(li), property: p, create: false) {
                for k in 0..<properties.defaults[Int(p)].kind.componentCount { presentation[Int(off) + k] = model[Int(off) + k] }
            }
        }
        refreeze(staleProperties, now: now)
        staleProperties.removeAll(keepingCapacity: true)
    }

    private func stampPendingBegins(_ now: Double) {
        guard !pendingBegins.isEmpty else { return }
        var waiting: [Handle] = []
        for h in pendingBegins {
            guard let i = try? instances.index(of: h) else { continue }
            // A layer whose time is unresolved keeps its new animations
            // waiting (idle) until its time resolves.
            guard let t = localTime(of: Int(instances[i].layer), at: now) else { waiting.append(h); continue }
            instances[i].pendingBegin = false
            if instances[i].inBatch { batches.lanes[Int(instances[i].lane)].setBegin(Int(instances[i].tierIndex), t) }
            else { general[Int(instances[i].tierIndex)].animation.timing.beginTime = t }
        }
        pendingBegins.removeAll(keepingCapacity: true)
        pendingBegins += waiting
    }

    /// Evaluates the general path layer by layer: each property starts from
    /// its model value and the layer's animations apply in the order added.
    ///
    /// Values are those at the layer's time now. Lifecycle states only move
    /// forwards, and an animation's state only grows with its layer's time,
    /// so its new state is the one at the latest time the layer showed since
    /// the previous tick: a timed layer may have reached an animation's end
    /// and turned back, wrapped or gone unresolved in between.
    private func evaluateGeneral(_ now: Double) {
        defer { if !retimedLayers.isEmpty { retimedLayers.removeAll(keepingCapacity: true) } }
        for li32 in generalLayers {
            let li = Int(li32)
            // An unresolved layer time (a timed layer outside its active
            // interval): nothing is in effect and the model shows.
            // A timed layer holding its time at an end of its iteration
            // holds its animations there too (`edge`), as a group does.
            let held = localTimeAndEdge(of: li, at: now)
            let time = held?.time
            // The latest time the layer showed since the previous tick, if
            // later than now: computed once, for the first animation that
            // was attached all along and has not ended (only a layer with its
            // own time can have shown one).
            var latest: Double?? = nil
            var working: [Int32: AnimatableValue] = [:]
            var touched: [Int32] = []
            var c = layers[li].firstInstance
            while c >= 0 {
                let ii = Int(c)
                c = instances[ii].next
                if instances[ii].inBatch { continue }
                let gi = Int(instances[ii].tierIndex)
                let r = general[gi].animation
                for p in r.targets where !touched.contains(p) { touched.append(p) }
                guard !instances[ii].pendingBegin else { continue }
                var state = LifeState.waiting
                if let t = time { state = r.timing.sampleAndState(at: t).1 }
                if general[gi].evaluated && state != .ended {
                    if latest == nil {
                        latest = .some(previousTime.flatMap { p in hasIdentityTime(li) ? nil : latestLocalTime(of: li, from: p, to: now) })
                    }
                    if let u = latest!, case let s = r.timing.sampleAndState(at: u).1, s.rawValue > state.rawValue { state = s }
                }
                general[gi].evaluated = true
                if state.rawValue > instances[ii].state.rawValue { transitions.append((Int32(ii), state)) }
                if state == .ended && r.removedOnCompletion { continue }
                guard let t = time else { continue }
                r.contribute(at: t, heldAt: held?.edge, into: &working) { p in self.wholeValue(self.model, layer: li, property: p) }
            }
            for p in touched {
                let v = working[p] ?? wholeValue(model, layer: li, property: p)
                writeWhole(v, toPresentation: true, toModel: false, layer: li, property: p)
            }
        }
    }

    private func processTransitions() {
        guard !transitions.isEmpty else { return }
        orderOwnedTransitions()
        // This tick's changes move to `list`, and `transitions` takes the
        // spare buffer: each keeps its capacity, so a tick that ends 10^4
        // animations allocates nothing for them (a copy of the list left
        // `transitions` sharing its buffer, and the next tick's appends
        // grew a new one, page by page).
        var list = spareTransitions
        spareTransitions = []
        swap(&list, &transitions)
        defer {
            list.removeAll(keepingCapacity: true)
            spareTransitions = list
        }
        let warming = list.count >= Runtime.warmThreshold
        for (k, (ii32, newState)) in list.enumerated() {
            if warming && k % Runtime.warmChunk == 0 { warm(list[k..<min(k + Runtime.warmChunk, list.count)]) }
            let ii = Int(ii32)
            guard instances.isLive(ii), instances[ii].state.rawValue < newState.rawValue else { continue }
            if instances[ii].state == .waiting {
                instances[ii].state = .running
                emit(EventRecord(lifecycle: .animationStarted, time: now(), layer: layers.handle(at: Int(instances[ii].layer)),
                                 object: instances.handle(at: ii), animation: Handle(raw: instances[ii].definition),
                                 reason: .finished))
            }
            if newState == .ended {
                instances[ii].state = .ended
                emitStopped(ii, .finished)
                let removed = instances[ii].inBatch
                    ? batches.lanes[Int(instances[ii].lane)].flags[Int(instances[ii].tierIndex)] & BatchStorage.removedOnCompletion != 0
                    : general[Int(instances[ii].tierIndex)].animation.removedOnCompletion
                // A batch entry that ended in this tick and is removed on
                // completion was left out of this tick's values: the kernel
                // has just written its model value, and the property's other
                // components follow the model (it is the property's only
                // animation). Nothing is stale.
                let shown = instances[ii].inBatch
                leaveBarriers(ii)
                if removed && instances.isLive(ii) { detach(ii, presentationIsModel: shown) }
                else if instances.isLive(ii) { freeze(ii) }
            }
        }
    }

    /// Puts the transitions of owned layers (a machine's parts) in one order
    /// whatever the runtime's lists hold, in the places such transitions
    /// had; the others keep theirs. The kernel reports entries in lane
    /// order and the general path in the order layers joined it, and both
    /// move on removals, so a machine restored into a fresh runtime (its
    /// lists built afresh) would report the started and stopped events of
    /// one tick in another order. The order: the part's rank among its
    /// owner's layers, then the animation's place on its layer (the order
    /// added, which a restore keeps). No owned layer: nothing to do.
    ///
    /// Linear in the transitions but for their sort: the ranks are read
    /// from a flat table, and only a layer with two transitions or more
    /// walks its list (to its last one), never a layer with one.
    private func orderOwnedTransitions() {
        guard !layerOwners.isEmpty, transitions.count > 1 else { return }
        var places: [Int32] = []
        var owned: [(rank: Int32, layer: Int32, at: Int32)] = []
        layerRanks.withUnsafeBufferPointer { ranks in
            for k in transitions.indices {
                let li = Int(instances[Int(transitions[k].0)].layer)
                guard li < ranks.count, ranks[li] >= 0 else { continue }
                places.append(Int32(k))
                owned.append((ranks[li], Int32(li), Int32(k)))
            }
        }
        guard owned.count > 1 else { return }
        // A total order (no two have the same place in the list, `at`),
        // so an unstable sort gives one result: each layer's transitions
        // together, in the order of its owner's ranks.
        owned.sort { ($0.rank, $0.layer, $0.at) < ($1.rank, $1.layer, $1.at) }
        var ordered: [(Int32, LifeState)] = []
        ordered.reserveCapacity(owned.count)
        var s = 0
        while s < owned.count {
            var e = s + 1
            while e < owned.count && owned[e].layer == owned[s].layer { e += 1 }
            if e - s == 1 { ordered.append(transitions[Int(owned[s].at)]) }
            else { appendInListOrder(owned[s..<e].map { transitions[Int($0.at)] }, layer: Int(owned[s].layer), to: &ordered) }
            s = e
        }
        for (i, k) in places.enumerated() { transitions[Int(k)] = ordered[i] }
    }

    /// Appends `members`, transitions of animations on layer `li`, in the
    /// order of the layer's list (the order added). The list is walked up
    /// to the last of them; a large group is found by a table, a small one
    /// by a look along it. One not on the list (none is) comes last, so
    /// that none is lost.
    private func appendInListOrder(_ members: [(Int32, LifeState)], layer li: Int, to ordered: inout [(Int32, LifeState)]) {
        var taken = [Bool](repeating: false, count: members.count)
        var left = members.count
        let table: [Int32: Int]? = members.count > 16
            ? Dictionary(members.indices.map { (members[$0].0, $0) }, uniquingKeysWith: { first, _ in first }) : nil
        var c = layers[li].firstInstance
        while c >= 0 && left > 0 {
            var found: Int?
            if let table { found = table[c] }
            else { for j in members.indices where members[j].0 == c { found = j; break } }
            if let j = found, !taken[j] { ordered.append(members[j]); taken[j] = true; left -= 1 }
            c = instances[Int(c)].next
        }
        if left > 0 { for j in members.indices where !taken[j] { ordered.append(members[j]) } }
    }
}
