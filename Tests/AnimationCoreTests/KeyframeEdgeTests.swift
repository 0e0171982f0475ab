import Testing
@testable import AnimationCore

/// Keyframe checks and evaluation at their edges, worked out by hand: a
/// tangent that overflows on the incoming side only, a NaN parameter on
/// linear keyframes, the refusal of key times in words, one linear
/// keyframe at time 0, cubicPaced ignoring key times and timing functions,
/// a path whose last two key times are equal, and points too far apart on
/// their second component.
@Suite("R0.4, R1.4 keyframe edges: tangents, key times, paced modes, paths")
struct KeyframeEdgeTests {
    /// The last keyframe's incoming tangent is (1 − t)(1 + b)(1 − c)/2 ×
    /// (p1 − p0) and its outgoing one the same with (1 + c): continuity −1
    /// makes the outgoing one 0 while tension −1e150 and bias 1e150 make the
    /// incoming one 1e10 × 1e300, past the doubles. The segment's end uses
    /// exactly that tangent, so the keyframes are refused.
    @Test("A keyframe whose incoming tangent overflows is refused, its outgoing one being 0")
    func incomingTangentOverflow() throws {
        var k = Keyframes(values: [.scalar(0), .scalar(1e10)], calculationMode: .cubic)
        k.tensionValues = [0, -1e150]; k.continuityValues = [0, -1]; k.biasValues = [0, 1e150]
        expectFailure(.outOfRange, containing: "keyframe 1 on 'x': its tangent overflows (tension -1e+150, continuity -1, bias 1e+150") {
            _ = try ResolvedKeyframes(k, path: "x")
        }
        // Tension 0 and bias 1e290 there: the incoming tangent is 1e10 × 1e290, finite.
        k.tensionValues = [0, 0]; k.biasValues = [0, 1e290]
        let r = try ResolvedKeyframes(k, path: "x")
        #expect(r.outgoing[1].scalar == 0 && r.incoming[1].scalar == 1e10 * ((1 + 1e290) * 2 / 2))
    }

    /// A NaN parameter, NaN tension or NaN bias is refused whatever the
    /// mode: linear keyframes use no tangent, but the values read back.
    @Test("A NaN tension is refused on linear keyframes too")
    func nanTensionLinear() throws {
        for name in ["tension", "continuity", "bias"] {
            var k = Keyframes(values: [.scalar(0), .scalar(1)])
            switch name {
            case "tension": k.tensionValues = [.nan]
            case "continuity": k.continuityValues = [0, .infinity]
            default: k.biasValues = [-.infinity]
            }
            expectFailure(.invalidArgument, containing: "a keyframe \(name) value is ") { _ = try ResolvedKeyframes(k, path: "x") }
        }
    }

    @Test("A NaN progress gives the first keyframe, and no velocity, in every mode")
    func nanProgress() throws {
        for mode in CalculationMode.allCases {
            let r = try ResolvedKeyframes(Keyframes(values: [.scalar(2), .scalar(4), .scalar(8)], calculationMode: mode), path: "x")
            #expect(r.value(at: .nan).scalar == 2, "\(mode)")
            #expect(r.rate(at: .nan).scalar == 0, "\(mode)")
        }
    }

    @Test("The refusal of discrete key times names n + 1, or n")
    func keyTimeCountWords() throws {
        let k = Keyframes(values: [.scalar(0), .scalar(1)], keyTimes: [0], calculationMode: .discrete)
        expectFailure(.invalidArgument) { _ = try ResolvedKeyframes(k, path: "x") }.map {
            #expect($0.message == "keyTimes for 'x' has 1 entry for 2 values; discrete mode needs 3 (or 2)")
        }
        #expect(CalculationMode.discrete.keyTimeCountWords(values: 4) == "5 (or 4)")
        #expect(CalculationMode.cubic.keyTimeCountWords(values: 4) == "4")
    }

    @Test("One linear keyframe at key time 0 is accepted; one discrete keyframe must still end at 1")
    func singleKeyframeTimes() throws {
        let one = try ResolvedKeyframes(Keyframes(values: [.scalar(5)], keyTimes: [0]), path: "x")
        #expect(one.keyTimes == [0] && one.value(at: 0.5).scalar == 5)
        let discrete = try ResolvedKeyframes(Keyframes(values: [.scalar(5)], keyTimes: [0, 1], calculationMode: .discrete), path: "x")
        #expect(discrete.value(at: 0.5).scalar == 5)
        expectFailure(.invalidArgument, containing: "keyTimes for 'x' ends at 0.5; the last key time must be 1") {
            _ = try ResolvedKeyframes(Keyframes(values: [.scalar(5)], keyTimes: [0, 0.5], calculationMode: .discrete), path: "x")
        }
    }

