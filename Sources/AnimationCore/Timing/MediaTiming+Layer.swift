/// A layer's media timing (CALayer adopts CAMediaTiming). Without a duration
/// a layer's time is unbounded: `(parentTime − beginTime) × speed +
/// timeOffset`, the CAMediaTiming.h formula. With a duration (or an exact
/// iteration duration) the layer is timed like an animation group: its
/// animations and sublayers see its iteration time, repeated, reversed and
/// filled as an animation's would be, and nothing of it is in effect
/// outside its active interval without a fill.
extension MediaTiming {
    /// No duration: the layer's time runs forever, unclipped.
    @inlinable public var isUnbounded: Bool { duration == 0 && iterationDuration == nil }

    /// Whether a layer with this timing shows its parent's time unchanged.
    @inlinable public var isLayerIdentity: Bool { isUnbounded && beginTime == 0 && speed == 1 && timeOffset == 0 }

    /// The layer's local time (what `convertTime` gives): CAMediaTiming's
    /// `(parentTime − beginTime) × speed + timeOffset`; a timed layer playing
    /// backwards counts down from its end time.
    public func layerLocalTime(_ parentTime: Double) -> Double {
        if isUnbounded { return (parentTime - beginTime) * speed + timeOffset }
        return localTime(at: parentTime, model: model) + timeOffset
    }

    /// The time the layer shows its animations and sublayers, or nil when it
    /// is unresolved (a timed layer outside its active interval, no fill).
    public func layerChildTime(_ parentTime: Double) -> Double? {
        layerChildTime(parentTime, heldAt: nil)?.time
    }

    /// The time the layer shows its animations and sublayers, and the end
    /// of an iteration where it holds them (`IterationEdge`, as a group
    /// holds its children), or nil when it is unresolved. `edge`: where the
    /// layer's parent holds it.
    ///
    /// CAMediaTiming is one hierarchy for layers and animations, so a timed
    /// layer holds its animations as a group holds its children: filling at
    /// an end of its iteration, or turning back, it makes the exact end of
    /// an animation's play its last frame and the exact start its first
    /// (`sample(at:heldAt:)`); a timed sublayer held so fills in turn. An
    /// unbounded layer only transforms the time, so it passes a hold on:
    /// unchanged playing forwards, turned round by a negative speed (its
    /// time falls as its parent's rises), and none while paused (its time
    /// no longer follows its parent's).
    public func layerChildTime(_ parentTime: Double, heldAt edge: IterationEdge?) -> (time: Double, edge: IterationEdge?)? {
        if isUnbounded {
            return ((parentTime - beginTime) * speed + timeOffset, edge?.seen(atSpeed: speed))
        }
        let s = sample(at: parentTime, heldAt: edge)
        guard let p = s.directedProgress else { return nil }
        return (iterationTime(s, progress: p), IterationEdge.holding(progress: p))
    }

    /// The lowest and highest time the layer shows its animations and
    /// sublayers while its parent's time goes through every time between `a`
    /// and `b` (either order), or nil when it is unresolved all along: the
    /// hull of `layerChildTimePieces`.
    public func layerChildTimeBounds(between a: Double, and b: Double) -> (lower: Double, upper: Double)? {
        MediaTiming.hull(layerChildTimePieces(between: a, and: b))
    }

    /// The lowest and highest time of `ranges`, nil for none.
    static func hull(_ ranges: [(lower: Double, upper: Double)]) -> (lower: Double, upper: Double)? {
        guard let lower = ranges.map(\.lower).min(), let upper = ranges.map(\.upper).max() else { return nil }
        return (lower, upper)
    }

