import Testing
@testable import AnimationCore

/// Reading an attached animation back (Core Animation's animation(forKey:))
/// and its computed timing (Web Animations' getComputedTiming()).
@Suite("R1.2, R1.7 attached animations read back")
struct AttachedReadbackTests {
    /// CALayer add(_:forKey:): "If the duration property of the animation is
    /// zero or negative, the duration is changed to the current value of the
    /// kCATransactionAnimationDuration transaction property (if set) or to
    /// the default value of 0.25 seconds"; and the copy's beginTime 0 means
    /// "now", stamped when the animation is committed (the next tick here).
    @Test("The copy as attached: stamped beginTime, defaulted duration", arguments: EvaluationPath.allCases)
    func stampedAndDefaulted(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(3)
        let h = try rt.add(path.animation(1, 2, MediaTiming()), to: l, forKey: "a")
        var copy = try rt.attachedAnimation(h)
        #expect(copy.timing.beginTime == 0 && copy.timing.duration == 0.25)
        try rt.tick(5)
        copy = try rt.attachedAnimation(h)
        #expect(copy.timing.beginTime == 5 && copy.timing.duration == 0.25)
        #expect(try rt.instance(forKey: "a", of: l) == h)
        try rt.beginTransaction(animationDuration: 0.6)
        let t = try rt.add(path.animation(1, 2, MediaTiming()), to: l, forKey: "b")
        try rt.commitTransaction(token: 1)
        #expect(try rt.attachedAnimation(t).timing.duration == 0.6)
    }

