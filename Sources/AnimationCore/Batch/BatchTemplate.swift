/// What a description that goes straight to the batch needs at add time,
/// read once from the stored description: a basic, non-additive,
/// non-cumulative animation of one plain scalar component, with two of
/// from, to and by given (so its ends do not depend on the model).
///
/// Adding through a template skips `ResolvedAnimation` (an object, a copy of
/// the description, a key path resolved again) and gives the same entry,
/// events and values as the general `add`.
struct BatchTemplate {
    var property: Int32
    /// The component of the property the key path names.
    var component: Int32
    var curve: TimingFunction
    var removedOnCompletion: Bool
    var fromPresentation: Bool
    /// What a bulk add may change per animation.
    var item: BatchItem

    var hasBothEnds: Bool { item.hasBothEnds(fromPresentation: fromPresentation) }
}

/// Where a bulk add's entries with simple timing go: decided once (the
/// lane in the family, by where each entry shows).
struct BatchPlan {
    let family: Int
    let curve: Int32
    let flags: UInt8
}

/// The timing and values of one batch entry to add (plain values: a bulk
/// add sets them per animation without copying anything else).
struct BatchItem {
    var timing: MediaTiming
    var from: Double?, to: Double?, by: Double?

    /// The two ends (from, to), given the presentation value of the
    /// component when added (read only when it starts from presentation:
    /// elsewhere the value is a scattered miss a bulk add need not take).
    @inline(__always)
    func ends(captured: @autoclosure () -> Double, fromPresentation: Bool) -> (Double, Double) {
        if fromPresentation {
            // As `ResolvedAnimation.rebase`: the given to, else the given by, from the captured value.
            let c = captured()
            if let to { return (c, to) }
            return (c, c + by!)
        }
        if let from, let to { return (from, to) }
        if let from { return (from, from + by!) }
        return (to! - by!, to!)
    }

    /// Whether the ends are a finite distance apart, as `ResolvedAnimation`
    /// requires (the general add reports the ones that are not).
    var endsAreFinite: Bool {
        switch (from, to, by) {
        case (let f?, let t?, _): (t - f).isFinite
        case (let f?, nil, let b?): (f + b).isFinite
        case (nil, let t?, let b?): (t - b).isFinite
        default: true
        }
    }

    /// Whether two of from, to and by are given, as the batch needs (all
    /// three is an error the general path reports).
    func hasBothEnds(fromPresentation: Bool) -> Bool {
        (from == nil ? 0 : 1) + (to == nil ? 0 : 1) + (by == nil ? 0 : 1) == 2
    }
}

extension Runtime {
    /// The batch template of a stored description, or nil when it does not
    /// go straight to the batch (or is invalid: the general path says why).
    /// With `endsGiven` false, the ends may be missing (a bulk add's
    /// columns give them; the caller checks `hasBothEnds` then).
    func batchTemplate(_ d: Int, endsGiven: Bool = true) -> BatchTemplate? {
        guard let kp = definitions[d].keyPath, let component = kp.componentIndex, kp.kind == .scalar,
              !definitions[d].animation.isAdditive, !definitions[d].animation.isCumulative,
              case .basic(let f, let t, let b) = definitions[d].animation.content else { return nil }
        if let f, f.kind != .scalar { return nil }
        if let t, t.kind != .scalar { return nil }
        if let b, b.kind != .scalar { return nil }
        let timing = definitions[d].animation.timing
        guard timing.isValid else { return nil }
        let template = BatchTemplate(property: kp.property, component: Int32(component),
                                     curve: definitions[d].animation.timingFunction ?? .linear,
                                     removedOnCompletion: definitions[d].animation.isRemovedOnCompletion,
                                     fromPresentation: definitions[d].animation.startsFromPresentation,
                                     item: BatchItem(timing: timing, from: f?.scalar, to: t?.scalar, by: b?.scalar))
        return !endsGiven || template.hasBothEnds ? template : nil
    }

    /// Adds `t` to layer `li` as a batch entry, exactly as `add` would. Nil,
    /// with nothing changed, when the layer does not qualify: its time is
    /// not the runtime's, or another animation (not replaced by this one's
    /// key) writes the same property — the general `add` handles those.
    /// With a `plan` (a bulk add's, for items with simple timing), the
    /// entry goes to the planned lane with the planned flags, and notify
    /// closures wait for the caller.
    func addBatched(_ t: borrowing BatchTemplate, _ item: BatchItem, layer li: Int, key: String?, joining barrier: Handle?,
                    definition: Handle?, plan: BatchPlan? = nil) throws(AnimrtError) -> Handle? {
        guard item.endsAreFinite, hasIdentityTime(li) else { return nil }
        // The checks of the general add: what is refused there is refused by it.
        guard instances.hasRoom, hasRoomForValue(layer: li, property: t.property, components: 1) else { return nil }
        let replacedKey = key.flatMap { keyIDs[$0] } ?? 0
        var c = layers[li].firstInstance
        while c >= 0 {
            let inst = instances[Int(c)]
            if (replacedKey == 0 || inst.keyID != replacedKey) && writes(instance: Int(c), property: t.property) { return nil }
            c = inst.next
        }
        var timing = item.timing
        if timing.duration == 0 && timing.iterationDuration == nil { timing.duration = defaultAnimationDuration }
        let base = valueSlot(layer: li, property: t.property, create: true)!
        let slot = base + t.component
        let (from, to) = item.ends(captured: presentation[Int(slot)], fromPresentation: t.fromPresentation)
        let ii = attachInstance(layer: li, key: key, property: t.property, definition: definition, joining: barrier)
        if timing.beginTime == 0, let stamped = stampTime(ii) { timing.beginTime = stamped }
        if let plan {
            let lane = batches.lane(family: plan.family, slot: slot)
            instances[ii].lane = Int16(lane)
            instances[ii].tierIndex = batches.withLane(lane) {
                $0.append(owner: Int32(ii), begin: timing.beginTime, duration: timing.effectiveDuration,
                          from: from, to: to, slot: slot, curve: curves.retain(id: plan.curve), flags: plan.flags)
            }
        } else {
            appendToBatch(ii, timing: timing, from: from, to: to, slot: slot, curve: curves.retain(t.curve),
                          removedOnCompletion: t.removedOnCompletion, fromPresentation: t.fromPresentation)
        }
        joinBarriers(ii, barrier)
        let h = instances.handle(at: ii)  // before a notification run now can replace it
        if plan == nil && !inTick { runDeferred() }
        return h
    }

    /// Whether attached animation `ii` writes `property` (without building a list).
    func writes(instance ii: Int, property: Int32) -> Bool {
        let inst = instances[ii]
        if inst.inBatch || inst.property >= 0 { return inst.property == property }
        return general[Int(inst.tierIndex)].animation.targets.contains(property)
    }
}
