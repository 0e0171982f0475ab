extension Runtime {
    // MARK: Layers

    /// Creates a layer, optionally as the last child of `parent`.
    public func createLayer(parent: Handle? = nil) throws(AnimrtError) -> Handle {
        let p = try parent.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        let h = try layers.insert(LayerRecord())
        if let p { layers[h.index].parent = Int32(p); layers[p].children.append(Int32(h.index)) }
        return h
    }

    /// Destroys a layer: its animations stop (`.layerDestroyed`), its
    /// children become roots, its handle becomes stale.
    public func destroyLayer(_ h: Handle) throws(AnimrtError) {
        let i = try layers.index(of: h)
        while layers[i].firstInstance >= 0 { stop(instance: Int(layers[i].firstInstance), reason: .layerDestroyed) }
        for c in layers[i].children { layers[Int(c)].parent = -1 }
        detachFromParent(i)
        for p in layers[i].props.all { releaseValueSlot(p.offset, count: properties.info(p.property).kind.componentCount) }
        layers.remove(at: i)
        if !inTick { runDeferred() }
    }

    func detachFromParent(_ i: Int) {
        let p = layers[i].parent
        guard p >= 0 else { return }
        layers[Int(p)].children.removeAll { $0 == Int32(i) }
        layers[i].parent = -1
    }

    /// Moves `layer` under `parent` (nil: makes it a root). A layer cannot
    /// become its own descendant.
    public func setParent(_ layer: Handle, _ parent: Handle?) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        var p: Int32 = -1
        if let parent {
            p = Int32(try layers.index(of: parent))
            var a = p
            while a >= 0 {
                if a == Int32(i) { throw AnimrtError(.invalidArgument, "\(parent) is \(layer) or inside it; a layer cannot be its own ancestor") }
                a = layers[Int(a)].parent
            }
        }
        detachFromParent(i)
        if p >= 0 { layers[i].parent = p; layers[Int(p)].children.append(Int32(i)) }
        if !hasIdentityTime(i) { demoteSubtree(i) }
    }

    /// The parent of `layer`, or nil for a root.
    public func parent(of layer: Handle) throws(AnimrtError) -> Handle? {
        let p = layers[try layers.index(of: layer)].parent
        return p < 0 ? nil : layers.handle(at: Int(p))
    }

    /// The children of `layer` in order.
    public func children(of layer: Handle) throws(AnimrtError) -> [Handle] {
        layers[try layers.index(of: layer)].children.map { layers.handle(at: Int($0)) }
    }

    /// The number of live layers.
    public var layerCount: Int { layers.count }

    /// Sets a layer's own time transform (beginTime, speed, timeOffset),
    /// which applies to its animations and to every descendant.
    public func setTiming(_ timing: LayerTiming, of layer: Handle) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        try requireFinite(timing.beginTime, "layer beginTime")
        try requireFinite(timing.speed, "layer speed")
        try requireFinite(timing.timeOffset, "layer timeOffset")
        layers[i].timing = timing.isIdentity ? nil : timing
        if !timing.isIdentity { demoteSubtree(i) }
    }

    public func timing(of layer: Handle) throws(AnimrtError) -> LayerTiming {
        layers[try layers.index(of: layer)].timing ?? LayerTiming()
    }

    func hasIdentityTime(_ i: Int) -> Bool {
        var a = Int32(i)
        while a >= 0 {
            if layers[Int(a)].timing != nil { return false }
            a = layers[Int(a)].parent
        }
        return true
    }

    /// The layer's local time for runtime time `t` (its ancestors' time
    /// transforms applied from the root down).
    func localTime(of i: Int, at t: Double) -> Double {
        let p = layers[i].parent
        let parentTime = p >= 0 ? localTime(of: Int(p), at: t) : t
        return layers[i].timing?.localTime(parentTime) ?? parentTime
    }

    /// The layer's local time at the runtime's current time.
    public func localTime(of layer: Handle) throws(AnimrtError) -> Double {
        localTime(of: try layers.index(of: layer), at: now())
    }
}
