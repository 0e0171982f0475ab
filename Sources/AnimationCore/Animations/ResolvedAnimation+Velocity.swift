/// Velocities: how fast an animation's value changes, by the chain rule
/// through its timing (speed, direction, duration), its timing function and
/// its content, exactly where the content has a closed form.
extension ResolvedAnimation {
    /// Whether this animation, or one of its children, animates the key
    /// path named `name`.
    func animates(_ name: String) -> Bool {
        if case .group(let children) = body { return children.contains { $0.animates(name) } }
        return keyPath?.name == name
    }

    /// The rate of change of the value this animation gives key path
    /// `target` at `parentTime`, per unit of the time `rate` measures parent
    /// time in (d parentTime / d that time). nil when it gives nothing (not
    /// in effect, or another key path); zero while it holds a fill.
    func velocity(of target: KeyPath, at parentTime: Double, heldAt edge: IterationEdge? = nil, rate: Double,
                  model: (Int32) -> AnimatableValue) -> AnimatableValue? {
        if case .group = body, target.kind != .transform, let part = target.plainComponents {
            // A group's children compose on the whole property, whichever
            // of its key paths each animates (`position` and `position.x`),
            // and their rates with them: a plain run of components moves
            // as fast as the components it is made of.
            var whole: PropertyRate? = nil
            accumulateRate(of: target.property, at: parentTime, heldAt: edge, rate: rate, into: &whole, model: model)
            return whole?.part(part.first, part.count, kind: target.kind)
        }
        return velocity(named: target.name, at: parentTime, heldAt: edge, rate: rate, model: model)
    }

    /// `velocity(of:)` for the animations of key path `name` alone (a
    /// transform's computed parts, which do not compose component by
    /// component).
    private func velocity(named name: String, at parentTime: Double, heldAt edge: IterationEdge?, rate: Double,
                          model: (Int32) -> AnimatableValue) -> AnimatableValue? {
        let s = timing.sample(at: parentTime, heldAt: edge)
        guard let progress = s.directedProgress else { return nil }
        let progressRate = self.progressRate(s, at: parentTime, rate: rate)
        if case .group(let children) = body {
            let clock = childClock(s, progress: progress, progressRate: progressRate)
            var v: AnimatableValue? = nil
            for c in children {
                guard let cv = c.velocity(named: name, at: clock.time, heldAt: clock.held, rate: clock.rate, model: model) else { continue }
                if c.additive, let below = v { v = AnimatableValue(kind: cv.kind, lanes: below.lanes + cv.lanes) } else { v = cv }
            }
            return v
        }
        guard let kp = keyPath, kp.name == name else { return nil }
        let r = valueRate(sample: s, progress: progress, model: kp.get(model(kp.property)))
        return AnimatableValue(kind: r.kind, lanes: r.lanes * progressRate)
    }

    /// d(directed progress)/d(time) for sample `s` at `parentTime`:
    /// ±speed / duration (times `rate`) while the active time moves, else 0.
    private func progressRate(_ s: TimingSample, at parentTime: Double, rate: Double) -> Double {
        let d = timing.effectiveDuration
        // An infinite active time does not move: a backwards play of an
        // endless animation starts from +∞ and stays there. A fill that
        // follows the local time moves as the active interval does.
        let moving = timing.activeTimeMoves(at: parentTime, phase: s.phase) && timing.speed != 0 && d > 0
            && s.activeTime?.isFinite == true
        // d(directed progress)/d(time): ±speed / duration while it moves.
        return moving ? (s.playsForwards ? 1 : -1) * timing.speed / d * rate : 0
    }

    /// Where a group's children are at directed progress `progress` of
    /// sample `s`: their time (the group's curve eases it, as in
    /// `contribute`), how fast it runs for a progress changing at
    /// `progressRate` (the chain rule takes the slope of the group's
    /// timing function too), and where the group holds them.
    private func childClock(_ s: TimingSample, progress: Double,
                            progressRate: Double) -> (time: Double, rate: Double, held: IterationEdge?) {
        let slope = curve?.slope(progress) ?? 1
        let d = timing.effectiveDuration
        return (childTime(s, progress: progress), progressRate * slope * d, IterationEdge.holding(progress: progress))
    }

    /// Composes the rate of change of what this animation writes to
    /// `property` into `whole`, as `contribute` composes its value: a
    /// non-additive animation replaces the rate of the components it
    /// writes, an additive one adds to it, a group does so child after
    /// child in its eased time. Plain components only (not a transform's
    /// computed parts); the value below the animation counts as still.
    func accumulateRate(of property: Int32, at parentTime: Double, heldAt edge: IterationEdge?, rate: Double,
                        into whole: inout PropertyRate?, model: (Int32) -> AnimatableValue) {
        let s = timing.sample(at: parentTime, heldAt: edge)
        guard let progress = s.directedProgress else { return }
        let progressRate = self.progressRate(s, at: parentTime, rate: rate)
        if case .group(let children) = body {
            let clock = childClock(s, progress: progress, progressRate: progressRate)
            for c in children {
                c.accumulateRate(of: property, at: clock.time, heldAt: clock.held, rate: clock.rate, into: &whole, model: model)
            }
            return
        }
        guard let kp = keyPath, kp.property == property, let part = kp.plainComponents else { return }
        let r = valueRate(sample: s, progress: progress, model: kp.get(model(kp.property)))
        var w = whole ?? PropertyRate()
        for i in 0..<part.count {
            let k = part.first + i
            w.lanes[k] = (additive ? w.lanes[k] : 0) + r.lanes[i] * progressRate
            w.written[k] = 1
        }
        whole = w
    }

