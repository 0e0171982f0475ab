extension Runtime {
    /// The id of animation key `key` for one more animation (0 for none).
    func retainKey(_ key: String?) -> Int32 {
        guard let key else { return 0 }
        if let id = keyIDs[key] { keyUses[Int(id)] += 1; return id }
        let id: Int32
        if let reused = freeKeyIDs.popLast() { id = reused; keyNames[Int(id)] = key }
        else { id = Int32(keyNames.count); keyNames.append(key); keyUses.append(0) }
        keyUses[Int(id)] = 1
        keyIDs[key] = id
        return id
    }

    /// One animation fewer uses key `id`; the last one frees it.
    func releaseKey(_ id: Int32) {
        guard id != 0 else { return }
        let i = Int(id)
        keyUses[i] -= 1
        guard keyUses[i] == 0 else { return }
        keyIDs[keyNames[i]] = nil
        keyNames[i] = ""
        freeKeyIDs.append(id)
    }

    /// How many distinct animation keys are in use.
    public var liveKeyCount: Int { keyIDs.count }

    /// Instances attached to layer `i`, in the order they were added.
    func instanceList(_ i: Int) -> [Int32] {
        var out: [Int32] = []
        var c = layers[i].firstInstance
        while c >= 0 { out.append(c); c = instances[Int(c)].next }
        return out
    }

    func targets(of instance: Int) -> [Int32] {
        let inst = instances[instance]
        if inst.inBatch || inst.property >= 0 { return [inst.property] }
        return general[Int(inst.tierIndex)].animation.targets
    }

    func isAnimated(layer i: Int, property: Int32) -> Bool {
        var c = layers[i].firstInstance
        while c >= 0 {
            if targets(of: Int(c)).contains(property) { return true }
            c = instances[Int(c)].next
        }
        return false
    }

    /// Attaches a copy of `animation` to `layer` under `key`, replacing (and
    /// stopping with `.replaced`) any animation under the same key. With a
    /// barrier, the animation enters it now and leaves it when it stops.
    /// Returns the handle of the attached copy.
    @discardableResult
    public func add(_ animation: Animation, to layer: Handle, forKey key: String?,
                    joining barrier: Handle? = nil, definition: Handle? = nil) throws(AnimrtError) -> Handle {
        try add(animation, to: layer, forKey: key, joining: barrier, definition: definition, restoring: nil)
    }

    /// `add`, or, with `restoring`, the same animation as it stood when it
    /// was read with `attachmentState`: its begin time, duration, captured
    /// value and lifecycle are taken from there (a restored snapshot).
    @discardableResult
    public func add(_ animation: Animation, to layer: Handle, forKey key: String?, joining barrier: Handle? = nil,
                    definition: Handle? = nil, restoring: AttachmentState?) throws(AnimrtError) -> Handle {
        let checked = try check(animation, to: layer, forKey: key, joining: barrier, restoring: restoring)
        guard instances.hasRoom else { throw instances.fullError }
        try reserveValues(layer: checked.layer, properties: checked.resolved.targets)
        let ii = attach(checked, forKey: key, joining: barrier, definition: definition, restoring: restoring)
        // Taken first: a notification run now may replace it, and its slot go to another.
        let h = instances.handle(at: ii)
        if !inTick { runDeferred() }
        return h
    }

    /// Attaches `animations[k]` to `layers[k]`, each under `key`: all or
    /// none. Every one is checked — its layer, key path and values, room for
    /// all of them in the tables and the value pools — before the first is
    /// attached, so that one the runtime refuses leaves every layer as it
    /// was, which adds made one at a time cannot promise. A machine's
    /// `animate` on a repeated part adds its copies so. A count of
    /// animations other than the count of layers is refused
    /// (`invalidArgument`) before anything is checked.
    @discardableResult
    public func add(_ animations: [Animation], to layers: [Handle], forKey key: String?, joining barrier: Handle? = nil,
                    definition: Handle? = nil) throws(AnimrtError) -> [Handle] {
        guard animations.count == layers.count else {
            throw AnimrtError(.invalidArgument, "\(counted(animations.count, "animation")) for \(counted(layers.count, "layer")): give one layer per animation")
        }
        var checked: [CheckedAdd] = []
        checked.reserveCapacity(animations.count)
        for (animation, layer) in zip(animations, layers) {
            checked.append(try check(animation, to: layer, forKey: key, joining: barrier, restoring: nil))
        }
        guard instances.hasRoom(for: checked.count) else { throw instances.fullError }
        // New values, once per layer and property (two animations of one
        // property on a layer share its value).
        var sizes: [Int] = []
        var counted = Set<[Int]>()
        for c in checked {
            for p in c.resolved.targets where self.layers[c.layer].props.offset(of: p) == nil
                && counted.insert([c.layer, Int(p)]).inserted {
                sizes.append(properties.info(p).kind.componentCount)
            }
        }
        try reserveValues(sizes: sizes)
        let handles = checked.map { instances.handle(at: attach($0, forKey: key, joining: barrier, definition: definition, restoring: nil)) }
        if !inTick { runDeferred() }
        return handles
    }

    /// An add that passed its checks: the layer's slot and the animation
    /// resolved against it.
    struct CheckedAdd {
        let layer: Int
        let resolved: ResolvedAnimation
    }

    /// The checks of an add that change nothing (room in the tables and
    /// pools is checked by the caller, for all its adds at once).
    private func check(_ animation: Animation, to layer: Handle, forKey key: String?, joining barrier: Handle?,
                       restoring: AttachmentState?) throws(AnimrtError) -> CheckedAdd {
        let li = try layers.index(of: layer)
        if let barrier { _ = try hostBarrier(barrier) }
        if let key { try requireNameLength(key, "animation key") }
        // Restored, it runs with the duration it had, and so do the children
        // of a group that inherited it (from a transaction, say).
        let resolved = try ResolvedAnimation.resolve(animation, properties: &properties,
                                                     defaultDuration: restoring?.duration ?? defaultAnimationDuration)
        if let restoring { try AttachmentState.check(phase: restoring.phase, beginTime: restoring.beginTime) }
        try Runtime.check(captured: restoring?.captured, for: resolved.keyPath)
        if let children = restoring?.capturedChildren { try Runtime.check(capturedChildren: children, for: resolved) }
        return CheckedAdd(layer: li, resolved: resolved)
    }

    /// Attaches a checked add (nothing fails from here on); returns its
    /// instance's slot. The caller runs what the add deferred.
    private func attach(_ checked: CheckedAdd, forKey key: String?, joining barrier: Handle?, definition: Handle?,
                        restoring: AttachmentState?) -> Int {
        let (li, resolved) = (checked.layer, checked.resolved)
        // A group's animations each take their own (a snapshot carries
        // them in the same order), a plain animation its own.
        let restored = restoring.map { r in resolved.keyPath == nil ? r.capturedChildren ?? [] : [r.captured] }
        for (k, a) in resolved.startTakers.enumerated() {
            a.captureStart(restored: restored.flatMap { k < $0.count ? $0[k] : nil }) { kp in
                kp.get(self.wholeValue(self.presentation, layer: li, property: kp.property))
            }
        }
        if let r = restoring {
            resolved.timing.duration = r.duration
            if let b = r.beginTime { resolved.timing.beginTime = b }
        }
        let stampNow = restoring.map { $0.beginTime == nil } ?? (resolved.timing.beginTime == 0)
        let ii = attachInstance(layer: li, key: key, property: resolved.targets.count == 1 ? resolved.targets[0] : -1,
                                definition: definition, joining: barrier)
        if stampNow, let t = stampTime(ii) { resolved.timing.beginTime = t }
        if let batchEntry = batchForm(resolved, layer: li) {
            for p in resolved.targets { demoteProperty(layer: li, property: p, except: ii) }
            let conflict = instanceList(li).contains { Int($0) != ii && targets(of: Int($0)).contains(batchEntry.property) }
            if !conflict {
                appendToBatch(ii, timing: resolved.timing, from: batchEntry.from, to: batchEntry.to, slot: batchEntry.slot,
                              curve: batchEntry.curve, removedOnCompletion: resolved.removedOnCompletion,
                              fromPresentation: resolved.startsFromPresentation)
            } else {
                curves.release(batchEntry.curve)
                addGeneral(ii, resolved)
            }
        } else {
            for p in resolved.targets { demoteProperty(layer: li, property: p, except: ii) }
            addGeneral(ii, resolved)
        }
        if let r = restoring {
            setPhase(r.phase, of: ii)
            if !instances[ii].inBatch { general[Int(instances[ii].tierIndex)].evaluated = r.evaluated }
        }
        joinBarriers(ii, barrier)
        return ii
    }

    /// The duration a zero duration stands for: that of the innermost open
    /// transaction that sets one (CATransaction looks a property up through
    /// the enclosing transactions), else 0.25 s.
    var defaultAnimationDuration: Double {
        for h in openTransactions.reversed() where transactions.isLive(h.index) {
            if let d = transactions[h.index].animationDuration { return d }
        }
        return MediaTiming.defaultDuration
    }

    /// The first steps of every add, once everything is checked (room for
    /// the instance included): stops the animation under the same key, then
    /// links a new instance at the tail of the layer's list. Returns its slot.
    ///
    /// The new animation enters `barrier` on the add, before the one it
    /// replaces leaves it, as an enter before the old work's leave would: a
    /// barrier that both are in does not reach zero and notify while the new
    /// one runs. The one held for that is given back without a drain, as the
    /// caller's `joinBarriers` (which follows with nothing in between that
    /// can fail) adds the new animation's one. (An open transaction's barrier
    /// needs no hold: nothing waits on it before its commit.)
    func attachInstance(layer li: Int, key: String?, property: Int32, definition: Handle?,
                        joining barrier: Handle?) -> Int {
        let kid = retainKey(key)
        if kid != 0 {
            if let b = barrier { barriers[b.index].count += 1 }  // checked by the add, as `join` takes it
            var c = layers[li].firstInstance
            while c >= 0 {
                let next = instances[Int(c)].next
                if instances[Int(c)].keyID == kid { stop(instance: Int(c), reason: .replaced) }
                c = next
            }
            if let b = barrier { barriers[b.index].count -= 1 }
        }
        return insertInstance(layer: li, keyID: kid, property: property, definition: definition)
    }

    /// The new instance of an attach, last in layer `li`'s list, its key
    /// `keyID` retained by the caller.
    @inline(__always)
    func insertInstance(layer li: Int, keyID: Int32, property: Int32, definition: Handle?) -> Int {
        // Cannot fail: the caller checked the room.
        let ii = try! instances.insert(Instance(layer: layers.handle(at: li), keyID: keyID, property: property,
                                                definition: definition?.raw ?? 0)).index
        if layers[li].lastInstance >= 0 { instances[Int(layers[li].lastInstance)].next = Int32(ii) }
        else { layers[li].firstInstance = Int32(ii) }
        layers[li].lastInstance = Int32(ii)
        return ii
    }

    /// For an animation that begins "now" (beginTime 0): the layer's time
    /// when added during a tick; otherwise nil, and it is stamped at the
    /// first tick that resolves its layer's time (a timed layer outside its
    /// active interval waits).
    func stampTime(_ ii: Int) -> Double? {
        if inTick, let t = localTime(of: Int(instances[ii].layer), at: now()) { return t }
        instances[ii].pendingBegin = true
        addPendingBegin(instances.handle(at: ii))
        return nil
    }

    /// The batch lane family for a new entry with curve `curve` (see `BatchSet`).
    func batchFamily(curve: Int32) -> Int {
        if let f = batches.family(curve: curve, kind: curves.kinds[Int(curve)]) { return f }
        return batches.giveFamily(curve: curve) { curves.isUsed($0) }
    }

    /// Puts instance `ii` in the batch lane of its curve (whose use the
    /// caller retained) for the range of values `slot` is in.
    func appendToBatch(_ ii: Int, timing: MediaTiming, from: Double, to: Double, slot: Int32, curve: Int32,
                       removedOnCompletion: Bool, fromPresentation: Bool) {
        let lane = batches.lane(family: batchFamily(curve: curve), slot: slot)
        instances[ii].lane = Int16(lane)
        instances[ii].tierIndex = batches.lanes[Int(lane)].append(
            owner: Int32(ii), timing: timing, from: from, to: to, slot: slot, curve: curve,
            removedOnCompletion: removedOnCompletion, fromPresentation: fromPresentation)
    }

    /// The last step of every add: the instance enters `barrier` and the
    /// barriers of the open transactions.
    func joinBarriers(_ ii: Int, _ barrier: Handle?) {
        if let barrier { join(ii, barrier) }
        // No thread has a transaction open (the usual case): no list to build.
        guard !transactionStacks.isEmpty else { return }
        for t in openTransactions where transactions.isLive(t.index) { join(ii, transactions[t.index].barrier) }
    }

    private func join(_ ii: Int, _ b: Handle) {
        barriers[b.index].count += 1
        let m = Membership(barrier: b, next: instances[ii].membership)
        if let f = freeMemberships.popLast() { memberships[Int(f)] = m; instances[ii].membership = f }
        else { memberships.append(m); instances[ii].membership = Int32(memberships.count - 1) }
    }

    /// The batch form of an animation, if it qualifies: a basic, non-additive,
    /// non-cumulative animation of one plain scalar component with both ends
    /// given, on a layer that runs on the runtime's time.
    private func batchForm(_ r: ResolvedAnimation, layer li: Int) -> (property: Int32, from: Double, to: Double, slot: Int32, curve: Int32)? {
        guard !r.additive, !r.cumulative, let kp = r.keyPath, let component = kp.componentIndex,
              case .basic(let f, let t, let b) = r.body, hasIdentityTime(li) else { return nil }
        let ends: (Double, Double)
        switch (f, t, b) {
        case (let f?, let t?, _): ends = (f.scalar, t.scalar)
        case (let f?, nil, let b?): ends = (f.scalar, f.scalar + b.scalar)
        case (nil, let t?, let b?): ends = (t.scalar - b.scalar, t.scalar)
        default: return nil
        }
        let base = valueSlot(layer: li, property: kp.property, create: true)!
        let curve = curves.retain(r.curve ?? .linear)
        return (kp.property, ends.0, ends.1, base + Int32(component), curve)
    }

    private func addGeneral(_ ii: Int, _ r: ResolvedAnimation) {
        instances[ii].lane = -1
        instances[ii].tierIndex = Int32(general.count)
        general.append(GeneralRecord(instance: Int32(ii), animation: r))
        let li = Int(instances[ii].layer)
        if layers[li].generalCount == 0 {
            layers[li].generalListIndex = Int32(generalLayers.count)
            generalLayers.append(Int32(li))
        }
        layers[li].generalCount += 1
        for p in r.targets { _ = valueSlot(layer: li, property: p, create: true) }
    }

    /// Moves batch entries of `property` on layer `li` to the general path,
    /// so that several animations of one property compose in order.
    func demoteProperty(layer li: Int, property: Int32, except: Int) {
        for c in instanceList(li) where Int(c) != except {
            let inst = instances[Int(c)]
            if inst.inBatch && inst.property == property { demote(Int(c)) }
        }
    }

    /// Moves every batch entry in the subtree of `li` to the general path
    /// (their layer time is no longer the runtime's). Iterative: a tree is
    /// as deep as the host makes it.
    func demoteSubtree(_ li: Int) {
        var pending = [Int32(li)]
        while let l = pending.popLast() {
            for c in instanceList(Int(l)) where instances[Int(c)].inBatch { demote(Int(c)) }
            pending += layers[Int(l)].children
        }
    }

    /// After an animation of `property` on layer `li` went away: if one
    /// animation is left on the property and it qualifies, it goes back to
    /// the batch. A property animated twice for a moment (an animation
    /// retriggered before the last one ended) is then evaluated on the
    /// general path only while both are there, not for the rest of the
    /// survivor's life. It keeps its lifecycle state (no second started
    /// event), and one that has ended and is still past its end goes to the
    /// frozen store.
    func promoteSurvivor(layer li: Int, property: Int32) {
        var survivor = -1
        var c = layers[li].firstInstance
        while c >= 0 {
            if writes(instance: Int(c), property: property) {
                if survivor >= 0 { return }
                survivor = Int(c)
            }
            c = instances[Int(c)].next
        }
        guard survivor >= 0, !instances[survivor].inBatch, instances[survivor].property == property else { return }
        let r = general[Int(instances[survivor].tierIndex)].animation
        guard let entry = batchForm(r, layer: li) else { return }
        removeFromGeneral(survivor)
        appendToBatch(survivor, timing: r.timing, from: entry.from, to: entry.to, slot: entry.slot, curve: entry.curve,
                      removedOnCompletion: r.removedOnCompletion, fromPresentation: r.startsFromPresentation)
        batches.lanes[Int(instances[survivor].lane)].state[Int(instances[survivor].tierIndex)] = instances[survivor].state.rawValue
        // Frozen only if it is past its end now: it may have ended in an
        // earlier time of its layer (a speed or offset since reset) and be
        // back inside its interval, where the kernel must evaluate it per tick.
        if instances[survivor].state == .ended, !instances[survivor].pendingBegin,
           r.timing.sampleAndState(at: now()).1 == .ended { freeze(survivor) }
    }

    /// Moves a batch entry to the general path.
    func demote(_ ii: Int) {
        let r = batchEntryAnimation(ii)
        removeFromBatch(ii)
        addGeneral(ii, r)
    }

    /// The full resolved form of a batch entry, rebuilt from its columns.
    func batchEntryAnimation(_ ii: Int) -> ResolvedAnimation {
        let k = Int(instances[ii].tierIndex)
        let batch = batches.lanes[Int(instances[ii].lane)]
        let property = instances[ii].property
        let base = valueSlot(layer: Int(instances[ii].layer), property: property, create: true)!
        let kp = KeyPath.component(Int(batch.slot[k] - base), of: property, properties.info(property))
        let flags = batch.flags[k]
        let r = ResolvedAnimation(keyPath: kp, timing: batch.timing(k), curve: curves.functions[Int(batch.curve[k])],
                                  removedOnCompletion: flags & BatchStorage.removedOnCompletion != 0,
                                  additive: false, cumulative: false,
                                  startsFromPresentation: flags & BatchStorage.fromPresentation != 0,
                                  body: .basic(from: .scalar(batch.from[k]), to: .scalar(batch.to[k]), by: nil))
        // Its from stands for the value captured when it was added (as
        // `attachmentState` reads a batch entry): moved to the general path,
        // it keeps it, so a snapshot still carries it and an animation from
        // the presentation, restored, starts from there again.
        r.captured = .scalar(batch.from[k])
        return r
    }

    /// The resolved form of attached animation `ii`, wherever it is evaluated.
    func resolvedAnimation(ofInstance ii: Int) -> ResolvedAnimation {
        instances[ii].inBatch ? batchEntryAnimation(ii) : general[Int(instances[ii].tierIndex)].animation
    }

    private func removeFromBatch(_ ii: Int) {
        let k = Int(instances[ii].tierIndex)
        let moved = batches.withLane(Int(instances[ii].lane)) { lane in
            curves.release(lane.curve[k])
            return lane.remove(at: k)
        }
        if let moved { instances[Int(moved)].tierIndex = Int32(k) }
        instances[ii].lane = -1
        instances[ii].tierIndex = -1
    }

    private func removeFromGeneral(_ ii: Int) {
        let k = Int(instances[ii].tierIndex)
        let last = general.count - 1
        if k != last {
            general[k] = general[last]
            instances[Int(general[k].instance)].tierIndex = Int32(k)
        }
        general.removeLast()
        instances[ii].tierIndex = -1
        let li = Int(instances[ii].layer)
        layers[li].generalCount -= 1
        if layers[li].generalCount == 0 {
            let pos = Int(layers[li].generalListIndex)
            let lastLayer = generalLayers.count - 1
            if pos != lastLayer {
                generalLayers[pos] = generalLayers[lastLayer]
                layers[Int(generalLayers[pos])].generalListIndex = Int32(pos)
            }
            generalLayers.removeLast()
            layers[li].generalListIndex = -1
        }
    }

    /// Stops instance `ii` (if it has not stopped yet: a stop event with
    /// `reason`, and it leaves its barriers), then detaches it.
    func stop(instance ii: Int, reason: StopReason) {
        reportStop(instance: ii, reason: reason)
        detach(ii)
    }

    /// What stopping reports, without detaching: unless instance `ii` has
    /// stopped already, it ends, its stop event is queued and it leaves its
    /// barriers.
    func reportStop(instance ii: Int, reason: StopReason) {
        guard instances[ii].state != .ended else { return }
        instances[ii].state = .ended
        emitStopped(ii, reason)
        leaveBarriers(ii)
    }

    func emitStopped(_ ii: Int, _ reason: StopReason) {
        emit(EventRecord(lifecycle: .animationStopped, time: now(), layer: layers.handle(at: Int(instances[ii].layer)),
                         object: instances.handle(at: ii), animation: Handle(raw: instances[ii].definition), reason: reason))
    }

    func leaveBarriers(_ ii: Int) {
        var m = instances[ii].membership
        instances[ii].membership = -1
        while m >= 0 {
            let b = memberships[Int(m)].barrier
            let next = memberships[Int(m)].next
            freeMemberships.append(m)
            if barriers.isLive(b.index) { leaveOnStop(b) }
            m = next
        }
    }

    /// Queues `h` to be stamped with the next tick's time. Entries of
    /// animations removed before that tick are skipped then; if the host
    /// adds and removes many without ticking, they are swept out here, so
    /// the list stays proportional to the live animations.
    func addPendingBegin(_ h: Handle) {
        if pendingBegins.count >= 2 * instances.count + 64 {
            pendingBegins.removeAll { (try? instances.index(of: $0)) == nil }
        }
        pendingBegins.append(h)
    }

    /// Unlinks and frees an instance; properties nothing animates any more
    /// show their model value from the next tick (`presentationIsModel`:
    /// they already do, nothing to catch up).
    func detach(_ ii: Int, presentationIsModel: Bool = false) {
        let li = Int(instances[ii].layer)
        // One property (no list to build) unless it is a group.
        let property = instances[ii].inBatch || instances[ii].property >= 0 ? instances[ii].property : -1
        let props = property >= 0 ? nil : targets(of: ii)
        let wasInBatch = instances[ii].inBatch
        if wasInBatch { removeFromBatch(ii) } else { removeFromGeneral(ii) }
        // Unlink from the layer's list.
        var prev: Int32 = -1, c = layers[li].firstInstance
        while c >= 0 && Int(c) != ii { prev = c; c = instances[Int(c)].next }
        let next = instances[ii].next
        if prev >= 0 { instances[Int(prev)].next = next } else { layers[li].firstInstance = next }
        if layers[li].lastInstance == Int32(ii) { layers[li].lastInstance = prev }
        // A pending begin stamp names the handle, which goes stale here: the
        // next tick skips it (no search through the list now).
        releaseKey(instances[ii].keyID)
        instances.release(at: ii)
        // A batch entry was the only animation of its property: nothing to promote.
        if !wasInBatch {
            if property >= 0 { promoteSurvivor(layer: li, property: property) }
            for p in props ?? [] { promoteSurvivor(layer: li, property: p) }
        }
        if property >= 0 && !presentationIsModel { markStale(layer: Int32(li), property: property) }
        if let props { for p in props { markStale(layer: Int32(li), property: p) } }
    }

    /// Removes the animation under `key`; it stops with `.removed` unless it
    /// had already finished. Returns whether there was one.
    @discardableResult
    public func removeAnimation(forKey key: String, from layer: Handle) throws(AnimrtError) -> Bool {
        let li = try layers.index(of: layer)
        guard let kid = keyIDs[key] else { return false }
        for c in instanceList(li) where instances[Int(c)].keyID == kid {
            stop(instance: Int(c), reason: .removed)
            if !inTick { runDeferred() }
            return true
        }
        return false
    }

    /// Removes every animation of `layer` (each stops with `.removed`).
    public func removeAllAnimations(from layer: Handle) throws(AnimrtError) {
        let li = try layers.index(of: layer)
        for c in instanceList(li) { stop(instance: Int(c), reason: .removed) }
        if !inTick { runDeferred() }
    }

    /// Removes one attached animation by its handle.
    public func removeInstance(_ h: Handle) throws(AnimrtError) {
        stop(instance: try instances.index(of: h), reason: .removed)
        if !inTick { runDeferred() }
    }

    /// The keys of the layer's animations in the order they apply.
    public func animationKeys(of layer: Handle) throws(AnimrtError) -> [String] {
        instanceList(try layers.index(of: layer)).compactMap { let k = instances[Int($0)].keyID; return k == 0 ? nil : keyNames[Int(k)] }
    }

    /// The attached animation under `key`, if any.
    public func instance(forKey key: String, of layer: Handle) throws(AnimrtError) -> Handle? {
        let li = try layers.index(of: layer)
        guard let kid = keyIDs[key] else { return nil }
        return instanceList(li).first { instances[Int($0)].keyID == kid }.map { instances.handle(at: Int($0)) }
    }

    /// How many animations are attached across all layers, and how many of
    /// them the batch evaluates.
    public var attachedCounts: (total: Int, batched: Int) { (instances.count, batches.count) }
}
