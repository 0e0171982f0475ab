import Testing
@testable import AnimationCore

/// The arithmetic of values (`Values/`): transform products, inverses and
/// powers, decompositions, distances, the checks on components, and what
/// each sub key path reads and writes. Every expected value is worked out
/// by hand from Core Animation's layout (row vectors, translation in m41
/// m42 m43, `CATransform3DMakeRotation`'s signs), not read from the code.
@Suite("Value arithmetic: transforms, decompositions, distances, sub key paths")
struct ValueArithmeticTests {
    static func expectMatrix(_ a: Transform3D, _ rows: [[Double]], _ tolerance: Double = 1e-12,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        for r in 0..<4 {
            for c in 0..<4 { expectClose(a[r, c], rows[r][c], tolerance, "m\(r + 1)\(c + 1)", sourceLocation: sourceLocation) }
        }
    }

    /// Rotations about one axis as CATransform3DMakeRotation writes them.
    static func rotationX(_ a: Double) -> Transform3D {
        Transform3D(m: [1, 0, 0, 0, 0, _cos(a), _sin(a), 0, 0, -_sin(a), _cos(a), 0, 0, 0, 0, 1])
    }
    static func rotationY(_ a: Double) -> Transform3D {
        Transform3D(m: [_cos(a), 0, -_sin(a), 0, 0, 1, 0, 0, _sin(a), 0, _cos(a), 0, 0, 0, 0, 1])
    }

    @Test("a.concatenating(b) applies a first, then b (CATransform3DConcat)")
    func concatenationOrder() {
        let t = Transform3D.translation(10, 0), r = Transform3D.rotationZ(.pi / 2)
        // Translate then turn a quarter: the translation turns with the rest, to (0, 10).
        Self.expectMatrix(t.concatenating(r), [[0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 1, 0], [0, 10, 0, 1]])
        // Turn then translate: the translation stays (10, 0).
        Self.expectMatrix(r.concatenating(t), [[0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 1, 0], [10, 0, 0, 1]])
    }

