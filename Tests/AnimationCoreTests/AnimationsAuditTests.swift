import Testing
@testable import AnimationCore

/// Keyframe modes and times, Core Animation's from/to/by table, cumulative
/// keyframes, group depth and the readback of what was set, each worked out
/// by hand (CAKeyframeAnimation, CABasicAnimation, CAAnimationGroup).
@Suite("R1.3, R1.4 keyframes, from/to/by, group depth and readback worked out by hand")
struct AnimationsAuditTests {
    /// keyTimes [0, 1, 1]: the last segment has no length; at progress 1
    /// it shows its end, the last value (CA: the value at a key time is
    /// that keyframe's).
    @Test("Equal last key times end on the last value")
    func equalLastKeyTimes() throws {
        let r = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(10), .scalar(20)], keyTimes: [0, 1, 1]), path: "x")
        #expect(r.value(at: 0.5).scalar == 5)
        #expect(r.value(at: 1).scalar == 20)
    }

    /// One timing function per segment, as CAKeyframeAnimation takes them:
    /// the second segment here runs through the line (0,0)–(1,1), so at
    /// progress 0.75 (half of segment 1) the value is 10 + 10 × 0.5.
    @Test("Each segment eases with its own timing function; one per segment is accepted")
    func segmentFunctions() throws {
        let line = TimingFunction.cubicBezier(UnitBezier(0, 0, 1, 1))
        let r = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(10), .scalar(20)], timingFunctions: [.easeIn, line]), path: "x")
        #expect(abs(r.value(at: 0.75).scalar - 15) < 1e-6)
        expectFailure(.invalidArgument, containing: "has 3 timing functions for 2 segments") {
            _ = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(10), .scalar(20)], timingFunctions: [.easeIn, line, line]), path: "x")
        }
    }

    /// Paced: key times by distance, 10 of 40 then 30 of 40; at progress 0.5
    /// a third of the way through the second segment, 10 + 30 / 3.
    @Test("Paced keyframes space their times by distance")
    func pacedByDistance() throws {
        let r = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(10), .scalar(40)], calculationMode: .paced), path: "x")
        #expect(r.keyTimes == [0, 0.25, 1])
        #expect(abs(r.value(at: 0.5).scalar - 20) < 1e-12)
    }

    /// Kochanek–Bartels at keyframe 1 of 0, 10, 30 (d0 = 10, d1 = 20):
    /// outgoing (1−t)(1+b)(1+c)/2·d0 + (1−t)(1−b)(1−c)/2·d1, incoming
    /// (1−t)(1+b)(1−c)/2·d0 + (1−t)(1−b)(1+c)/2·d1. The ends' tangents
    /// take their missing neighbour as themselves: key 0 leaves with
    /// d1/2 = 5, key 2 arrives with d0/2 = 10. Hermite at u = ½: ½p0 +
    /// ⅛m0 + ½p1 − ⅛m1.
    @Test("Tension and continuity shape the tangents as Kochanek–Bartels define them")
    func kochanekBartels() throws {
        var k = Keyframes(values: [.scalar(0), .scalar(10), .scalar(30)], calculationMode: .cubic)
        k.tensionValues = [0, 0.5]
        var r = try ResolvedKeyframes(k, path: "x")
        // t = ½: both tangents ¼·10 + ¼·20 = 7.5.
        #expect(r.outgoing[1].scalar == 7.5 && r.incoming[1].scalar == 7.5)
        // Segment 1 at u = ½: 5 + 7.5/8 + 15 − 10/8.
        #expect(r.value(at: 0.75).scalar == 19.6875)
        k.tensionValues = []; k.continuityValues = [0, 0.5]
        r = try ResolvedKeyframes(k, path: "x")
        // c = ½: outgoing ¾·10 + ¼·20 = 12.5, incoming ¼·10 + ¾·20 = 17.5.
        #expect(r.outgoing[1].scalar == 12.5 && r.incoming[1].scalar == 17.5)
        // Segment 0 at u = ½: 5/8 + 5 − 17.5/8.
        #expect(r.value(at: 0.25).scalar == 3.4375)
    }

    @Test("keyTimes must start at 0")
    func keyTimesStart() throws {
        expectFailure(.invalidArgument, exactly: "keyTimes for 'x' starts at 0.25; the first key time must be 0") {
            _ = try ResolvedKeyframes(Keyframes(values: [.scalar(0), .scalar(1)], keyTimes: [0.25, 1]), path: "x")
        }
    }

    /// CAKeyframeAnimation isCumulative: each repeat adds the last value
    /// minus the first: (10,0) (20,0) (40,0) in the second repeat, half way,
    /// is 20 + 30.
    @Test("A cumulative keyframe animation adds last − first per repeat")
    func cumulativeKeyframes() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = Animation.keyframe("position", Keyframes(values: [.point(10, 0), .point(20, 0), .point(40, 0)]),
                                   timing: MediaTiming(beginTime: 1, duration: 1))
        a.isCumulative = true; a.timing.repeatCount = 2
        try rt.add(a, to: l, forKey: "k")
        try rt.tick(1.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(20, 0))
        try rt.tick(2.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(50, 0))
    }

    /// CABasicAnimation with neither value: from the value shown when it was
    /// added (the presentation then) to the model value now.
    @Test("No from, to or by: from the value shown when added to the model value")
    func noValues() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(10, 10), forKeyPath: "position", of: l)
        try rt.tick(0)
        try rt.add(.basic("position", timing: MediaTiming(beginTime: 1, duration: 1)), to: l, forKey: "p")
        try rt.setModelValue(.point(30, 50), forKeyPath: "position", of: l)
        try rt.tick(1.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(20, 30))
    }

    @Test("from, to and by all set are refused; from + by past the doubles is refused")
    func endsChecked() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        expectFailure(.invalidArgument, containing: "fromValue, toValue and byValue are all set on 'position'; set at most two") {
            try rt.add(.basic("position", from: .point(0, 0), to: .point(1, 1), by: .point(2, 2)), to: l, forKey: nil)
        }
        expectFailure(.outOfRange, containing: "fromValue + byValue on 'position' overflows") {
            try rt.add(.basic("position", from: .point(1e308, 0), by: .point(1e308, 0)), to: l, forKey: nil)
        }
        #expect(rt.attachedCounts.total == 0)
    }

    @Test("The attached copy reads back its flags and a paced keyframe animation's timing function")
    func readback() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = Animation.basic("position", from: .point(0, 0), to: .point(4, 4), timing: MediaTiming(duration: 1))
        a.isCumulative = true; a.isRemovedOnCompletion = false
        let c = try rt.attachedAnimation(try rt.add(a, to: l, forKey: "a"))
        #expect(c.isCumulative && !c.isRemovedOnCompletion)
        // kCAAnimationPaced ignores timingFunction, but the property keeps it.
        let k = Animation.keyframe("position", Keyframes(values: [.point(0, 0), .point(3, 4)], calculationMode: .paced),
                                   timing: MediaTiming(duration: 1), timingFunction: .easeIn)
        let kc = try rt.attachedAnimation(try rt.add(k, to: l, forKey: "k"))
        #expect(kc.timingFunction?.name == "easeIn")
    }

    /// Depth is the deepest branch's, whichever branch is measured last: a
    /// group holding a one-level group, then a chain 16 deep, is 17 deep.
    @Test("A group's depth is its deepest branch's")
    func deepestBranch() throws {
        let leaf = linear("opacity", 0, 1)
        var deep = Animation.group([leaf])
        for _ in 1..<Limits.groupDepth { let inner = deep; deep = .group([]); try deep.appendToGroup(inner) }
        let g = Animation.group([.group([leaf]), deep])
        #expect(g.groupMeasure().depth == Limits.groupDepth + 1)
        let rt = Runtime(); let l = try rt.createLayer()
        expectFailure(.outOfRange, containing: "would nest groups 17 deep") { try rt.add(g, to: l, forKey: nil) }
    }

    @Test("Setting a spring's toValue keeps its byValue")
    func springSlots() throws {
        var s = Animation.spring("opacity", Spring(), by: .scalar(5))
        try s.setValue(.scalar(9), .to)
        #expect(try s.value(.by) == .scalar(5) && s.value(.to) == .scalar(9) && s.value(.from) == nil)
    }
}