    /// The times the layer shows its animations and sublayers while its
    /// parent's time goes through every time between `a` and `b` (either
    /// order), as ranges it goes through whole (they may overlap; none when
    /// it is unresolved all along). Their union is exactly those times, so a
    /// timed sublayer can be followed through each range in turn.
    ///
    /// In between, the layer's time is piecewise linear in its parent's:
    /// the pieces end at `a` and `b` or inside the active interval, at an
    /// iteration boundary (a forward play reaching its end, an autoreverse
    /// turning), a wrap of `timeOffset`, or an end of the active interval
    /// (clipped by a negative endDelay, not filled). The limit a piece runs
    /// into counts as reached: the layer went through every time before it.
    /// Filling, the layer shows the time at `a` or `b`, but on the side
    /// playback has not reached yet, where Web Animations' fill follows the
    /// local time (`movingFill`): that part is crossed as the active
    /// interval is.
    public func layerChildTimePieces(between a: Double, and b: Double) -> [(lower: Double, upper: Double)] {
        var pieces: [(lower: Double, upper: Double)] = []
        func include(_ lower: Double, _ upper: Double) {
            guard !lower.isNaN, !upper.isNaN else { return }
            pieces.append((lower, upper))
        }
        if let t = layerChildTime(a) { include(t, t) }
        if let t = layerChildTime(b) { include(t, t) }
        let m = model, d = m.iterationDuration
        // Unbounded or paused, the time is linear in the parent's (constant
        // with a zero-length iteration): it goes through all between its ends.
        guard !isUnbounded, speed != 0, d > 0 else { return MediaTiming.hull(pieces).map { [$0] } ?? [] }
        let la = localTime(at: a, model: m), lb = localTime(at: b, model: m)
        let ad = m.activeDuration
        let moving = movingFill(m)
        func cover(_ u: Double, _ v: Double) {
            let o0 = u / d + m.iterationStart, o1 = v / d + m.iterationStart
            guard o0.isFinite, o1.isFinite, o0 <= o1 else { return }
            for p in m.directedProgressPieces(from: o0, to: o1) { include(p.lower * d, p.upper * d) }
        }
        // Filling forwards before a backwards play, the active time is the
        // local time less the delay, without the offset (`sample`).
        if speed < 0, let (lower, upper) = moving {
            let from = max(min(la, lb), lower), to = min(max(la, lb), upper)
            if from < to && from.isFinite && to.isFinite { cover(from - m.delay, to - m.delay) }
        }
        // The part of the active interval crossed, in local time (bounded as
        // `TimingModel.phase` bounds it), with the fill before a forward
        // play that moves: there the active time is the local time less the
        // delay, offset and wrapped, as inside the interval.
        let from = max(min(la, lb), speed > 0 ? moving?.lower ?? m.activeStart : m.activeStart)
        let to = min(max(la, lb), m.activeEnd)
        if from < to && from.isFinite && to.isFinite {
            var u = from - m.delay, v = to - m.delay
            if timeOffset != 0 {
                u += timeOffset; v += timeOffset
            }
            if timeOffset != 0 && ad.isFinite && ad > 0 {
                // The offset wraps around the active duration (see `sample`):
                // a crossing no longer than it wraps at most once.
                let r = positiveRemainder(u, ad), rv = r + (v - u)
                if rv > ad { cover(r, ad); cover(0, min(rv - ad, ad)) } else { cover(r, rv) }
            } else {
                cover(u, v)
            }
        }
        return pieces
    }

    /// How fast the child time runs per unit of parent time at `parentTime`:
    /// ±speed inside the active interval or a fill that follows local time
    /// (minus in reversed iterations), 0 while holding a fill or unresolved.
    public func layerChildRate(_ parentTime: Double) -> Double {
        if isUnbounded { return speed }
        let s = sample(at: parentTime)
        // An infinite active time (a backwards play of an endless layer,
        // from +∞) does not move.
        guard activeTimeMoves(at: parentTime, phase: s.phase), s.isInEffect, s.activeTime?.isFinite == true else { return 0 }
        return s.playsForwards ? speed : -speed
    }

    /// The parent time at which the layer's local time is `local` (the
    /// inverse of `layerLocalTime`), or nil for a paused layer (speed 0).
    public func layerParentTime(forLocal local: Double) -> Double? {
        guard speed != 0 else { return nil }
        let l = local - timeOffset
        if isUnbounded || speed > 0 { return l / speed + beginTime }
        return (l - model.endTime) / speed + beginTime
    }

    /// A parameter as a layer reads it: an unbounded layer has one iteration
    /// of infinite duration.
    public func layerParameter(_ parameter: TimingParameter) -> Double {
        if isUnbounded && parameter == .iterationDuration { return .infinity }
        if isUnbounded && parameter == .iterations { return 1 }
        return self[parameter]
    }
}
