/// The kinds of animatable values. Raw values are part of the C ABI.
public enum ValueKind: Int32, Sendable, CaseIterable {
    case scalar = 0, point, size, rect, color, transform

    /// How many doubles make one value: 1, 2, 2, 4 (x, y, width, height),
    /// 4 (r, g, b, a) and 16 (m11 … m44, row-major).
    public var componentCount: Int {
        switch self {
        case .scalar: 1
        case .point, .size: 2
        case .rect, .color: 4
        case .transform: 16
        }
    }

    public var name: String {
        switch self {
        case .scalar: "scalar"; case .point: "point"; case .size: "size"
        case .rect: "rect"; case .color: "color"; case .transform: "transform"
        }
    }
}

/// One animatable value: a kind and up to 16 components stored inline
/// (no allocation). Unused lanes are zero.
public struct AnimatableValue: Hashable, Sendable, CustomStringConvertible {
    public let kind: ValueKind
    public var lanes: SIMD16<Double>

    public init(kind: ValueKind, lanes: SIMD16<Double>) {
        self.kind = kind
        self.lanes = lanes
    }

    /// A value from exactly `kind.componentCount` components.
    public init(kind: ValueKind, components: some Collection<Double>) throws(AnimrtError) {
        guard components.count == kind.componentCount else {
            throw AnimrtError(.kind, "a \(kind.name) has \(kind.componentCount) component\(kind.componentCount == 1 ? "" : "s"), got \(components.count)")
        }
        var lanes = SIMD16<Double>()
        var i = 0
        for c in components {
            guard c.isFinite else { throw AnimrtError(.invalidArgument, "component \(i) of the \(kind.name) is \(c); components must be finite") }
            lanes[i] = c
            i += 1
        }
        self.init(kind: kind, lanes: lanes)
    }

    @inlinable
    public static func scalar(_ v: Double) -> AnimatableValue {
        var lanes = SIMD16<Double>()
        lanes[0] = v
        return AnimatableValue(kind: .scalar, lanes: lanes)
    }
    public static func point(_ x: Double, _ y: Double) -> AnimatableValue { make(.point, [x, y]) }
    public static func size(_ w: Double, _ h: Double) -> AnimatableValue { make(.size, [w, h]) }
    public static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> AnimatableValue { make(.rect, [x, y, w, h]) }
    public static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> AnimatableValue { make(.color, [r, g, b, a]) }
    public static func transform(_ t: Transform3D) -> AnimatableValue { AnimatableValue(kind: .transform, lanes: t.m) }

    static func make(_ kind: ValueKind, _ c: [Double]) -> AnimatableValue {
        var lanes = SIMD16<Double>()
        for (i, v) in c.enumerated() { lanes[i] = v }
        return AnimatableValue(kind: kind, lanes: lanes)
    }

    /// The first `kind.componentCount` lanes.
    public var components: [Double] { (0..<kind.componentCount).map { lanes[$0] } }
    /// The scalar (lane 0).
    public var scalar: Double { lanes[0] }
    public var transform: Transform3D { Transform3D(m: lanes) }

    public var description: String { "\(kind.name)(\(components.map { "\($0)" }.joined(separator: ", ")))" }

    /// The additive operation of the kind: component-wise, except transforms,
    /// which concatenate (`other` applied first, then `self`).
    public func adding(_ other: AnimatableValue) -> AnimatableValue {
        if kind == .transform { return .transform(other.transform.concatenating(transform)) }
        return AnimatableValue(kind: kind, lanes: lanes + other.lanes)
    }

    /// The inverse of `adding` (transforms: `self` with `other` undone).
    public func subtracting(_ other: AnimatableValue) -> AnimatableValue {
        if kind == .transform { return .transform(other.transform.inverted().concatenating(transform)) }
        return AnimatableValue(kind: kind, lanes: lanes - other.lanes)
    }

    /// `self` added to itself `n` times (cumulative animations; a
    /// fractional `n` counts as the next whole number for transforms).
    public func repeated(_ n: Double) -> AnimatableValue {
        if kind == .transform && n.isFinite {
            // Square and multiply: about 2 × log2(n) products (at most ~2100
            // for any double), where repeated concatenation would take n.
            var result = Transform3D.identity, power = transform
            var k = n.rounded(.up)
            while k >= 1 {
                if k.truncatingRemainder(dividingBy: 2) == 1 { result = result.concatenating(power) }
                k = (k / 2).rounded(.down)
                if k >= 1 { power = power.concatenating(power) }
            }
            return .transform(result)
        }
        return AnimatableValue(kind: kind, lanes: lanes * n)
    }

    /// Interpolation at fraction `t` (unclamped: overshooting curves extrapolate).
    /// Transforms interpolate their decomposition (translation, scale,
    /// rotation) when both ends decompose, and component-wise otherwise.
    public func interpolated(to other: AnimatableValue, _ t: Double) -> AnimatableValue {
        if kind == .transform, let a = TransformComponents(transform), let b = TransformComponents(other.transform) {
            return .transform(a.interpolated(to: b, t).matrix)
        }
        return AnimatableValue(kind: kind, lanes: lanes + (other.lanes - lanes) * t)
    }

    /// Euclidean distance between two values (paced keyframes), scaled so
    /// that it neither overflows nor underflows where the result fits:
    /// points 1e160 apart are 1e160 apart, not infinitely far.
    public func distance(to other: AnimatableValue) -> Double {
        let d = other.lanes - lanes
        let scale = d.replacing(with: -d, where: d .< 0).max()
        guard scale > 0 && scale.isFinite else { return scale.isNaN ? .infinity : scale }
        let u = d / scale
        return scale * (u * u).sum().squareRoot()
    }
}
