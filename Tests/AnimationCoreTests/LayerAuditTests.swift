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
