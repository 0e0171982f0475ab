extension Runtime {
    // MARK: Layers

    /// Creates a layer, optionally as the last child of `parent`.
    public func createLayer(parent: Handle? = nil) throws(AnimrtError) -> Handle {
        let p = try parent.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        let h = try layers.insert(LayerRecord())
        if let p { layers[h.index].parent = Int32(p); layers[p].children.append(Int32(h.index)) }
        markUnshown(h.index)
        return h
    }

    /// Creates `out.count` layers, each the last child of `parent`; their
    /// handles go to `out`. On error none is created.
    public func createLayers(parent: Handle?, into out: UnsafeMutableBufferPointer<Handle>) throws(AnimrtError) {
        let p = try parent.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        guard layers.hasRoom(for: out.count) else { throw layers.fullError }
        layers.reserve(out.count)
        if let p { layers[p].children.reserveCapacity(layers[p].children.count + out.count) }
        for k in 0..<out.count {
            let h = try layers.insert(LayerRecord())
            if let p { layers[h.index].parent = Int32(p); layers[p].children.append(Int32(h.index)) }
            markUnshown(h.index)
            out[k] = h
        }
    }

    /// Notes that no tick has shown layer `i` yet: until the next tick its
    /// presentation follows its model (`setModelValue`).
    @inline(__always)
    func markUnshown(_ i: Int) {
        let w = i >> 6
        if w >= unshownLayerBits.count {
            unshownLayerBits.append(contentsOf: repeatElement(0, count: max(w + 1 - unshownLayerBits.count, unshownLayerBits.count / 4)))
        }
        unshownLayerBits[w] |= 1 << UInt64(i & 63)
        unshownLayers.append(Int32(i))
    }

    /// Whether layer `i` was created since the last tick, which has not shown it.
    @inline(__always)
    func isUnshown(_ i: Int) -> Bool {
        let w = i >> 6
        return w < unshownLayerBits.count && unshownLayerBits[w] & (1 << UInt64(i & 63)) != 0
    }

    /// Counts layer `i` as shown (its presentation was restored).
    func markShown(_ i: Int) {
        let w = i >> 6
        if w < unshownLayerBits.count { unshownLayerBits[w] &= ~(1 << UInt64(i & 63)) }
    }

    /// At a tick, every layer created before it is shown from then on.
    func markLayersShown() {
        guard !unshownLayers.isEmpty else { return }
        for i in unshownLayers { unshownLayerBits[Int(i) >> 6] &= ~(1 << UInt64(i & 63)) }
        unshownLayers.removeAll(keepingCapacity: unshownLayers.count <= 4096)
    }

    /// Destroys a layer: its animations stop (`.layerDestroyed`), its
    /// children become roots, its handle becomes stale. A layer that has an
    /// owner (`own(_:by:)`) is refused with `.state` and the owner's words,
    /// unchanged: only its owner destroys it (`destroyLayer(_:by:)`).
    public func destroyLayer(_ h: Handle) throws(AnimrtError) {
        try destroyLayer(h, by: nil)
    }

    /// Destroys a layer as `owner`, who may destroy the layers it owns (and
    /// any other, as the host may).
    package func destroyLayer(_ h: Handle, by owner: (any LayerOwner)?) throws(AnimrtError) {
        let i = try layers.index(of: h)
        if !layerOwners.isEmpty, let mark = layerOwners[Int32(i)] {
            if let o = mark.owner, o !== owner { throw AnimrtError(.state, message: o.refusal(toDestroy: h)) }
            layerOwners[Int32(i)] = nil
            layerRanks[i] = -1
        }
        while layers[i].firstInstance >= 0 { stop(instance: Int(layers[i].firstInstance), reason: .layerDestroyed) }
        for c in layers[i].children { layers[Int(c)].parent = -1; retimedLayers.insert(c) }
        detachFromParent(i)
        for p in layers[i].props.all { releaseValueSlot(p.offset, count: properties.info(p.property).kind.componentCount) }
        setLayerTiming(i, nil)
        layers.release(at: i)
        layerEpoch &+= 1
        if !inTick { runDeferred() }
    }

    /// Gives `layer` an owner: from now on only the owner destroys it
    /// (`destroyLayer(_:by:)`); the host's destroy is refused in the owner's
    /// words. The mark goes with the layer. `rank` is the layer's place among
    /// the owner's layers, which orders their animations' lifecycle events
    /// in a tick (`orderOwnedTransitions`): an owner made again (a restored
    /// machine) ranks its layers as before, and so reports the same order.
    package func own(_ layer: Handle, by owner: any LayerOwner, rank: Int32) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        layerOwners[Int32(i)] = WeakLayerOwner(owner: owner)
        if i >= layerRanks.count { layerRanks.append(contentsOf: repeatElement(-1, count: max(i + 1 - layerRanks.count, layerRanks.count / 4))) }
        layerRanks[i] = rank
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
                if a == Int32(i) {
                    throw AnimrtError(.invalidArgument, a == p ? "\(layer) cannot be its own parent"
                                                               : "\(parent) is inside \(layer); a layer cannot be its own ancestor")
                }
                a = layers[Int(a)].parent
            }
        }
        detachFromParent(i)
        retimedLayers.insert(Int32(i))
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

    /// Sets a layer's time transform (beginTime, speed, timeOffset), which
    /// applies to its animations and to every descendant; its other media
    /// timing is kept.
    public func setTiming(_ timing: LayerTiming, of layer: Handle) throws(AnimrtError) {
        var t = layerTiming(try layers.index(of: layer)) ?? MediaTiming()
        t.beginTime = timing.beginTime; t.speed = timing.speed; t.timeOffset = timing.timeOffset
        do throws(AnimrtError) { try t.validate() }
        catch { throw AnimrtError(error.status, "layer \(error.message)") }
        try setMediaTiming(t, of: layer)
    }

    /// The layer's beginTime, speed and timeOffset.
    public func timing(of layer: Handle) throws(AnimrtError) -> LayerTiming {
        let t = try mediaTiming(of: layer)
        return LayerTiming(beginTime: t.beginTime, speed: t.speed, timeOffset: t.timeOffset)
    }

    /// Checks a layer's media timing as every layer timing setter does, in
    /// a layer's words: a duration below 0 (a layer's 0 is unbounded), then
    /// what `MediaTiming.validate` refuses.
    public static func checkLayerTiming(_ timing: MediaTiming) throws(AnimrtError) {
        if timing.duration < 0 && timing.duration.isFinite {
            throw AnimrtError(.outOfRange, "layer duration is \(timing.duration); it must be 0 (unbounded, the default) or more")
        }
        do throws(AnimrtError) { try timing.validate() }
        catch { throw AnimrtError(error.status, "layer \(error.message)") }
    }

    /// Sets the layer's full media timing (CALayer adopts CAMediaTiming; see
    /// `MediaTiming+Layer`). Checked by `checkLayerTiming`; nothing changes
    /// on error.
    public func setMediaTiming(_ timing: MediaTiming, of layer: Handle) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        try Self.checkLayerTiming(timing)
        setLayerTiming(i, timing == MediaTiming() ? nil : timing)
        retimedLayers.insert(Int32(i))
        if !timing.isLayerIdentity { demoteSubtree(i) }
    }

    /// The layer's full media timing.
    public func mediaTiming(of layer: Handle) throws(AnimrtError) -> MediaTiming {
        layerTiming(try layers.index(of: layer)) ?? MediaTiming()
    }

    /// Changes the layer's media timing; kept only if `body` does not throw
    /// and the result is valid.
    public func updateMediaTiming(of layer: Handle, _ body: (inout MediaTiming) throws(AnimrtError) -> Void) throws(AnimrtError) {
        var t = try mediaTiming(of: layer)
        try body(&t)
        try setMediaTiming(t, of: layer)
    }

    /// The media timing of layer slot `i`; nil is the default.
    @inline(__always)
    func layerTiming(_ i: Int) -> MediaTiming? {
        let t = layers[i].timingIndex
        return t < 0 ? nil : layerTimings[Int(t)]
    }

    func setLayerTiming(_ i: Int, _ timing: MediaTiming?) {
        let t = layers[i].timingIndex
        switch (t >= 0, timing) {
        case (true, let timing?): layerTimings[Int(t)] = timing
        case (true, nil): freeLayerTimings.append(t); layers[i].timingIndex = -1
        case (false, let timing?):
            if let f = freeLayerTimings.popLast() { layerTimings[Int(f)] = timing; layers[i].timingIndex = f }
            else { layers[i].timingIndex = Int32(layerTimings.count); layerTimings.append(timing) }
        case (false, nil): break
        }
    }

    /// Whether `i` and all its ancestors show their parent's time unchanged.
    func hasIdentityTime(_ i: Int) -> Bool {
        var a = Int32(i)
        while a >= 0 {
            let t = layers[Int(a)].timingIndex
            if t >= 0 && !layerTimings[Int(t)].isLayerIdentity { return false }
            a = layers[Int(a)].parent
        }
        return true
    }

    /// The time layer `i` shows its animations at runtime time `t` (its
    /// ancestors' timing applied from the root down), or nil when it is
    /// unresolved (a timed layer on the way is outside its active interval).
    func localTime(of i: Int, at t: Double) -> Double? {
        localTimeAndEdge(of: i, at: t)?.time
    }

    /// `localTime(of:at:)` with the end of an iteration where a timed layer
    /// on the way holds layer `i`'s animations (`MediaTiming.layerChildTime(_:heldAt:)`).
    func localTimeAndEdge(of i: Int, at t: Double) -> (time: Double, edge: IterationEdge?)? {
        if hasIdentityTime(i) { return (t, nil) }
        var chain: [Int32] = []
        var a = Int32(i)
        while a >= 0 { chain.append(a); a = layers[Int(a)].parent }
        var time = t
        var edge: IterationEdge? = nil
        for l in chain.reversed() {
            guard let timing = layerTiming(Int(l)) else { continue }
            guard let c = timing.layerChildTime(time, heldAt: edge) else { return nil }
            time = presentable(c.time, fallback: 0)  // extreme timings saturate
            edge = c.edge
        }
        return (time, edge)
    }

    /// The latest time layer `i` showed its animations while the runtime's
    /// time went from `t0` to `t1` (limits a timed layer runs into count:
    /// see `MediaTiming.layerChildTimePieces`), or nil when it is unresolved
    /// all along or not known exactly: a layer on the way whose timing or
    /// parent changed since the last tick, or a chain whose times split into
    /// more than `timeRangeLimit` ranges.
    ///
    /// The times a timed layer shows are not one interval (it wraps and
    /// turns), so they are followed down the chain as the ranges each
    /// layer went through whole: a timed layer below another maps each of
    /// its parent's ranges on its own, and never sees the times its parent
    /// skipped.
    func latestLocalTime(of i: Int, from t0: Double, to t1: Double) -> Double? {
        var chain: [Int32] = []
        var a = Int32(i)
        while a >= 0 {
            if retimedLayers.contains(a) { return nil }
            chain.append(a); a = layers[Int(a)].parent
        }
        var ranges: [(lower: Double, upper: Double)] = [(min(t0, t1), max(t0, t1))]
        for l in chain.reversed() {
            guard let timing = layerTiming(Int(l)) else { continue }
            if timing.isUnbounded {
                // Linear: the ends map to the ends (swapped by a negative speed).
                for k in ranges.indices {
                    let x = timing.layerLocalTime(ranges[k].lower), y = timing.layerLocalTime(ranges[k].upper)
                    ranges[k] = (presentable(min(x, y), fallback: 0), presentable(max(x, y), fallback: 0))
                }
            } else {
                ranges = Runtime.merged(ranges.flatMap { timing.layerChildTimePieces(between: $0.lower, and: $0.upper) })
                if ranges.isEmpty || ranges.count > timeRangeLimit { return nil }
            }
        }
        return ranges.map(\.upper).max()
    }

    /// `ranges` sorted, those that overlap or touch made one: the same
    /// times, in as few ranges as they allow (a chain of timed layers keeps
    /// a handful, not a product of every layer's pieces).
    static func merged(_ ranges: [(lower: Double, upper: Double)]) -> [(lower: Double, upper: Double)] {
        var out: [(lower: Double, upper: Double)] = []
        for r in ranges.sorted(by: { $0.lower < $1.lower }) {
            if let last = out.last, r.lower <= last.upper { out[out.count - 1].upper = max(last.upper, r.upper) }
            else { out.append(r) }
        }
        return out
    }

    /// The time layer `layer` shows its animations at the runtime's time, or
    /// nil when it is unresolved.
    public func localTime(of layer: Handle) throws(AnimrtError) -> Double? {
        localTime(of: try layers.index(of: layer), at: now())
    }

    /// Core Animation's `convertTime(_:from:)` / `convertTime(_:to:)`: `time`
    /// in `from`'s local time (nil: the runtime's time) as `to`'s local time
    /// (nil: the runtime's time). A layer's local time is CAMediaTiming's
    /// `(parentTime − beginTime) × speed + timeOffset`, the time its
    /// `timeOffset` is expressed in, so that the pause idiom
    /// (`timeOffset = convertTime(now, from: nil)`, speed 0) holds the frame.
    /// Converting out of a paused layer (speed 0), or through a timed
    /// ancestor that holds a fill or is unresolved now, has no answer:
    /// `.state`. A timed ancestor is inverted within its current iteration.
    public func convertTime(_ time: Double, from: Handle?, to: Handle?) throws(AnimrtError) -> Double {
        try requireFinite(time, "the time to convert")
        let fi = try from.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        let ti = try to.map { (h: Handle) throws(AnimrtError) in try layers.index(of: h) }
        var root = time
        if let fi { root = try runtimeTime(forLocal: time, of: fi) }
        var result = root
        if let ti {
            let p = layers[ti].parent
            guard let parentTime = p >= 0 ? localTime(of: Int(p), at: root) : root else {
                throw AnimrtError(.state, "\(layers.handle(at: ti))'s parent time is unresolved at \(root): a timed ancestor is outside its active interval")
            }
            result = layerTiming(ti)?.layerLocalTime(parentTime) ?? parentTime
        }
        guard result.isFinite else {
            throw AnimrtError(.outOfRange, "\(time) converts to \(result), which is not a finite time")
        }
        return result
    }

    /// The runtime time at which layer `i`'s local time is `local`.
    private func runtimeTime(forLocal local: Double, of i: Int) throws(AnimrtError) -> Double {
        var time = local
        if let t = layerTiming(i) {
            guard let p = t.layerParentTime(forLocal: time) else {
                throw AnimrtError(.state, "\(layers.handle(at: i)) is paused (speed 0): every time outside it shows as the same local time")
            }
            time = p
        }
        var a = layers[i].parent
        while a >= 0 {
            let ai = Int(a)
            if let t = layerTiming(ai), !t.isLayerIdentity {
                if t.isUnbounded {
                    guard let p = t.layerParentTime(forLocal: time) else {
                        throw AnimrtError(.state, "\(layers.handle(at: ai)) is paused (speed 0): its sublayers' time does not depend on its parent's")
                    }
                    time = p
                } else {
                    // A timed ancestor's iteration time repeats: invert it
                    // within the iteration it is in now.
                    let gp = layers[ai].parent
                    guard let parentNow = gp >= 0 ? localTime(of: Int(gp), at: now()) : now(),
                          let childNow = t.layerChildTime(parentNow) else {
                        throw AnimrtError(.state, "\(layers.handle(at: ai))'s time is unresolved now, so times inside it cannot be converted out")
                    }
                    let rate = t.layerChildRate(parentNow)
                    guard rate != 0 else {
                        throw AnimrtError(.state, "\(layers.handle(at: ai)) is paused or holds a fill now, so times inside it cannot be converted out")
                    }
                    time = parentNow + (time - childNow) / rate
                }
            }
            a = layers[ai].parent
        }
        return time
    }
}

/// What owns layers it made through the runtime's public vocabulary (a
/// machine, its parts) and must outlive them: the host may read, animate
/// and move such a layer, but destroying it would leave the owner holding a
/// stale handle, so only the owner destroys it. The core knows nothing of
/// the owner but what it says when it refuses the host.
package protocol LayerOwner: AnyObject {
    /// Why the host may not destroy `layer`: what owns it, what the layer is
    /// to it, and what to destroy instead.
    func refusal(toDestroy layer: Handle) -> String
}

/// A layer's owner, held weakly (an owner never kept alive by its layers).
struct WeakLayerOwner {
    weak var owner: (any LayerOwner)?
}
