import Testing
@testable import AnimationCore

@Suite("R1.3, R1.4, R1.5, R1.6 animation values")
struct AnimationValueTests {
    /// Runs `a` on a layer whose opacity model is `model` and returns the
    /// value at half time (duration 1, begun at 0).
    func half(_ a: Animation, model: Double = 10, path: String = "opacity") throws -> Double {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(model), forKeyPath: path, of: l)
        var a = a; a.timing.duration = 1
        try rt.add(a, to: l, forKey: "k")
        try rt.tick(0); try rt.tick(0.5)
        return try rt.scalar(path, l)
    }

    @Test("R1.3 from/to/by combinations")
    func fromToBy() throws {
        #expect(try half(.basic("opacity", from: .scalar(0), to: .scalar(20))) == 10)
        #expect(try half(.basic("opacity", from: .scalar(0), by: .scalar(20))) == 10)
        #expect(try half(.basic("opacity", to: .scalar(30), by: .scalar(20))) == 20)
        #expect(try half(.basic("opacity", from: .scalar(0))) == 5)        // from → model
        #expect(try half(.basic("opacity", to: .scalar(20))) == 15)        // model → to
        #expect(try half(.basic("opacity", by: .scalar(4))) == 12)         // model → model + by
    }

    @Test("R1.3 the missing end is the live model value")
    func liveModel() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(10), forKeyPath: "opacity", of: l)
        try rt.add(.basic("opacity", from: .scalar(0), timing: MediaTiming(duration: 1)), to: l, forKey: "k")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 5)
        try rt.setModelValue(.scalar(30), forKeyPath: "opacity", of: l)
        try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 15)
    }

    @Test("R1.3 neither end: from the presentation value at add time to the live model")
    func noEnds() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(10), forKeyPath: "opacity", of: l)
        try rt.tick(0)  // on screen: 10
        try rt.setModelValue(.scalar(30), forKeyPath: "opacity", of: l)
        #expect(try rt.scalar("opacity", l) == 10)  // presentation follows at the next tick
        try rt.add(.basic("opacity", timing: MediaTiming(duration: 1)), to: l, forKey: "k")
        try rt.tick(1); try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 20)
    }

    /// A group's animations start where the same animations added alone
    /// would: one without ends from the presentation value when the group
    /// is added, one with `startsFromPresentation` from there too. On
    /// screen 10, model 30, group of 1 s added then: at 0.5 s the child
    /// without ends is at 10 + (30 − 10) × 0.5 = 20, the child from the
    /// presentation to 50 at 10 + (50 − 10) × 0.5 = 30 (starting from the
    /// model they would show 30 and 40).
    @Test("R1.3 a group's animations start from the presentation value as they would alone")
    func groupChildrenStartFromPresentation() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(10), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(10), forKeyPath: "cornerRadius", of: l)
        try rt.tick(0)  // on screen: 10
        try rt.setModelValue(.scalar(30), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(30), forKeyPath: "cornerRadius", of: l)
        var rebased = Animation.basic("cornerRadius", to: .scalar(50)); rebased.startsFromPresentation = true
        let h = try rt.add(.group([.basic("opacity"), rebased], timing: MediaTiming(duration: 1)), to: l, forKey: "g")
        try rt.tick(1); try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 20)
        #expect(try rt.scalar("cornerRadius", l) == 30)
        // The attached copy's child reads back the from it was rebased onto.
        guard case .group(let children) = try rt.attachedAnimation(h).content,
              case .basic(let from, _, _) = children[1].content else { Issue.record("not a group of basics"); return }
        #expect(from == .scalar(10))
    }

    /// What a group's animations took when it was added is part of its
    /// state, so a restored copy starts where the original did: captured
    /// 10, restored on a layer showing 0 with model 30, at 0.5 s of 1 s
    /// it shows 10 + (30 − 10) × 0.5 = 20 (from what the copy's layer shows
    /// it would be 15). A list of the wrong length or kind is refused.
    @Test("R1.3 a group's captured starts are restored with it")
    func groupCapturedStartsRestored() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(10), forKeyPath: "opacity", of: l)
        try rt.tick(0)
        try rt.setModelValue(.scalar(30), forKeyPath: "opacity", of: l)
        let g = Animation.group([.basic("opacity")], timing: MediaTiming(duration: 1))
        let state = try rt.attachmentState(try rt.add(g, to: l, forKey: "g"))
        #expect(state.capturedChildren == [.scalar(10)])

        let copy = Runtime(); let l2 = try copy.createLayer()
        try copy.setModelValue(.scalar(0), forKeyPath: "opacity", of: l2)
        try copy.tick(0)
        try copy.setModelValue(.scalar(30), forKeyPath: "opacity", of: l2)
        var restored = state; restored.beginTime = 1
        try copy.add(g, to: l2, forKey: "g", restoring: restored)
        try copy.tick(1.5)
        #expect(try copy.scalar("opacity", l2) == 20)

        restored.capturedChildren = []
        expectFailure(.invalidArgument, containing: "0 captured values", "a group of 1 animations") {
            try copy.add(g, to: l2, forKey: "h", restoring: restored)
        }
        restored.capturedChildren = [.point(1, 2)]
        expectFailure(.kind, containing: "group animation 0: ", "takes a scalar") {
            try copy.add(g, to: l2, forKey: "h", restoring: restored)
        }
    }

    /// One with no begin time yet is stamped at the next tick, and no tick
    /// has evaluated it: restored as running or ended (a snapshot's, edited)
    /// its started would never be reported, and the next tick would run it
    /// from the time it was stamped with as if it had begun before.
    @Test("R3.0.3 a restored phase that its begin time rules out is refused, and nothing is attached")
    func restoredPhaseAgreesWithBeginTime() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(0)
        let a = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1))
        for phase in [Runtime.AttachmentState.Phase.running, .ended] {
            expectFailure(.invalidArgument, containing: "its phase is \(phase.rawValue) (\(phase == .running ? "running" : "ended")) but it has no begin time",
                          "its phase is 0 (waiting)") {
                try rt.add(a, to: l, forKey: "a", restoring: .init(beginTime: nil, duration: 1, captured: .scalar(0), phase: phase, evaluated: false))
            }
        }
        #expect(try rt.animationKeys(of: l).isEmpty)
        // Waiting, it begins at the next tick; with its begin time, it runs on from there.
        let waiting = try rt.add(a, to: l, forKey: "a", restoring: .init(beginTime: nil, duration: 1, captured: .scalar(0), phase: .waiting,
                                                                         evaluated: false))
        let running = try rt.add(a, to: l, forKey: "b", restoring: .init(beginTime: -0.5, duration: 1, captured: .scalar(0), phase: .running))
        try rt.tick(0.25)
        #expect(try rt.attachmentState(waiting).beginTime == 0.25 && rt.attachmentState(waiting).phase == .running)
        #expect(try rt.attachmentState(running).beginTime == -0.5)
        #expect(try rt.scalar("opacity", l) == 0.75)  // b, added last, at 0.75 of its second
    }

    /// A restored animation the batch takes keeps its phase there too: the
    /// kernel reports a lifecycle from its own column, so a running entry
    /// restored as waiting would report started a second time.
    @Test("R3.0.3 a restored batch entry reports started and stopped once, as the original did")
    func restoredBatchEntryKeepsItsPhase() throws {
        let rt = Runtime()
        let running = try rt.createLayer(), ended = try rt.createLayer()
        try rt.tick(0)
        var held = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1, fillMode: .forwards))
        held.isRemovedOnCompletion = false
        let a = try rt.add(held, to: running, forKey: "a",
                           restoring: .init(beginTime: -0.5, duration: 1, captured: .scalar(0), phase: .running))
        let b = try rt.add(held, to: ended, forKey: "b",
                           restoring: .init(beginTime: -2, duration: 1, captured: .scalar(0), phase: .ended))
        #expect(rt.attachedCounts.batched == 2)
        #expect(try rt.lifecycle(of: a) == .running && rt.lifecycle(of: b) == .ended)
        try rt.tick(0.25)
        #expect(rt.drain().isEmpty)
        #expect(try rt.scalar("opacity", running) == 0.75 && rt.scalar("opacity", ended) == 1)
        try rt.tick(1)
        let events = rt.drain()
        #expect(events.map(\.tag) == ["stopped:finished"] && events.first?.object == a)
    }

    @Test("R1.3 all three of from, to and by are rejected")
    func allThree() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        expectFailure(.invalidArgument, containing: "at most two") {
            try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), by: .scalar(1)), to: l, forKey: "k")
        }
        #expect(try rt.animationKeys(of: l).isEmpty)
    }

    @Test("R1.3 additive adds to the value below; cumulative builds on each repeat")
    func additiveCumulative() throws {
        var add = Animation.basic("opacity", from: .scalar(0), to: .scalar(4)); add.isAdditive = true
        #expect(try half(add) == 12)
        let rt = Runtime(); let l = try rt.createLayer()
        var c = linear("opacity", 0, 10); c.isCumulative = true; c.timing.repeatCount = 3
        try rt.add(c, to: l, forKey: "c")
        try rt.tick(0)
        for (t, v) in [(0.5, 5.0), (1.5, 15), (2.5, 25)] { try rt.tick(t); #expect(try rt.scalar("opacity", l) == v) }
    }

    @Test("R1.3 a later non-additive animation replaces, additive ones add on top, in insertion order")
    func composition() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(100), forKeyPath: "opacity", of: l)
        try rt.add(linear("opacity", 0, 10), to: l, forKey: "a")
        var b = linear("opacity", 1, 1); b.isAdditive = true
        try rt.add(b, to: l, forKey: "b")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 6)
        try rt.add(linear("opacity", 50, 50), to: l, forKey: "c")
        try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 50)
    }

    @Test("R1.4 invalid keyTimes are rejected with a clear message",
          arguments: [([0, 0.5], "has 2 entries for 3 values"), ([0, 0.7, 0.5], "must not decrease"),
                      ([0.1, 0.5, 1], "first key time must be 0"), ([0, 0.5, 0.9], "last key time must be 1"),
                      ([0, 1.5, 1], "must be in [0, 1]"), ([0, .nan, 1], "must be in [0, 1]")])
    func invalidKeyTimes(_ times: [Double], _ phrase: String) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let k = Keyframes(values: [.scalar(0), .scalar(1), .scalar(2)], keyTimes: times)
        let error = #expect(throws: AnimrtError.self) { try rt.add(.keyframe("opacity", k), to: l, forKey: "k") }
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "accepted \(times)")")
        #expect(try rt.animationKeys(of: l).isEmpty)
    }

    @Test("R1.4 cubic passes through every keyframe; discrete holds; per-segment functions")
    func keyframeModes() throws {
        let values: [AnimatableValue] = [.scalar(0), .scalar(10), .scalar(5), .scalar(20)]
        let cubic = try ResolvedKeyframes(Keyframes(values: values, calculationMode: .cubic), path: "x")
        for (i, v) in values.enumerated() { expectClose(cubic.value(at: Double(i) / 3).scalar, v.scalar, 1e-12) }
        // Catmull-Rom overshoots between 0 and 10 toward the following 5? It stays between neighbours' hull here:
        let mid = cubic.value(at: 1.0 / 6).scalar
        #expect(mid > 0 && mid < 10)
        let cubicPaced = try ResolvedKeyframes(Keyframes(values: values, calculationMode: .cubicPaced), path: "x")
        expectClose(cubicPaced.value(at: 0).scalar, 0, 1e-12)
        expectClose(cubicPaced.value(at: 1).scalar, 20, 1e-9)
        let points = try ResolvedKeyframes(Keyframes(values: [.point(0, 0), .point(3, 4), .point(3, 0)], calculationMode: .paced), path: "p")
        #expect(points.keyTimes == [0, 5.0 / 9, 1])
    }

    /// Whole transforms interpolate their decomposition in every mode: the
    /// cubic spline runs through the keyframes' translations, scales and
    /// angles, not through their matrix elements, whose spline from the
    /// identity to a half turn passes through a matrix of zero scale (the
    /// layer vanishing halfway instead of turning a quarter).
    @Test("R1.4 cubic modes on a whole transform turn it, as linear mode does", arguments: [CalculationMode.cubic, .cubicPaced])
    func cubicTransformKeyframes(_ mode: CalculationMode) throws {
        let half = try ResolvedKeyframes(Keyframes(values: [.transform(.identity), .transform(.rotationZ(.pi))],
                                                   calculationMode: mode), path: "transform")
        // Two keyframes: each tangent is half the chord, so the spline's
        // middle is the middle angle, where the angle moves at 1.25 π per
        // unit of progress (d/du of 3u² − 2u³ + (u³ − 2u² + u)/2 + (u³ − u²)/2).
        let middle = half.value(at: 0.5).transform
        let quarter = Transform3D.rotationZ(.pi / 2)
        for r in 0..<4 { for c in 0..<4 { expectClose(middle[r, c], quarter[r, c], 1e-9) } }
        if mode == .cubic {
            let rate = half.rate(at: 0.5).transform
            expectClose(rate[0, 0], -1.25 * .pi, 1e-6)  // d cos θ = −sin θ dθ, θ = π/2
            expectClose(rate[0, 1], 0, 1e-6)
        }
        // Three keyframes a quarter turn apart: every frame is a rotation,
        // never a shrunken one, and the keyframes are passed exactly.
        let turn = try ResolvedKeyframes(Keyframes(values: [.transform(.identity), .transform(.rotationZ(.pi / 2)),
                                                            .transform(.rotationZ(.pi))], calculationMode: mode),
                                         path: "transform")
        for j in 0...40 {
            let t = turn.value(at: Double(j) / 40).transform
            expectClose((t[0, 0] * t[0, 0] + t[0, 1] * t[0, 1]).squareRoot(), 1, 1e-9)
        }
        let second = turn.value(at: mode == .cubic ? 0.5 : turn.keyTimes[1]).transform
        for r in 0..<4 { for c in 0..<4 { expectClose(second[r, c], quarter[r, c], mode == .cubic ? 1e-12 : 1e-3) } }
    }

    /// The header: velocity is ±∞ where a keyframe segment is too short for
    /// a double to divide by (key times 1e-320 apart); the value shown stays
    /// finite, and the next segment's velocity is finite again.
    @Test("R1.4 a keyframe segment 1e-320 long has an infinite velocity and finite values")
    func keyframeVelocityPastTheDoubles() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let k = Keyframes(values: [.scalar(0), .scalar(1), .scalar(3)], keyTimes: [0, .leastNonzeroMagnitude * 2024, 1])  // 1e-320
        let h = try rt.add(.keyframe("opacity", k, timing: MediaTiming(duration: 1)), to: l, forKey: "k")
        try rt.tick(0)
        #expect(try rt.velocity(of: h, keyPath: "opacity").scalar == .infinity)
        #expect(try rt.scalar("opacity", l) == 0)
        try rt.tick(0.5)
        expectClose(try rt.velocity(of: h, keyPath: "opacity").scalar, 2, 1e-12)
        expectClose(try rt.scalar("opacity", l), 2, 1e-12)
    }

    /// cubicPaced's velocity is the spline's slope times d(parameter)/dy,
    /// which is the parameter's share of a table piece times the curve's
    /// length over that piece's: a ratio near 32. Taken the other way round
    /// (1/32 over a piece's length first) it overflowed for a curve 1e-320
    /// long, and a value that moves by 1e-320 in all showed an infinite
    /// velocity.
    @Test("R1.4 a cubic-paced curve 1e-320 long moves at a finite speed")
    func cubicPacedTinyCurveVelocity() throws {
        let tiny = 1e-320
        let k = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(tiny)], calculationMode: .cubicPaced), path: "x")
        for y in [0.1, 0.5, 0.9] {
            let rate = k.rate(at: y).scalar
            #expect(rate.isFinite && rate > 0 && rate <= 2 * tiny, "y = \(y): \(rate)")
        }
        // At an ordinary scale the rate is as before: about the curve's
        // length per unit of progress (the table is linear between samples).
        let unit = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(1)], calculationMode: .cubicPaced), path: "x")
        expectClose(unit.rate(at: 0.5).scalar, 1, 1e-3)
    }

    /// kCAAnimationPaced and kCAAnimationCubicPaced: "keyTimes and
    /// timingFunction are ignored and keyframe times are automatically
    /// generated to give the animation a constant velocity". The
    /// animation's own curve is not applied either; it still reads back as
    /// set, and eases a linear keyframe animation as before.
    @Test("R1.4 paced modes ignore the animation's timing function", arguments: [CalculationMode.paced, .cubicPaced])
    func pacedIgnoresTimingFunction(_ mode: CalculationMode) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let values: [AnimatableValue] = [.scalar(0), .scalar(10), .scalar(30)]
        let plain = try ResolvedKeyframes(Keyframes(values: values, calculationMode: mode), path: "opacity")
        let eased = try rt.add(.keyframe("opacity", Keyframes(values: values, calculationMode: mode),
                                         timing: MediaTiming(duration: 1), timingFunction: .easeIn), to: l, forKey: "k")
        try rt.tick(0); try rt.tick(0.25)
        expectClose(try rt.scalar("opacity", l), plain.value(at: 0.25).scalar, 1e-12)
        if mode == .paced {
            expectClose(try rt.scalar("opacity", l), 7.5, 1e-12)
            expectClose(try rt.velocity(of: eased, keyPath: "opacity").scalar, 30, 1e-9)
        }
        expectClose(try rt.computedTiming(of: eased).progress!, 0.25, 1e-15)
        #expect(try rt.attachedAnimation(eased).timingFunction == .easeIn)

        let m = try rt.createLayer()
        try rt.add(.keyframe("opacity", Keyframes(values: values), timing: MediaTiming(duration: 1), timingFunction: .easeIn),
                   to: m, forKey: "k")
        try rt.tick(0.5); try rt.tick(0.75)
        expectClose(try rt.scalar("opacity", m), 20 * TimingFunction.easeIn.evaluate(0.25), 1e-12)
    }

    @Test("R1.4 keyframe animation runs through the runtime with a point key path")
    func keyframeRuntime() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let k = Keyframes(values: [.point(0, 0), .point(10, 20), .point(30, 20)], keyTimes: [0, 0.5, 1])
        try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 2)), to: l, forKey: "k")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(5, 10))
        try rt.tick(1.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(20, 20))
    }

    @Test("R1.5 spring animation uses its duration and the closed form")
    func springRuntime() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let s = Spring(mass: 1, stiffness: 100, damping: 10)
        try rt.add(.spring("opacity", s, from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: s.settlingDuration)), to: l, forKey: "s")
        try rt.tick(0); try rt.tick(0.2)
        expectClose(try rt.scalar("opacity", l), s.value(at: 0.2), 1e-12)
        #expect(try rt.scalar("opacity", l) > 0.5)
        expectFailure(.outOfRange, containing: "mass") { try rt.add(.spring("opacity", Spring(mass: 0), to: .scalar(1)), to: l, forKey: "bad") }
    }

    @Test("R1.6 key paths reach into points, rects, colours and transforms")
    func keyPaths() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: l)
        try rt.setModelValue(.scalar(7), forKeyPath: "position.y", of: l)
        #expect(try rt.modelValue(forKeyPath: "position", of: l) == .point(1, 7))
        try rt.setModelValue(.rect(0, 0, 50, 20), forKeyPath: "bounds", of: l)
        #expect(try rt.modelValue(forKeyPath: "bounds.size.height", of: l) == .scalar(20))
        #expect(try rt.modelValue(forKeyPath: "bounds.size", of: l) == .size(50, 20))
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l) == .scalar(1))
        #expect(try rt.modelValue(forKeyPath: "anchorPoint", of: l) == .point(0.5, 0.5))

        try rt.add(linear("transform.rotation.z", 0, .pi), to: l, forKey: "r")
        try rt.add(.basic("backgroundColor", from: .color(0, 0, 0, 1), to: .color(1, 0.5, 0, 1), timing: MediaTiming(duration: 1)), to: l, forKey: "c")
        try rt.add(linear("bounds.size.width", 50, 150), to: l, forKey: "w")
        try rt.tick(0); try rt.tick(0.5)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l).transform
        expectClose(m[0, 0], 0, 1e-12); expectClose(m[0, 1], 1, 1e-12); expectClose(m[1, 0], -1, 1e-12)
        expectClose(try rt.scalar("transform.rotation.z", l), .pi / 2, 1e-12)
        #expect(try rt.presentationValue(forKeyPath: "backgroundColor", of: l) == .color(0.5, 0.25, 0, 1))
        #expect(try rt.presentationValue(forKeyPath: "bounds", of: l) == .rect(0, 0, 100, 20))
    }

    @Test("R1.6 transform sub-paths compose with each other")
    func transformParts() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(2), forKeyPath: "transform.scale", of: l)
        try rt.add(linear("transform.translation.x", 0, 40), to: l, forKey: "t")
        try rt.tick(0); try rt.tick(0.5)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l).transform
        #expect(m[0, 0] == 2 && m[1, 1] == 2 && m[3, 0] == 20)
        // Whole-transform interpolation goes through the decomposition.
        let whole = AnimatableValue.transform(.identity).interpolated(to: .transform(.rotationZ(.pi / 2)), 0.5).transform
        expectClose(whole[0, 0], 0.5.squareRoot(), 1e-12)
        expectClose(whole[0, 1], 0.5.squareRoot(), 1e-12)
    }

    /// Core Animation's transform key paths: `scale` is "the average of all
    /// three scale factors"; writing it sets all three. The average is also
    /// the end a to-only animation takes from the model.
    @Test("R1.6 transform.scale reads the average of the three scale factors")
    func uniformScaleAverage() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(2), forKeyPath: "transform.scale.x", of: l)
        try rt.setModelValue(.scalar(4), forKeyPath: "transform.scale.y", of: l)
        expectClose(try rt.modelValue(forKeyPath: "transform.scale", of: l).scalar, 7.0 / 3, 1e-15)
        try rt.add(.basic("transform.scale", to: .scalar(4), timing: MediaTiming(duration: 1)), to: l, forKey: "s")
        try rt.tick(0); try rt.tick(0.5)
        for axis in ["x", "y", "z"] { expectClose(try rt.scalar("transform.scale.\(axis)", l), 19.0 / 6, 1e-12) }
        expectClose(try rt.scalar("transform.scale", l), 19.0 / 6, 1e-12)
        // A uniform scale reads back exactly as written.
        try rt.setModelValue(.scalar(0.1), forKeyPath: "transform.scale", of: l)
        #expect(try rt.modelValue(forKeyPath: "transform.scale", of: l).scalar == 0.1)
    }

    @Test("R1.6 host-defined properties; unknown key paths suggest a fix; wrong kinds are refused")
    func hostProperties() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.properties.define("progress", default: .scalar(0))
        try rt.add(linear("progress", 0, 1), to: l, forKey: "p")
        try rt.tick(0); try rt.tick(0.25)
        #expect(try rt.scalar("progress", l) == 0.25)
        expectFailure(.notFound, containing: "did you mean 'opacity'") { _ = try rt.modelValue(forKeyPath: "opacty", of: l) }
        expectFailure(.kind, containing: "takes a point") { try rt.setModelValue(.scalar(1), forKeyPath: "position", of: l) }
        expectFailure(.kind) { try rt.add(.basic("position", to: .scalar(1)), to: l, forKey: "x") }
        #expect(throws: AnimrtError.self) { try rt.properties.define("progress", default: .scalar(1)) }
    }

    @Test("R1.6 another toolkit's name for a key path is answered with the key path it stands for", arguments: [
        ("alpha", "did you mean 'opacity'? (UIKit's alpha)"),
        ("bounds.width", "did you mean 'bounds.size.width'?"),
        ("position.z", "did you mean 'zPosition'?"),
        ("transform.scaleX", "did you mean 'transform.scale.x'?"),
        ("frame", "a layer has no frame: animate 'position' and 'bounds.size' (or 'bounds')"),
    ])
    func otherToolkitsNames(name: String, answer: String) throws {
        #expect(try keyPathRefusal(name) == "key path '\(name)' is not animatable; \(answer)")
    }

    /// The message a read of `name` on a fresh layer is refused with (nil,
    /// and an issue recorded, if it resolved); no key path id is minted.
    private func keyPathRefusal(_ name: String) throws -> String? {
        let rt = Runtime(); let l = try rt.createLayer()
        do { _ = try rt.modelValue(forKeyPath: name, of: l) } catch {
            #expect(error.status == .notFound)
            #expect(rt.keyPathTable.isEmpty)
            return error.message
        }
        Issue.record("'\(name)' resolved")
        return nil
    }

    @Test("R1.6 an unknown part of a known property is answered with its parts, not the property", arguments: [
        ("backgroundColor.r", "; did you mean 'backgroundColor.red'?"),  // begun: as close as 'backgroundColor'
        ("bounds.size.h", "; did you mean 'bounds.size.height'?"),  // begun, though too far to be a typo of it
        ("position.X", "; did you mean 'position.x'?"),
        ("transform.rotation.zz", "; did you mean 'transform.rotation.z'?"),
        ("bounds.w", " (the parts of 'bounds': bounds.origin, bounds.origin.x, bounds.origin.y, bounds.size, "
            + "bounds.size.width, bounds.size.height)"),
        ("transform.s", " (the parts of 'transform': transform.scale, transform.scale.x, transform.scale.y, transform.scale.z)"),
        ("opacity.x", "; 'opacity' has no parts: animate it whole"),
    ])
    func unknownParts(name: String, answer: String) throws {
        #expect(try keyPathRefusal(name) == "key path '\(name)' is not animatable" + answer)
    }

    @Test("R1.6 each other toolkit's name is answered with key paths that exist, and a host property of that name is its own")
    func otherToolkitsNamesAnswered() throws {
        var registry = PropertyRegistry()
        for (habit, said) in PropertyRegistry.habits {
            // The key paths an answer names are those between quotes: 'opacity', 'bounds.size'.
            let named = said.matches(of: try Regex<(Substring, Substring)>("'([A-Za-z.]+)'")).map { String($0.output.1) }
            #expect(!named.isEmpty, "\(habit)")
            for path in named { #expect((try? registry.resolve(path)) != nil, "\(habit): \(path)") }
        }
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.properties.define("alpha", default: .scalar(0.25))
        #expect(try rt.scalar("alpha", l) == 0.25)
        #expect(try rt.scalar("opacity", l) == 1)
    }
}
