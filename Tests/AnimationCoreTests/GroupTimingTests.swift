import Foundation
import Testing
@testable import AnimationCore

/// CSS cubic-bezier(x1, y1, x2, y2) at `x`, solved here by bisection on the
/// curve's parameter (independently of UnitBezier's Newton solver).
private func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> (y: Double, slope: Double) {
    func coord(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
    }
    func derivative(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        3 * (1 - t) * (1 - t) * p1 + 6 * (1 - t) * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 { let mid = (lo + hi) / 2; if coord(x1, x2, mid) < x { lo = mid } else { hi = mid } }
    let t = (lo + hi) / 2
    return (coord(y1, y2, t), derivative(y1, y2, t) / derivative(x1, x2, t))
}

/// CAAnimationGroup's timing as Core Animation applies it to the children.
@Suite("Group timing")
struct GroupTimingTests {
    /// A group's timing function eases the time its children see (Core
    /// Animation Cookbook, "Using a Single Timing Function For a Keyframe
    /// Animation"): a linear 0 → 1 child in an ease-in group shows the
    /// ease-in curve itself, y(x) of cubic-bezier(0.42, 0, 1, 1).
    @Test("R1.2 a group's timing function eases its children's time")
    func groupCurveEasesChildren() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let child = linear("opacity", 0, 1, duration: 2)
        var g = Animation.group([child], timing: MediaTiming(duration: 2))
        g.timingFunction = .easeIn
        _ = try rt.add(g, to: l, forKey: "g")
        for t in [0.0, 0.5, 1.0, 1.5] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), bezier(0.42, 0, 1, 1, at: t / 2).y, 1e-6, "t = \(t)")
        }
    }

    /// The velocity follows the chain rule through the group's curve: a
    /// linear 0 → 10 child over the group's 1 s changes at 10·y′(x).
    @Test("R1.2 a group's child's velocity takes the group curve's slope")
    func groupCurveVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var g = Animation.group([linear("opacity", 0, 10, duration: 1)], timing: MediaTiming(duration: 1))
        g.timingFunction = .easeInEaseOut
        let h = try rt.add(g, to: l, forKey: "g")
        try rt.tick(0)
        for t in [0.2, 0.5, 0.8] {
            try rt.tick(t)
            expectClose(try rt.velocity(of: h, keyPath: "opacity").scalar, 10 * bezier(0.42, 0, 0.58, 1, at: t).slope, 1e-6, "t = \(t)")
        }
    }

    /// Children of one property under different key paths compose their
    /// velocities as their values: `position` (0, 0) → (10, 20) and an
    /// additive `position.x` 0 → 100 over 1 s move x at 10 + 100 = 110 and
    /// y at 20 per second; a `position` child added after a `position.x`
    /// one replaces x, which then moves at 10, not 100.
    @Test("R1.2 a group's children of one property compose their velocities across key paths")
    func groupVelocityAcrossKeyPaths() throws {
        let rt = Runtime(); let l = try rt.createLayer(); let l2 = try rt.createLayer()
        let whole = Animation.basic("position", from: .point(0, 0), to: .point(10, 20))
        var x = Animation.basic("position.x", from: .scalar(0), to: .scalar(100)); x.isAdditive = true
        let h = try rt.add(.group([whole, x], timing: MediaTiming(duration: 1)), to: l, forKey: "g")
        x.isAdditive = false
        let h2 = try rt.add(.group([x, whole], timing: MediaTiming(duration: 1)), to: l2, forKey: "g")
        try rt.tick(0); try rt.tick(0.5)
        expectClose(try rt.velocity(of: h, keyPath: "position.x").scalar, 110, 1e-9, "x under an additive x")
        #expect(try rt.velocity(of: h, keyPath: "position").components.map { ($0 * 1e9).rounded() / 1e9 } == [110, 20])
        expectClose(try rt.velocity(of: h2, keyPath: "position.x").scalar, 10, 1e-9, "x replaced by position")
        expectClose(try rt.scalar("position.x", l2), 5, 1e-12, "x replaced by position")
    }

    /// Steps on a group hold the children's time at each step's start:
    /// steps(2, jump-end) over 1 s shows the child at 0 s until 0.5 s, then
    /// at 0.5 s.
    @Test("R1.2 a group's steps hold its children's time")
    func groupSteps() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var g = Animation.group([linear("opacity", 0, 1, duration: 1)], timing: MediaTiming(duration: 1))
        g.timingFunction = try .steps(2)
        _ = try rt.add(g, to: l, forKey: "g")
        try rt.tick(0); try rt.tick(0.3)
        #expect(try rt.scalar("opacity", l) == 0)
        try rt.tick(0.7)
        #expect(try rt.scalar("opacity", l) == 0.5)
    }

    /// A child without a duration runs for the group's (Core Animation
    /// Cookbook: a keyframe child with no duration in a 15 s group runs
    /// 15 s), not for 0.25 s: a 0 → 1 keyframe child of a 2 s group is at
    /// t/2.
    @Test("R1.2 a child without a duration runs for the group's")
    func childInheritsDuration() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let child = Animation.keyframe("opacity", Keyframes(values: [.scalar(0), .scalar(1)]))
        _ = try rt.add(.group([child], timing: MediaTiming(duration: 2)), to: l, forKey: "g")
        for t in [0.0, 0.5, 1.0, 1.5] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), t / 2, 1e-12, "t = \(t)")
        }
    }

    /// Nested groups pass the duration down: a group without one in a 4 s
    /// group runs 4 s, and so does its own child; a transaction's duration
    /// is the outer group's when it has none.
    @Test("R1.2 nested groups and transactions pass the duration down")
    func nestedInheritance() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let leaf = Animation.basic("opacity", from: .scalar(0), to: .scalar(1))
        _ = try rt.add(.group([.group([leaf])], timing: MediaTiming(duration: 4)), to: l, forKey: "g")
        try rt.beginTransaction(animationDuration: 8)
        _ = try rt.add(.group([.basic("cornerRadius", from: .scalar(0), to: .scalar(8))]), to: l, forKey: "t")
        try rt.commitTransaction(token: 1)
        for t in [0.0, 1.0, 3.0] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), t / 4, 1e-12, "t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), t, 1e-12, "t = \(t)")
        }
    }

    /// The attached copy reads back as it runs (its duration as defaulted,
    /// its children's as inherited); the description added is unchanged.
    @Test("An attached group's children read back the inherited duration")
    func inheritedReadback() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let child = Animation.basic("opacity", from: .scalar(0), to: .scalar(1))
        let g = Animation.group([child, linear("cornerRadius", 0, 1, duration: 0.5)], timing: MediaTiming(duration: 3))
        let copy = try rt.attachedAnimation(try rt.add(g, to: l, forKey: "g"))
        guard case .group(let children) = copy.content else { Issue.record("not a group"); return }
        #expect(children.map(\.timing.duration) == [3, 0.5])
        guard case .group(let given) = g.content else { return }
        #expect(given[0].timing.duration == 0)
    }

    /// Core Animation's idiom for keeping a group's end state: fillMode
    /// forwards and removedOnCompletion false on the group alone, children
    /// left with the default fill. The group holds its children at its end,
    /// so a child that ends with it shows its last frame from then on; one
    /// that ends earlier follows its own fill (the model), from the exact
    /// instant it ends. An autoreversing group's reverse iteration starts
    /// on its child's last frame.
    @Test("R1.2 a group filling forwards holds a child that ends with it")
    func groupFillHoldsChildren() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
        let whole = Animation.basic("opacity", from: .scalar(0), to: .scalar(10))
        let early = linear("cornerRadius", 0, 4, duration: 0.5)
        var g = Animation.group([whole, early], timing: MediaTiming(duration: 2, fillMode: .forwards))
        g.isRemovedOnCompletion = false
        let h = try rt.add(g, to: l, forKey: "g")
        for (t, opacity, radius) in [(0.0, 0.0, 0.0), (0.5, 2.5, -1.0), (1.0, 5.0, -1.0), (2.0, 10.0, -1.0), (7.0, 10.0, -1.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), radius, 1e-12, "cornerRadius at t = \(t)")
        }
        #expect(try rt.velocity(of: h, keyPath: "opacity").scalar == 0)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])

        // Autoreversing: the reverse iteration starts on the child's end.
        let rt2 = Runtime(); let l2 = try rt2.createLayer()
        _ = try rt2.add(.group([whole], timing: MediaTiming(duration: 1, autoreverses: true)), to: l2, forKey: "g")
        for (t, v) in [(0.0, 0.0), (0.5, 5.0), (1.0, 10.0), (1.5, 5.0)] {
            try rt2.tick(t)
            expectClose(try rt2.scalar("opacity", l2), v, 1e-12, "autoreversing group at t = \(t)")
        }
    }

    /// The same idiom with a child that plays backwards (speed −1): its play
    /// ends on its first frame, at local time 0, which it reaches with the
    /// group's end. Inheriting the group's 2 s, a 0 → 10 child at group time
    /// c is at (2 − c)/2, so 10 − 5c, and the group holds it on 0 (its from
    /// value), not on the model. A reversed child that ends earlier (0.5 s,
    /// 0 → 4: 4 − 8c) follows its own fill from the instant it ends.
    @Test("R1.2 a group filling forwards holds a reversed child that ends with it")
    func groupFillHoldsReversedChild() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
        var whole = Animation.basic("opacity", from: .scalar(0), to: .scalar(10))
        whole.timing.speed = -1
        var early = linear("cornerRadius", 0, 4, duration: 0.5)
        early.timing.speed = -1
        var g = Animation.group([whole, early], timing: MediaTiming(duration: 2, fillMode: .forwards))
        g.isRemovedOnCompletion = false
        let h = try rt.add(g, to: l, forKey: "g")
        for (t, opacity, radius) in [(0.0, 10.0, 4.0), (0.25, 8.75, 2.0), (0.5, 7.5, -1.0), (1.5, 2.5, -1.0),
                                     (2.0, 0.0, -1.0), (7.0, 0.0, -1.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), radius, 1e-12, "cornerRadius at t = \(t)")
        }
        #expect(try rt.velocity(of: h, keyPath: "opacity").scalar == 0)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// A group of exactly zero length (Web Animations' duration 0) passes
    /// its zero on to a child without a duration as an exact zero, not as
    /// Core Animation's "unset" (0.25 s): the child is as instant as its
    /// group. Filling both ways from begin time 1, the group holds its
    /// children at its start before then (0 → 10 child: 0) and at its end
    /// from then on (10), as one instant effect would (0, then 10). A child
    /// with a duration of its own (1 s, 0 → 4) is clipped to the group's
    /// nothing: its first frame (0) throughout.
    @Test("R1.2 a zero-length group passes its zero duration on exactly")
    func zeroLengthGroup() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
        var timing = MediaTiming(beginTime: 1, fillMode: .both)
        timing.iterationDuration = 0
        var g = Animation.group([.basic("opacity", from: .scalar(0), to: .scalar(10)), linear("cornerRadius", 0, 4)],
                                timing: timing)
        g.isRemovedOnCompletion = false
        let h = try rt.add(g, to: l, forKey: "g")
        for (t, opacity) in [(0.0, 0.0), (0.5, 0.0), (1.0, 10.0), (3.0, 10.0)] {
            try rt.tick(t)
            expectClose(try rt.scalar("opacity", l), opacity, 1e-12, "opacity at t = \(t)")
            expectClose(try rt.scalar("cornerRadius", l), 0, 1e-12, "cornerRadius at t = \(t)")
        }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        guard case .group(let children) = try rt.attachedAnimation(h).content else { Issue.record("not a group"); return }
        #expect(children.map(\.timing.iterationDuration) == [0, nil])
        #expect(children.map(\.timing.effectiveDuration) == [0, 1])
    }
    /// A child's begin and end that fall exactly on a tick are seen there,
    /// as Core Animation's children see their group's local time: in a 3 s
    /// group, a child beginning at 1.8 s shows its first frame at 1.8 (1.8 / 3
    /// × 3 is 1.7999999999999998, which left it before its begin, showing
    /// the model), and a child ending at 1.8 s is over there (it showed its
    /// next-to-last frame). The same when the group plays backwards (speed
    /// −1: local time 3 − t) or its iteration does (direction reverse: the
    /// children see 3 − t), and their velocity is seen where their value is.
    @Test("R1.2 a group's child begins and ends exactly on the tick that reaches its time")
    func childBoundsOnTheTick() throws {
        for (speed, reverse) in [(1.0, false), (-1.0, false), (1.0, true)] {
            let what = "speed \(speed)\(reverse ? ", reversed" : "")"
            let rt = Runtime(); let l = try rt.createLayer()
            try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
            try rt.setModelValue(.scalar(-1), forKeyPath: "cornerRadius", of: l)
            var timing = MediaTiming(beginTime: 0, duration: 3)
            timing.speed = speed
            if reverse { timing.direction = .reverse }
            let g = Animation.group([linear("opacity", 10, 20, begin: 1.8, duration: 1),
                                     linear("cornerRadius", 30, 40, duration: 1.8)], timing: timing)
            let h = try rt.add(g, to: l, forKey: "g")
            try rt.tick(0)
            // Played backwards either way, the children's 1.8 is reached at 3 - 1.8 (exactly 1.2: 3 - 1.2 is 1.8).
            try rt.tick(speed > 0 && !reverse ? 1.8 : 3 - 1.8)
            #expect(try rt.scalar("opacity", l) == 10, "\(what): the child that begins at 1.8 shows its first frame")
            #expect(try rt.scalar("cornerRadius", l) == -1, "\(what): the child that ends at 1.8 is over")
            // 10 a second, the way the group plays it.
            expectClose(try rt.velocity(of: h, keyPath: "opacity").scalar, reverse ? -10 : 10 * speed, 1e-9, Comment(rawValue: what))
        }
    }

    /// A group's iteration start moves its children's time on: a 3 s group
    /// starting half-way through its iteration shows, 0.8 s after its begin,
    /// its children at 1.5 + 0.8 = 2.3 s (a 10 → 20 child from 1.8 s over 1 s: 15).
    @Test("R1.2 a group's iteration start moves its children's time")
    func childTimeWithIterationStart() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var timing = MediaTiming(beginTime: 0, duration: 3)
        timing.iterationStart = 0.5
        _ = try rt.add(.group([linear("opacity", 10, 20, begin: 1.8, duration: 1)], timing: timing), to: l, forKey: "g")
        try rt.tick(0); try rt.tick(0.8)
        expectClose(try rt.scalar("opacity", l), 15, 1e-9)
    }

    /// A group's transform children compose as their values do: an
    /// additive translation(4, 0) over translation(10, 0), both over 1 s,
    /// moves the matrix's x translation (m[12]) at 10 + 4 = 14 per second
    /// and shows 7 half-way.
    @Test("R1.2 an additive transform child of a group adds its velocity to the transform below it")
    func groupAdditiveTransformVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let below = Animation.basic("transform", from: .transform(.identity), to: .transform(.translation(10, 0)),
                                    timing: MediaTiming(duration: 1))
        var over = Animation.basic("transform", from: .transform(.identity), to: .transform(.translation(4, 0)),
                                   timing: MediaTiming(duration: 1))
        over.isAdditive = true
        let h = try rt.add(.group([below, over], timing: MediaTiming(duration: 1)), to: l, forKey: "g")
        try rt.tick(0); try rt.tick(0.5)
        expectClose(try rt.presentationValue(forKeyPath: "transform", of: l).lanes[12], 7, 1e-9)
        let v = try rt.velocity(of: h, keyPath: "transform").lanes
        expectClose(v[12], 14, 1e-6)
        for k in 0..<16 where k != 12 { expectClose(v[k], 0, 1e-6, "lane \(k)") }
    }

    /// While only a group's `position.x` child is in effect, `position`
    /// moves at (100, 0): x at the child's rate, y still. Once the
    /// `position` child (10, 20 over 0.5 s) begins, y moves at 40 and x
    /// stays the later `position.x` child's.
    @Test("R1.2 a group's velocity of a whole property counts a part that only some children write")
    func groupPartlyWrittenVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let whole = Animation.basic("position", from: .point(0, 0), to: .point(10, 20), timing: MediaTiming(beginTime: 0.5, duration: 0.5))
        let x = Animation.basic("position.x", from: .scalar(0), to: .scalar(100), timing: MediaTiming(duration: 1))
        let h = try rt.add(.group([whole, x], timing: MediaTiming(duration: 1)), to: l, forKey: "g")
        try rt.tick(0); try rt.tick(0.25)
        let early = try rt.velocity(of: h, keyPath: "position")
        expectClose(early.lanes[0], 100, 1e-9); #expect(early.lanes[1] == 0)
        try rt.tick(0.75)
        let late = try rt.velocity(of: h, keyPath: "position")
        expectClose(late.lanes[0], 100, 1e-9); expectClose(late.lanes[1], 40, 1e-9)
    }
}
