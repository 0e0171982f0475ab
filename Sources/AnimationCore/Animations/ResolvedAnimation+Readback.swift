extension ResolvedAnimation {
    /// The animation as attached, as a description (Core Animation's
    /// `animation(forKey:)` returns the attached copy): beginTime as stamped,
    /// duration as defaulted, from as rebased by `startsFromPresentation`.
    var readback: Animation {
        var a: Animation
        switch body {
        case .basic(let f, let t, let b):
            a = Animation(keyPath: keyPath?.name, content: .basic(from: f, to: t, by: b), timing: timing, timingFunction: curve)
        case .spring(let f, let t, let b, var s):
            // A retargeted spring carries a velocity vector; the description
            // holds its part along from → to, in distances per second.
            if let w = springVelocity, let f, let t {
                let d = t.lanes - f.lanes, n = (d * d).sum()
                s.initialVelocity = n > 0 && n.isFinite ? (w.lanes * d).sum() / n : 0
            }
            a = Animation(keyPath: keyPath?.name, content: .spring(from: f, to: t, by: b, s), timing: timing)
        case .keyframe(let k):
            a = Animation(keyPath: keyPath?.name, content: .keyframe(k.source), timing: timing, timingFunction: curve)
        case .decay(let f, let v, let d):
            a = Animation(keyPath: keyPath?.name, content: .decay(from: f, velocity: v, d), timing: timing, timingFunction: curve)
        case .group(let children):
            a = Animation(keyPath: nil, content: .group(children.map(\.readback)), timing: timing, timingFunction: curve)
        }
        a.isRemovedOnCompletion = removedOnCompletion
        a.isAdditive = additive
        a.isCumulative = cumulative
        a.startsFromPresentation = startsFromPresentation
        a.usesSettlingDuration = usesSettlingDuration
        return a
    }
}
