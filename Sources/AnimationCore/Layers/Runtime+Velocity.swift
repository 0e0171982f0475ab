extension Runtime {
    // MARK: Velocity and retargeting

    /// Layer `i`'s time at runtime time `t` and how fast it runs per second
    /// of runtime time (the product of the layer speeds, negative in
    /// reversed iterations of a timed layer, 0 while paused or filling); nil
    /// when unresolved. `edge`: where a timed layer on the way holds the
    /// layer's animations (`localTimeAndEdge(of:at:)`).
    func localTimeAndRate(of i: Int, at t: Double) -> (time: Double, rate: Double, edge: IterationEdge?)? {
        var chain: [Int32] = []
        var a = Int32(i)
        while a >= 0 { chain.append(a); a = layers[Int(a)].parent }
        var time = t, rate = 1.0
        var edge: IterationEdge? = nil
        for l in chain.reversed() {
            guard let timing = layerTiming(Int(l)), !timing.isLayerIdentity else { continue }
            guard let c = timing.layerChildTime(time, heldAt: edge) else { return nil }
            rate *= timing.layerChildRate(time)
            time = c.time
            edge = c.edge
        }
        return (time, rate, edge)
    }

    /// How fast the value attached animation `h` gives its key path (or,
    /// for a group, `keyPath`) changes at the runtime's time, in units per
    /// second of runtime time: exact through speeds, layer times, timing
    /// functions, springs, decays and keyframes. Zero while the animation is
    /// filling, paused or not in effect. `keyPath`, when given, must be one
    /// the animation animates (a group: one of its children's, composed as
    /// their values are). A step's jump has no finite rate: where a jump is
    /// crossed the rate is 0 on either side.
    public func velocity(of h: Handle, keyPath: String? = nil) throws(AnimrtError) -> AnimatableValue {
        let ii = try instances.index(of: h)
        let r = resolvedAnimation(ofInstance: ii)
        let target: KeyPath
        if let keyPath { target = try properties.resolve(keyPath) }
        else if let own = r.keyPath { target = own }
        else { throw AnimrtError(.invalidArgument, "a group animates several key paths; name the one whose velocity you want") }
        guard r.animates(target.name) else {
            let what = r.keyPath.map { "animation of '\($0.name)'" } ?? "group"
            throw AnimrtError(.notFound, "the \(what) does not animate '\(target.name)'\(Runtime.wholeHint(for: target, in: r))")
        }
        let zero = AnimatableValue(kind: target.kind, lanes: SIMD16())
        let li = Int(instances[ii].layer)
        guard !instances[ii].pendingBegin, let (time, rate, edge) = localTimeAndRate(of: li, at: now()) else { return zero }
        if instances[ii].state == .ended && r.removedOnCompletion { return zero }
        guard var v = r.velocity(of: target, at: time, heldAt: edge, rate: rate,
                                 model: { p in self.wholeValue(self.model, layer: li, property: p) }) else { return zero }
        for k in 0..<target.kind.componentCount where v.lanes[k].isNaN { v.lanes[k] = 0 }
        return v
    }

    /// For a key path that is part of one the animation animates by name
    /// (`position.x` of a `position` animation): where its velocity is.
    static func wholeHint(for target: KeyPath, in r: ResolvedAnimation) -> String {
        guard let part = target.plainComponents else { return "" }
        for whole in r.startTakers.compactMap(\.keyPath) where whole.property == target.property {
            guard let w = whole.plainComponents, w.first <= part.first, part.first + part.count <= w.first + w.count else { continue }
            let k = part.first - w.first
            let read = part.count == 1 ? "its component \(k)" : "its components \(k) to \(k + part.count - 1)"
            return " by that name: it is part of '\(whole.name)', whose velocity to ask for (\(read))"
        }
        return ""
    }

    /// Sends a running spring to a new target with its current value and
    /// velocity carried over (no jump in either, as SwiftUI and Pop do): the
    /// spring restarts at the runtime's time from the value it shows, toward
    /// `target`, moving as fast as it was. Its own timing is kept, but it
    /// begins now, without delay, offset or iteration start. A spring that
    /// has not started only gets the new target. Refused (`.state`) once it
    /// has finished, or while it plays backwards or is paused (its velocity
    /// cannot carry into a forward restart); `.kind` for other animations
    /// and whole transforms.
    public func retarget(_ h: Handle, to target: AnimatableValue) throws(AnimrtError) {
        let ii = try instances.index(of: h)
        guard !instances[ii].inBatch, case .spring = general[Int(instances[ii].tierIndex)].animation.body else {
            throw AnimrtError(.kind, "only spring animations can be retargeted; this one is a \(resolvedAnimation(ofInstance: ii).readback.kindName) animation")
        }
        let r = general[Int(instances[ii].tierIndex)].animation
        let kp = r.keyPath!
        guard kp.kind != .transform else {
            throw AnimrtError(.kind, "a spring of a whole transform cannot be retargeted (its value is not a vector); retarget a part such as transform.rotation.z")
        }
        guard target.kind == kp.kind else {
            throw AnimrtError(.kind, "'\(kp.name)' takes a \(kp.kind.name), not a \(target.kind.name)")
        }
        for k in 0..<target.kind.componentCount { try requireFinite(target.lanes[k], "component \(k) of the new target") }
        switch instances[ii].state {
        case .ended:
            throw AnimrtError(.state, "the spring has finished; add a new one from its value")
        case .waiting:
            r.setSpringTarget(target)
        case .running:
            let li = Int(instances[ii].layer)
            guard let (time, rate, _) = localTimeAndRate(of: li, at: now()), r.timing.speed > 0, rate > 0 else {
                throw AnimrtError(.state, "the spring is paused, playing backwards or its layer's time is unresolved: its velocity cannot carry into a restart")
            }
            let model = { (p: Int32) in self.wholeValue(self.model, layer: li, property: p) }
            let m = kp.get(model(kp.property))
            let s = r.timing.sample(at: time)
            let current = s.directedProgress.map { r.value(sample: s, progress: $0, model: m) } ?? m
            // Per second of spring time, taken in that time: dividing the
            // velocity per second of runtime time by speed × rate (a product
            // of layer speeds, which can overflow) could make it NaN.
            let moving = s.phase == .active && s.activeTime?.isFinite == true
            var v = AnimatableValue(kind: kp.kind, lanes: SIMD16())
            if moving, let p = s.directedProgress {
                v = r.springRate(progress: p, model: m).scaled(s.playsForwards ? 1 : -1)
            }
            for k in 0..<v.kind.componentCount where !v.lanes[k].isFinite {
                throw AnimrtError(.outOfRange, "the spring's velocity is \(v.lanes[k]) in component \(k); it cannot carry into a restart")
            }
            r.restartSpring(from: current, to: target, velocity: v, at: time)
        }
    }
}
