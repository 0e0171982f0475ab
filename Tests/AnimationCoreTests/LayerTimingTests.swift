import Testing
@testable import AnimationCore

/// A layer's media timing (CALayer adopts CAMediaTiming) and time
/// conversion (convertTime(_:from:) / convertTime(_:to:)).
@Suite("R1.2, R1.6 layer time")
struct LayerTimingTests {
    /// Apple's Technical Q&A QA1673, "How to pause the animation of a layer
    /// tree": pause with pausedTime = convertTime(CACurrentMediaTime(),
    /// from: nil); speed = 0; timeOffset = pausedTime. Resume with speed = 1,
    /// timeOffset = 0, beginTime = 0, then beginTime = convertTime(now, from:
    /// nil) − pausedTime.
    func pause(_ rt: Runtime, _ layer: Handle, at now: Double) throws {
        let pausedTime = try rt.convertTime(now, from: nil, to: layer)
        try rt.updateMediaTiming(of: layer) { $0.speed = 0; $0.timeOffset = pausedTime }
    }

    func resume(_ rt: Runtime, _ layer: Handle, at now: Double) throws {
        let pausedTime = try rt.mediaTiming(of: layer).timeOffset
        try rt.updateMediaTiming(of: layer) { $0.speed = 1; $0.timeOffset = 0; $0.beginTime = 0 }
        let timeSincePause = try rt.convertTime(now, from: nil, to: layer) - pausedTime
        try rt.updateMediaTiming(of: layer) { $0.beginTime = timeSincePause }
    }

    /// A child layer under a parent with beginTime 1 and speed 2: the
    /// child's time is (t − 1) × 2 (CAMediaTiming.h). A 10 s fade added at
    /// t = 2 is stamped at child time 2; at t = 3 the child time is 4, 2 s
    /// in: 0.2. Paused at t = 3 it holds 0.2; resumed at t = 5 (parent time
    /// 8, beginTime 8 − 4 = 4) it continues from 0.2, and at t = 6 (parent
    /// time 10, child time 6) it is 4 s in: 0.4.
    @Test("QA1673 pause and resume on a nested layer")
    func pauseResumeNested() throws {
        let rt = Runtime()
        let parent = try rt.createLayer(), child = try rt.createLayer(parent: parent)
        try rt.setTiming(LayerTiming(beginTime: 1, speed: 2), of: parent)
        try rt.tick(2)
        try rt.add(linear("opacity", 0, 1, duration: 10), to: child, forKey: "fade")
        try rt.tick(2)
        #expect(try rt.scalar("opacity", child) == 0)
        try rt.tick(3)
        expectClose(try rt.scalar("opacity", child), 0.2, 1e-15)
        try pause(rt, child, at: 3)
        #expect(try rt.mediaTiming(of: child).timeOffset == 4)
        try rt.tick(5)
        expectClose(try rt.scalar("opacity", child), 0.2, 1e-15)
        try resume(rt, child, at: 5)
        #expect(try rt.mediaTiming(of: child).beginTime == 4)
        try rt.tick(5)
        expectClose(try rt.scalar("opacity", child), 0.2, 1e-15)
        try rt.tick(6)
        expectClose(try rt.scalar("opacity", child), 0.4, 1e-15)
        #expect(rt.drain().map(\.tag) == ["started"])
    }

