import Testing
@testable import AnimationCore

/// Cumulative animations with autoreverses (docs/timing.md: "with
/// autoreverses, a cycle is a forward and a backward pass"), and Core
/// Animation's from/to/by table on the general path (a point key path never
/// takes the batch).
@Suite("R1.3 cumulative cycles and from/to/by on the general path")
struct CumulativeTests {
    @Test("With autoreverses, each forward-and-back cycle adds end − start once")
    func cumulativeAutoreverses() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1, begin: 1, duration: 1)
        a.isCumulative = true; a.timing.autoreverses = true; a.timing.repeatCount = 2
        try rt.add(a, to: l, forKey: "a")
        // Cycle 0: 0 → 1 → 0; cycle 1 adds 1: 1 → 2 → 1.
        for (t, v) in [(1.25, 0.25), (2.25, 0.75), (3.25, 1.25), (4.25, 1.75)] {
            try rt.tick(t)
            #expect(try rt.scalar("opacity", l) == v, "t = \(t)")
        }
    }

    @Test("Without autoreverses, each repeat adds end − start")
    func cumulativeRepeats() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("position.x", 2, 6, begin: 1, duration: 1)
        a.isCumulative = true; a.timing.repeatCount = 3
        try rt.add(a, to: l, forKey: "a")
        for (t, v) in [(1.5, 4.0), (2.5, 8), (3.5, 12)] {
            try rt.tick(t)
            #expect(try rt.scalar("position.x", l) == v, "t = \(t)")
        }
    }

    @Test("from/to/by on a point: every combination Core Animation defines", arguments: [
        // (from, to, by, model, expected at half time)
        ([0.0, 0], [20.0, 40], nil, [10.0, 10], [10.0, 20]),
        ([0.0, 0], nil, [20.0, 40], [10.0, 10], [10.0, 20]),
        (nil, [30.0, 30], [20.0, 10], [10.0, 10], [20.0, 25]),     // to − by … to
        ([0.0, 0], nil, nil, [10.0, 20], [5.0, 10]),                // from … model
        (nil, [20.0, 40], nil, [10.0, 20], [15.0, 30]),             // model … to
        (nil, nil, [4.0, 8], [10.0, 20], [12.0, 24]),               // model … model + by
    ] as [([Double]?, [Double]?, [Double]?, [Double], [Double])])
    func fromToByOnAPoint(_ from: [Double]?, _ to: [Double]?, _ by: [Double]?, _ model: [Double], _ expected: [Double]) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(model[0], model[1]), forKeyPath: "position", of: l)
        let point = { (v: [Double]?) in v.map { AnimatableValue.point($0[0], $0[1]) } }
        try rt.add(.basic("position", from: point(from), to: point(to), by: point(by),
                          timing: MediaTiming(beginTime: 1, duration: 1)), to: l, forKey: "p")
        #expect(rt.attachedCounts.batched == 0)
        try rt.tick(1.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l).components == expected)
    }
}