    @Test("an additive transform applies first, then the value below (docs/timing.md)")
    func additiveTransformOrder() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.transform(.translation(10, 0)), forKeyPath: "transform", of: l)
        var a = Animation.basic("transform", from: .transform(.rotationZ(.pi / 2)), to: .transform(.rotationZ(.pi / 2)),
                                timing: MediaTiming(duration: 1))
        a.isAdditive = true
        try rt.add(a, to: l, forKey: "turn")
        try rt.tick(0); try rt.tick(0.5)
        // Rotation first, then the model's translation: translation stays (10, 0).
        Self.expectMatrix(try rt.presentationValue(forKeyPath: "transform", of: l).transform,
                          [[0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 1, 0], [10, 0, 0, 1]])
        // The value level: `other` first, then `self`.
        let sum = AnimatableValue.transform(.translation(10, 0)).adding(.transform(.rotationZ(.pi / 2)))
        Self.expectMatrix(sum.transform, [[0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 1, 0], [10, 0, 0, 1]])
    }

    @Test("subtracting undoes adding: the other transform's inverse first")
    func transformSubtraction() {
        let t = AnimatableValue.transform(.translation(10, 0)), r = AnimatableValue.transform(.rotationZ(.pi / 2))
        // R⁻¹ (a quarter turn back) then T.
        Self.expectMatrix(t.subtracting(r).transform, [[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [10, 0, 0, 1]])
        Self.expectMatrix(t.adding(r).subtracting(r).transform, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [10, 0, 0, 1]])
        #expect(AnimatableValue.point(5, 7).subtracting(.point(2, 10)) == .point(3, -3))
    }

    @Test("inverted: pivots past a zero on the diagonal; a singular matrix gives identity")
    func inversion() {
        // Swapping x and y is its own inverse; its m11 is exactly 0.
        let swap = Transform3D(m: [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(swap.inverted() == swap)
        let m = Transform3D.scale(2, 4, 8).concatenating(.translation(1, 2, 3))
        Self.expectMatrix(m.inverted(), [[0.5, 0, 0, 0], [0, 0.25, 0, 0], [0, 0, 0.125, 0], [-0.5, -0.5, -0.375, 1]])
        #expect(Transform3D.scale(0, 1, 1).inverted() == .identity)
    }

    @Test("repeated(n) of a transform is n products; a fraction counts as the next whole number",
          arguments: [(0.0, 0.0), (1, 1), (2, 2), (3, 3), (5, 5), (6, 6), (7, 7), (12, 12), (2.5, 3), (0.25, 1)])
    func transformPowers(_ n: Double, _ whole: Double) {
        let v = AnimatableValue.transform(.translation(1, -2, 0.5)).repeated(n)
        Self.expectMatrix(v.transform, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [whole, -2 * whole, 0.5 * whole, 1]])
    }

    @Test("distance: the Euclidean length of the difference, without overflow or underflow")
    func distances() {
        #expect(AnimatableValue.point(5, 5).distance(to: .point(2, 1)) == 5)
        #expect(AnimatableValue.scalar(4).distance(to: .scalar(-3)) == 7)
        expectClose(AnimatableValue.point(0, 0).distance(to: .point(3e160, 4e160)), 5e160, 1e145)
        expectClose(AnimatableValue.point(0, 0).distance(to: .point(3e-170, 4e-170)), 5e-170, 1e-185)
        #expect(AnimatableValue.point(1, 1).distance(to: .point(1, 1)) == 0)
    }

    @Test("a value from components: exactly the kind's count, every one finite")
    func componentChecks() throws {
        #expect(try AnimatableValue(kind: .rect, components: [1, 2, 3, 4]) == .rect(1, 2, 3, 4))
        expectFailure(.kind, containing: "a point has 2 components, got 3") {
            _ = try AnimatableValue(kind: .point, components: [1, 2, 3])
        }
        expectFailure(.kind, containing: "a scalar has 1 component, got 2") {
            _ = try AnimatableValue(kind: .scalar, components: [1, 2])
        }
        expectFailure(.kind, containing: "a color has 4 components, got 3") {
            _ = try AnimatableValue(kind: .color, components: [1, 2, 3])
        }
        expectFailure(.invalidArgument, containing: "component 1 of the point is nan") {
            _ = try AnimatableValue(kind: .point, components: [0, .nan])
        }
        expectFailure(.invalidArgument, containing: "component 3 of the rect is inf") {
            _ = try AnimatableValue(kind: .rect, components: [0, 0, 0, .infinity])
        }
    }

    @Test("single-axis rotations decompose to their angle; the matrix of the parts is S·Rx·Ry·Rz·T")
    func decomposition() throws {
        let x = try #require(TransformComponents(Self.rotationX(0.4)))
        expectClose(x.rotation[0], 0.4, 1e-12); expectClose(x.rotation[1], 0, 1e-12); expectClose(x.rotation[2], 0, 1e-12)
        let y = try #require(TransformComponents(Self.rotationY(0.3)))
        expectClose(y.rotation[0], 0, 1e-12); expectClose(y.rotation[1], 0.3, 1e-12); expectClose(y.rotation[2], 0, 1e-12)
        var c = TransformComponents()
        c.translation = [5, 6, 7]; c.scale = [2, 3, 4]; c.rotation = [0.4, 0.3, 0.2]
        let expected = Transform3D.scale(2, 3, 4).concatenating(Self.rotationX(0.4)).concatenating(Self.rotationY(0.3))
            .concatenating(.rotationZ(0.2)).concatenating(.translation(5, 6, 7))
        for k in 0..<16 { expectClose(c.matrix.m[k], expected.m[k], 1e-12, "m[\(k)]") }
        let back = try #require(TransformComponents(c.matrix))
        for k in 0..<3 {
            expectClose(back.translation[k], c.translation[k], 1e-12)
            expectClose(back.scale[k], c.scale[k], 1e-12)
            expectClose(back.rotation[k], c.rotation[k], 1e-12)
        }
    }

    @Test("at y = ±90° (gimbal lock) the x and z turns show as x, with y's sign kept", arguments: [1.0, -1.0])
    func gimbalLock(_ sign: Double) throws {
        var c = TransformComponents()
        c.rotation = [0.3, sign * .pi / 2, 0]
        let back = try #require(TransformComponents(c.matrix))
        expectClose(back.rotation[1], sign * .pi / 2, 1e-12)
        expectClose(back.rotation[0], 0.3, 1e-9)
        expectClose(back.rotation[2], 0, 1e-12)
    }

    @Test("a reflection folds into scale.x: the matrix it rebuilds is the reflection")
    func reflection() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.transform(.scale(-1, 1, 1)), forKeyPath: "transform", of: l)
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l) == .scalar(-1))
        #expect(try rt.modelValue(forKeyPath: "transform.rotation.z", of: l) == .scalar(0))
        // Writing another part keeps the reflection.
        try rt.setModelValue(.scalar(5), forKeyPath: "transform.translation.x", of: l)
        Self.expectMatrix(try rt.modelValue(forKeyPath: "transform", of: l).transform,
                          [[-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [5, 0, 0, 1]])
    }

    @Test("skew and perspective do not decompose: such ends interpolate component by component")
    func componentwiseInterpolation() {
        var shear = Transform3D.identity; shear[1, 0] = 1
        #expect(TransformComponents(shear) == nil)
        let s = AnimatableValue.transform(.identity).interpolated(to: .transform(shear), 0.5).transform
        Self.expectMatrix(s, [[1, 0, 0, 0], [0.5, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
        var perspective = Transform3D.identity; perspective[2, 3] = -1.0 / 500
        #expect(TransformComponents(perspective) == nil)
        let p = AnimatableValue.transform(.identity).interpolated(to: .transform(perspective), 0.5).transform
        Self.expectMatrix(p, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -1.0 / 1000], [0, 0, 0, 1]])
    }

    @Test("every sub key path of a rect and a colour reads and writes its own components")
    func rectAndColourParts() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.rect(1, 2, 3, 4), forKeyPath: "bounds", of: l)
        let reads: [(String, AnimatableValue)] = [
            ("bounds.origin", .point(1, 2)), ("bounds.origin.x", .scalar(1)), ("bounds.origin.y", .scalar(2)),
            ("bounds.size", .size(3, 4)), ("bounds.size.width", .scalar(3)), ("bounds.size.height", .scalar(4)),
        ]
        for (path, v) in reads { #expect(try rt.modelValue(forKeyPath: path, of: l) == v, "\(path)") }
        try rt.setModelValue(.scalar(9), forKeyPath: "bounds.origin.y", of: l)
        try rt.setModelValue(.scalar(8), forKeyPath: "bounds.size.height", of: l)
        #expect(try rt.modelValue(forKeyPath: "bounds", of: l) == .rect(1, 9, 3, 8))
        try rt.setModelValue(.color(0.1, 0.2, 0.3, 0.4), forKeyPath: "backgroundColor", of: l)
        for (path, v) in [("red", 0.1), ("green", 0.2), ("blue", 0.3), ("alpha", 0.4)] {
            #expect(try rt.modelValue(forKeyPath: "backgroundColor." + path, of: l) == .scalar(v), "\(path)")
        }
        try rt.setModelValue(.scalar(0.9), forKeyPath: "backgroundColor.alpha", of: l)
        #expect(try rt.modelValue(forKeyPath: "backgroundColor", of: l) == .color(0.1, 0.2, 0.3, 0.9))
    }

    @Test("transform.translation is a size (x, y); scale.y and the translation axes are their own")
    func transformParts() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.size(3, 4), forKeyPath: "transform.translation", of: l)
        try rt.setModelValue(.scalar(5), forKeyPath: "transform.translation.z", of: l)
        try rt.setModelValue(.scalar(3), forKeyPath: "transform.scale.y", of: l)
        Self.expectMatrix(try rt.modelValue(forKeyPath: "transform", of: l).transform,
                          [[1, 0, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [3, 4, 5, 1]])
        #expect(try rt.modelValue(forKeyPath: "transform.translation", of: l) == .size(3, 4))
        #expect(try rt.modelValue(forKeyPath: "transform.translation.y", of: l) == .scalar(4))
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l) == .scalar(1))
        #expect(try rt.modelValue(forKeyPath: "transform.scale.y", of: l) == .scalar(3))
    }

    @Test("a part of a finite matrix whose first row is longer than the largest double reads as the largest double")
    func partReadsFinite() throws {
        var big = Transform3D.identity
        big[0, 0] = 1.5e308; big[0, 1] = 1.5e308  // the row's length, √2 × 1.5e308, overflows
        var registry = PropertyRegistry()
        #expect(try registry.resolve("transform.scale.x").get(.transform(big)) == .scalar(.greatestFiniteMagnitude))
        #expect(try registry.resolve("transform.scale.y").get(.transform(big)) == .scalar(1))
    }

    @Test("a host property's name and initial value are checked; nothing is defined on error")
    func defineChecks() throws {
        let rt = Runtime()
        expectFailure(.invalidArgument, containing: "initial value of 'glow'", "finite") {
            try rt.properties.define("glow", default: .point(1, .nan))
        }
        expectFailure(.invalidArgument, containing: "without dots or spaces") { try rt.properties.define("a b", default: .scalar(0)) }
        expectFailure(.notFound) { _ = try rt.properties.resolve("glow") }
        try rt.properties.define("glow", default: .point(1, 2))
        #expect(try rt.modelValue(forKeyPath: "glow.y", of: try rt.createLayer()) == .scalar(2))
    }

    @Test("a batched animation of one component reads back under that component's key path",
          arguments: ["position.y", "bounds.size.height", "backgroundColor.blue", "opacity"])
    func batchedReadback(_ path: String) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(linear(path, 0, 1), to: l, forKey: "k")
        #expect(rt.attachedCounts.batched == 1)
        #expect(try rt.attachedAnimation(h).keyPath == path)
    }
}
