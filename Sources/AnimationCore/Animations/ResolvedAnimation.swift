/// An animation checked against a runtime's properties and frozen for one
/// attachment: key paths resolved, values kind-checked, duration defaulted,
/// keyframe times and tangents precomputed, the previous presentation value
/// captured. Evaluated by the general (per-layer) path.
final class ResolvedAnimation {
    enum Body {
        case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case spring(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?, Spring)
        case keyframe(ResolvedKeyframes)
        case group([ResolvedAnimation])
        case decay(from: AnimatableValue?, velocity: AnimatableValue, Decay)
    }

    let keyPath: KeyPath?
    var timing: MediaTiming
    /// The timing function as given (read back as set).
    let curve: TimingFunction?
    /// The timing function the animation's progress runs through: `curve`,
    /// but none for paced keyframes, whose times come from distance alone
    /// (kCAAnimationPaced, kCAAnimationCubicPaced: "keyTimes and
    /// timingFunction are ignored").
    let easing: TimingFunction?
    let removedOnCompletion: Bool
    let additive: Bool
    let cumulative: Bool
    /// Whether it was added with `startsFromPresentation` (already applied
    /// to `body`; kept to read the animation back).
    let startsFromPresentation: Bool
    /// Whether it runs for its spring's settling duration (already applied
    /// to `timing`; kept to read the animation back).
    var usesSettlingDuration = false
    private(set) var body: Body
    /// The presentation value of the key path when the animation was added.
    var captured: AnimatableValue?
    /// A retargeted spring's velocity, per second of spring time, carried
    /// over from before the retarget (it moves the value by W·ψ(t) more).
    var springVelocity: AnimatableValue?
    /// Every property the animation (or its children) writes.
    let targets: [Int32]

    init(keyPath: KeyPath?, timing: MediaTiming, curve: TimingFunction?, removedOnCompletion: Bool,
         additive: Bool, cumulative: Bool, startsFromPresentation: Bool = false, body: Body) {
        self.keyPath = keyPath; self.timing = timing; self.curve = curve
        if case .keyframe(let k) = body, k.mode == .paced || k.mode == .cubicPaced { easing = nil } else { easing = curve }
        self.removedOnCompletion = removedOnCompletion; self.additive = additive; self.cumulative = cumulative
        self.startsFromPresentation = startsFromPresentation
        self.body = body
        if case .group(let children) = body {
            var t: [Int32] = []
            for c in children { for p in c.targets where !t.contains(p) { t.append(p) } }
            targets = t
        } else if case .keyframe(let k) = body, let r = k.rotationProperty, r != keyPath?.property {
            targets = (keyPath.map { [$0.property] } ?? []) + [r]
        } else {
            targets = keyPath.map { [$0.property] } ?? []
        }
    }

