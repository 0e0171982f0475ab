import Foundation
import Testing
@testable import AnimationCore

/// Every published numeric case, within its tolerance (R1.1, R1.2, R1.4, R1.5).
@Suite("Published vectors")
struct VectorTests {
    @Test("R1.1 cubic-bezier vectors", arguments: try load("cubic_bezier"))
    func cubicBezier(_ c: Case) throws {
        let p = (c["controlPoints"] as! [Any]).map { number($0)! }
        let f = try TimingFunction.cubicBezier(p[0], p[1], p[2], p[3])
        expectClose(f.evaluate(c.d("x")), c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.1 cubic-bezier crossing facts", arguments: try load("cubic_bezier", "facts"))
    func cubicBezierFacts(_ c: Case) throws {
        let p = (c["controlPoints"] as! [Any]).map { number($0)! }
        let f = try TimingFunction.cubicBezier(p[0], p[1], p[2], p[3])
        expectClose(f.evaluate(c.d("x")), c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.1 steps vectors", arguments: try load("steps"))
    func steps(_ c: Case) throws {
        let position = try #require(StepPosition(name: c["position"] as! String))
        let f = StepsFunction(count: Int(c.d("steps")), position: position)
        let y = f.solve(c.d("x"), beforeFlag: (c["beforeFlag"] as? Bool) ?? false)
        expectClose(y, c.d("expected"), max(c.d("tolerance"), 0))
    }

    @Test("R1.2 Web Animations timing model (WPT)", arguments: try load("timing_model_wpt"))
    func webAnimations(_ c: Case) throws {
        let direction: PlaybackDirection = ["normal": .normal, "reverse": .reverse, "alternate": .alternate,
                                            "alternate-reverse": .alternateReverse][c["direction"] as! String]!
        let model = TimingModel(iterationDuration: c.d("duration"), iterationCount: c.d("iterations"),
                                iterationStart: c.d("iterationStart"), direction: direction,
                                fill: try #require(FillMode(name: c["fill"] as! String)),
                                delay: c.d("delay"), endDelay: c.d("endDelay"))
        let s = model.sample(at: c.d("localTime"), backwards: c.d("playbackRate") < 0)
        switch c["quantity"] as! String {
        case "progress":
            if isNull(c["expected"]) { #expect(s.directedProgress == nil) }
            else { expectClose(try #require(s.directedProgress), c.d("expected"), c.d("tolerance")) }
        case "currentIteration":
            if isNull(c["expected"]) { #expect(s.currentIteration == nil) }
            else { expectClose(try #require(s.currentIteration), c.d("expected"), c.d("tolerance")) }
        case "phase":
            let names: [Phase: String] = [.before: "before", .active: "active", .after: "after"]
            #expect(names[s.phase] == c["expected"] as? String)
        default:
            Issue.record("unknown quantity \(c["quantity"]!)")
        }
    }

    @Test("R1.2 Core Animation media timing", arguments: try load("ca_timing_derived"))
    func coreAnimation(_ c: Case) throws {
        let timing = MediaTiming(beginTime: c.d("beginTime"), duration: c.d("duration"), speed: c.d("speed"),
                                 timeOffset: c.d("timeOffset"), repeatCount: c.d("repeatCount"),
                                 repeatDuration: c.d("repeatDuration"), autoreverses: c["autoreverses"] as! Bool,
                                 fillMode: try #require(FillMode(name: c["fillMode"] as! String)))
        let s = timing.sample(at: c.d("parentTime"))
        if isNull(c["expected"]) { #expect(s.directedProgress == nil, "\(s)") }
        else { expectClose(try #require(s.directedProgress), c.d("expected"), c.d("tolerance")) }
    }

    @Test("R1.2 hierarchical time: layers and groups", arguments: try load("ca_timing_derived", "hierarchy_cases"))
    func hierarchy(_ c: Case) throws {
        let rt = Runtime()
        let layer = try rt.createLayer()
        let global = c.d("globalTime")
        var anim: Animation
        if let l = c["layer"] as? [String: Any], let a = c["animation"] as? [String: Any] {
            try rt.setTiming(LayerTiming(beginTime: number(l["beginTime"])!, speed: number(l["speed"])!,
                                         timeOffset: number(l["timeOffset"])!), of: layer)
            anim = .basic("opacity", from: .scalar(0), to: .scalar(1),
                          timing: MediaTiming(beginTime: number(a["beginTime"])!, duration: number(a["duration"])!))
        } else {
            let g = c["group"] as! [String: Any], ch = c["child"] as! [String: Any]
            let child = Animation.basic("opacity", from: .scalar(0), to: .scalar(1),
                                        timing: MediaTiming(beginTime: number(ch["beginTime"])!, duration: number(ch["duration"])!))
            anim = .group([child], timing: MediaTiming(beginTime: number(g["beginTime"])!, duration: number(g["duration"])!))
        }
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: layer)
        try rt.add(anim, to: layer, forKey: "a")
        try rt.tick(global)
        let v = try rt.presentationValue(forKeyPath: "opacity", of: layer).scalar
        // The animation runs 0 → 1 linearly, so the value is the fraction; -1 (the model) means not in effect.
        if isNull(c["expected"]) { #expect(v == -1) } else { expectClose(v, c.d("expected"), c.d("tolerance")) }
    }

    @Test("R1.4 keyframe vectors", arguments: try load("keyframe"))
    func keyframes(_ c: Case) throws {
        let values = (c["values"] as! [Any]).map { AnimatableValue.scalar(number($0)!) }
        let mode: CalculationMode = ["linear": .linear, "discrete": .discrete, "paced": .paced][c["calculationMode"] as! String]!
        var k = Keyframes(values: values, keyTimes: (c["keyTimes"] as? [Any])?.map { number($0)! }, calculationMode: mode)
        if let fs = c["timingFunctions"] as? [[Any]] {
            k.timingFunctions = try fs.map { let p = $0.map { number($0)! }; return try TimingFunction.cubicBezier(p[0], p[1], p[2], p[3]) }
        }
        let r = try ResolvedKeyframes(k, path: "opacity")
        if let derived = c["derivedKeyTimes"] as? [Any] {
            for (a, b) in zip(r.keyTimes, derived.map { number($0)! }) { expectClose(a, b, 1e-12) }
        }
        expectClose(r.value(at: c.d("progress")).scalar, c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.5 spring curve", arguments: try load("spring"))
    func spring(_ c: Case) {
        let overdamped = (c["mode"] as! String).hasPrefix("true over-damped")
        let s = Spring(mass: c.d("mass"), stiffness: c.d("stiffness"), damping: c.d("damping"),
                       initialVelocity: c.d("initialVelocity"), allowsOverdamping: overdamped)
        expectClose(s.value(at: c.d("t")), c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.5 settling duration, Web Inspector algorithm", arguments: try load("spring", "settling_cases"))
    func settling(_ c: Case) {
        let s = Spring(mass: c.d("mass"), stiffness: c.d("stiffness"), damping: c.d("damping"), initialVelocity: c.d("initialVelocity"))
        expectClose(s.inspectorSettlingDuration(), c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.5 settling duration, Apple's published anchors", arguments: try load("spring", "apple_settling_anchors"))
    func appleAnchors(_ c: Case) {
        let s = Spring(mass: c.d("mass"), stiffness: c.d("stiffness"), damping: c.d("damping"), initialVelocity: c.d("initialVelocity"))
        expectClose(s.settlingDuration, c.d("expected"), c.d("tolerance"))
    }

    @Test("R1.5 response/damping and duration/bounce conversions", arguments: try load("spring", "conversion_cases"))
    func conversions(_ c: Case) {
        let s: Spring
        if c["response"] != nil { s = Spring(response: c.d("response"), dampingRatio: c.d("dampingRatio"), mass: c.d("mass")) }
        else { s = Spring(duration: c.d("duration"), bounce: c.d("bounce")) }
        expectClose(s.stiffness, c.d("expected_stiffness"), c.d("tolerance"))
        expectClose(s.damping, c.d("expected_damping"), c.d("tolerance"))
    }

    /// Every section of every vector file, with its exact number of cases:
    /// removing, truncating or renaming a section fails here as well as in
    /// the test that reads it.
    static let sectionCounts: [(file: String, section: String, count: Int)] = [
        ("cubic_bezier", "cases", 225), ("cubic_bezier", "facts", 2), ("steps", "cases", 184),
        ("timing_model_wpt", "cases", 293), ("ca_timing_derived", "cases", 51),
        ("ca_timing_derived", "hierarchy_cases", 5), ("keyframe", "cases", 28), ("spring", "cases", 90),
        ("spring", "settling_cases", 8), ("spring", "apple_settling_anchors", 2), ("spring", "conversion_cases", 8),
    ]

    @Test("Every vector section has its exact number of cases", arguments: sectionCounts)
    func sectionCount(_ s: (file: String, section: String, count: Int)) throws {
        #expect(try cases(s.file, s.section).count == s.count)
    }

    @Test("Every section of every vector file is read by a test")
    func everySectionIsRead() throws {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(Self.sectionCounts.map(\.file)), "vector files without a test, or tests without a file")
        for file in files {
            let sections = try fixture(file).filter { $0.value is [Any] }.map(\.key)
            for section in sections {
                #expect(Self.sectionCounts.contains { $0.file == file && $0.section == section },
                        "\(file).json section '\(section)' has no test")
            }
        }
    }

    @Test("A missing fixture, section or an empty section is an error, never zero cases")
    func missingFixturesFail() {
        #expect(throws: FixtureError.self) { try load("no_such_fixture") }
        #expect(throws: FixtureError.self) { try load("spring", "no_such_section") }
        #expect(throws: FixtureError.self) { try load("spring", "source") }
    }
}
