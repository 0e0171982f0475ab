import Testing
@testable import AnimationCore

/// A timed layer times its animations as a group times its children
/// (CAMediaTiming's hierarchy is one model for layers and animations), so
/// it holds them at the ends of its iteration as a group does: an
/// animation whose play ends (or starts) exactly where the layer fills, or
/// turns back, shows its last (or first) frame whatever its own fill.
@Suite("R1.2, R1.6 a timed layer holds its animations")
struct TimedLayerHoldTests {
    /// Model −1 for opacity and cornerRadius on a new layer of `rt`.
    func layer(_ rt: Runtime, parent: Handle? = nil) throws -> Handle {
        let l = try rt.createLayer(parent: parent)
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
        return l
    }

    func retained(_ a: Animation) -> Animation {
        var a = a
        a.isRemovedOnCompletion = false
        return a
    }

    /// Core Animation's idiom on a layer: the layer has duration 2 and
    /// fillMode forwards; its 0 → 10 fade of 2 s, fill removed and retained,
    /// ends exactly with the layer's iteration and keeps its last frame
    /// (10) from t = 2 on, as the same fade in a group with the layer's
    /// timing does. A 0.5 s 0 → 4 animation that ends earlier follows its
    /// own fill (the model, −1) from the instant it ends. An untimed
    /// sublayer sees the held time unchanged, so its own copy of the fade is
    /// held too. Lifecycle is the animations' own: each finishes when the
    /// layer's time passes its end.
    @Test("A timed layer filling forwards holds an animation that ends with it")
    func endHold() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(duration: 2, fillMode: .forwards), of: l)
        let inner = try layer(rt, parent: l)
        let fade = retained(linear("opacity", 0, 10, duration: 2))
        let h = try rt.add(fade, to: l, forKey: "fade")
        _ = try rt.add(retained(linear("cornerRadius", 0, 4, duration: 0.5)), to: l, forKey: "early")
        _ = try rt.add(fade, to: inner, forKey: "fade")

        let grt = Runtime(); let gl = try layer(grt)
        var g = Animation.group([linear("opacity", 0, 10, duration: 2), linear("cornerRadius", 0, 4, duration: 0.5)],
                                timing: MediaTiming(duration: 2, fillMode: .forwards))
        g.isRemovedOnCompletion = false
        _ = try grt.add(g, to: gl, forKey: "g")

        for (t, opacity, radius) in [(0.0, 0.0, 0.0), (0.5, 2.5, -1.0), (1.0, 5.0, -1.0), (2.0, 10.0, -1.0), (7.0, 10.0, -1.0)] {
            try rt.tick(t); try grt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
            expectClose(try rt.scalar("opacity", inner), opacity, 1e-12, "sublayer's opacity at t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), radius, 1e-12, "cornerRadius at t = \(t)")
            #expect(try rt.scalar("opacity", l) == grt.scalar("opacity", gl), "layer and group agree at t = \(t)")
            #expect(try rt.scalar("cornerRadius", l) == grt.scalar("cornerRadius", gl), "layer and group agree at t = \(t)")
        }
        #expect(try rt.velocity(of: h).scalar == 0)
        let computed = try rt.computedTiming(of: h)
        #expect(computed.phase == .after && computed.progress == 1)
        let tags = rt.drain().map(\.tag)
        #expect(tags.filter { $0 == "started" }.count == 3)
        #expect(tags.filter { $0 == "stopped:finished" }.count == 3)
    }

    /// The hold reaches sublayers through their time. Under a layer of
    /// duration 2 filling forwards: a timed sublayer of duration 2 (no
    /// fill) ends with it, so it is held at its end in turn and its 2 s
    /// 0 → 10 fade shows 10 from t = 2 on (5 at t = 1). A sublayer with
    /// speed −1 and timeOffset 3 shows 3 − (its parent's time): its time
    /// falls to 1 as the runtime's reaches 2, so there the hold is at the
    /// start of its animations' plays. A zero-length 0 → 10 animation at its
    /// time 1 (begin time 1, fill removed, retained) is past its end before
    /// then (the model, −1), and from t = 2 on shows its first frame (0), as
    /// a reversed child of a group ends on its from value.
    @Test("A timed layer's hold reaches its sublayers")
    func sublayerHold() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(duration: 2, fillMode: .forwards), of: l)
        let timed = try layer(rt, parent: l), back = try layer(rt, parent: l)
        try rt.setMediaTiming(MediaTiming(duration: 2), of: timed)
        try rt.setMediaTiming(MediaTiming(speed: -1, timeOffset: 3), of: back)
        _ = try rt.add(retained(linear("opacity", 0, 10, duration: 2)), to: timed, forKey: "fade")
        var instant = retained(linear("opacity", 0, 10, begin: 1))
        instant.timing.iterationDuration = 0
        _ = try rt.add(instant, to: back, forKey: "instant")
        for (t, fade, flip) in [(0.0, 0.0, -1.0), (1.0, 5.0, -1.0), (2.0, 10.0, 0.0), (7.0, 10.0, 0.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", timed), fade, 1e-12, "timed sublayer at t = \(t)")
            expectClose(try rt.scalar("opacity", back), flip, 1e-12, "reversed sublayer at t = \(t)")
        }
    }

    /// A paused sublayer (speed 0) no longer follows its parent's time, so
    /// it passes no hold on. Under the layer of duration 2 filling forwards,
    /// a sublayer paused at its time 2 (timeOffset 2) shows a 0 → 10 fade
    /// from its time 0.5 to 2 (fill removed, retained; a begin time of 0
    /// would be stamped at the paused time) always at its end, past its
    /// interval: the model (−1), also from t = 2 on, where its parent holds
    /// its own animations; a timed sublayer there is held (10), as above.
    @Test("A paused sublayer passes no hold on")
    func pausedSublayerPassesNoHold() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(duration: 2, fillMode: .forwards), of: l)
        let paused = try layer(rt, parent: l), timed = try layer(rt, parent: l)
        try rt.setMediaTiming(MediaTiming(speed: 0, timeOffset: 2), of: paused)
        try rt.setMediaTiming(MediaTiming(duration: 2), of: timed)
        _ = try rt.add(retained(linear("opacity", 0, 10, begin: 0.5, duration: 1.5)), to: paused, forKey: "fade")
        _ = try rt.add(retained(linear("opacity", 0, 10, duration: 2)), to: timed, forKey: "fade")
        for (t, held) in [(0.0, 0.0), (1.0, 5.0), (2.0, 10.0), (7.0, 10.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", paused), -1, 1e-12, "paused sublayer at t = \(t)")
            expectClose(try rt.scalar("opacity", timed), held, 1e-12, "timed sublayer at t = \(t)")
        }
    }

    /// The same with a fade that plays backwards (speed −1): its play ends
    /// on its first frame, at its local time 0, which it reaches with the
    /// layer's end; at layer time c it is at (2 − c)/2 of the way, 10 − 5c,
    /// and the layer holds it on 0 (its from value), not on the model.
    @Test("A timed layer filling forwards holds a reversed animation that ends with it")
    func endHoldReversed() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(duration: 2, fillMode: .forwards), of: l)
        var fade = retained(linear("opacity", 0, 10, duration: 2))
        fade.timing.speed = -1
        _ = try rt.add(fade, to: l, forKey: "fade")
        for (t, opacity) in [(0.0, 10.0), (0.5, 7.5), (1.5, 2.5), (2.0, 0.0), (7.0, 0.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// The start edge: a layer with begin time 1, duration 2 and fillMode
    /// backwards holds its time at 0 before it begins. A zero-length 0 → 10
    /// animation there (Web Animations' exact iteration duration 0, fill
    /// removed, retained) is at the start of its play: it shows its first
    /// frame, 0, while the layer holds it there (t = 0 and 0.5) and at the
    /// layer's first instant (t = 1, progress 0), then its own fill (the
    /// model) once the layer's time moves on; after the layer's end (no
    /// forwards fill) nothing of it is in effect. A 1 s 0 → 4 animation
    /// starting there is inside its interval already: 0, then 2 at layer
    /// time 0.5, then the model after its end. A group with the layer's
    /// timing shows the same values.
    @Test("A timed layer filling backwards holds a zero-length animation at its start")
    func startHold() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards), of: l)
        var instant = retained(.basic("opacity", from: .scalar(0), to: .scalar(10)))
        instant.timing.iterationDuration = 0
        _ = try rt.add(instant, to: l, forKey: "instant")
        _ = try rt.add(retained(linear("cornerRadius", 0, 4, duration: 1)), to: l, forKey: "start")

        let grt = Runtime(); let gl = try layer(grt)
        var g = Animation.group([instant, linear("cornerRadius", 0, 4, duration: 1)],
                                timing: MediaTiming(beginTime: 1, duration: 2, fillMode: .backwards))
        g.isRemovedOnCompletion = false
        _ = try grt.add(g, to: gl, forKey: "g")

        for (t, opacity, radius) in [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.0, 0.0), (1.5, -1.0, 2.0),
                                     (2.5, -1.0, -1.0), (3.5, -1.0, -1.0)] {
            try rt.tick(t); try grt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), radius, 1e-12, "cornerRadius at t = \(t)")
            #expect(try rt.scalar("opacity", l) == grt.scalar("opacity", gl), "layer and group agree at t = \(t)")
            #expect(try rt.scalar("cornerRadius", l) == grt.scalar("cornerRadius", gl), "layer and group agree at t = \(t)")
        }
        // Lifecycle is the animations' own, held or not: the zero-length
        // one finishes where the layer's time first resolves (t = 0).
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished", "started", "stopped:finished"])
    }

    /// An autoreversing layer of duration 1 turns back at t = 1: its
    /// reversed iteration starts on the last frame of a 1 s 0 → 10 fade
    /// (fill removed, retained) that ends exactly there, 10, not the model;
    /// then 5 at layer time 0.5 (t = 1.5), and the model after the layer's
    /// end (no fill). The same fade in a group with that timing agrees.
    @Test("An autoreversing timed layer turns back on its animation's last frame")
    func turnHold() throws {
        let rt = Runtime(); let l = try layer(rt)
        try rt.setMediaTiming(MediaTiming(duration: 1, autoreverses: true), of: l)
        _ = try rt.add(retained(linear("opacity", 0, 10, duration: 1)), to: l, forKey: "fade")
        let grt = Runtime(); let gl = try layer(grt)
        _ = try grt.add(.group([linear("opacity", 0, 10, duration: 1)], timing: MediaTiming(duration: 1, autoreverses: true)),
                        to: gl, forKey: "g")
        for (t, v) in [(0.0, 0.0), (0.5, 5.0), (1.0, 10.0), (1.5, 5.0), (2.0, -1.0)] {
            try rt.tick(t); try grt.tick(t)
            expectClose(try rt.scalar("opacity", l), v, 1e-12, "opacity at t = \(t)")
            #expect(try rt.scalar("opacity", l) == grt.scalar("opacity", gl), "layer and group agree at t = \(t)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }
}
