/// Keyframes checked and prepared for evaluation.
struct ResolvedKeyframes {
    /// The keyframes as given (to read the animation back).
    let source: Keyframes
    let values: [AnimatableValue]
    /// n times for linear and cubic modes, n or n + 1 for discrete.
    let keyTimes: [Double]
    let functions: [TimingFunction?]
    let mode: CalculationMode
    /// Kochanek–Bartels outgoing and incoming tangents per keyframe.
    let outgoing: [AnimatableValue]
    let incoming: [AnimatableValue]
    /// For cubic modes on whole transforms that all decompose: each
    /// keyframe's translation, scale and angles (lanes 0–8), which the
    /// spline runs through, as linear mode interpolates them. nil: the
    /// spline runs through the values themselves.
    let splinePoints: [AnimatableValue]?
    /// For cubicPaced: (spline parameter, cumulative arc length) samples.
    let arcTable: [(u: Double, length: Double)]
    /// The path the keyframes follow, when one was given (its points are
    /// then the values).
    let geometry: ResolvedPath?
    /// With a path and a rotation mode: the rotation and the property it
    /// rotates (transform).
    let rotation: RotationMode
    let rotationProperty: Int32?

    static let arcSamplesPerSegment = 32

    init(_ k: Keyframes, path: String, rotationProperty: Int32? = nil) throws(AnimrtError) {
        let geometry = try k.path.map { (e: [PathElement]) throws(AnimrtError) in try ResolvedPath(e, keyPath: path) }
        guard geometry != nil || k.rotationMode == .none else {
            throw AnimrtError(.invalidArgument, "keyframe animation on '\(path)' has a rotation mode but no path; rotation follows a path's tangent")
        }
        let frames = geometry.map { $0.points.map { AnimatableValue.point($0.x, $0.y) } } ?? k.values
        let n = frames.count
        guard n > 0 else { throw AnimrtError(.invalidArgument, "keyframe animation on '\(path)' has no values") }
        source = k
        values = frames
        self.geometry = geometry
        rotation = k.rotationMode
        self.rotationProperty = k.rotationMode == .none ? nil : rotationProperty
        mode = k.calculationMode
        // Every value computed at a tick must be finite: what would not be
        // is refused here, where there is a status to return. Discrete
        // keyframes are shown as given, never interpolated, so any finite
        // values may neighbour (a path longer than a double holds was
        // refused above, whatever the mode).
        if mode != .discrete {
            for i in 1..<max(n, 1) { try ResolvedKeyframes.requireSpan(values[i - 1], values[i], "keyframes \(i - 1) and \(i) on '\(path)'") }
        }
        let paced = mode.isPaced
        if paced, let g = geometry {
            // Along a path, pace by the arc length of its segments.
            let ends = [0] + g.arcs.map { $0.last! }
            keyTimes = n == 1 ? [0] : ends.enumerated().map { g.totalLength > 0 ? $0.element / g.totalLength : Double($0.offset) / Double(n - 1) }
        } else if paced {
            var cumulative = [0.0]
            for i in 1..<max(n, 1) { cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i])) }
            let total = cumulative.last!
            guard total.isFinite else {
                throw AnimrtError(.outOfRange, "keyframe animation on '\(path)': the path through its values is longer than the largest double, so it cannot be paced")
            }
            keyTimes = n == 1 ? [0] : cumulative.enumerated().map { total > 0 ? $0.element / total : Double($0.offset) / Double(n - 1) }
        } else if let given = k.keyTimes {
            try ResolvedKeyframes.validate(keyTimes: given, valueCount: n, mode: mode, path: path)
            keyTimes = given
        } else if mode == .discrete {
            keyTimes = (0...n).map { Double($0) / Double(n) }
        } else {
            keyTimes = n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
        }
        let segments = max(n - 1, 0)
        if !paced && k.timingFunctions.count > segments {
            throw AnimrtError(.invalidArgument, "keyframe animation on '\(path)' has \(counted(k.timingFunctions.count, "timing function")) for \(counted(segments, "segment")); give at most one per segment")
        }
        functions = paced ? [] : (0..<segments).map { $0 < k.timingFunctions.count ? k.timingFunctions[$0] : nil }
        for (name, list) in [("tension", k.tensionValues), ("continuity", k.continuityValues), ("bias", k.biasValues)] {
            guard list.count <= n else {
                throw AnimrtError(.invalidArgument, "keyframe animation on '\(path)' has \(list.count) \(name) values for \(n) keyframes")
            }
            for v in list { try requireFinite(v, "a keyframe \(name) value") }
        }
        var out: [AnimatableValue] = [], inc: [AnimatableValue] = []
        let cubic = (mode == .cubic || mode == .cubicPaced) && geometry == nil
        // A spline through matrix elements is no turn: from the identity to
        // a half turn its middle is a matrix of zero scale. Whole transforms
        // are splined through their decompositions, as linear mode
        // interpolates them (element by element only where one does not
        // decompose, as there).
        let decomposed = cubic && values[0].kind == .transform ? ResolvedKeyframes.decompositions(values) : nil
        splinePoints = decomposed
        let points = decomposed ?? values
        if cubic {
            for i in 0..<n {
                let p = points[i]
                let prev = points[max(i - 1, 0)], next = points[min(i + 1, n - 1)]
                let t = i < k.tensionValues.count ? k.tensionValues[i] : 0
                let c = i < k.continuityValues.count ? k.continuityValues[i] : 0
                let b = i < k.biasValues.count ? k.biasValues[i] : 0
                let d0 = p.lanes - prev.lanes, d1 = next.lanes - p.lanes
                let o = d0 * ((1 - t) * (1 + b) * (1 + c) / 2) + d1 * ((1 - t) * (1 - b) * (1 - c) / 2)
                let s = d0 * ((1 - t) * (1 + b) * (1 - c) / 2) + d1 * ((1 - t) * (1 - b) * (1 + c) / 2)
                for l in 0..<p.kind.componentCount where !o[l].isFinite || !s[l].isFinite {
                    throw AnimrtError(.outOfRange, "keyframe \(i) on '\(path)': its tangent overflows (tension \(t), continuity \(c), bias \(b) with these values); use smaller parameters")
                }
                out.append(AnimatableValue(kind: p.kind, lanes: o))
                inc.append(AnimatableValue(kind: p.kind, lanes: s))
            }
        }
        outgoing = out; incoming = inc
        var table: [(u: Double, length: Double)] = []
        if mode == .cubicPaced && n > 1 && geometry == nil {
            table.append((0, 0))
            var previous = values[0], total = 0.0
            let m = ResolvedKeyframes.arcSamplesPerSegment
            for seg in 0..<(n - 1) {
                for j in 1...m {
                    let f = Double(j) / Double(m)
                    let v = ResolvedKeyframes.spline(points, out, inc, seg, f, decomposed: decomposed != nil)
                    total += previous.distance(to: v)
                    previous = v
                    table.append((Double(seg) + f, total))
                }
            }
            guard total.isFinite else {
                throw AnimrtError(.outOfRange, "keyframe animation on '\(path)': the curve through its values is longer than the largest double, so it cannot be paced")
            }
        }
        arcTable = table
    }

    /// A value computed from the host's (a sum of two ends) must be finite.
    static func requireFiniteValue(_ v: AnimatableValue, _ what: @autoclosure () -> String) throws(AnimrtError) {
        guard v.kind != .transform else { return }
        for k in 0..<v.kind.componentCount where !v.lanes[k].isFinite {
            throw AnimrtError(.outOfRange, "\(what()) overflows: component \(k) is \(v.lanes[k])")
        }
    }

    /// Two neighbouring values must differ by a finite amount, or nothing
    /// between them can be computed (transforms interpolate their
    /// decompositions instead; what they give is kept finite where written).
    static func requireSpan(_ a: AnimatableValue, _ b: AnimatableValue, _ what: @autoclosure () -> String) throws(AnimrtError) {
        guard a.kind != .transform else { return }
        let d = b.lanes - a.lanes
        for k in 0..<a.kind.componentCount where !d[k].isFinite {
            throw AnimrtError(.outOfRange, "\(what()) are too far apart: component \(k) goes from \(a.lanes[k]) to \(b.lanes[k]), a difference larger than the largest double")
        }
    }

    static func validate(keyTimes: [Double], valueCount n: Int, mode: CalculationMode, path: String) throws(AnimrtError) {
        let allowed = mode.keyTimeCounts(values: n)
        let what = "keyTimes for '\(path)'"
        guard allowed.contains(keyTimes.count) else {
            throw AnimrtError(.invalidArgument, "\(what) has \(counted(keyTimes.count, "entry", plural: "entries")) for \(counted(n, "value")); \(modeName(mode)) mode needs \(mode.keyTimeCountWords(values: n))")
        }
        for (i, t) in keyTimes.enumerated() {
            guard t.isFinite, (0...1).contains(t) else {
                throw AnimrtError(.outOfRange, "\(what): entry \(i) is \(t); every key time must be in [0, 1]")
            }
            if i > 0 && t < keyTimes[i - 1] {
                throw AnimrtError(.invalidArgument, "\(what): entry \(i) (\(t)) is before entry \(i - 1) (\(keyTimes[i - 1])); key times must not decrease")
            }
        }
        guard keyTimes.first == 0 else {
            throw AnimrtError(.invalidArgument, "\(what) starts at \(keyTimes[0]); the first key time must be 0")
        }
        if keyTimes.count == (mode == .discrete ? n + 1 : n), n > 1 || mode == .discrete, keyTimes.last != 1 {
            throw AnimrtError(.invalidArgument, "\(what) ends at \(keyTimes.last!); the last key time must be 1")
        }
    }

    /// Each transform's translation, scale and angles in lanes 0–8; nil
    /// when one has perspective, skew or a zero scale.
    static func decompositions(_ values: [AnimatableValue]) -> [AnimatableValue]? {
        var out: [AnimatableValue] = []
        for v in values {
            guard let c = TransformComponents(v.transform) else { return nil }
            var lanes = SIMD16<Double>()
            for k in 0..<3 { lanes[k] = c.translation[k]; lanes[3 + k] = c.scale[k]; lanes[6 + k] = c.rotation[k] }
            out.append(AnimatableValue(kind: .transform, lanes: lanes))
        }
        return out
    }

    /// The cubic segment `seg` through `points` at parameter `u`, as a
    /// value: a decomposition (`splinePoints`) is composed back into its
    /// matrix.
    static func spline(_ points: [AnimatableValue], _ out: [AnimatableValue], _ inc: [AnimatableValue],
                       _ seg: Int, _ u: Double, decomposed: Bool) -> AnimatableValue {
        let v = hermite(points[seg], points[seg + 1], out[seg], inc[seg + 1], u)
        guard decomposed else { return v }
        var c = TransformComponents()
        for k in 0..<3 { c.translation[k] = v.lanes[k]; c.scale[k] = v.lanes[3 + k]; c.rotation[k] = v.lanes[6 + k] }
        return .transform(c.matrix)
    }

    /// The keyframes' cubic segment `seg` at parameter `u`.
    func spline(_ seg: Int, _ u: Double) -> AnimatableValue {
        ResolvedKeyframes.spline(splinePoints ?? values, outgoing, incoming, seg, u, decomposed: splinePoints != nil)
    }

    /// d/du of `spline(seg, u)`: the Hermite derivative, or for a
    /// decomposition a central difference of the matrices it composes
    /// (whole transforms are differentiated numerically, as
    /// `interpolationRate` does).
    func splineRate(_ seg: Int, _ u: Double) -> AnimatableValue {
        guard splinePoints == nil else {
            let h = 1e-6
            return AnimatableValue(kind: .transform, lanes: (spline(seg, u + h).lanes - spline(seg, u - h).lanes) / (2 * h))
        }
        return ResolvedKeyframes.hermiteRate(values[seg], values[seg + 1], outgoing[seg], incoming[seg + 1], u)
    }

    static func modeName(_ m: CalculationMode) -> String {
        switch m { case .linear: "linear"; case .discrete: "discrete"; case .paced: "paced"; case .cubic: "cubic"; case .cubicPaced: "cubicPaced" }
    }

    static func hermite(_ p0: AnimatableValue, _ p1: AnimatableValue, _ m0: AnimatableValue, _ m1: AnimatableValue,
                        _ u: Double) -> AnimatableValue {
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return AnimatableValue(kind: p0.kind, lanes: p0.lanes * h00 + m0.lanes * h10 + p1.lanes * h01 + m1.lanes * h11)
    }

    /// d/du of the Hermite segment at `u`.
    static func hermiteRate(_ p0: AnimatableValue, _ p1: AnimatableValue, _ m0: AnimatableValue, _ m1: AnimatableValue,
                            _ u: Double) -> AnimatableValue {
        let u2 = u * u
        let d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u
        return AnimatableValue(kind: p0.kind, lanes: p0.lanes * d00 + m0.lanes * d10 + p1.lanes * d01 + m1.lanes * d11)
    }

    /// The key `i` in 0 ... `last` whose interval holds `y`: the last with
    /// keyTimes[i] ≤ y (0 when none is, or `y` is NaN). Key times never
    /// decrease, so it is searched, not scanned.
    @inline(__always)
    func keyIndex(at y: Double, last: Int) -> Int {
        partitionPoint(1..<(last + 1)) { keyTimes[$0] <= y } - 1
    }

    /// The first entry j in 1 ..< arcTable.count − 1 whose length reaches
    /// `target` (the last when none does): lengths never decrease.
    @inline(__always)
    func arcIndex(reaching target: Double) -> Int {
        partitionPoint(1..<(arcTable.count - 1)) { arcTable[$0].length < target }
    }

    /// The keyframe value at (eased) progress `y`.
    func value(at y: Double) -> AnimatableValue {
        let n = values.count
        if n == 1 || y.isNaN { return values[0] }
        if let g = geometry { return pathValue(g, at: y) }
        switch mode {
        case .discrete:
            return values[keyIndex(at: y, last: n - 1)]
        case .cubicPaced:
            let total = arcTable.last!.length
            let target = y * total
            let j = arcIndex(reaching: target)
            let (u0, l0) = arcTable[j - 1], (u1, l1) = arcTable[j]
            let u = l1 > l0 ? u0 + (u1 - u0) * (target - l0) / (l1 - l0) : u0
            let seg = clampedIndex(u, upperBound: n - 2)
            return spline(seg, u - Double(seg))
        case .linear, .paced, .cubic:
            let i = keyIndex(at: y, last: n - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            var f = span > 0 ? (y - keyTimes[i]) / span : 1
            if i < functions.count, let fn = functions[i] { f = fn.evaluate(f) }
            if mode == .cubic { return spline(i, f) }
            return values[i].interpolated(to: values[i + 1], f)
        }
    }
}
