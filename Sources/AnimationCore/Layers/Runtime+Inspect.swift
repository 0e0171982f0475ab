extension Runtime {
    // MARK: Reading attached animations back

    /// The attached animation `h` (the handle `add` returned) as a
    /// description: what Core Animation's `animation(forKey:)` returns. Its
    /// beginTime is the stamped one (0 until the next tick stamps it), its
    /// duration the defaulted one. A batch entry with both ends reads back
    /// as from and to (a by value as the equivalent to).
    public func attachedAnimation(_ h: Handle) throws(AnimrtError) -> Animation {
        resolvedAnimation(ofInstance: try instances.index(of: h)).readback
    }

    /// A description handle's animation, or an attached animation's copy.
    public func animationOrAttached(_ h: Handle) throws(AnimrtError) -> Animation {
        h.kindBits == HandleKind.instance.rawValue ? try attachedAnimation(h) : try animation(h)
    }

    /// The layer an attached animation is on.
    public func layer(ofAttached h: Handle) throws(AnimrtError) -> Handle {
        layers.handle(at: Int(instances[try instances.index(of: h)].layer))
    }

    /// Where attached animation `h` is in its lifecycle as of the last
    /// tick: which of its started and finished events were sent.
    public func lifecycle(of h: Handle) throws(AnimrtError) -> LifeState {
        instances[try instances.index(of: h)].state
    }

    /// Web Animations' computed timing of attached animation `h` at the
    /// runtime's time (the last tick), in its layer's time.
    public func computedTiming(of h: Handle) throws(AnimrtError) -> ComputedTiming {
        let ii = try instances.index(of: h)
        let r = resolvedAnimation(ofInstance: ii)
        let t = r.timing, model = t.model
        var c = ComputedTiming(activeDuration: model.activeDuration, endTime: model.endTime)
        guard !instances[ii].pendingBegin, let (parent, edge) = localTimeAndEdge(of: Int(instances[ii].layer), at: now()) else { return c }
        let s = t.sample(at: parent, heldAt: edge)
        c.phase = s.phase
        c.localTime = t.localTime(at: parent, model: model)
        c.activeTime = s.activeTime
        c.currentIteration = s.currentIteration
        c.progress = s.directedProgress.map { p in r.easing?.evaluate(p, beforeFlag: s.beforeFlag) ?? p }
        return c
    }
}
