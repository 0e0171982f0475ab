/// A 4×4 transform in Core Animation's layout: row-major m11 … m44, row
/// vectors, translation in m41 m42 m43. `a.concatenating(b)` applies `a`
/// first, then `b` (`CATransform3DConcat(a, b)`).
public struct Transform3D: Hashable, Sendable {
    public var m: SIMD16<Double>

    public init(m: SIMD16<Double>) { self.m = m }

    public static let identity = Transform3D(m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    @inlinable public subscript(row: Int, column: Int) -> Double {
        get { m[row &* 4 &+ column] }
        set { m[row &* 4 &+ column] = newValue }
    }

    public static func translation(_ x: Double, _ y: Double, _ z: Double = 0) -> Transform3D {
        var t = identity; t[3, 0] = x; t[3, 1] = y; t[3, 2] = z; return t
    }
    public static func scale(_ x: Double, _ y: Double, _ z: Double = 1) -> Transform3D {
        var t = identity; t[0, 0] = x; t[1, 1] = y; t[2, 2] = z; return t
    }
    /// Rotation by `angle` radians about the z axis (positive turns x toward y).
    public static func rotationZ(_ angle: Double) -> Transform3D {
        var t = identity
        let c = _cos(angle), s = _sin(angle)
        t[0, 0] = c; t[0, 1] = s; t[1, 0] = -s; t[1, 1] = c
        return t
    }

    /// `self` then `other`.
    public func concatenating(_ other: Transform3D) -> Transform3D {
        var r = Transform3D(m: SIMD16<Double>())
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += self[i, k] * other[k, j] }
                r[i, j] = s
            }
        }
        return r
    }

    /// The inverse, or identity if the matrix is singular.
    public func inverted() -> Transform3D {
        // Gauss–Jordan elimination with partial pivoting.
        var a = self, inv = Transform3D.identity
        for col in 0..<4 {
            var pivot = col
            for r in col..<4 where abs(a[r, col]) > abs(a[pivot, col]) { pivot = r }
            if abs(a[pivot, col]) < 1e-12 { return .identity }
            if pivot != col {
                for c in 0..<4 {
                    let t = a[col, c]; a[col, c] = a[pivot, c]; a[pivot, c] = t
                    let u = inv[col, c]; inv[col, c] = inv[pivot, c]; inv[pivot, c] = u
                }
            }
            let p = a[col, col]
            for c in 0..<4 { a[col, c] /= p; inv[col, c] /= p }
            for r in 0..<4 where r != col {
                let f = a[r, col]
                if f == 0 { continue }
                for c in 0..<4 { a[r, c] -= f * a[col, c]; inv[r, c] -= f * inv[col, c] }
            }
        }
        return inv
    }
}

/// A transform as translation, scale and rotation (Euler angles about x,
/// then y, then z): `M = S · Rx · Ry · Rz · T` in row-vector order. This is
/// what the `transform.rotation.z`, `transform.scale.x`, … key paths read and
/// write, and what whole-transform animations interpolate.
public struct TransformComponents: Hashable, Sendable {
    public var translation: SIMD3<Double> = [0, 0, 0]
    public var scale: SIMD3<Double> = [1, 1, 1]
    public var rotation: SIMD3<Double> = [0, 0, 0]

    public init() {}

    /// Decomposes `t`; nil when it has perspective, skew or a zero scale.
    public init?(_ t: Transform3D) {
        guard let c = TransformComponents.decompose(t, strict: true) else { return nil }
        self = c
    }

    /// The best decomposition of any matrix: skew and perspective are dropped.
    public static func approximating(_ t: Transform3D) -> TransformComponents {
        decompose(t, strict: false) ?? TransformComponents()
    }

    private static func decompose(_ t: Transform3D, strict: Bool) -> TransformComponents? {
        if strict && (abs(t[0, 3]) > 1e-12 || abs(t[1, 3]) > 1e-12 || abs(t[2, 3]) > 1e-12 || abs(t[3, 3] - 1) > 1e-12) {
            return nil
        }
        var c = TransformComponents()
        c.translation = [t[3, 0], t[3, 1], t[3, 2]]
        var rows = (0..<3).map { r in SIMD3<Double>(t[r, 0], t[r, 1], t[r, 2]) }
        for i in 0..<3 {
            // Scaled by the largest component, so that a row longer than
            // 1.3e154 (whose squares overflow) has its finite length.
            let big = max(abs(rows[i][0]), abs(rows[i][1]), abs(rows[i][2]))
            let scale = big > 0 && big.isFinite ? big : 1
            let u = rows[i] / scale
            let len = scale * (u * u).sum().squareRoot()
            if len < 1e-12 { return nil }
            c.scale[i] = len
            rows[i] /= len
        }
        if strict {
            let d01 = (rows[0] * rows[1]).sum(), d02 = (rows[0] * rows[2]).sum(), d12 = (rows[1] * rows[2]).sum()
            if abs(d01) > 1e-9 || abs(d02) > 1e-9 || abs(d12) > 1e-9 { return nil }
        }
        // A reflection shows as a negative determinant: fold it into scale.x.
        let det = (rows[0] * cross(rows[1], rows[2])).sum()
        if det < 0 { c.scale[0] = -c.scale[0]; rows[0] = -rows[0] }
        let m13 = rows[0][2]
        if abs(m13) < 1 - 1e-12 {
            c.rotation[1] = _asin(-m13)
            c.rotation[2] = _atan2(rows[0][1], rows[0][0])
            c.rotation[0] = _atan2(rows[1][2], rows[2][2])
        } else {
            // Gimbal lock (y = ±90°): put everything into x.
            let sb: Double = m13 < 0 ? 1 : -1
            c.rotation[1] = sb * Double.pi / 2
            c.rotation[2] = 0
            c.rotation[0] = _atan2(rows[1][0] * sb, rows[1][1])
        }
        return c
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    /// The matrix `S · Rx · Ry · Rz · T`.
    public var matrix: Transform3D {
        let (sa, ca) = (_sin(rotation[0]), _cos(rotation[0]))
        let (sb, cb) = (_sin(rotation[1]), _cos(rotation[1]))
        let (sc, cc) = (_sin(rotation[2]), _cos(rotation[2]))
        let r0 = SIMD3<Double>(cb * cc, cb * sc, -sb)
        let r1 = SIMD3<Double>(-ca * sc + sa * sb * cc, ca * cc + sa * sb * sc, sa * cb)
        let r2 = SIMD3<Double>(sa * sc + ca * sb * cc, -sa * cc + ca * sb * sc, ca * cb)
        var t = Transform3D.identity
        for (i, row) in [r0, r1, r2].enumerated() {
            let s = row * scale[i]
            t[i, 0] = s[0]; t[i, 1] = s[1]; t[i, 2] = s[2]
        }
        t[3, 0] = translation[0]; t[3, 1] = translation[1]; t[3, 2] = translation[2]
        return t
    }

    public func interpolated(to o: TransformComponents, _ f: Double) -> TransformComponents {
        var r = TransformComponents()
        r.translation = translation + (o.translation - translation) * f
        r.scale = scale + (o.scale - scale) * f
        r.rotation = rotation + (o.rotation - rotation) * f
        return r
    }
}