    @Test("Values, curve and flags read back; a batch entry keeps its key path")
    func valuesAndFlags() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = Animation.basic("position.x", from: .scalar(3), by: .scalar(4), timing: MediaTiming(duration: 2, fillMode: .both),
                                timingFunction: try rt.timingFunctions.function(named: "cubic-bezier(0.1, 0.2, 0.3, 1)"))
        a.isRemovedOnCompletion = false
        let h = try rt.add(a, to: l, forKey: "x")
        #expect(rt.attachedCounts.batched == 1)
        let copy = try rt.attachedAnimation(h)
        #expect(copy.keyPath == "position.x" && copy.kind == .basic)
        // from + by in the batch: both ends given, read as from and to.
        #expect(try copy.value(.from) == .scalar(3) && copy.value(.to) == .scalar(7) && copy.value(.by) == nil)
        #expect(copy.timingFunction?.name == "cubic-bezier(0.1, 0.2, 0.3, 1)")
        #expect(copy.timing.fillMode == .both && !copy.isRemovedOnCompletion)
        // The general path keeps by as given.
        var g = Animation.basic("position", by: .point(1, 1), timing: MediaTiming(duration: 1))
        g.isAdditive = true
        let gh = try rt.add(g, to: l, forKey: "g")
        let gc = try rt.attachedAnimation(gh)
        #expect(try gc.value(.from) == nil && gc.value(.to) == nil && gc.value(.by) == .point(1, 1))
        #expect(gc.isAdditive && gc.timingFunction == nil)
        // Keyframes: values and key times as given.
        let k = Animation.keyframe("opacity", Keyframes(values: [.scalar(0), .scalar(1), .scalar(0.5)], keyTimes: [0, 0.2, 1]),
                                   timing: MediaTiming(duration: 1), timingFunction: .easeIn)
        let kc = try rt.attachedAnimation(try rt.add(k, to: l, forKey: "k"))
        guard case .keyframe(let frames) = kc.content else { Issue.record("not keyframes"); return }
        #expect(frames.values == [.scalar(0), .scalar(1), .scalar(0.5)] && frames.keyTimes == [0, 0.2, 1])
        #expect(kc.timingFunction?.name == "easeIn")
    }

    /// UIKit's "begin from current state": the copy's from is the value that
    /// was on screen when it was added.
    @Test("startsFromPresentation reads back the presentation value as from", arguments: EvaluationPath.allCases)
    func fromPresentation(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(path.animation(0, 10, MediaTiming(duration: 1)), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(0.5)
        var b = path.animation(0, 20, MediaTiming(duration: 1))
        b.startsFromPresentation = true
        let h = try rt.add(b, to: l, forKey: "a")
        let copy = try rt.attachedAnimation(h)
        #expect(copy.startsFromPresentation)
        #expect(try copy.value(.from)!.lanes[0] == 5)
    }

    /// A spring that runs until settled reads back with its settling
    /// duration as its duration, even when an exact iteration duration had
    /// been set (the settling duration replaces both names).
    @Test("A settling spring reads back its settling duration")
    func settlingSpring() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let spring = Spring(mass: 1, stiffness: 100, damping: 15)
        var a = Animation.spring("opacity", spring, from: .scalar(0), to: .scalar(1))
        a.usesSettlingDuration = true
        a.timing.iterationDuration = 0
        let copy = try rt.attachedAnimation(try rt.add(a, to: l, forKey: "s"))
        #expect(copy.usesSettlingDuration && copy.timing.iterationDuration == nil)
        #expect(copy.timing[.iterationDuration] == spring.settlingDuration)
    }

    @Test("An attached copy is read-only and goes stale when removed")
    func readOnly() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        do { try rt.updateAnimation(h) { $0.timing.speed = 2 }; Issue.record("changed") }
        catch { #expect(error.status == .handle && error.message.contains("read-only")) }
        #expect(try rt.attachedAnimation(h).timing.speed == 1)
        try rt.removeAnimation(forKey: "a", from: l)
        #expect(throws: AnimrtError.self) { try rt.attachedAnimation(h) }
        #expect(throws: AnimrtError.self) { try rt.computedTiming(of: h) }
    }

    /// WA1 §4.8–4.11 for iteration duration 1, 3 iterations, delay 0.5,
    /// direction alternate, begin time 10 (stamped), easeIn:
    /// active duration 1 × 3 = 3; end time 0.5 + 3 + 0 = 3.5.
    /// At 11.75: local 1.75, active 1.25, overall 1.25, current iteration 1,
    /// simple progress 0.25; iteration 1 of alternate plays reversed:
    /// directed 0.75; progress = easeIn(0.75).
    @Test("Computed timing follows WA1's definitions", arguments: EvaluationPath.allCases)
    func computedTiming(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(fillMode: .forwards)
        t.iterationDuration = 1; t.iterations = 3; t.delay = 0.5; t.direction = .alternate
        var a = path.animation(0, 1, t)
        a.timingFunction = .easeIn
        a.isRemovedOnCompletion = false
        try rt.tick(9)
        let h = try rt.add(a, to: l, forKey: "a")
        var c = try rt.computedTiming(of: h)
        #expect(c.phase == .idle && c.localTime == nil && !c.isInEffect)  // idle until stamped
        #expect(c.activeDuration == 3 && c.endTime == 3.5)
        try rt.tick(10)
        try rt.tick(10.25)
        c = try rt.computedTiming(of: h)
        #expect(c.phase == .before && c.localTime == 0.25 && c.currentIteration == nil && c.progress == nil)
        try rt.tick(11.75)
        c = try rt.computedTiming(of: h)
        #expect(c.phase == .active && c.localTime == 1.75 && c.activeTime == 1.25 && c.currentIteration == 1)
        expectClose(c.progress!, TimingFunction.easeIn.evaluate(0.75), 1e-15)
        // After, filling forwards: active time = min(end time − delay, 3) = 3,
        // overall 3, the end-of-iteration rule gives simple progress 1 in
        // iteration 2, which alternate plays forwards: progress 1.
        try rt.tick(20)
        c = try rt.computedTiming(of: h)
        #expect(c.phase == .after && c.localTime == 10 && c.activeTime == 3 && c.currentIteration == 2 && c.progress == 1)
    }

    /// Infinite iterations of a zero-length iteration: WA1's current
    /// iteration in the after phase is +∞ ("for a zero-duration animation
    /// that repeats infinite times, the value will be positive Infinity").
    @Test("Infinite zero-length iterations: current iteration +∞")
    func infiniteIteration() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(fillMode: .forwards)
        t.iterationDuration = 0; t.iterations = .infinity
        var a = linear("opacity", 0, 1)
        a.timing = t; a.isRemovedOnCompletion = false
        let h = try rt.add(a, to: l, forKey: "a")
        try rt.tick(1)
        let c = try rt.computedTiming(of: h)
        #expect(c.phase == .after && c.currentIteration == .infinity && c.activeDuration == 0 && c.endTime == 0)
    }
}
