import Testing
@testable import AnimationCore

/// Each media timing field on a 2 s animation begun at 10, so that a field
/// read in the wrong unit (iterations for seconds, or the reverse) cannot
/// pass by accident as it can with a 1 s duration. Expected progress from
/// CAMediaTiming's t = (parent − begin) × speed + offset and the Web
/// Animations stages (docs/timing.md).
@Suite("R1.2 each media timing field, with a duration other than 1")
struct MediaTimingFieldTests {
    static func progress(_ configure: (inout MediaTiming) -> Void, at t: Double) -> Double? {
        var timing = MediaTiming(beginTime: 10, duration: 2)
        configure(&timing)
        return timing.sample(at: t).directedProgress
    }

    @Test("repeatDuration is seconds: 3 s of a 2 s animation is 1.5 iterations")
    func repeatDuration() {
        #expect(Self.progress({ $0.repeatDuration = 3 }, at: 12.5) == 0.25)
        #expect(Self.progress({ $0.repeatDuration = 3 }, at: 13) == nil)
        #expect(Self.progress({ $0.repeatDuration = 3; $0.fillMode = .forwards }, at: 20) == 0.5)
        #expect(MediaTiming(duration: 2, repeatDuration: 3).activeDuration == 3)
        #expect(MediaTiming(duration: 2, repeatDuration: 3, autoreverses: true).activeDuration == 3)  // not doubled
    }

    @Test("repeatCount is iterations: 1.5 of 2 s is 3 s, doubled by autoreverses")
    func repeatCount() {
        #expect(Self.progress({ $0.repeatCount = 1.5 }, at: 12.5) == 0.25)
        #expect(Self.progress({ $0.repeatCount = 1.5; $0.fillMode = .forwards }, at: 13) == 0.5)
        #expect(MediaTiming(duration: 2, repeatCount: 1.5, autoreverses: true).activeDuration == 6)
    }

    @Test("timeOffset is seconds of active time and wraps at the active duration")
    func timeOffset() {
        #expect(Self.progress({ $0.timeOffset = 0.5 }, at: 10) == 0.25)
        #expect(Self.progress({ $0.timeOffset = 0.5 }, at: 11.75) == 0.125)  // 2.25 wraps to 0.25
        #expect(Self.progress({ $0.timeOffset = 0.5 }, at: 12) == nil)       // still 2 s long
    }

    @Test("speed scales parent time; a negative speed plays from the end")
    func speed() {
        #expect(Self.progress({ $0.speed = 2 }, at: 10.5) == 0.5)
        #expect(Self.progress({ $0.speed = 2 }, at: 11) == nil)
        #expect(Self.progress({ $0.speed = -2 }, at: 10.5) == 0.5)
        #expect(Self.progress({ $0.speed = -2 }, at: 10.25) == 0.75)
        #expect(Self.progress({ $0.speed = -2 }, at: 11) == nil)
        #expect(Self.progress({ $0.speed = 0.5 }, at: 12) == 0.5)
    }

    @Test("iterationStart is iterations: 0.5 starts half way into the 2 s")
    func iterationStart() {
        #expect(Self.progress({ $0.iterationStart = 0.5 }, at: 10) == 0.5)
        #expect(Self.progress({ $0.iterationStart = 0.5 }, at: 11) == 0)
        #expect(Self.progress({ $0.iterationStart = 0.5 }, at: 11.5) == 0.25)
    }

    @Test("endDelay moves the end, not the active interval")
    func endDelay() {
        var t = MediaTiming(beginTime: 10, duration: 2)
        t.endDelay = 1
        #expect(t.model.endTime == 3)
        #expect(t.activeDuration == 2)
        #expect(t.sample(at: 11.5).directedProgress == 0.75)
        t.endDelay = -0.5  // cuts the active interval short
        #expect(t.model.endTime == 1.5)
        #expect(t.sample(at: 11.25).directedProgress == 0.625)
        #expect(t.sample(at: 11.5).directedProgress == nil)
    }
}
