import Testing
@testable import AnimationCore

/// R1.6, R1.8: under a layer with its own timing, an animation finishes when
/// its layer's time passes its end, whatever times the ticks sample: a
/// layer that turns back (autoreverses), starts a new iteration or goes
/// unresolved between two ticks has still gone through every time before.
@Suite("R1.6, R1.8 lifecycle under a timed layer")
struct TimedLayerLifecycleTests {
    /// A layer of duration 2 (autoreversing unless `repeats`), opacity 0 in
    /// the model, ticked at 0.
    func timedLayer(_ rt: Runtime, _ timing: MediaTiming = MediaTiming(duration: 2, autoreverses: true)) throws -> Handle {
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l)
        try rt.setMediaTiming(timing, of: l)
        try rt.tick(0)
        return l
    }

    /// Adds `animation` to `layer` in a transaction with token 1.
    func addInTransaction(_ rt: Runtime, _ animation: Animation, to layer: Handle) throws {
        _ = try rt.beginTransaction()
        try rt.add(animation, to: layer, forKey: "fade")
        try rt.commitTransaction(token: 1)
    }

    /// Ticks at each time; returns the events as "tag@time".
    func run(_ rt: Runtime, _ times: [Double]) throws -> [String] {
        var out: [String] = []
        for t in times {
            try rt.tick(t)
            out += rt.drain().map { "\($0.tag)@\($0.time)" }
        }
        return out
    }

    /// 60 Hz as a host adds it up frame by frame (never exactly on 2.0).
    func frames(until end: Double) -> [Double] {
        var out: [Double] = [], t = 0.0
        while t < end { t += 1.0 / 60; out.append(t) }
        return out
    }

    /// A fade from 0.25 to 1.75 in layer time, under a layer that plays
    /// 0 → 2 → 0 over 4 s. Ticks at 0.5, 1.5, 2.5 sample layer times 0.5,
    /// 1.5, 1.5: none past the end, but the layer passed 1.75 at t = 1.75
    /// and turned at 2. It finishes at the tick after (2.5), is removed (the
    /// model, 0, shows) and the transaction completes, as at 60 Hz, where
    /// the tick at or after 1.75 reports it.
    @Test("an autoreversing layer finishes an animation at coarse ticks as at 60 Hz")
    func autoreverseCoarseAndFine() throws {
        let coarse = Runtime(); let l = try timedLayer(coarse)
        try addInTransaction(coarse, linear("opacity", 0, 1, begin: 0.25, duration: 1.5), to: l)
        #expect(try run(coarse, [0.5, 1.5]) == ["started@0.5"])
        #expect(try run(coarse, [2.5]) == ["stopped:finished@2.5", "transaction:1@2.5"])
        #expect(try coarse.scalar("opacity", l) == 0)
        #expect(try coarse.animationKeys(of: l).isEmpty)
        #expect(try run(coarse, [3.5, 4.5, 10]) == [])

        let fine = Runtime(); let f = try timedLayer(fine)
        try addInTransaction(fine, linear("opacity", 0, 1, begin: 0.25, duration: 1.5), to: f)
        let times = frames(until: 10)
        let events = try run(fine, times)
        let start = times.first { $0 >= 0.25 }!, stop = times.first { $0 >= 1.75 }!
        #expect(events == ["started@\(start)", "stopped:finished@\(stop)", "transaction:1@\(stop)"])
        #expect(try fine.animationKeys(of: f).isEmpty)
    }

    /// The same layer with the animation stamped at the first tick (beginTime
    /// 0) and as long as the layer's iteration: its end is the turn, 2.0,
    /// which 60 Hz frames added up never land on exactly (1.9999… then
    /// 2.0166…, where the layer shows 1.9833…). It finishes at the frame
    /// after the turn.
    @Test("an animation as long as an autoreversing layer finishes at 60 Hz")
    func sameDurationAt60Hz() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 2, autoreverses: true), of: l)
        try addInTransaction(rt, linear("opacity", 0, 1, duration: 2), to: l)
        let times = [0.0] + frames(until: 5)
        let events = try run(rt, times)
        let stop = times.first { $0 > 2 }!
        #expect(events == ["started@0.0", "stopped:finished@\(stop)", "transaction:1@\(stop)"])
    }

    /// An animation ending at 2.25 under a layer whose time never goes past
    /// 2 is never reported finished, at any tick rate: it stays attached.
    @Test("an end the layer never reaches reports no stop")
    func endNeverReached() throws {
        for times in [[0.5, 1.5, 2.5, 3.5, 4.5, 10], frames(until: 10)] {
            let rt = Runtime(); let l = try timedLayer(rt)
            try addInTransaction(rt, linear("opacity", 0, 1, begin: 0.25, duration: 2), to: l)
            let events = try run(rt, times)
            #expect(events.count == 1 && events[0].hasPrefix("started@"), "\(events)")
            #expect(try rt.animationKeys(of: l) == ["fade"])
        }
    }

    /// A repeating layer (0 → 2, 0 → 2) wraps instead of turning: between
    /// 1.5 and 2.5 its time ran up to the end of the first iteration, so an
    /// animation ending at 1.75, or exactly at 2 (the end a forward play
    /// runs into), finishes at 2.5 though the tick samples layer time 0.5;
    /// one ending at 2.05 does not. The autoreversing layer turns at 2 and
    /// finishes the first two alike.
    @Test("repeat and autoreverse: a wrap and a turn both reach the iteration's end",
          arguments: [false, true])
    func repeatAndAutoreverse(_ autoreverses: Bool) throws {
        let timing = autoreverses ? MediaTiming(duration: 2, autoreverses: true) : MediaTiming(duration: 2, repeatCount: 2)
        for (duration, finishes) in [(1.5, true), (1.75, true), (1.8, false)] {
            let rt = Runtime(); let l = try timedLayer(rt, timing)
            try addInTransaction(rt, linear("opacity", 0, 1, begin: 0.25, duration: duration), to: l)
            let expected = finishes ? ["started@0.5", "stopped:finished@2.5", "transaction:1@2.5"] : ["started@0.5"]
            #expect(try run(rt, [0.5, 1.5, 2.5]) == expected, "duration \(duration)")
        }
    }

    /// A layer that plays once and is not filled goes unresolved at 2: an
    /// animation that ends at 1.75 finishes at 2.5 (the clipped end of the
    /// active interval was reached). A layer repeating 1.5 times (0 → 2,
    /// 0 → 1) ends playing forwards at 1: an animation added in its second
    /// iteration finishes if it ends at 1, not at 1.05.
    @Test("a layer that goes unresolved after its active interval")
    func unresolvedAfterInterval() throws {
        let once = Runtime(); let l = try timedLayer(once, MediaTiming(duration: 2))
        try addInTransaction(once, linear("opacity", 0, 1, begin: 0.25, duration: 1.5), to: l)
        #expect(try run(once, [0.5, 2.5]) == ["started@0.5", "stopped:finished@2.5", "transaction:1@2.5"])

        for (duration, finishes) in [(0.75, true), (0.8, false)] {
            let rt = Runtime(); let l = try timedLayer(rt, MediaTiming(duration: 2, repeatCount: 1.5))
            try rt.tick(2.1)
            try addInTransaction(rt, linear("opacity", 0, 1, begin: 0.25, duration: duration), to: l)
            let expected = finishes ? ["stopped:finished@3.5", "transaction:1@3.5"] : []
            #expect(try run(rt, [2.2]) == [])
            // Started and stopped in the same tick when it finishes.
            let events = try run(rt, [3.5, 10])
            #expect(events == (finishes ? ["started@3.5"] + expected : ["started@3.5"]), "duration \(duration)")
        }
    }

    /// A layer that plays backwards (speed −1) and autoreverses shows
    /// 0 → 2 → 0 as well, its turn at t = 2: the fade ending at 1.75
    /// finishes at 2.5 (layer time 1.5). A repeat duration of 1.5 on a layer
    /// of duration 1 (0 → 1, 0 → 0.5, then unresolved) reaches 1 before
    /// wrapping.
    @Test("a backwards layer and a repeat duration")
    func backwardsAndRepeatDuration() throws {
        var backwards = MediaTiming(duration: 2, autoreverses: true)
        backwards.speed = -1
        let rt = Runtime(); let l = try timedLayer(rt, backwards)
        try addInTransaction(rt, linear("opacity", 0, 1, begin: 0.25, duration: 1.5), to: l)
        #expect(try run(rt, [0.5, 1.5]) == ["started@0.5"])
        #expect(try rt.localTime(of: l) == 1.5)
        #expect(try run(rt, [2.5]) == ["stopped:finished@2.5", "transaction:1@2.5"])

        let r2 = Runtime(); let m = try timedLayer(r2, MediaTiming(duration: 1, repeatDuration: 1.5))
        try addInTransaction(r2, linear("opacity", 0, 1, begin: 0.25, duration: 0.75), to: m)
        #expect(try run(r2, [0.5, 1.6]) == ["started@0.5", "stopped:finished@1.6", "transaction:1@1.6"])
    }

    /// An untimed layer with speed −1 under the autoreversing one shows
    /// 2 − its parent's time: while the parent goes from 1 back down to 0
    /// (its end) and goes unresolved, the child's time runs up to 2.
    @Test("an untimed sublayer running backwards under a timed layer")
    func reversedSublayer() throws {
        let rt = Runtime(); let parent = try timedLayer(rt)
        let child = try rt.createLayer(parent: parent)
        try rt.setTiming(LayerTiming(speed: -1, timeOffset: 2), of: child)
        try rt.tick(2.5)
        try rt.add(linear("opacity", 0, 1, begin: 0.25, duration: 1.65), to: child, forKey: "fade")
        #expect(try run(rt, [3]) == ["started@3.0"])
        #expect(try rt.localTime(of: child) == 1)
        #expect(try run(rt, [4.5]) == ["stopped:finished@4.5"])
    }

    /// An animation stamped at a tick (beginTime 0) is not finished by the
    /// times its layer showed before it was there: added at 1.9 and stamped
    /// at 2.5 with layer time 1.5, it runs to 1.75 in layer time, which the
    /// layer, now going down, does not reach again.
    @Test("a new animation is judged from the tick that stamps it")
    func stampedAfterTurn() throws {
        let rt = Runtime(); let l = try timedLayer(rt)
        try rt.tick(1.9)
        try addInTransaction(rt, linear("opacity", 0, 1, duration: 0.25), to: l)
        #expect(try run(rt, [2.5, 3.5, 10]) == ["started@2.5"])
    }

    /// Two timed layers on the way: the outer one (repeating every 4 s)
    /// shows 0.5 → 2.5 between the ticks at 0.5 and 2.5, so the inner one
    /// (2 s, autoreversing) went up to its turn at 2 and back to 1.5. The
    /// fade, 0.25 to 1.75 in the inner layer's time, ends there, though no
    /// tick samples a time past its end: it finishes at 2.5, as under one
    /// timed layer.
    @Test("nested timed layers finish an animation whose end falls between ticks")
    func nestedTimedLayers() throws {
        let rt = Runtime(); let outer = try timedLayer(rt, MediaTiming(duration: 4, repeatCount: .infinity))
        let inner = try rt.createLayer(parent: outer)
        try rt.setMediaTiming(MediaTiming(duration: 2, autoreverses: true), of: inner)
        try rt.add(linear("opacity", 0, 1, begin: 0.25, duration: 1.5), to: inner, forKey: "fade")
        #expect(try run(rt, [0.5, 1.5]) == ["started@0.5"])
        #expect(try run(rt, [2.5]) == ["stopped:finished@2.5"])
    }

    /// Only the times the outer layer showed count, not all between the
    /// lowest and the highest: from 3.5 to 4.5 it shows 3.5 → 4, wraps, and
    /// 0 → 0.5, so the inner one (its turn at 2) shows 0.5 down to 0 and up
    /// to 0.5 again, never 0.7 to 0.9, where a fade runs; the span 0 … 4
    /// would have taken it past its turn. It finishes when the outer layer
    /// next goes past 0.9 (at 4.9 in the runtime's time), at the tick at 5.9.
    @Test("nested timed layers see only the times their parent showed")
    func nestedTimedLayersSkipWhatTheParentSkipped() throws {
        let rt = Runtime()
        let outer = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 4, repeatCount: .infinity), of: outer)
        let inner = try rt.createLayer(parent: outer)
        try rt.setMediaTiming(MediaTiming(duration: 2, autoreverses: true), of: inner)
        try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: inner)
        try rt.add(linear("opacity", 0, 1, begin: 0.7, duration: 0.2), to: inner, forKey: "fade")
        #expect(try run(rt, [3.5, 4.5]) == [])
        #expect(try rt.animationKeys(of: inner) == ["fade"])
        #expect(try run(rt, [5.9]) == ["started@5.9", "stopped:finished@5.9"])
        // The outer layer's own pieces: the two ranges it went through whole, apart.
        let outerTiming = MediaTiming(duration: 4, repeatCount: .infinity)
        let pieces = Runtime.merged(outerTiming.layerChildTimePieces(between: 3.5, and: 4.5))
        #expect(pieces.count == 2)
        #expect(pieces[0] == (0, 0.5) && pieces[1] == (3.5, 4))
    }

    /// R0.4: the ranges followed down a chain are bounded (`timeRangeLimit`);
    /// past it the chain follows the sampled time. From 3.5 to 4.5 an outer
    /// layer repeating every 4 s shows 3.5 → 4 and 0 → 0.5: two ranges. The
    /// inner layer (4 s, not repeating) shows the same, so a fade from 3.6 to
    /// 3.8 in its time ended between the ticks though 4.5 samples 0.5. At the
    /// limit (2) it finishes there; past it (1) only the sampled 0.5 counts,
    /// and it runs on until a tick samples a time past its end.
    @Test("R0.4 a chain followed through at most timeRangeLimit ranges, at and past the edge", arguments: [2, 1])
    func rangeLimit(limit: Int) throws {
        let rt = Runtime()
        rt.timeRangeLimit = limit
        let outer = try rt.createLayer()
        try rt.setMediaTiming(MediaTiming(duration: 4, repeatCount: .infinity), of: outer)
        let inner = try rt.createLayer(parent: outer)
        try rt.setMediaTiming(MediaTiming(duration: 4), of: inner)
        try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: inner)
        try rt.add(linear("opacity", 0, 1, begin: 3.6, duration: 0.2), to: inner, forKey: "fade")
        #expect(try run(rt, [3.5]) == [])
        if limit >= 2 {
            #expect(try run(rt, [4.5]) == ["started@4.5", "stopped:finished@4.5"])
        } else {
            #expect(try run(rt, [4.5]) == [])
            #expect(try run(rt, [7.7]) == ["started@7.7"])
            #expect(try run(rt, [7.9]) == ["stopped:finished@7.9"])
        }
    }

    /// Web Animations' fill on the side playback has not reached yet follows
    /// the local time (max(local − delay, 0) before, min(local − delay, AD)
    /// after): with a negative delay, or a negative end delay playing
    /// backwards, the layer's time moves while it fills, and what it goes
    /// through there counts as inside its interval.
    ///
    /// Forwards: duration 1, 3 repeats, delay −1.5, filling backwards, from
    /// t = 2: local time t − 2, before its interval until 2, active time
    /// max(t − 2 + 1.5, 0). At 1.0 that is 0.5 (layer time 0.5, inside a fade
    /// from 0.2 to 0.8); at 1.6 it is 1.1 (iteration 1, layer time 0.1).
    /// Between them the layer ran to 1 (t = 1.5), past 0.8 (t = 1.3), and
    /// wrapped: the fade finished, and is removed (the model, 0, shows).
    ///
    /// Backwards: duration 0.5, repeat count 1.5 autoreversing (3
    /// iterations, AD 1.5), iterationStart 0.5, endDelay −0.3 (end time
    /// 1.2), speed −1, filling forwards, from t = 1: local time
    /// 1.2 − (t − 1) = 2.2 − t, after its interval until 1, active time
    /// min(local, 1.5). Up to 0.7 that is 1.5: overall progress
    /// 1.5 / 0.5 + 0.5 = 3.5, iteration 3 (reversed), layer time 0.25. From
    /// 0.7 to 1 the overall progress 2 × local + 0.5 falls from 3.5 to 2.9:
    /// up iteration 3 backwards to its start, the end of iteration 2, layer
    /// time 0.5 (t = 0.95), then down to 0.45; at 1.2 (local 1, overall
    /// 2.5) it is 0.25. A fade from 0.1 to 0.475 ended at t = 0.9375,
    /// though both ticks sample 0.25.
    @Test("a fill that moves before its layer's interval reaches an animation's end")
    func movingFill() throws {
        var forwards = MediaTiming(beginTime: 2, duration: 1, repeatCount: 3, fillMode: .backwards)
        forwards.delay = -1.5
        let rt = Runtime(); let l = try timedLayer(rt, forwards)
        try addInTransaction(rt, linear("opacity", 0, 1, begin: 0.2, duration: 0.6), to: l)
        #expect(try run(rt, [1]) == ["started@1.0"])
        #expect(try rt.localTime(of: l) == 0.5)
        #expect(try run(rt, [1.6]) == ["stopped:finished@1.6", "transaction:1@1.6"])
        expectClose(try rt.localTime(of: l)!, 0.1, 1e-12)
        #expect(try rt.scalar("opacity", l) == 0)

        var backwards = MediaTiming(beginTime: 1, duration: 0.5, speed: -1, repeatCount: 1.5, autoreverses: true,
                                    fillMode: .forwards)
        backwards.iterationStart = 0.5; backwards.endDelay = -0.3
        let r2 = Runtime(); let m = try timedLayer(r2, backwards)
        try addInTransaction(r2, linear("opacity", 0, 1, begin: 0.1, duration: 0.375), to: m)
        #expect(try run(r2, [0.5]) == ["started@0.5"])
        #expect(try r2.localTime(of: m) == 0.25)
        #expect(try run(r2, [1.2]) == ["stopped:finished@1.2", "transaction:1@1.2"])
        expectClose(try r2.localTime(of: m)!, 0.25, 1e-12)
    }

    /// Ranges are merged when they overlap or touch, and kept apart otherwise.
    @Test("merged ranges keep the same times in as few ranges")
    func mergedRanges() {
        let m = Runtime.merged([(3, 4), (0, 1), (0.5, 2), (2, 2.5), (2.75, 2.75)])
        #expect(m.count == 3)
        #expect(m[0] == (0, 2.5) && m[1] == (2.75, 2.75) && m[2] == (3, 4))
        #expect(Runtime.merged([]).isEmpty)
    }

    /// The bounds of a timed layer's time between two parent times: a turn
    /// and a `timeOffset` wrap inside count. Duration 2, autoreversing,
    /// timeOffset 1: from 0.5 to 1.5 the layer shows 1.5 up to the turn at 2
    /// and back to 1.5; from 2.5 to 3.5 it shows 0.5 down to 0, wraps
    /// (active time 4 is 0) and goes up to 0.5 again.
    @Test("a timed layer's bounds include its turns and timeOffset wraps")
    func childTimeBounds() throws {
        var t = MediaTiming(duration: 2, autoreverses: true)
        t.timeOffset = 1
        #expect(t.layerChildTimeBounds(between: 0.5, and: 1.5)! == (1.5, 2))
        #expect(t.layerChildTimeBounds(between: 2.5, and: 3.5)! == (0, 0.5))
        #expect(t.layerChildTimeBounds(between: 3.5, and: 2.5)! == (0, 0.5))
        var removed = MediaTiming(duration: 2)
        removed.beginTime = 10
        #expect(removed.layerChildTimeBounds(between: 0, and: 5) == nil)
        #expect(removed.layerChildTimeBounds(between: 11, and: 20)! == (1, 2))
    }

    /// R0.4: extreme accepted timings, on the layer and on the animation,
    /// never trap, show finite values and report no stop the layer's time
    /// did not reach.
    @Test("R0.4 extreme layer timings stay total")
    func extremeTimings() throws {
        let huge = Double.greatestFiniteMagnitude
        var cases: [MediaTiming] = []
        for (begin, speed, offset) in [(-huge, 1.0, 0.0), (0, huge, huge), (0, -huge, -huge), (huge, 1e-300, 0), (0, 1, huge)] {
            var t = MediaTiming(duration: 2, autoreverses: true)
            t.beginTime = begin; t.speed = speed; t.timeOffset = offset
            cases.append(t)
            t.repeatCount = .infinity; cases.append(t)
            t.iterationDuration = 1e-300; cases.append(t)
            t.iterationStart = 1e300; t.iterationDuration = nil; cases.append(t)
        }
        for timing in cases {
            let rt = Runtime(); let l = try rt.createLayer()
            try rt.setMediaTiming(timing, of: l)
            try rt.tick(0)
            var fade = linear("opacity", 0, 1, begin: 0.25, duration: 1.5)
            fade.timing.repeatCount = .infinity
            try rt.add(fade, to: l, forKey: "fade")
            try rt.add(linear("opacity", 0, 1, begin: 0.25, duration: huge), to: l, forKey: "long")
            for now in [1.0, 2.5, 1e10, huge] {
                try rt.tick(now)
                #expect(try rt.scalar("opacity", l).isFinite)
            }
            // The layer's time never exceeds its iteration duration (2 s or
            // less): neither end is reached.
            #expect(!rt.drain().contains { $0.type == .animationStopped }, "\(timing)")
        }
    }

    /// An animation under a timed layer begins and ends on the tick that
    /// reaches its time, as under a group: the layer's time into its
    /// iteration is its own, not progress × duration (1.8 / 3 × 3 is
    /// 1.7999999999999998, which started an animation beginning at 1.8 s of
    /// a 3 s layer a tick late and left one ending there, 0.3 + 1.5, in effect).
    @Test("an animation under a timed layer begins and ends on the tick that reaches its time")
    func boundsOnTheTick() throws {
        let rt = Runtime(); let l = try timedLayer(rt, MediaTiming(duration: 3))
        try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
        _ = try rt.add(linear("opacity", 10, 20, begin: 1.8, duration: 1), to: l, forKey: "in")
        _ = try rt.add(linear("cornerRadius", 30, 40, begin: 0.3, duration: 1.5), to: l, forKey: "out")
        #expect(try run(rt, [1]) == ["started@1.0"])
        #expect(try run(rt, [1.8]) == ["started@1.8", "stopped:finished@1.8"])
        #expect(try rt.scalar("opacity", l) == 10)
        #expect(try rt.scalar("cornerRadius", l) == -1)
    }
}