    /// kCAAnimationCubicPaced: "keyTimes and timingFunctions are ignored".
    @Test("cubicPaced keyframes ignore key times and timing functions, however many")
    func cubicPacedIgnoresTimes() throws {
        var k = Keyframes(values: [.scalar(0), .scalar(1), .scalar(3)], keyTimes: [0, 0.9],
                          timingFunctions: [.easeIn, .easeOut, .easeIn, .easeOut], calculationMode: .cubicPaced)
        let r = try ResolvedKeyframes(k, path: "x")
        #expect(r.functions.isEmpty)
        #expect(r.keyTimes == [0, 1.0 / 3, 1])  // by distance: 1 of 3
        k.keyTimes = nil; k.timingFunctions = []
        let plain = try ResolvedKeyframes(k, path: "x")
        for y in [0.1, 0.5, 0.8] { #expect(r.value(at: y) == plain.value(at: y)) }
        #expect(CalculationMode.cubicPaced.isPaced && CalculationMode.paced.isPaced && !CalculationMode.cubic.isPaced)
    }

    /// move (0, 0), line (10, 0), line (10, 10) with key times [0, 1, 1]:
    /// the last segment takes no time, and progress 1 is its end.
    @Test("A path whose last two key times are equal ends at its last point")
    func pathEqualLastKeyTimes() throws {
        var k = Keyframes(values: [], keyTimes: [0, 1, 1])
        k.path = [.move(0, 0), .line(10, 0), .line(10, 10)]
        let r = try ResolvedKeyframes(k, path: "position")
        #expect(r.value(at: 1) == .point(10, 10))
        #expect(r.value(at: 0.5) == .point(5, 0))
        #expect(r.rate(at: 1) == .point(0, 0))
    }

    @Test("Points further apart than a double holds on their second component are refused")
    func spanSecondComponent() throws {
        expectFailure(.outOfRange) {
            _ = try ResolvedKeyframes(Keyframes(values: [.point(0, -1e308), .point(0, 1e308)]), path: "position")
        }.map {
            #expect($0.message == "keyframes 0 and 1 on 'position' are too far apart: component 1 goes from -1e+308 to 1e+308, a difference larger than the largest double")
        }
    }

    /// Discrete keyframes jump from value to value and never interpolate, so
    /// neighbours further apart than a double holds are taken (linear ones
    /// are refused above): each is shown exactly, with no rate between them.
    @Test("R1.4 discrete keyframes further apart than a double holds are shown as given")
    func discreteSpanTaken() throws {
        let values: [AnimatableValue] = [.scalar(-1e308), .scalar(1e308), .scalar(-1e308)]
        let k = Keyframes(values: values, calculationMode: .discrete)
        let r = try ResolvedKeyframes(k, path: "x")
        // Three values, no key times: each holds for a third.
        #expect(r.value(at: 0.2) == .scalar(-1e308) && r.value(at: 0.5) == .scalar(1e308) && r.value(at: 0.9) == .scalar(-1e308))
        expectFailure(.outOfRange) { _ = try ResolvedKeyframes(Keyframes(values: values, calculationMode: .linear), path: "x") }
        let rt = Runtime()
        let layer = try rt.createLayer()
        let h = try rt.add(.keyframe("position.x", k, timing: MediaTiming(beginTime: 0, duration: 3)), to: layer, forKey: "k")
        for (t, v) in [(0.5, -1e308), (1.5, 1e308), (2.5, -1e308)] {
            try rt.tick(t)
            #expect(try rt.scalar("position.x", layer) == v)
            #expect(try rt.velocity(of: h) == .scalar(0))
        }
        // Cumulative, the second iteration adds last - first (here 0) to each.
        var again = Animation.keyframe("position.y", k, timing: MediaTiming(beginTime: 3, duration: 3, repeatCount: 2))
        again.isCumulative = true
        try rt.add(again, to: layer, forKey: "y")
        try rt.tick(7.5)
        #expect(try rt.scalar("position.y", layer) == 1e308)
    }
}