    /// Resolves and validates `animation`. `defaultDuration` replaces a zero
    /// duration (the transaction's, else 0.25 s; a group's child: the
    /// group's).
    static func resolve(_ animation: Animation, properties: inout PropertyRegistry,
                        defaultDuration: Double, isChild: Bool = false) throws(AnimrtError) -> ResolvedAnimation {
        try animation.timing.validate()
        try animation.checkFlags()
        var timing = animation.timing
        if timing.duration == 0 && timing.iterationDuration == nil {
            // Only a zero-length group passes a zero down (transactions'
            // durations are positive): its children are as instant as it
            // is, which `duration` 0 (0.25 s) cannot say.
            if defaultDuration > 0 { timing.duration = defaultDuration } else { timing.iterationDuration = 0 }
        }
        if case .group(let children) = animation.content {
            // Bounded before recursing: the recursion below is as deep as the groups.
            if !isChild { try animation.checkGroupLimits() }
            // A child without a duration runs for the group's (Core
            // Animation: a group's duration takes precedence), nested
            // groups likewise.
            let inherited = timing.effectiveDuration
            var resolved: [ResolvedAnimation] = []
            for (i, c) in children.enumerated() {
                do { resolved.append(try resolve(c, properties: &properties, defaultDuration: inherited, isChild: true)) }
                catch { throw error.prefixed("group child \(i): ") }
            }
            return ResolvedAnimation(keyPath: nil, timing: timing, curve: animation.timingFunction,
                                     removedOnCompletion: animation.isRemovedOnCompletion, additive: false,
                                     cumulative: false, body: .group(resolved))
        }
        guard let path = animation.keyPath else {
            throw AnimrtError(.invalidArgument, "a \(animation.kindName) animation needs a key path")
        }
        let kp = try properties.resolve(path)
        func check(_ v: AnimatableValue?, _ what: String) throws(AnimrtError) {
            if let v, v.kind != kp.kind {
                throw AnimrtError(.kind, "\(what) is a \(v.kind.name) but '\(path)' takes a \(kp.kind.name)")
            }
        }
        let body: Body
        switch animation.content {
        case .basic(let f, let t, let b), .spring(let f, let t, let b, _):
            try check(f, "fromValue"); try check(t, "toValue"); try check(b, "byValue")
            if f != nil && t != nil && b != nil {
                throw AnimrtError(.invalidArgument, "fromValue, toValue and byValue are all set on '\(path)'; set at most two")
            }
            // Ends known now must be a finite distance apart (ends taken
            // from the model at each tick are kept finite where written).
            switch (f, t, b) {
            case (let f?, let t?, _): try ResolvedKeyframes.requireSpan(f, t, "fromValue and toValue on '\(path)'")
            case (let f?, nil, let b?): try ResolvedKeyframes.requireFiniteValue(f.adding(b), "fromValue + byValue on '\(path)'")
            case (nil, let t?, let b?): try ResolvedKeyframes.requireFiniteValue(t.subtracting(b), "toValue − byValue on '\(path)'")
            default: break
            }
            if case .spring(_, _, _, let s) = animation.content {
                try s.validate()
                if animation.usesSettlingDuration { timing.duration = try s.runningDuration(); timing.iterationDuration = nil }
                body = .spring(from: f, to: t, by: b, s)
            } else {
                body = .basic(from: f, to: t, by: b)
            }
        case .keyframe(let k):
            if k.path != nil {
                guard kp.kind == .point else {
                    throw AnimrtError(.kind, "a keyframe path moves a point and '\(path)' takes a \(kp.kind.name)")
                }
            } else {
                for (i, v) in k.values.enumerated() { try check(v, "keyframe value \(i)") }
            }
            let rotated = k.rotationMode == .none ? nil : try properties.resolve("transform").property
            body = .keyframe(try ResolvedKeyframes(k, path: path, rotationProperty: rotated))
        case .decay(let f, let v, let d):
            try check(f, "fromValue"); try check(v, "velocity")
            guard kp.kind != .transform else {
                throw AnimrtError(.kind, "a decay moves numbers component by component and '\(path)' is a whole transform; decay one of its parts (transform.rotation.z, transform.translation.x, …)")
            }
            try d.validate()
            let velocity = v ?? AnimatableValue(kind: kp.kind, lanes: SIMD16())
            let k = d.decayConstant
            for i in 0..<kp.kind.componentCount {
                let travel = velocity.lanes[i] / k
                guard travel.isFinite, f.map({ ($0.lanes[i] + travel).isFinite }) ?? true else {
                    throw AnimrtError(.outOfRange, "a decay of '\(path)' at \(velocity.lanes[i]) per second with rate \(d.decelerationRate) travels \(travel), past what a double holds")
                }
            }
            // The duration is derived: until the speed falls to the rest velocity.
            let duration = d.duration(initialVelocity: velocity)
            guard duration.isFinite else {
                throw AnimrtError(.outOfRange, "a decay of '\(path)' would take \(duration) s to come to rest")
            }
            // Exact (0 is a decay that starts at rest, not 0.25 s); the
            // duration reads back the same, as a settling spring's does.
            timing.iterationDuration = duration
            timing.duration = duration
            body = .decay(from: f, velocity: velocity, d)
        case .group:
            throw AnimrtError(.invalidArgument, "internal: a group reached leaf resolution")
        }
        let resolved = ResolvedAnimation(keyPath: kp, timing: timing, curve: animation.timingFunction,
                                         removedOnCompletion: animation.isRemovedOnCompletion,
                                         additive: animation.isAdditive, cumulative: animation.isCumulative,
                                         startsFromPresentation: animation.startsFromPresentation, body: body)
        if case .spring = body { resolved.usesSettlingDuration = animation.usesSettlingDuration }
        return resolved
    }

