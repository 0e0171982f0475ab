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
                // (w · d) / (d · d), with both scaled by the largest
                // component of d: ends 1e200 apart square past the doubles
                // though the ratio is an ordinary number.
                let d = t.lanes - f.lanes
                let m = d.replacing(with: -d, where: d .< 0).max()
                if m > 0 && m.isFinite {
                    let u = d / m
                    let v = (w.lanes / m * u).sum() / (u * u).sum()
                    s.initialVelocity = v.isFinite ? v : 0
                } else {
                    s.initialVelocity = 0
                }
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
