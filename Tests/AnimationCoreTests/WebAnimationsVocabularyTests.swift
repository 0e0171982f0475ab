import Foundation
import Testing
@testable import AnimationCore

/// Web Animations' own vocabulary, where it differs from Core Animation's:
/// a start delay separate from beginTime, exact iteration counts and
/// durations (0 included), the step keywords and CSS Easing 2 `linear()`.
/// Expected values are derived in each test from WA1 / CSS Easing.
@Suite("R1.1, R1.2 Web Animations vocabulary")
struct WebAnimationsVocabularyTests {
    func scalarAnimation(_ from: Double, _ to: Double, _ timing: MediaTiming, _ curve: TimingFunction? = nil) -> Animation {
        var a = Animation.basic("opacity", from: .scalar(from), to: .scalar(to), timing: timing, timingFunction: curve)
        a.isRemovedOnCompletion = false
        return a
    }

    /// WA1 §4.8.3: local time runs from the start time (our beginTime); the
    /// active interval begins at local time = start delay. beginTime 2,
    /// delay 0.5, duration 1: before until 2.5, then active time = local −
    /// delay, so at 3.0 progress is (3 − 2 − 0.5) / 1 = 0.5.
    @Test("delay is separate from beginTime", arguments: EvaluationPath.allCases)
    func delaySeparate(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try path.setModel(rt, l, -1)
        var t = MediaTiming(beginTime: 2)
        t.iterationDuration = 1; t.delay = 0.5
        try rt.add(path.animation(0, 10, t), to: l, forKey: "a")
        try rt.tick(2.25)
        #expect(try path.value(rt, l) == -1)
        #expect(rt.drain().isEmpty)
        try rt.tick(3)
        #expect(try path.value(rt, l) == 5)
        #expect(rt.drain().map(\.tag) == ["started"])
        try rt.tick(3.5)  // end time = delay + 1 = 1.5 after beginTime
        #expect(try path.value(rt, l) == -1)
        #expect(rt.drain().map(\.tag) == ["stopped:finished"])
    }

    /// The delay is in local time, so a playback rate scales it: speed 2,
    /// delay 1 starts 0.5 s after beginTime; at beginTime + 0.75 the local
    /// time is 1.5 and the active time 0.5 of a 2 s iteration: progress 0.25.
    /// A negative delay starts part-way: delay −0.5 of a 1 s iteration
    /// shows progress 0.5 at beginTime.
    @Test("delay scales with speed; a negative delay starts part-way")
    func delaySpeedAndNegative() throws {
        let rt = Runtime(); let l = try rt.createLayer(), m = try rt.createLayer()
        var t = MediaTiming(beginTime: 1, speed: 2)
        t.iterationDuration = 2; t.delay = 1
        try rt.add(scalarAnimation(0, 8, t), to: l, forKey: "a")
        var n = MediaTiming(beginTime: 1)
        n.iterationDuration = 1; n.delay = -0.5
        try rt.add(scalarAnimation(0, 8, n), to: m, forKey: "a")
        try rt.tick(1)
        #expect(try rt.scalar("opacity", m) == 4)
        try rt.tick(1.75)
        #expect(try rt.scalar("opacity", l) == 2)
    }