    /// Restarts a spring at parent time `begin` from `value` toward `target`,
    /// carrying `velocity` (per second of spring time).
    func restartSpring(from value: AnimatableValue, to target: AnimatableValue, velocity: AnimatableValue, at begin: Double) {
        guard case .spring(_, _, _, var s) = body else { return }
        s.initialVelocity = 0
        body = .spring(from: value, to: target, by: nil, s)
        springVelocity = velocity
        timing.beginTime = begin; timing.timeOffset = 0; timing.delay = 0; timing.iterationStart = 0
    }

    /// Replaces the target of a spring that has not started.
    func setSpringTarget(_ target: AnimatableValue) {
        guard case .spring(let f, _, _, let s) = body else { return }
        body = .spring(from: f, to: target, by: nil, s)
    }

    /// The animations that take a start when added (`captureStart`): this
    /// one, or a group's animations that are not groups, depth first. A
    /// group's animations each take their own key path's value, as the
    /// same animations added to the layer one by one at that moment would:
    /// CAAnimationGroup's children animate the layer as they would alone.
    var startTakers: [ResolvedAnimation] {
        guard case .group(let children) = body else { return [self] }
        return children.flatMap(\.startTakers)
    }

    /// Takes what the animation starts from when it is added: the
    /// presentation value of its key path (`presented`), from which the
    /// from/to/by table's case without ends starts and onto which
    /// `startsFromPresentation` rebases `from` (`restored`: the value a
    /// snapshot carried instead). For one of `startTakers`.
    func captureStart(restored: AnimatableValue?, presented: (KeyPath) -> AnimatableValue) {
        guard let kp = keyPath else { return }
        let value = restored ?? presented(kp)
        captured = value
        if startsFromPresentation { rebase(from: value) }
    }

    /// Makes a basic or spring animation start from `value` (the
    /// presentation value when it was added): `from` becomes `value`; a given
    /// `to` is kept, else a given `by` is kept.
    func rebase(from value: AnimatableValue) {
        switch body {
        case .basic(_, let t, let b): body = .basic(from: value, to: t, by: t == nil ? b : nil)
        case .spring(_, let t, let b, let s): body = .spring(from: value, to: t, by: t == nil ? b : nil, s)
        default: break
        }
    }

    /// Adds this animation's contribution at `parentTime` to `working`
    /// (whole property values, seeded from `model`). `heldAt`: its group
    /// is at that end of an iteration (`MediaTiming.sample`).
    func contribute(at parentTime: Double, heldAt edge: IterationEdge? = nil, into working: inout [Int32: AnimatableValue],
                    model: (Int32) -> AnimatableValue) {
        let s = timing.sample(at: parentTime, heldAt: edge)
        guard let progress = s.directedProgress else { return }
        if case .group(let children) = body {
            // The group's timing function eases the time its children see
            // (CAAnimationGroup: the group's curve and duration take
            // precedence over the children's pacing).
            let childTime = childTime(s, progress: progress)
            // At the end of its iteration (where a forwards fill holds it)
            // the group shows its children's last frames, at its start
            // (a backwards fill) their first.
            let held = IterationEdge.holding(progress: progress)
            for c in children { c.contribute(at: childTime, heldAt: held, into: &working, model: model) }
            return
        }
        guard let kp = keyPath else { return }
        let modelWhole = model(kp.property)
        let base = working[kp.property] ?? modelWhole
        let r = value(sample: s, progress: progress, model: kp.get(modelWhole))
        working[kp.property] = additive ? kp.set(kp.get(base).adding(r), in: base) : kp.set(r, in: base)
        if case .keyframe(let k) = body, let rp = k.rotationProperty,
           let angle = k.rotationAngle(at: easing?.evaluate(progress, beforeFlag: s.beforeFlag) ?? progress) {
            // rotationMode: the tangent's rotation about z, applied before
            // the transform below (as an additive transform is).
            let below = working[rp] ?? model(rp)
            working[rp] = below.adding(.transform(.rotationZ(angle)))
        }
    }

