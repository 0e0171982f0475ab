/// A description stored under a handle, with its key path resolved once
/// (properties are only ever added, so the resolution never goes stale).
struct StoredAnimation {
    var animation: Animation
    /// The resolved key path (nil for groups).
    let keyPath: KeyPath?
}

extension Runtime {
    // MARK: Animation descriptions

    /// Stores an animation description under a handle (for hosts that build
    /// animations step by step, as the C ABI does).
    public func createAnimation(_ a: consuming Animation) throws(AnimrtError) -> Handle {
        let kp = try a.keyPath.map { (path: String) throws(AnimrtError) in try properties.resolve(path) }
        return try definitions.insert(StoredAnimation(animation: a, keyPath: kp))
    }

    /// `createAnimation` for a description whose key path the caller has
    /// resolved already (`resolved` is `properties.resolve(a.keyPath!)`).
    public func createAnimation(_ a: consuming Animation, resolved: KeyPath) throws(AnimrtError) -> Handle {
        try definitions.insert(StoredAnimation(animation: a, keyPath: resolved))
    }

    public func animation(_ h: Handle) throws(AnimrtError) -> Animation { definitions[try definitions.index(of: h)].animation }

    /// The value kind of a stored description's key path (`.kind` for a group).
    public func valueKind(ofAnimation h: Handle) throws(AnimrtError) -> ValueKind {
        let i = try describedIndex(h)
        guard let kp = definitions[i].keyPath else { throw AnimrtError(.kind, "a group animation has no key path and no values") }
        return kp.kind
    }

    /// The slot of description `h`; an attached animation's handle is refused
    /// with a message saying why.
    private func describedIndex(_ h: Handle) throws(AnimrtError) -> Int {
        if h.kindBits == HandleKind.instance.rawValue {
            _ = try instances.index(of: h)
            throw AnimrtError(.handle, "\(h) is read-only: it is the copy a layer holds (Core Animation leaves changes to it undefined); change a description and add it again")
        }
        return try definitions.index(of: h)
    }

    /// Changes a stored description in place. `body` must check everything
    /// before it changes anything: when it throws, nothing may have changed
    /// (no half-applied change).
    public func updateAnimation(_ h: Handle, _ body: (inout Animation) throws(AnimrtError) -> Void) throws(AnimrtError) {
        let i = try describedIndex(h)
        try body(&definitions[i].animation)
    }

    /// Sets (nil: clears) the timing function of a stored description in
    /// place (`f` is moved into it).
    public func setTimingFunction(_ f: consuming TimingFunction?, ofAnimation h: Handle) throws(AnimrtError) {
        let i = try describedIndex(h)
        definitions[i].animation.timingFunction = f
    }

    /// Sets one timing parameter of a stored description in place.
    public func setTiming(_ p: TimingParameter, _ v: Double, ofAnimation h: Handle) throws(AnimrtError) {
        let i = try describedIndex(h)
        try MediaTiming.check(p, v)
        definitions[i].animation.timing.assign(p, v)
    }

    /// Sets (nil: clears) one value of a stored description in place.
    public func setValue(_ v: AnimatableValue?, _ slot: ValueSlot, ofAnimation h: Handle) throws(AnimrtError) {
        let i = try describedIndex(h)
        try definitions[i].animation.setValue(v, slot)
    }

    /// Destroys a description. Attached copies keep running.
    public func destroyAnimation(_ h: Handle) throws(AnimrtError) { definitions.release(at: try definitions.index(of: h)) }

    /// Adds the stored description `h` to `layer` (see `add(_:to:forKey:joining:)`).
    @discardableResult
    public func addAnimation(_ h: Handle, to layer: Handle, forKey key: String?, joining barrier: Handle? = nil) throws(AnimrtError) -> Handle {
        let li = try layers.index(of: layer)
        let d = try definitions.index(of: h)
        if let barrier { _ = try hostBarrier(barrier) }
        if let key { try requireNameLength(key, "animation key") }
        if let template = batchTemplate(d), let added = try addBatched(template, template.item, layer: li, key: key, joining: barrier,
                                                                                     definition: h) {
            return added
        }
        return try add(definitions[d].animation, to: layer, forKey: key, joining: barrier, definition: h)
    }
}