    /// WA1 §4.8.1: active duration = iteration duration × iteration count =
    /// 0 for zero iterations; at local time 0 the effect is already in its
    /// after phase (the active-after boundary is 0). With a forwards fill
    /// its active time is max(min(0, 0), 0) = 0, overall progress 0, and
    /// since the iteration count is 0 the "end of iteration" rule does not
    /// apply: simple progress 0, the from value. Core Animation's
    /// repeatCount 0 still means once.
    @Test("Zero iterations show the start; repeatCount 0 means once")
    func zeroIterations() throws {
        let rt = Runtime(); let l = try rt.createLayer(), ca = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        var t = MediaTiming(duration: 1, fillMode: .forwards)
        t.iterations = 0
        try rt.add(scalarAnimation(10, 20, t), to: l, forKey: "a")
        try rt.add(scalarAnimation(10, 20, MediaTiming(duration: 1, repeatCount: 0, fillMode: .forwards)), to: ca, forKey: "a")
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 10)
        #expect(try rt.scalar("opacity", ca) == 10)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished", "started"])
        try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == 10)
        #expect(try rt.scalar("opacity", ca) == 15)
    }

    /// WA1 §4.9.1 with a zero iteration duration: overall progress is the
    /// iteration count in the after phase (0 before). 2.5 iterations: simple
    /// progress 2.5 mod 1 = 0.5 (value 15 of 10 → 20). 3 iterations: 3 mod 1
    /// = 0, and as the active time equals the active duration (0) with a
    /// non-zero count, simple progress is 1 (value 20). CA's duration 0
    /// means 0.25 s instead: halfway at 0.125 s.
    @Test("Zero-length iterations finish at once; CA's duration 0 is 0.25 s", arguments: EvaluationPath.allCases)
    func zeroLengthIterations(_ path: EvaluationPath) throws {
        for (count, expected) in [(2.5, 15.0), (3.0, 20.0)] {
            let rt = Runtime(); let l = try rt.createLayer()
            var t = MediaTiming(fillMode: .forwards)
            t.iterationDuration = 0; t.iterations = count
            var a = path.animation(10, 20, t)
            a.isRemovedOnCompletion = false
            try rt.add(a, to: l, forKey: "a")
            try rt.tick(4)
            #expect(try path.value(rt, l) == expected, "iterations \(count)")
            #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        }
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(path.animation(10, 20, MediaTiming(duration: 0)), to: l, forKey: "a")
        try rt.tick(4); try rt.tick(4.125)
        #expect(try path.value(rt, l) == 15)
    }

    @Test("Setting a Core Animation name drops the exact Web Animations one")
    func vocabulariesReplaceEachOther() throws {
        var t = MediaTiming()
        try t.set(.iterationDuration, 0)
        try t.set(.iterations, 0)
        #expect(t[.iterationDuration] == 0 && t[.iterations] == 0 && t.activeDuration == 0)
        try t.set(.duration, 0)
        #expect(t.iterationDuration == nil && t[.iterationDuration] == 0.25)
        try t.set(.repeatCount, 2)
        #expect(t.iterations == nil && t[.iterations] == 2)
        // Validation: nothing changes on error.
        #expect(throws: AnimrtError.self) { try t.set(.iterations, -1) }
        #expect(throws: AnimrtError.self) { try t.set(.iterationDuration, .infinity) }
        #expect(throws: AnimrtError.self) { try t.set(.delay, .nan) }
        #expect(t[.iterations] == 2)
        try t.set(.iterations, .infinity)
        #expect(t.activeDuration == .infinity)
    }

    @Test("Setting a Web Animations name sets the Core Animation one it replaces back to 0")
    func replacedNamesReadUnset() throws {
        var t = MediaTiming()
        try t.set(.duration, 1.5)
        try t.set(.repeatCount, 2)
        try t.set(.iterations, 5)
        #expect(t[.repeatCount] == 0 && t[.repeatDuration] == 0 && t[.iterations] == 5)
        try t.set(.repeatDuration, 3)
        try t.set(.iterations, 2)
        #expect(t[.repeatDuration] == 0 && t[.iterations] == 2)
        try t.set(.iterationDuration, 2)
        #expect(t[.duration] == 0 && t[.iterationDuration] == 2 && t.activeDuration == 4)
        // What was set later is what plays: 5 iterations of 1 s, not 2 repeats.
        let rt = Runtime(); let l = try rt.createLayer()
        var a = scalarAnimation(0, 10, MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards))
        try a.timing.set(.iterations, 5)
        let h = try rt.add(a, to: l, forKey: "a")
        try rt.tick(0); try rt.tick(4.5)
        #expect(try rt.scalar("opacity", l) == 5)
        #expect(try rt.attachedAnimation(h).timing.repeatCount == 0)
    }

    /// CSS Easing 1: step-start computes to steps(1, start), step-end to
    /// steps(1, end). steps(1, start) is 1 from x = 0 on (0 only with the
    /// before flag); steps(1, end) is 0 until x = 1.
    @Test("step-start and step-end")
    func stepKeywords() throws {
        let r = TimingFunctionRegistry()
        let start = try r.function(named: "step-start"), end = try r.function(named: "step-end")
        #expect(start == .steps(StepsFunction(count: 1, position: .jumpStart)))
        #expect(end == .steps(StepsFunction(count: 1, position: .jumpEnd)))
        #expect(start.evaluate(0) == 1 && start.evaluate(0, beforeFlag: true) == 0 && start.evaluate(0.5) == 1)
        #expect(end.evaluate(0) == 0 && end.evaluate(0.999) == 0 && end.evaluate(1) == 1)
        // Attached: step-start shows the end from the first frame; step-end
        // only once the (filled) end is reached.
        let rt = Runtime(); let l = try rt.createLayer(), m = try rt.createLayer()
        try rt.add(scalarAnimation(0, 10, MediaTiming(duration: 1, fillMode: .forwards), start), to: l, forKey: "a")
        try rt.add(scalarAnimation(0, 10, MediaTiming(duration: 1, fillMode: .forwards), end), to: m, forKey: "a")
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 10 && rt.scalar("opacity", m) == 0)
        try rt.tick(0.99)
        #expect(try rt.scalar("opacity", l) == 10 && rt.scalar("opacity", m) == 0)
        try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 10 && rt.scalar("opacity", m) == 10)
    }

    /// CSS Easing 2 §2.1, create a linear easing function, and its
    /// serialization examples: inputs are filled in (first 0, last 1, runs
    /// spread evenly) and never decrease.
    @Test("linear() parses and serializes as CSS Easing 2's examples say",
          arguments: [("linear(0, 0.25, 1)", "linear(0 0%, 0.25 50%, 1 100%)"),
                      ("linear(0 20%, 0.5 10%, 1)", "linear(0 20%, 0.5 20%, 1 100%)"),
                      ("linear(0, 0.25 25% 75%, 1)", "linear(0 0%, 0.25 25%, 0.25 75%, 1 100%)"),
                      ("linear(0, 0.1, 0.2, 1 40%, 1)", "linear(0 0%, 0.1 13.333333333333334%, 0.2 26.666666666666668%, 1 40%, 1 100%)"),
                      ("linear( 25% 0.5 ,1, 0 )", "linear(0.5 25%, 1 62.5%, 0 100%)")])
    func linearSerialization(_ pair: (String, String)) throws {
        let f = try TimingFunctionRegistry().function(named: pair.0)
        #expect(f.name == pair.1)
        // The serialization parses back to the same function.
        #expect(try TimingFunctionRegistry().function(named: f.name) == f)
    }

    /// CSS Easing 2 "calculate linear easing output progress": point A is the
    /// last point with input ≤ x (or the first), never the last point; equal
    /// inputs return B's output; otherwise interpolate A → B (continuing the
    /// nearest two points outside the range).
    @Test("linear() output progress")
    func linearOutput() throws {
        let r = TimingFunctionRegistry()
        // linear(0, 0.25, 1) = points (0, 0), (0.5, 0.25), (1, 1).
        let a = try r.function(named: "linear(0, 0.25, 1)")
        #expect(a.evaluate(0.25) == 0.125 && a.evaluate(0.75) == 0.625)
        // linear(0, 0.25 75%, 1) = (0, 0), (0.75, 0.25), (1, 1): 75% of the
        // time to reach 0.25, then 0.25 → 1 in the last quarter.
        let b = try r.function(named: "linear(0, 0.25 75%, 1)")
        expectClose(b.evaluate(0.5), 0.5 / 0.75 * 0.25, 1e-15)
        expectClose(b.evaluate(0.875), 0.25 + 0.125 / 0.25 * 0.75, 1e-15)
        // linear(0, 0.25 25% 75%, 1) = (0, 0), (0.25, 0.25), (0.75, 0.25),
        // (1, 1); outside: slope 1 before, slope 3 after.
        let c = try r.function(named: "linear(0, 0.25 25% 75%, 1)")
        #expect(c.evaluate(0.5) == 0.25 && c.evaluate(-0.5) == -0.5 && c.evaluate(1.5) == 2.5)
        // Equal inputs: at x = 0.5 point A is (0.5, 0) (the last with input
        // ≤ 0.5), so the jump has happened; just before it, it has not.
        let d = try r.function(named: "linear(0, 1 50%, 0 50%, 1)")
        #expect(d.evaluate(0.5) == 0 && d.evaluate(0.25) == 0.5 && d.evaluate(0.75) == 0.5)
        // "1 100% 100%" makes two final points: inputs above 1 output 1.
        let e = try r.function(named: "linear(0, 1 100% 100%)")
        #expect(e.evaluate(1.5) == 1 && e.evaluate(0.5) == 0.5)
        // Two last points at one position with different outputs: from
        // there on point A is the first of them and B's output is the value.
        let f = try r.function(named: "linear(0, 0.5 100%, 1 100%)")
        #expect(f.evaluate(1) == 1 && f.evaluate(1.5) == 1 && f.evaluate(0.5) == 0.25)
        // A last stop without a position is at 100% or the largest position
        // so far; a first one is at 0%, which raises a later one below it.
        #expect(try r.function(named: "linear(0, 0.5 150%, 1)").name == "linear(0 0%, 0.5 150%, 1 150%)")
        #expect(try r.function(named: "linear(0, 1 -50%)").name == "linear(0 0%, 1 0%)")
    }

    /// Outside [0, 1] the first and last segments go on as lines (CSS
    /// Easing 2: outA + t·(outB − outA)). linear(1, 1) is 1 everywhere; the
    /// sum outA·(1 − t) + outB·t lost it by t = 10^17 (it gave 0). A flat
    /// end stays at its output at any x, infinite too, as a cubic-bezier's
    /// flat tangent does; a sloped one carries on: linear(0, 1) at 10^17 is
    /// 10^17, linear(0, 0.25 50%, 0.25) at −10^20 is 0.5 × −10^20.
    @Test("linear() continues its end segments exactly, however far x is")
    func linearFarOutside() throws {
        let r = TimingFunctionRegistry()
        let one = try r.function(named: "linear(1, 1)")
        for x in [1e17, -1e17, 1e300, -1e300, Double.infinity, -Double.infinity] { #expect(one.evaluate(x) == 1, "x = \(x)") }
        let flatEnd = try r.function(named: "linear(0, 0.25 50%, 0.25)")
        #expect(flatEnd.evaluate(1e20) == 0.25 && flatEnd.evaluate(.infinity) == 0.25)
        #expect(flatEnd.evaluate(-1e20) == -5e19 && flatEnd.evaluate(-0.5) == -0.25)
        #expect(try r.function(named: "linear(0, 1)").evaluate(1e17) == 1e17)
        // Inside a segment both ends are exact.
        let c = try r.function(named: "linear(0.1, 0.7 30%, 0.3)")
        #expect(c.evaluate(0.3) == 0.7 && c.evaluate(1) == 0.3 && c.evaluate(0) == 0.1)
    }

    /// A run of stops without positions is spread evenly between its
    /// neighbours: (b − a)·k / (n + 1). Positions of ±10^306 (1e308%) with a
    /// hundred stops between them made (b − a)·k pass the largest double,
    /// and the run's inputs ∞ — decreasing into the last point's. Each must
    /// be finite and between its neighbours; Stop's ±10^308 likewise (the
    /// middle of three is 0).
    @Test("linear()'s spread positions stay finite and in order at the ends of the doubles")
    func linearSpreadAtTheEdge() throws {
        let text = "linear(0 -1e308%, " + Array(repeating: "0.5", count: 100).joined(separator: ", ") + ", 1 1e308%)"
        guard case .piecewiseLinear(let p) = try TimingFunctionRegistry().function(named: text) else { Issue.record("not linear()"); return }
        #expect(p.inputs.count == 102 && p.inputs.allSatisfy(\.isFinite) && zip(p.inputs, p.inputs.dropFirst()).allSatisfy { $0 <= $1 })
        // The 51st of 101 intervals: −10^306 + 2·10^306 · 51/101.
        expectClose(p.inputs[51] / 1e306, -1 + 2 * 51.0 / 101, 1e-12)
        let edge = PiecewiseLinear.largestPosition
        let three = try PiecewiseLinear(stops: [.init(0, -edge), .init(0.5), .init(1, edge)])
        #expect(three.inputs == [-edge, 0, edge])
        #expect(three.evaluate(0) == 0.5)
    }

    /// linear()'s name writes every position as a percentage (CSS Easing
    /// 2's serialization), which the registry parses back. A position whose
    /// percentage passes the largest double (above 1.7976931348623157e308 /
    /// 100, which no text can give but a description's points or a Stop
    /// can) was accepted and named "1 inf%", which parses to nothing. Such
    /// a position is refused; the largest is accepted, and its name parses
    /// back to the same function.
    @Test("R0.3 linear() refuses a position its name cannot write as a percentage; the largest round-trips")
    func linearPositionPastPercentages() throws {
        let edge = PiecewiseLinear.largestPosition
        #expect(edge == Double.greatestFiniteMagnitude / 100 && (edge * 100).isFinite && !(edge.nextUp * 100).isFinite)
        let widest = TimingFunction.piecewiseLinear(try PiecewiseLinear(stops: [.init(0, -edge), .init(1, edge)]))
        #expect(try TimingFunctionRegistry().function(named: widest.name) == widest)
        for (x, i) in [(edge.nextUp, 1), (-1e307, 0), (1e308, 1)] {
            let stops: [PiecewiseLinear.Stop] = i == 0 ? [.init(0, x), .init(1)] : [.init(0), .init(1, x)]
            expectFailure(.outOfRange, exactly: "linear() stop \(i): the position \(x) is past what a percentage can write "
                          + "(its name writes positions as percentages); positions are at most ±\(edge)") {
                _ = try PiecewiseLinear(stops: stops)
            }
        }
        // A description's points are refused alike, not read into a function whose name does not parse.
        let json = #"{"piecewiseLinear": [[0, 0], [1, 1e307]]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TimingFunction.self, from: Data(json.utf8)) }
    }

    @Test("linear() refuses bad stops with a message; the point limit holds at its edge")
    func linearLimits() throws {
        let r = TimingFunctionRegistry()
        for bad in ["linear()", "linear(0)", "linear(0, x)", "linear(0, 1 10% 20% 30%)", "linear(0, 50% 1 60%)",
                    "linear(0, 1 2)", "linear(0, inf)", "linear(0, 1 nan%)"] {
            #expect(throws: AnimrtError.self, "\(bad)") { try r.function(named: bad) }
        }
        do { _ = try r.function(named: "linear(0)"); Issue.record("accepted") }
        catch { #expect(error.status == .invalidArgument && error.message.contains("at least two stops")) }
        let limit = PiecewiseLinear.maximumPoints
        let atLimit = "linear(" + (0..<limit).map { String(Double($0) / Double(limit - 1)) }.joined(separator: ", ") + ")"
        let f = try r.function(named: atLimit)
        expectClose(f.evaluate(0.5), 0.5, 1e-12)
        let past = "linear(" + (0...limit).map { _ in "0" }.joined(separator: ",") + ")"
        do { _ = try r.function(named: past); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange && error.message.contains("\(limit)")) }
        // Outputs at the ends of the doubles: no overflow between them.
        let wide = try r.function(named: "linear(-1e308, 1e308)")
        #expect(wide.evaluate(0.5) == 0 && wide.evaluate(0.25) == -5e307)
        // A stop with two positions counts twice.
        let twoEach = "linear(" + (0..<(limit / 2)).map { _ in "0 10% 20%" }.joined(separator: ",") + ", 1)"
        #expect(throws: AnimrtError.self) { try r.function(named: twoEach) }
    }

    /// Attached: linear(0, 0.25 75%, 1) on 0 → 8 over 1 s is 8 × (0.5 / 0.75
    /// × 0.25) = 4/3 at 0.5 s; the batch's general lane evaluates it.
    @Test("linear() paces an attached animation")
    func linearAttached() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let f = try rt.timingFunctions.function(named: "linear(0, 0.25 75%, 1)")
        try rt.add(scalarAnimation(0, 8, MediaTiming(duration: 1), f), to: l, forKey: "a")
        #expect(rt.attachedCounts.batched == 1)
        try rt.tick(0); try rt.tick(0.5)
        expectClose(try rt.scalar("opacity", l), 4.0 / 3.0, 1e-12)
    }
}