    /// d value / d progress for a leaf animation (`progress` directed).
    func valueRate(sample s: TimingSample, progress x: Double, model m: AnimatableValue) -> AnimatableValue {
        let y = easing?.evaluate(x, beforeFlag: s.beforeFlag) ?? x
        let dy = easing?.slope(x) ?? 1
        let zero = AnimatableValue(kind: m.kind, lanes: SIMD16())
        let d = timing.effectiveDuration
        switch body {
        case .basic(let f, let t, let b):
            let (a, z) = endpoints(from: f, to: t, by: b, model: m)
            return ResolvedAnimation.interpolationRate(a, z, y).scaled(dy)
        case .spring:
            guard d > 0 else { return zero }
            return springRate(progress: x, model: m).scaled(d)
        case .keyframe(let k):
            return k.rate(at: y).scaled(dy)
        case .decay(_, let v, let decay):
            // d/dτ of from + v (1 − e^(−kτ)) / k is v e^(−kτ).
            return v.scaled(decay.velocityFactor(at: x * d) * d)
        case .group:
            return zero
        }
    }

    /// d value / dτ for a spring, per second of its own time (τ = progress
    /// × duration): springs run on time, value = interp(a, z, 1 − x(τ)) +
    /// W·ψ(τ). Zero for other animations.
    func springRate(progress x: Double, model m: AnimatableValue) -> AnimatableValue {
        guard case .spring(let f, let t, let b, let spring) = body else { return AnimatableValue(kind: m.kind, lanes: SIMD16()) }
        let (a, z) = endpoints(from: f, to: t, by: b, model: m)
        let tau = x * timing.effectiveDuration
        var r = ResolvedAnimation.interpolationRate(a, z, spring.value(at: tau)).scaled(-spring.displacementRate(at: tau))
        if let w = springVelocity { r = AnimatableValue(kind: r.kind, lanes: r.lanes + w.lanes * spring.responses(at: tau).dpsi) }
        return r
    }

    /// d/dy of `a.interpolated(to: z, y)`: z − a, or for transforms (which
    /// interpolate their decomposition) a central difference.
    static func interpolationRate(_ a: AnimatableValue, _ z: AnimatableValue, _ y: Double) -> AnimatableValue {
        guard a.kind == .transform else { return AnimatableValue(kind: a.kind, lanes: z.lanes - a.lanes) }
        let h = 1e-6
        return AnimatableValue(kind: a.kind, lanes: (a.interpolated(to: z, y + h).lanes - a.interpolated(to: z, y - h).lanes) / (2 * h))
    }
}

extension ResolvedKeyframes {
    /// d value / d y (eased progress) between keyframes; 0 for discrete.
    func rate(at y: Double) -> AnimatableValue {
        let n = values.count
        let zero = AnimatableValue(kind: values[0].kind, lanes: SIMD16())
        if n == 1 || y.isNaN { return zero }
        if let g = geometry { return pathRate(g, at: y) }
        switch mode {
        case .discrete:
            return zero
        case .cubicPaced:
            let total = arcTable.last!.length
            guard total > 0 else { return zero }
            let target = y * total
            let j = arcIndex(reaching: target)
            let (u0, l0) = arcTable[j - 1], (u1, l1) = arcTable[j]
            guard l1 > l0 else { return zero }
            let u = u0 + (u1 - u0) * (target - l0) / (l1 - l0)
            let seg = clampedIndex(u, upperBound: n - 2)  // the segment value(at:) takes
            // total / (l1 − l0) is near the samples per segment: dividing the
            // parameter step by a piece's length first overflows for a curve
            // whose pieces are subnormal (1e-320 long in all), where the
            // speed is as small as the curve.
            let du = (u1 - u0) * (total / (l1 - l0))
            return splineRate(seg, u - Double(seg)).scaled(du)
        case .linear, .paced, .cubic:
            let i = keyIndex(at: y, last: n - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            guard span > 0 else { return zero }
            let f = (y - keyTimes[i]) / span
            var g = f, dg = 1.0
            if i < functions.count, let fn = functions[i] { g = fn.evaluate(f); dg = fn.slope(f) }
            if mode == .cubic {
                return splineRate(i, g).scaled(dg / span)
            }
            return ResolvedAnimation.interpolationRate(values[i], values[i + 1], g).scaled(dg / span)
        }
    }
}

/// The rate of change of a whole property's components as a group's
/// animations compose it, and which of them any animation writes.
struct PropertyRate {
    var lanes = SIMD16<Double>()
    var written = SIMD16<Int8>()

    /// The rate of `count` components from `first`, as a value of `kind`;
    /// nil when no animation writes any of them.
    func part(_ first: Int, _ count: Int, kind: ValueKind) -> AnimatableValue? {
        var out = SIMD16<Double>(), any = false
        for i in 0..<count { out[i] = lanes[first + i]; any = any || written[first + i] != 0 }
        return any ? AnimatableValue(kind: kind, lanes: out) : nil
    }
}

extension AnimatableValue {
    /// Every component times `factor`.
    func scaled(_ factor: Double) -> AnimatableValue { AnimatableValue(kind: kind, lanes: lanes * factor) }
}
