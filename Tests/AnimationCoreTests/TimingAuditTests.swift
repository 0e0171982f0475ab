import Testing
@testable import AnimationCore

/// The edges of the media timing model that the rest of the suite left
/// open (an audit of Sources/AnimationCore/Timing, docs/mutants.md). Every
/// expected value is worked out by hand from WA1 and docs/timing.md.
@Suite("R1.2 timing audit")
struct TimingAuditTests {
    /// WA1: end time = max(delay + active duration + endDelay, 0). An end
    /// delay of −3 on a 1 s play cuts all of it: the end time is 0, not −2,
    /// and computed timing says so.
    @Test("The end time is never negative")
    func endTimeNotNegative() throws {
        let t = MediaTiming.webAnimations(duration: 1, endDelay: -3)
        #expect(t.model.endTime == 0)
        let rt = Runtime(); let l = try rt.createLayer()
        var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: t)
        a.isRemovedOnCompletion = false
        let h = try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        #expect(try rt.computedTiming(of: h).endTime == 0)
    }

    /// delay 2, duration 1, endDelay −2.5: the end time is 0.5, so the
    /// active interval is clipped to [0.5, 0.5] (both boundaries are
    /// max(min(…, end time), 0)). At local 0.6 the effect is after it, and
    /// its forwards fill holds active time max(min(0.5 − 2, 1), 0) = 0:
    /// progress 0, never a negative active time. Before 0.5 it is before,
    /// and the backwards fill shows the same first frame. It never runs,
    /// so it ends without starting.
    @Test("An end delay that cuts the play before its delay holds the first frame after it")
    func endDelayBeforeDelay() {
        let t = MediaTiming.webAnimations(duration: 1, fill: .both, delay: 2, endDelay: -2.5)
        #expect(t.model.activeStart == 0.5 && t.model.activeEnd == 0.5)
        let after = t.sample(at: 0.6)
        #expect(after.phase == .after)
        #expect(after.activeTime == 0)
        #expect(after.directedProgress == 0)
        #expect(t.sampleAndState(at: 0.6).1 == .ended)
        let before = t.sample(at: 0.25)
        #expect(before.phase == .before)
        #expect(before.directedProgress == 0)
        #expect(t.sampleAndState(at: 0.25).1 == .waiting)
    }

    /// A zero-length iteration: WA1 takes the overall progress as 0 before
    /// the active interval and as the iteration count after it. Three
    /// alternating iterations, delay 1: before (local 0.5) iteration 0 at
    /// progress 0; after (local 1.5) overall 3, the end of iteration 2,
    /// which plays forwards: progress 1.
    @Test("A zero-length iteration filling backwards shows its start")
    func zeroDurationBeforeFill() {
        let t = MediaTiming.webAnimations(duration: 0, iterations: 3, direction: .alternate, fill: .both, delay: 1)
        let before = t.sample(at: 0.5)
        #expect(before.phase == .before)
        #expect(before.currentIteration == 0)
        #expect(before.directedProgress == 0)
        let after = t.sample(at: 1.5)
        #expect(after.phase == .after)
        #expect(after.currentIteration == 2)
        #expect(after.directedProgress == 1)
    }

    /// A timed layer of three 1 s iterations whose parent goes from 0.7 to
    /// 2.2 between two ticks has gone through every time of an iteration:
    /// the rest of the first (0.7 → 1), all of the second, the start of the
    /// third (0 → 0.2). Its time 0.5 is among them.
    @Test("A timed layer crossing two iteration boundaries goes through the whole iteration")
    func piecesAcrossTwoBoundaries() {
        let m = TimingModel(iterationDuration: 1, iterationCount: 3)
        let pieces = m.directedProgressPieces(from: 0.7, to: 2.2)
        #expect(pieces.count == 1 && pieces[0].lower == 0 && pieces[0].upper == 1)
        let layer = MediaTiming(duration: 1, repeatCount: 3)
        #expect(layer.layerChildTimePieces(between: 0.7, and: 2.2).contains { $0.lower <= 0.5 && 0.5 <= $0.upper })
    }

    /// CAMediaTiming: a fractional repeatCount plays that fraction; 0.5 of
    /// a 2 s animation plays its first half (1 s) and a forwards fill holds
    /// progress 0.5, the frame where it stopped.
    @Test("A repeatCount of 0.5 plays half an iteration")
    func halfRepeat() throws {
        let t = MediaTiming(duration: 2, repeatCount: 0.5, fillMode: .forwards)
        #expect(t.activeDuration == 1)
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1, duration: 2, fill: .forwards)
        a.timing.repeatCount = 0.5; a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        for (time, v) in [(0.5, 0.25), (1.0, 0.5), (3.0, 0.5)] {
            try rt.tick(time)
            #expect(try rt.scalar("opacity", l) == v, "t = \(time)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// Playing backwards (rate −1) with delay −0.5 over 1 s: the end time is
    /// 0.5, local time runs 0.5 → 0 (active time 1 → 0.5) and playback stops
    /// at local 0, where WA1 holds its current time. The backwards fill
    /// keeps active time 0 − (−0.5) = 0.5: progress 0.5, at the frame where
    /// the play stopped, however late.
    @Test("A backwards play with a negative delay fills where it stopped")
    func backwardsNegativeDelayFill() {
        let t = MediaTiming.webAnimations(duration: 1, fill: .both, delay: -0.5, playbackRate: -1)
        #expect(t.sample(at: 0).directedProgress == 1)
        #expect(t.sample(at: 0.25).directedProgress == 0.75)
        for time in [0.5, 2, 100] {
            let s = t.sample(at: time)
            #expect(s.phase == .before, "t = \(time)")
            #expect(s.directedProgress == 0.5, "t = \(time)")
        }
    }

    /// docs/timing.md: duration 1 with timeOffset 0.5 plays 0.5 → 1, wraps
    /// to 0 → 0.5, then fills at 1 (timeOffset no longer applies after the
    /// active interval).
    @Test("A forwards fill after an offset play shows the end")
    func offsetThenFill() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1, fill: .forwards)
        a.timing.timeOffset = 0.5; a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        for (time, v) in [(0.25, 0.75), (0.75, 0.25), (1.0, 1.0), (4.0, 1.0)] {
            try rt.tick(time)
            #expect(try rt.scalar("opacity", l) == v, "t = \(time)")
        }
    }

    /// Paused (speed 0), local time 0; delay −0.5 puts it in the active
    /// interval [0, 0.5) at active time 0.5. An offset of −0.5 lands on
    /// active time 0, the start: progress 0, in effect. An offset of +0.5
    /// lands on the end (1): paused on the end, no fill, nothing shows.
    @Test("Paused on the start is not paused on the end")
    func pausedOnStart() {
        var t = MediaTiming(duration: 1, speed: 0, timeOffset: -0.5)
        t.delay = -0.5
        let start = t.sample(at: 7)
        #expect(start.phase == .active)
        #expect(start.directedProgress == 0)
        t.timeOffset = 0.5
        let end = t.sample(at: 7)
        #expect(end.phase == .after)
        #expect(end.directedProgress == nil)
    }

    /// A zero-length iteration has nothing to wrap an offset around: before
    /// its delay, filling backwards, it shows progress 0 with a timeOffset
    /// as without one (a remainder modulo 0 would be NaN, not in effect).
    @Test("A zero-length animation with a timeOffset still fills")
    func zeroLengthOffset() {
        var t = MediaTiming.webAnimations(duration: 0, fill: .both, delay: 1)
        t.timeOffset = 0.2
        let s = t.sample(at: 0.5)
        #expect(s.phase == .before)
        #expect(s.directedProgress == 0)
        #expect(t.sample(at: 2).directedProgress == 1)
    }

    /// Core Animation's and Web Animations' names for the count replace
    /// each other, the last one set winning: 4 exact iterations of 1 s,
    /// then repeatDuration 2, is 2 / 1 = 2 iterations over 2 s; then
    /// iterations 3 and repeatCount 5 is 5.
    @Test("repeatDuration and repeatCount replace exact iterations")
    func repeatReplacesIterations() throws {
        var t = MediaTiming(duration: 1)
        try t.set(.iterations, 4)
        #expect(t.activeDuration == 4)
        try t.set(.repeatDuration, 2)
        #expect(t.iterations == nil)
        #expect(t[.iterations] == 2)
        #expect(t.activeDuration == 2)
        try t.set(.repeatDuration, 0)
        try t.set(.iterations, 3)
        try t.set(.repeatCount, 5)
        #expect(t[.iterations] == 5)
        #expect(t.activeDuration == 5)
    }

    /// CAMediaTiming's local time of a timed layer is (t − beginTime) ×
    /// speed + timeOffset: duration 2 and timeOffset 0.5 make runtime time
    /// 1 local 1.5, and back. Playing backwards (speed −1) it counts down
    /// from the end time 2: runtime time 1.5 is local 0.5, and back.
    @Test("convertTime through a timed layer applies its offset and inverts a backwards play")
    func timedLayerConvert() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 2, timeOffset: 0.5), of: a)
        #expect(try rt.convertTime(1, from: nil, to: a) == 1.5)
        #expect(try rt.convertTime(1.5, from: a, to: nil) == 1)
        try rt.setMediaTiming(MediaTiming(duration: 2, speed: -1), of: b)
        #expect(try rt.convertTime(1.5, from: nil, to: b) == 0.5)
        #expect(try rt.convertTime(0.5, from: b, to: nil) == 1.5)
    }
}
