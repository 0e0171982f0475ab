extension Runtime {
    // MARK: Reading and restoring what a snapshot carries

    /// How an attached animation stands beyond its description: what a
    /// snapshot carries so that a restored copy continues to the bit.
    public struct AttachmentState: Sendable, Equatable {
        /// Where it is in its lifecycle (started and stopped are reported once).
        public enum Phase: UInt8, Sendable { case waiting = 0, running, ended }
        /// The stamped begin time, in its layer's time; nil until the tick
        /// that stamps it ("begin at the next tick").
        public var beginTime: Double?
        /// The duration it runs with (a zero duration resolved to the
        /// default or the transaction's).
        public var duration: Double
        /// The presentation value of its key path when it was added.
        public var captured: AnimatableValue?
        /// A group's: what each of its animations took when it was added
        /// (`captured` of each, depth first, groups in it left out); nil
        /// for an animation that is not a group.
        public var capturedChildren: [AnimatableValue?]?
        public var phase: Phase
        /// Whether a tick has evaluated it with its begin time: from the next
        /// tick on, its lifecycle counts every time its layer passed through
        /// since the last one (see `Runtime.latestLocalTime`).
        public var evaluated: Bool

        public init(beginTime: Double?, duration: Double, captured: AnimatableValue?, phase: Phase, evaluated: Bool = true,
                    capturedChildren: [AnimatableValue?]? = nil) {
            self.beginTime = beginTime; self.duration = duration; self.captured = captured; self.phase = phase
            self.evaluated = evaluated; self.capturedChildren = capturedChildren
        }

        /// A phase its begin time rules out (a snapshot's, edited): one with
        /// no begin time yet is stamped at the next tick, and no tick has
        /// evaluated it, so it has neither started nor ended. Restored so,
        /// its started or stopped would never be reported, and it would run
        /// from a begin time it was never given.
        public static func check(phase: Phase, beginTime: Double?) throws(AnimrtError) {
            guard beginTime == nil, phase != .waiting else { return }
            throw AnimrtError(.invalidArgument, "its phase is \(phase.rawValue) (\(phase == .running ? "running" : "ended")) but it has no begin time: "
                + "one that begins at the next tick has not started, so its phase is 0 (waiting)")
        }
    }

    /// Checks `animation` as `add` would, attaching nothing; its resolved
    /// key path (nil for a group), for `check(captured:for:)`.
    @discardableResult
    public func validate(_ animation: Animation) throws(AnimrtError) -> KeyPath? {
        try ResolvedAnimation.resolve(animation, properties: &properties, defaultDuration: MediaTiming.defaultDuration).keyPath
    }

    /// A captured value (a snapshot's, restored) of another kind than its
    /// key path's would be written as one: past the property's slots, or
    /// short of them. Refused as a value of the wrong kind is anywhere.
    public static func check(captured: AnimatableValue?, for keyPath: KeyPath?) throws(AnimrtError) {
        guard let captured, let keyPath, captured.kind != keyPath.kind else { return }
        throw AnimrtError(.kind, "the captured value is a \(captured.kind.name) but '\(keyPath.name)' takes a \(keyPath.kind.name)")
    }

    /// The captured values of a group's animations (a snapshot's, restored)
    /// must be one for each of them, each of its key path's kind.
    static func check(capturedChildren: [AnimatableValue?], for group: ResolvedAnimation) throws(AnimrtError) {
        let takers = group.startTakers
        guard group.keyPath == nil, capturedChildren.count == takers.count else {
            throw AnimrtError(.invalidArgument, "\(capturedChildren.count) captured values are given for \(group.keyPath == nil ? "a group of \(takers.count) animations" : "an animation that is not a group")")
        }
        for (k, (c, a)) in zip(capturedChildren, takers).enumerated() {
            do throws(AnimrtError) { try check(captured: c, for: a.keyPath) }
            catch { throw error.prefixed("group animation \(k): ") }
        }
    }

    /// Checks the captured values of a group's animations (a snapshot's)
    /// against `animation` as `add` would, attaching nothing.
    public func validate(_ animation: Animation, capturedChildren: [AnimatableValue?]) throws(AnimrtError) {
        let resolved = try ResolvedAnimation.resolve(animation, properties: &properties, defaultDuration: MediaTiming.defaultDuration)
        try Runtime.check(capturedChildren: capturedChildren, for: resolved)
    }

    /// Whether `h` names an attached animation that is still attached.
    public func isAttached(_ h: Handle) -> Bool { (try? instances.index(of: h)) != nil }

    /// The state of attached animation `h` (the handle `add` returned).
    public func attachmentState(_ h: Handle) throws(AnimrtError) -> AttachmentState {
        let ii = try instances.index(of: h)
        let phase = AttachmentState.Phase(rawValue: instances[ii].state.rawValue) ?? .waiting
        let k = Int(instances[ii].tierIndex)
        if instances[ii].inBatch {
            let lane = batches.lanes[Int(instances[ii].lane)]
            let timing = lane.timing(k)
            // A batch entry has both ends; its from is what a rebase from the
            // presentation value made it, so it stands for the captured value.
            return AttachmentState(beginTime: instances[ii].pendingBegin ? nil : timing.beginTime, duration: timing.duration,
                                   captured: .scalar(lane.from[k]), phase: phase)
        }
        let r = general[k].animation
        return AttachmentState(beginTime: instances[ii].pendingBegin ? nil : r.timing.beginTime, duration: r.timing.duration,
                               captured: r.captured, phase: phase, evaluated: general[k].evaluated,
                               capturedChildren: r.keyPath == nil ? r.startTakers.map(\.captured) : nil)
    }

    func setPhase(_ phase: AttachmentState.Phase, of ii: Int) {
        let state = LifeState(rawValue: phase.rawValue) ?? .waiting
        instances[ii].state = state
        if instances[ii].inBatch { batches.lanes[Int(instances[ii].lane)].state[Int(instances[ii].tierIndex)] = state.rawValue }
    }

    /// Every materialised property of `layer`: its name, model and presentation values.
    public func layerValues(_ layer: Handle) throws(AnimrtError) -> [(property: String, model: AnimatableValue, presentation: AnimatableValue)] {
        let i = try layers.index(of: layer)
        return layers[i].props.all.map { p in
            (properties.info(p.property).name, wholeValue(model, layer: i, property: p.property),
             wholeValue(presentation, layer: i, property: p.property))
        }
    }

    /// Whether a tick has shown layer `h` since it was created. Until one
    /// has, its presentation follows its model at once when the model is
    /// set (`setModelValue`): a snapshot carries it.
    public func isShown(layer h: Handle) throws(AnimrtError) -> Bool { !isUnshown(try layers.index(of: h)) }

    /// Whether layer `h`'s timing or parent changed since the last tick:
    /// at the next tick its animations' lifecycles follow the time sampled
    /// then, since the times the layer went through in between are not
    /// known (`latestLocalTime`). A snapshot carries it.
    public func isRetimed(layer h: Handle) throws(AnimrtError) -> Bool { retimedLayers.contains(Int32(try layers.index(of: h))) }

    /// Sets a layer's media timing as a snapshot carried it (checked by
    /// `setMediaTiming`). Not a change since the last tick, as a
    /// host's would be: the original's layer had this timing all along,
    /// so the next tick follows the times the layer goes through as the
    /// original's does, unless `retimed` says the original's timing or
    /// parent had changed since the last tick.
    public func restoreTiming(_ timing: MediaTiming, of layer: Handle, retimed: Bool) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        try setMediaTiming(timing, of: layer)
        if retimed { retimedLayers.insert(Int32(i)) } else { retimedLayers.remove(Int32(i)) }
    }

    /// Writes model and presentation values as `layerValues` read them: each
    /// under a property's name (a part such as `position.y` is refused; a
    /// value is written whole), once (a property given twice is refused).
    /// The presentation follows the model again at the next tick where
    /// nothing animates it, as it would have. Checked
    /// first: nothing is written if any value does not fit, in its kind or
    /// in the value pools. `shown` false: the layer had not been shown by a
    /// tick yet, and its presentation follows its model at once until the
    /// next tick, as the original's did.
    public func restoreValues(_ values: [(property: String, model: AnimatableValue, presentation: AnimatableValue)],
                              of layer: Handle, shown: Bool = true) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        var checked: [(Int32, AnimatableValue, AnimatableValue)] = []
        for v in values {
            let kp = try properties.resolve(v.property)
            guard case .whole = kp.access else {
                throw AnimrtError(.invalidArgument, "'\(v.property)' is a part of '\(properties.info(kp.property).name)'; values are restored whole, under a property's name")
            }
            // A layer has one value of each property: written twice, the
            // second would win without a word, whichever was meant.
            guard !checked.contains(where: { $0.0 == kp.property }) else {
                throw AnimrtError(.invalidArgument, "'\(properties.info(kp.property).name)' is given twice; a layer has one value of each property")
            }
            guard v.model.kind == kp.kind, v.presentation.kind == kp.kind else {
                throw AnimrtError(.kind, "'\(v.property)' takes a \(kp.kind.name)")
            }
            for c in v.model.components + v.presentation.components { try requireFinite(c, "a value of '\(v.property)'") }
            checked.append((kp.property, v.model, v.presentation))
        }
        try reserveValues(layer: i, properties: checked.map { $0.0 })
        for (p, m, s) in checked {
            writeWhole(m, toPresentation: false, toModel: true, layer: i, property: p)
            writeWhole(s, toPresentation: true, toModel: false, layer: i, property: p)
            markStale(layer: Int32(i), property: p)
        }
        // Its presentation is the one restored, what was on screen: the
        // layer counts as shown, and a model set before the next tick
        // waits for it, as it would have. One no tick had shown yet stays
        // unshown until the next tick.
        if shown { markShown(i) } else if !isUnshown(i) { markUnshown(i) }
    }
}
