import Testing
@testable import AnimationCore

/// Playback direction and the before flag, which the published WPT vectors
/// (all `normal`) leave untested. Expected values follow Web Animations 1
/// §4.10.3 "Calculating the directed progress": with current iteration i,
/// `reverse` gives 1 − p; `alternate` plays forwards when i is even;
/// `alternate-reverse` when i + 1 is even; an infinite iteration plays
/// forwards. §4.10.4: the before flag is set in the before phase when
/// playing forwards and in the after phase when playing backwards.
@Suite("R1.2 playback direction and the before flag")
struct DirectionTests {
    static func progress(_ direction: PlaybackDirection, count: Double = 3, fill: FillMode = .both,
                         at t: Double, backwards: Bool = false) -> Double? {
        TimingModel(iterationDuration: 1, iterationCount: count, direction: direction, fill: fill)
            .sample(at: t, backwards: backwards).directedProgress
    }

    @Test("Directed progress in each iteration, for each direction", arguments: [
        // (direction, local time, expected): iterations 0, 1, 2 at a quarter in.
        (PlaybackDirection.normal, 0.25, 0.25), (.normal, 1.25, 0.25), (.normal, 2.25, 0.25),
        (.reverse, 0.25, 0.75), (.reverse, 1.25, 0.75), (.reverse, 2.25, 0.75),
        (.alternate, 0.25, 0.25), (.alternate, 1.25, 0.75), (.alternate, 2.25, 0.25),
        (.alternateReverse, 0.25, 0.75), (.alternateReverse, 1.25, 0.25), (.alternateReverse, 2.25, 0.75),
    ])
    func directed(_ direction: PlaybackDirection, _ t: Double, _ expected: Double) {
        #expect(Self.progress(direction, at: t) == expected)
    }

    @Test("The end of the last iteration, held by a forwards fill")
    func endHeld() {
        // Three iterations end in iteration 2 (even): alternate ends at 1, alternate-reverse at 0.
        #expect(Self.progress(.normal, at: 5) == 1)
        #expect(Self.progress(.reverse, at: 5) == 0)
        #expect(Self.progress(.alternate, at: 5) == 1)
        #expect(Self.progress(.alternateReverse, at: 5) == 0)
        // Two iterations end in iteration 1 (odd): the other way round.
        #expect(Self.progress(.alternate, count: 2, at: 5) == 0)
        #expect(Self.progress(.alternateReverse, count: 2, at: 5) == 1)
        // A backwards fill holds the start of iteration 0.
        #expect(Self.progress(.reverse, at: -1) == 1)
        #expect(Self.progress(.alternateReverse, at: -1) == 1)
        #expect(Self.progress(.alternate, at: -1) == 0)
    }

    @Test("An infinite current iteration plays forwards")
    func infiniteIteration() {
        let m = TimingModel(iterationDuration: 1, iterationCount: .infinity, iterationStart: 0.25,
                            direction: .alternateReverse, fill: .forwards)
        let s = m.progress(phase: .after, activeTime: .infinity)
        #expect(s.currentIteration == .infinity)
        #expect(s.directedProgress == 0.25)  // forwards: iterationStart mod 1, not 1 − 0.25
    }

    @Test("The before flag: before phase going forwards, after phase going backwards")
    func beforeFlag() {
        func flag(_ d: PlaybackDirection, _ t: Double, count: Double = 1) -> Bool {
            TimingModel(iterationDuration: 1, iterationCount: count, direction: d, fill: .both).sample(at: t).beforeFlag
        }
        #expect(flag(.normal, -1))
        #expect(!flag(.reverse, -1))
        #expect(!flag(.normal, 0.5))
        #expect(!flag(.reverse, 0.5))
        #expect(!flag(.normal, 2))
        #expect(flag(.reverse, 2))
        #expect(flag(.alternate, 3, count: 2))         // ends in iteration 1: backwards
        #expect(!flag(.alternate, 3, count: 3))
        // What it does: steps(4, jump-start) jumps at x = 0, but not with the flag set.
        let steps = StepsFunction(count: 4, position: .jumpStart)
        #expect(steps.solve(0, beforeFlag: flag(.normal, -1)) == 0)
        #expect(steps.solve(0, beforeFlag: false) == 0.25)
        // Reverse, after the end: directed progress 0 with the flag: 0, not 0.25.
        let s = TimingModel(iterationDuration: 1, direction: .reverse, fill: .both).sample(at: 2)
        #expect(s.directedProgress == 0 && s.beforeFlag)
        #expect(TimingFunction.steps(steps).evaluate(s.directedProgress!, beforeFlag: s.beforeFlag) == 0)
    }

    @Test("autoreverses maps to alternate, or alternate-reverse over a reverse direction", arguments: [
        (PlaybackDirection.normal, PlaybackDirection.alternate), (.reverse, .alternateReverse),
        (.alternate, .alternate), (.alternateReverse, .alternateReverse),
    ])
    func autoreversesDirection(_ given: PlaybackDirection, _ mapped: PlaybackDirection) {
        var t = MediaTiming(duration: 1, repeatCount: 2, autoreverses: true)
        t.direction = given
        #expect(t.model.direction == mapped)
        #expect(t.model.iterationCount == 4)
        t.autoreverses = false
        #expect(t.model.direction == given)
        #expect(t.model.iterationCount == 2)
    }

    @Test("Direction through attached animations: reverse, alternate-reverse, autoreverses with reverse")
    func throughTheRuntime() throws {
        let rt = Runtime()
        func layer(_ configure: (inout Animation) -> Void) throws -> Handle {
            let l = try rt.createLayer()
            var a = linear("opacity", 0, 1, begin: 1, duration: 1, fill: .forwards)
            a.timing.repeatCount = 2
            a.isRemovedOnCompletion = false
            configure(&a)
            try rt.add(a, to: l, forKey: "a")
            return l
        }
        let reverse = try layer { $0.timing.direction = .reverse }
        let altReverse = try layer { $0.timing.direction = .alternateReverse }
        let autoReverse = try layer { $0.timing.direction = .reverse; $0.timing.autoreverses = true; $0.timing.repeatCount = 1 }
        let autoNormal = try layer { $0.timing.autoreverses = true; $0.timing.repeatCount = 1 }
        for (t, r, ar, aur, au) in [(1.25, 0.75, 0.75, 0.75, 0.25), (2.25, 0.75, 0.25, 0.25, 0.75), (9.0, 0.0, 1.0, 1.0, 0.0)] {
            try rt.tick(t)
            #expect(try rt.scalar("opacity", reverse) == r, "reverse at \(t)")
            #expect(try rt.scalar("opacity", altReverse) == ar, "alternate-reverse at \(t)")
            #expect(try rt.scalar("opacity", autoReverse) == aur, "autoreverses + reverse at \(t)")
            #expect(try rt.scalar("opacity", autoNormal) == au, "autoreverses at \(t)")
        }
    }

    @Test("Negative speed: the before flag and the fills keep their meaning in local time")
    func negativeSpeedFlag() {
        var t = MediaTiming(beginTime: 0, duration: 1, speed: -1, fillMode: .both)
        t.direction = .normal
        // Playing backwards, the end (local 0) is reached at parent time 1, in the before phase.
        let s = t.sample(at: 1.5)
        #expect(s.phase == .before)
        #expect(s.directedProgress == 0)
        #expect(s.beforeFlag)
        #expect(t.sampleAndState(at: 1.5).1 == .ended)
        #expect(t.sampleAndState(at: -0.5).1 == .waiting)
        #expect(t.sampleAndState(at: 0.5).1 == .running)
    }
}
