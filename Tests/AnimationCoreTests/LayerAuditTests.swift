import Testing
@testable import AnimationCore

@Suite("Layer trees at the edges of the doubles")
struct LayerAuditTests {
    /// Speeds whose product overflows a double (10^200 × 10^200) still give
    /// a spring a finite velocity in its own time, so a retarget under them
    /// carries it: the spring goes on from the value it showed, not from a
    /// NaN velocity that hid it behind the model value.
    @Test("Retargeting a spring under layer speeds whose product overflows")
    func retargetUnderOverflowingRate() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer(parent: a), c = try rt.createLayer(parent: b)
        try rt.setTiming(LayerTiming(beginTime: 0, speed: 1e200, timeOffset: 0), of: a)
        try rt.setTiming(LayerTiming(beginTime: 0, speed: 1e200, timeOffset: 0), of: b)
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        let h = try rt.add(.spring("position.x", spring, from: .scalar(0), to: .scalar(100), timing: MediaTiming(duration: 1e300)),
                           to: c, forKey: "s")
        try rt.tick(0); try rt.tick(1e-200)
        #expect(try rt.scalar("position.x", c) == 100)
        try rt.retarget(h, to: .scalar(5))
        try rt.tick(1e-200)
        #expect(try rt.scalar("position.x", c) == 100)
        #expect(try rt.velocity(of: h).scalar.isFinite)
        try rt.tick(2e-200)
        #expect(try rt.scalar("position.x", c) == 5)
    }
}

@Suite("Transform parts of large scales")
struct LargeScaleTransformTests {
    /// A scale past 1.3e154 squares past the doubles: decomposing measured
    /// a row's length as the root of its squared components, so it read as
    /// infinite. It reads back as set, and the other parts can still be set.
    @Test("A transform scaled by 1e200 decomposes and recomposes")
    func largeScaleParts() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(1e200), forKeyPath: "transform.scale.x", of: l)
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l).scalar == 1e200)
        try rt.setModelValue(.scalar(Double.pi / 2), forKeyPath: "transform.rotation.z", of: l)
        let m = try rt.modelValue(forKeyPath: "transform", of: l)
        expectClose(m.lanes[0], 0, 1e185)
        expectClose(m.lanes[1], 1e200, 1e185)
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l).scalar == 1e200)
        expectClose(try rt.modelValue(forKeyPath: "transform.rotation.z", of: l).scalar, Double.pi / 2, 1e-15)
    }
}
