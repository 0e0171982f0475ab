import Testing
@testable import AnimationCore

/// The two evaluation paths an attached animation can take. Each scenario
/// below runs on both: a scalar basic animation with both ends goes to the
/// batch, the same animation of a point goes to the general path.
enum EvaluationPath: String, CaseIterable, CustomTestStringConvertible {
    case batch, general
    var testDescription: String { rawValue }

    /// A basic animation whose animated number (opacity, or position.x with
    /// y twice x) goes from `from` to `to`.
    func animation(_ from: Double, _ to: Double, _ timing: MediaTiming) -> Animation {
        switch self {
        case .batch: .basic("opacity", from: .scalar(from), to: .scalar(to), timing: timing)
        case .general: .basic("position", from: .point(from, 2 * from), to: .point(to, 2 * to), timing: timing)
        }
    }

    /// The animated number as of the last tick.
    func value(_ rt: Runtime, _ layer: Handle) throws -> Double {
        switch self {
        case .batch: return try rt.scalar("opacity", layer)
        case .general:
            let p = try rt.presentationValue(forKeyPath: "position", of: layer)
            #expect(p.lanes[1] == 2 * p.lanes[0])
            return p.lanes[0]
        }
    }

    /// Sets the model so that "not in effect" shows `v`.
    func setModel(_ rt: Runtime, _ layer: Handle, _ v: Double) throws {
        switch self {
        case .batch: try rt.setModelValue(.scalar(v), forKeyPath: "opacity", of: layer)
        case .general: try rt.setModelValue(.point(v, 2 * v), forKeyPath: "position", of: layer)
        }
    }

    func expectPath(_ rt: Runtime, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rt.attachedCounts.batched == (self == .batch ? 1 : 0), sourceLocation: sourceLocation)
    }
}

@Suite("R1.2 conformance regressions through attached animations")
struct TimingConformanceTests {
    /// WA1 §4.8.3 (calculating the active time), after phase with a forwards
    /// fill: active time = max(min(local time − start delay, active
    /// duration), 0). Duration 100, delay 1, endDelay −50: the end time is
    /// max(1 + 100 − 50, 0) = 51, so at 51 the effect is in its after phase
    /// with active time max(min(51 − 1, 100), 0) = 50: progress 50/100 = 0.5,
    /// not the 1.0 of a full active duration.
    @Test("Negative endDelay with a forwards fill holds where the interval was cut", arguments: EvaluationPath.allCases)
    func negativeEndDelayFill(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try path.setModel(rt, l, -7)
        var t = MediaTiming(beginTime: 1, duration: 100, fillMode: .forwards)
        t.endDelay = -50
        var a = path.animation(0, 100, t)
        a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "a")
        path.expectPath(rt)
        try rt.tick(0)
        #expect(try path.value(rt, l) == -7)     // before, no backwards fill: the model
        try rt.tick(26)
        #expect(try path.value(rt, l) == 25)     // active: (26 − 1) / 100
        try rt.tick(51)
        #expect(try path.value(rt, l) == 50)     // after: 0.5 × 100
        try rt.tick(500)
        #expect(try path.value(rt, l) == 50)     // and it keeps holding there
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// The same rule with endDelay −100: end time max(1 + 100 − 100, 0) = 1,
    /// so at local time 1 the effect is already after, and its active time
    /// is max(min(1 − 1, 100), 0) = 0: progress 0, the from value.
    @Test("endDelay −duration: the fill holds the start", arguments: EvaluationPath.allCases)
    func endDelayCancelsActiveInterval(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(beginTime: 1, duration: 100, fillMode: .forwards)
        t.endDelay = -100
        var a = path.animation(10, 110, t)
        a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "a")
        path.expectPath(rt)
        try rt.tick(1)
        #expect(try path.value(rt, l) == 10)
        try rt.tick(60)
        #expect(try path.value(rt, l) == 10)
    }

    /// Playing backwards: speed −1 with timeOffset = duration. Local time
    /// starts at the end of the active interval (d) and runs down; the offset
    /// adds d, so active time runs from 2d down to d, which wraps around the
    /// active duration onto d … 0 (the wrap keeps the end it reaches first,
    /// d). With d = 1 and 10 → 20 the frames are 20, 17.5, 15, 12.5; the old
    /// wrap sent 2d to 0 and flashed 10 first.
    @Test("Play backwards with timeOffset = duration starts at the end value", arguments: EvaluationPath.allCases)
    func playBackwardsFirstFrame(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try path.setModel(rt, l, -1)
        var t = MediaTiming(duration: 1)
        t.speed = -1; t.timeOffset = 1
        try rt.add(path.animation(10, 20, t), to: l, forKey: "a")
        path.expectPath(rt)
        for (now, expected) in [(0.0, 20.0), (0.25, 17.5), (0.5, 15), (0.75, 12.5)] {
            try rt.tick(now)
            #expect(try path.value(rt, l) == expected, "t = \(now)")
        }
        try rt.tick(1)
        #expect(try path.value(rt, l) == -1)  // played through: removed
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// With a backwards fill the frame held after a backwards play is the
    /// limit of the last frames (active time → 0⁺, value 10), not the start
    /// of the wrap.
    @Test("Play backwards with a backwards fill holds the from value", arguments: EvaluationPath.allCases)
    func playBackwardsFill(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(duration: 1, fillMode: .backwards)
        t.speed = -1; t.timeOffset = 1
        var a = path.animation(10, 20, t)
        a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "a")
        try rt.tick(0)
        #expect(try path.value(rt, l) == 20)
        try rt.tick(0.875)
        #expect(try path.value(rt, l) == 11.25)
        try rt.tick(3)
        #expect(try path.value(rt, l) == 10)
    }

    /// timeOffset = half the duration playing backwards: active time starts
    /// at d + d/2, wraps to d/2 (15) and runs down to 0, where the wrap
    /// reaches the end of the interval again (the boundary belongs to the
    /// backwards side: 20, not 10), then down to 15 at the end.
    @Test("Play backwards with timeOffset = duration / 2 wraps at the end", arguments: EvaluationPath.allCases)
    func playBackwardsHalfOffset(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = MediaTiming(duration: 1)
        t.speed = -1; t.timeOffset = 0.5
        try rt.add(path.animation(10, 20, t), to: l, forKey: "a")
        for (now, expected) in [(0.0, 15.0), (0.25, 12.5), (0.5, 20), (0.75, 17.5)] {
            try rt.tick(now)
            #expect(try path.value(rt, l) == expected, "t = \(now)")
        }
    }
}
