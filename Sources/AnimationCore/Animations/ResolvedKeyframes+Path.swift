/// Keyframes along a path: where on the path eased progress y puts the
/// layer, how it turns, how fast it moves.
extension ResolvedKeyframes {
    /// The segment and its parameter at eased progress `y`. Linear and cubic
    /// modes give each segment its key-time interval and follow the curve's
    /// own parameter (after the segment's timing function); paced modes
    /// move at constant speed by arc length; discrete jumps to the points.
    func pathLocation(_ g: ResolvedPath, at y: Double) -> (segment: Int, t: Double, rate: Double)? {
        guard !g.segments.isEmpty, !y.isNaN else { return nil }
        let n = values.count
        switch mode {
        case .paced, .cubicPaced:
            let (i, t) = g.locate(arcLength: y * g.totalLength)
            return (i, t, 0)
        case .discrete:
            // Keyframe i is the start of segment i, which is where segment
            // i − 1 ends, unless a move lies between them: a move makes no
            // keyframe, so keyframe i is then the end of segment i − 1.
            let i = keyIndex(at: y, last: n - 1)
            guard i < g.segments.count else { return (g.segments.count - 1, 1, 0) }
            if i > 0 && g.segments[i].point(0) != g.segments[i - 1].point(1) { return (i - 1, 1, 0) }
            return (i, 0, 0)
        case .linear, .cubic:
            let i = keyIndex(at: y, last: n - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            let f = span > 0 ? (y - keyTimes[i]) / span : 1
            var t = f, rate = span > 0 ? 1 / span : 0
            if i < functions.count, let fn = functions[i] { t = fn.evaluate(f); rate *= fn.slope(f) }
            return (i, t, rate)
        }
    }

    func pathValue(_ g: ResolvedPath, at y: Double) -> AnimatableValue {
        guard let (i, t, _) = pathLocation(g, at: y) else { return values[0] }
        let p = g.segments[i].point(t)
        return .point(p.x, p.y)
    }

    /// d position / d y: the curve's derivative times dt/dy, or for paced
    /// modes the unit tangent times the path's length.
    func pathRate(_ g: ResolvedPath, at y: Double) -> AnimatableValue {
        guard let (i, t, rate) = pathLocation(g, at: y) else { return .point(0, 0) }
        switch mode {
        case .paced, .cubicPaced:
            guard let d = g.tangent(segment: i, t: t) else { return .point(0, 0) }
            let u = d / ResolvedPath.length(d) * g.totalLength
            return .point(u.x, u.y)
        case .discrete:
            return .point(0, 0)
        case .linear, .cubic:
            let d = g.segments[i].derivative(t) * rate
            return .point(d.x, d.y)
        }
    }

    /// The rotation (radians about z) rotationMode gives at eased progress
    /// `y`: the tangent's angle, plus π for autoReverse; nil without a
    /// rotation mode or for a path that never moves.
    func rotationAngle(at y: Double) -> Double? {
        guard rotation != .none, let g = geometry, let (i, t, _) = pathLocation(g, at: y),
              let d = g.tangent(segment: i, t: t) else { return nil }
        let angle = _atan2(d.y, d.x)
        return rotation == .autoReverse ? angle + Double.pi : angle
    }
}
