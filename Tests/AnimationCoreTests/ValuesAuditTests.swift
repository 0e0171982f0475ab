import Testing
@testable import AnimationCore

/// The edges of the value types that the rest of the suite left open (an
/// audit of Sources/AnimationCore/Values, docs/mutants.md). Expected values
/// are worked out by hand.
@Suite("R1.6 values audit")
struct ValuesAuditTests {
    /// A point has two components: three is a kind error naming both
    /// counts, not a point that drops the third silently.
    @Test("A value from too many components is refused")
    func tooManyComponents() {
        expectFailure(.kind, exactly: "a point has 2 components, got 3") {
            _ = try AnimatableValue(kind: .point, components: [1, 2, 3])
        }
        #expect((try? AnimatableValue(kind: .point, components: [1, 2])) == .point(1, 2))
    }

    /// Two equal values are 0 apart (paced keyframes with a repeated value),
    /// not 0/0; (0, 0) to (3, 4) is 5.
    @Test("Equal values are 0 apart")
    func zeroDistance() {
        #expect(AnimatableValue.point(3, 4).distance(to: .point(3, 4)) == 0)
        #expect(AnimatableValue.scalar(-2).distance(to: .scalar(-2)) == 0)
        #expect(AnimatableValue.point(0, 0).distance(to: .point(3, 4)) == 5)
    }

    /// Core Animation: transform.scale writes all three factors and reads
    /// their average. 0.215 / 3 summed three times is 0.21500000000000002,
    /// so a uniform scale must read back as the factor itself.
    @Test("A uniform scale reads back exactly and sets z too")
    func uniformScale() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.215), forKeyPath: "transform.scale", of: l)
        #expect(try rt.scalar("transform.scale", l) == 0.215)
        #expect(try rt.scalar("transform.scale.x", l) == 0.215)
        #expect(try rt.scalar("transform.scale.z", l) == 0.215)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l).transform
        #expect(m[0, 0] == 0.215 && m[1, 1] == 0.215 && m[2, 2] == 0.215 && m[3, 3] == 1)
    }

    /// m44 = 2 is a homogeneous scale (perspective row), which the
    /// decomposition cannot hold: halfway from the identity the matrix is
    /// interpolated component-wise, m44 = 1.5 and m11 = 1.
    @Test("A matrix with m44 ≠ 1 interpolates component-wise")
    func homogeneousScale() {
        var m = Transform3D.identity
        m[3, 3] = 2
        let mid = AnimatableValue.transform(.identity).interpolated(to: .transform(m), 0.5).transform
        #expect(mid[3, 3] == 1.5)
        #expect(mid[0, 0] == 1)
    }

    /// The inverse of a singular matrix is the identity (Transform3D): a
    /// translation with a zero scale "subtracted" is the translation, never
    /// a matrix of NaN.
    @Test("Subtracting a singular transform leaves the value")
    func singularSubtract() {
        let v = AnimatableValue.transform(.translation(1, 2))
        #expect(v.subtracting(.transform(.scale(0, 0))) == v)
        #expect(Transform3D.scale(0, 0).inverted() == .identity)
    }

    /// A property name has no dot (the dot separates a sub-path): 'a.b' is
    /// refused with the rule, and nothing is defined, so 'a.b' does not
    /// resolve; an empty name is refused the same way.
    @Test("A property name with a dot is refused")
    func dottedName() {
        var registry = PropertyRegistry()
        let count = registry.properties.count
        expectFailure(.invalidArgument, exactly: "property name 'a.b' must be non-empty, without dots or spaces") {
            try registry.define("a.b", default: .scalar(0))
        }
        expectFailure(.invalidArgument, exactly: "property name '' must be non-empty, without dots or spaces") {
            try registry.define("", default: .scalar(0))
        }
        #expect(registry.properties.count == count)
        expectFailure(.notFound) { _ = try registry.resolve("a.b") }
    }
}