    /// A timed layer: duration 2, repeating forever, autoreversing. Its
    /// animations see its iteration time: at t = 3 the layer is in
    /// iteration 1 (3 / 2 = 1.5), played backwards, so its time is
    /// (1 − 0.5) × 2 = 1 and a 0 → 1 fade over 2 s shows 0.5; at 3.5 the
    /// time is (1 − 0.75) × 2 = 0.5: 0.25. Paused at 3.5 (timeOffset 3.5,
    /// the layer's local time) it holds 0.25 in the same reversed
    /// iteration; resumed at 10 (beginTime 10 − 3.5 = 6.5) it goes on
    /// backwards: at 10.25 the local time is 3.75, iteration time
    /// (1 − 0.875) × 2 = 0.25: 0.125.
    @Test("QA1673 pause and resume on a timed, autoreversing layer")
    func pauseResumeTimed() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true)
        t.fillMode = .removed
        try rt.setMediaTiming(t, of: l)
        var fade = linear("opacity", 0, 1, duration: 2, fill: .both)
        fade.isRemovedOnCompletion = false
        try rt.add(fade, to: l, forKey: "fade")
        for (now, expected) in [(0.0, 0.0), (0.5, 0.25), (3, 0.5), (3.5, 0.25)] {
            try rt.tick(now)
            expectClose(try rt.scalar("opacity", l), expected, 1e-15, "t = \(now)")
        }
        try pause(rt, l, at: 3.5)
        #expect(try rt.mediaTiming(of: l).timeOffset == 3.5)
        try rt.tick(10)
        expectClose(try rt.scalar("opacity", l), 0.25, 1e-15)
        try resume(rt, l, at: 10)
        #expect(try rt.mediaTiming(of: l).beginTime == 6.5)
        try rt.tick(10)
        expectClose(try rt.scalar("opacity", l), 0.25, 1e-15)
        try rt.tick(10.25)
        expectClose(try rt.scalar("opacity", l), 0.125, 1e-15)
    }

    /// A layer's duration of 0 is unbounded, not an animation's 0.25 s: a
    /// negative one is refused in a layer's words, whichever setter gives it.
    @Test("A negative layer duration is refused in a layer's words; nothing changes")
    func negativeLayerDuration() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        expectFailure(.outOfRange) { try rt.setMediaTiming(MediaTiming(duration: -1), of: l) }.map {
            #expect($0.message == "layer duration is -1; it must be 0 (unbounded, the default) or more")
        }
        #expect(try rt.mediaTiming(of: l) == MediaTiming())
    }

    /// Outside a timed layer's active interval, without a fill, its time is
    /// unresolved: nothing of it is in effect (the model shows), animations
    /// added meanwhile wait to be stamped, and none starts or stops. Layer:
    /// beginTime 1, duration 1. A fade added at 0 is stamped at 1 with the
    /// layer's time 0, shows 0.5 at 1.5, and at 2.5 the layer is over: its
    /// time ran to 1, the fade's end, before going unresolved, so the fade
    /// finished.
    @Test("A timed layer outside its active interval shows the model")
    func unresolvedLayerTime() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(beginTime: 1, duration: 1), of: l)
        try rt.tick(0)
        let h = try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "fade")
        try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 1)
        #expect(try rt.computedTiming(of: h).phase == .idle)
        #expect(try rt.localTime(of: l) == nil)
        try rt.tick(1)
        #expect(try rt.attachedAnimation(h).timing.beginTime == 0)
        try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 0.5)
        try rt.tick(2.5)
        #expect(try rt.scalar("opacity", l) == 1)
        #expect(try rt.localTime(of: l) == nil)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        // With a forwards fill the layer holds its last time (1).
        try rt.updateMediaTiming(of: l) { $0.fillMode = .forwards }
        try rt.tick(3)
        #expect(try rt.localTime(of: l) == 1)
    }

    /// A layer repeated three times replays a retained animation with each
    /// of its iterations (the animation's value is a function of its
    /// layer's time); lifecycle states only move forwards. Between 0.5 and
    /// 1.5 the layer's time ran to 1, the fade's end, and wrapped: the fade
    /// finished, and being retained it goes on showing its layer's time.
    @Test("A repeating layer replays its animations")
    func repeatingLayer() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 1, repeatCount: 3), of: l)
        var fade = linear("opacity", 0, 10, duration: 1, fill: .both)
        fade.isRemovedOnCompletion = false
        try rt.add(fade, to: l, forKey: "fade")
        for (now, expected) in [(0.0, 0.0), (0.5, 5.0), (1.5, 5.0), (2.25, 2.5)] {
            try rt.tick(now)
            #expect(try rt.scalar("opacity", l) == expected, "t = \(now)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// CAMediaTiming.h: local = (parent − beginTime) × speed + timeOffset,
    /// applied down the tree. A: begin 2, speed 3, offset 1; B under A:
    /// begin 1, speed 0.5, offset −2. Runtime 10 → A: (10 − 2) × 3 + 1 = 25
    /// → B: (25 − 1) × 0.5 − 2 = 10, and back.
    @Test("convertTime follows CAMediaTiming's formula both ways")
    func convertTime() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer(parent: a)
        try rt.setTiming(LayerTiming(beginTime: 2, speed: 3, timeOffset: 1), of: a)
        try rt.setTiming(LayerTiming(beginTime: 1, speed: 0.5, timeOffset: -2), of: b)
        #expect(try rt.convertTime(10, from: nil, to: a) == 25)
        #expect(try rt.convertTime(10, from: nil, to: b) == 10)
        #expect(try rt.convertTime(25, from: a, to: b) == 10)
        #expect(try rt.convertTime(10, from: b, to: nil) == 10)
        #expect(try rt.convertTime(10, from: b, to: a) == 25)
        #expect(try rt.convertTime(7, from: nil, to: nil) == 7)
        // A paused layer: every time maps to its offset; nothing maps back.
        let p = try rt.createLayer()
        try rt.setTiming(LayerTiming(speed: 0, timeOffset: 4), of: p)
        #expect(try rt.convertTime(123, from: nil, to: p) == 4)
        #expect(throws: AnimrtError.self) { try rt.convertTime(4, from: p, to: nil) }
        do { _ = try rt.convertTime(4, from: p, to: nil) } catch { #expect(error.status == .state) }
        #expect(throws: AnimrtError.self) { try rt.convertTime(.nan, from: nil, to: a) }
        // A result past the doubles: refused, not infinite.
        let slow = try rt.createLayer()
        try rt.setTiming(LayerTiming(speed: 1e-300), of: slow)
        do { _ = try rt.convertTime(1e300, from: slow, to: nil); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange) }
    }

    /// Converting out of a timed ancestor inverts its iteration time within
    /// the iteration it is in now. The autoreversing layer of the pause
    /// test at t = 3 is in iteration 1, reversed (time 1 and falling), so
    /// time 0.8 inside it is runtime time 3 + (0.8 − 1) / (−1) = 3.2.
    @Test("convertTime through a timed ancestor")
    func convertThroughTimedLayer() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), inner = try rt.createLayer(parent: l)
        try rt.setMediaTiming(MediaTiming(duration: 2, repeatCount: .infinity, autoreverses: true), of: l)
        try rt.tick(3)
        expectClose(try rt.convertTime(0.8, from: inner, to: nil), 3.2, 1e-15)
        // Round trip at that time: runtime 3.2 → layer 0.8.
        expectClose(try rt.convertTime(3.2, from: nil, to: inner), 0.8, 1e-15)
        // A layer's own local time is CAMediaTiming's, before iterations.
        #expect(try rt.convertTime(3, from: nil, to: l) == 3)
        // Once over with no fill, nothing converts through it.
        try rt.setMediaTiming(MediaTiming(duration: 2), of: l)
        #expect(throws: AnimrtError.self) { try rt.convertTime(0.5, from: inner, to: nil) }
        #expect(throws: AnimrtError.self) { try rt.convertTime(3, from: nil, to: inner) }
        // A fill that follows local time converts as the interval does:
        // beginTime 4, delay −1, filling backwards, at t = 3.5 the layer's
        // time is max(3.5 − 4 + 1, 0) = 0.5, rising at 1 per second, so 0.8
        // inside it is 3.5 + 0.3 = 3.8. Holding a frame (no delay: time 0)
        // it has no answer.
        var ahead = MediaTiming(beginTime: 4, duration: 2, fillMode: .backwards)
        ahead.delay = -1
        try rt.setMediaTiming(ahead, of: l)
        try rt.tick(3.5)
        expectClose(try rt.convertTime(0.8, from: inner, to: nil), 3.8, 1e-15)
        ahead.delay = 0
        try rt.setMediaTiming(ahead, of: l)
        expectFailure(.state, containing: "is paused or holds a fill now") { _ = try rt.convertTime(0.5, from: inner, to: nil) }
    }

    /// setTiming sets the time transform (CALayer's beginTime, speed and
    /// timeOffset) and keeps the rest of the layer's media timing.
    @Test("setTiming keeps the layer's duration, repeat, autoreverse and fill")
    func setTimingKeepsTheRest() throws {
        let rt = Runtime(); let l = try rt.createLayer(), inner = try rt.createLayer(parent: l)
        try rt.setMediaTiming(MediaTiming(duration: 2, repeatCount: 3, autoreverses: true, fillMode: .forwards), of: l)
        try rt.setTiming(LayerTiming(beginTime: 1, speed: 2, timeOffset: 0.5), of: l)
        var want = MediaTiming(beginTime: 1, duration: 2, speed: 2, timeOffset: 0.5, repeatCount: 3, autoreverses: true, fillMode: .forwards)
        #expect(try rt.mediaTiming(of: l) == want)
        #expect(try rt.timing(of: l) == LayerTiming(beginTime: 1, speed: 2, timeOffset: 0.5))
        // Runtime 2 is layer time (2 − 1) × 2 + 0.5 = 2.5: iteration 1, reversed, at 1.5.
        try rt.tick(2)
        #expect(try rt.localTime(of: inner) == 1.5)
        want.speed = 1
        try rt.setTiming(LayerTiming(beginTime: 1, speed: 1, timeOffset: 0.5), of: l)
        #expect(try rt.mediaTiming(of: l) == want)
    }

    /// A destroyed layer's children become roots: their time jumps to what
    /// it is without the parent, so at the next tick they count as retimed
    /// (the times they went through under it are not theirs), as a layer
    /// moved to another parent does. Here the child runs backwards: under its
    /// parent (offset 1000) its time was −1000; a root, it is −1 at t = 1, and
    /// it never went through the animation at [−0.7, −0.5] of its time.
    @Test("R1.2 the children of a destroyed layer are retimed: their animations follow the time sampled at the next tick")
    func orphansAreRetimed() throws {
        let rt = Runtime()
        let parent = try rt.createLayer(), child = try rt.createLayer(parent: parent), other = try rt.createLayer()
        try rt.setTiming(LayerTiming(timeOffset: 1000), of: parent)
        try rt.setTiming(LayerTiming(speed: -1), of: child)
        let h = try rt.add(linear("opacity", 0, 1, begin: -0.7, duration: 0.2), to: child, forKey: "a")
        try rt.tick(0)
        #expect(try rt.localTime(of: child) == -1000)
        #expect(try !rt.isRetimed(layer: child))
        try rt.destroyLayer(parent)
        #expect(try rt.isRetimed(layer: child) && !rt.isRetimed(layer: other))
        try rt.tick(1)
        #expect(try rt.localTime(of: child) == -1)
        #expect(rt.drain().isEmpty)
        #expect(try rt.lifecycle(of: h) == .waiting)
        #expect(try !rt.isRetimed(layer: child))
    }

    @Test("Layer media timing is validated like an animation's; nothing changes on error")
    func layerValidation() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 2), of: l)
        for bad in [MediaTiming(duration: -1), MediaTiming(speed: .infinity), MediaTiming(repeatCount: -1)] {
            #expect(throws: AnimrtError.self) { try rt.setMediaTiming(bad, of: l) }
        }
        #expect(throws: AnimrtError.self) { try rt.setTiming(LayerTiming(speed: .nan), of: l) }
        #expect(try rt.mediaTiming(of: l) == MediaTiming(duration: 2))
    }
}