    /// The time a group's children see at directed progress `progress` of
    /// sample `s`: the group's curve eases it; with none it is the group's
    /// time into its iteration (`MediaTiming.iterationTime`).
    func childTime(_ s: TimingSample, progress: Double) -> Double {
        if let curve { return curve.evaluate(progress, beforeFlag: s.beforeFlag) * timing.effectiveDuration }
        return timing.iterationTime(s, progress: progress)
    }

    /// The animated value of a leaf animation for one timing sample.
    func value(sample s: TimingSample, progress: Double, model m: AnimatableValue) -> AnimatableValue {
        let y = easing?.evaluate(progress, beforeFlag: s.beforeFlag) ?? progress
        var cycles = 0.0
        if cumulative, let it = s.currentIteration, it.isFinite {
            cycles = (timing.autoreverses ? it / 2 : it).rounded(.down)
        }
        switch body {
        case .basic(let f, let t, let b):
            let (a, z) = endpoints(from: f, to: t, by: b, model: m)
            let v = a.interpolated(to: z, y)
            return cycles > 0 ? v.adding(z.subtracting(a).repeated(cycles)) : v
        case .spring(let f, let t, let b, let spring):
            let (a, z) = endpoints(from: f, to: t, by: b, model: m)
            let d = timing.effectiveDuration
            // A zero-length iteration has no time for the spring: it jumps.
            var v = a.interpolated(to: z, d > 0 ? spring.value(at: progress * d) : progress)
            if let w = springVelocity, d > 0 {
                v = AnimatableValue(kind: v.kind, lanes: v.lanes + w.lanes * spring.responses(at: progress * d).psi)
            }
            return cycles > 0 ? v.adding(z.subtracting(a).repeated(cycles)) : v
        case .keyframe(let k):
            let v = k.value(at: y)
            guard cycles > 0, let first = k.values.first, let last = k.values.last else { return v }
            return v.adding(last.subtracting(first).repeated(cycles))
        case .decay(let f, let velocity, let d):
            // Like a spring, a decay runs on time, not on the timing function.
            let start = f ?? m
            let whole = AnimatableValue(kind: start.kind, lanes: velocity.lanes / d.decayConstant)
            let v = AnimatableValue(kind: start.kind, lanes: start.lanes + whole.lanes * d.travelled(at: progress * timing.effectiveDuration))
            let covered = AnimatableValue(kind: start.kind, lanes: whole.lanes * d.travelled(at: timing.effectiveDuration))
            return cycles > 0 ? v.adding(covered.repeated(cycles)) : v
        case .group:
            return m
        }
    }

    /// Core Animation's from/to/by table, with the live model value standing
    /// in for the missing end (and the captured presentation for neither).
    func endpoints(from f: AnimatableValue?, to t: AnimatableValue?, by b: AnimatableValue?,
                           model m: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch (f, t, b) {
        case (let f?, let t?, _): return (f, t)
        case (let f?, nil, let b?): return (f, f.adding(b))
        case (nil, let t?, let b?): return (t.subtracting(b), t)
        case (let f?, nil, nil): return (f, m)
        case (nil, let t?, nil): return (m, t)
        case (nil, nil, let b?): return (m, m.adding(b))
        case (nil, nil, nil): return (captured ?? m, m)
        }
    }
}
