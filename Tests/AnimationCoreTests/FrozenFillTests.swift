import Testing
@testable import AnimationCore

/// Finished animations that fill forwards leave the per-tick evaluation
/// (`Runtime.freeze`); nothing the host sees may change because of it.
@Suite("Finished fills cost nothing per tick, and still react to changes")
struct FrozenFillTests {
    static func kept(_ path: String, _ from: Double, _ to: Double, begin: Double, duration: Double,
                     curve: TimingFunction = .easeInEaseOut) -> Animation {
        var a = Animation.basic(path, from: .scalar(from), to: .scalar(to),
                                timing: MediaTiming(beginTime: begin, duration: duration, fillMode: .forwards), timingFunction: curve)
        a.isRemovedOnCompletion = false
        return a
    }

    @Test("once finished, no tick evaluates them, and they show their end value")
    func notEvaluated() throws {
        let rt = Runtime()
        var layers: [Handle] = []
        for i in 0..<1000 {
            let l = try rt.createLayer()
            try rt.add(Self.kept("opacity", 0, Double(i), begin: 0.001, duration: 0.5 + Double(i % 10) / 100), to: l, forKey: "fade")
            layers.append(l)
        }
        try rt.tick(0.2)
        #expect(rt.batches.activeCount == 1000 && rt.batches.frozen.count == 0)
        try rt.tick(0.56)
        #expect(rt.batches.activeCount == 400 && rt.batches.frozen.count == 600)  // durations ≤ 0.55 s ended
        try rt.tick(1)
        #expect(rt.batches.activeCount == 0 && rt.batches.frozen.count == 1000)
        #expect(rt.attachedCounts == (1000, 1000))
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i)) }
        for t in [2.0, 3.0, 4.0] { try rt.tick(t) }
        for (i, l) in layers.enumerated() { #expect(try rt.scalar("opacity", l) == Double(i)) }
        #expect(rt.drain().filter { $0.type == .animationStopped }.count == 1000)
    }

    @Test("a frozen fill reacts to model changes, removal and layer timing changes")
    func reacts() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.setModelValue(.point(5, 7), forKeyPath: "position", of: l)
        try rt.add(Self.kept("position.x", 0, 100, begin: 0.25, duration: 1, curve: .linear), to: l, forKey: "move")
        try rt.tick(0.75)
        #expect(try rt.scalar("position.x", l) == 50)
        try rt.tick(1.5)
        #expect(rt.batches.frozen.count == 1)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(100, 7))
        // The model changes under it: y follows, x keeps the fill.
        try rt.setModelValue(.point(-1, -2), forKeyPath: "position", of: l)
        try rt.tick(1.6)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(100, -2))
        try rt.setModelValue(.scalar(40), forKeyPath: "position.y", of: l)
        try rt.tick(1.7)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(100, 40))
        // The layer's time moves back into the animation: it plays again.
        try rt.setTiming(LayerTiming(beginTime: 0, speed: 1, timeOffset: -1), of: l)
        try rt.tick(1.75)
        #expect(rt.batches.frozen.count == 0)
        #expect(try rt.scalar("position.x", l) == 50)
        try rt.setTiming(LayerTiming(), of: l)
        try rt.tick(1.8)
        #expect(try rt.scalar("position.x", l) == 100)
        // Removed: the model shows.
        #expect(try rt.removeAnimation(forKey: "move", from: l))
        try rt.tick(1.9)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(-1, 40))
    }

    /// Runs the same random script on a runtime that freezes and one that
    /// does not: every value and event must be the same, to the bit.
    @Test("a script of model sets, removals, adds, layer timing and parents: the same with and without freezing",
          arguments: [1, 2, 3])
    func sameAsUnfrozen(seed: UInt64) throws {
        var outputs: [([UInt64], [String])] = []
        for freezing in [true, false] {
            let rt = Runtime()
            rt.freezesFinishedFills = freezing
            var s = seed
            func next(_ n: Int) -> Int {
                s = s &* 6364136223846793005 &+ 1442695040888963407
                return Int(s >> 33) % n
            }
            let paths = ["opacity", "position.x", "position.y", "bounds.size.width"]
            let timed = try rt.createLayer()
            try rt.setTiming(LayerTiming(beginTime: 0.3, speed: 2, timeOffset: 0.1), of: timed)
            var layers: [Handle] = []
            for _ in 0..<60 { layers.append(try rt.createLayer()) }
            var values: [UInt64] = []
            var events: [String] = []
            for f in 0..<120 {
                let t = Double(f) / 30
                for _ in 0..<6 {
                    let l = layers[next(layers.count)]
                    let path = paths[next(paths.count)]
                    switch next(10) {
                    case 0, 1, 2, 3:
                        try rt.add(Self.kept(path, Double(next(100)), Double(next(100)), begin: t + Double(next(5)) / 30,
                                             duration: Double(1 + next(20)) / 30), to: l, forKey: next(2) == 0 ? path : nil)
                    case 4: try rt.setModelValue(.scalar(Double(next(50))), forKeyPath: path, of: l)
                    case 5: _ = try rt.removeAnimation(forKey: path, from: l)
                    case 6: try rt.setTiming(LayerTiming(beginTime: 0, speed: 1, timeOffset: -Double(next(30)) / 30), of: l)
                    case 7: try rt.setParent(l, next(2) == 0 ? timed : nil)
                    case 8: try rt.setModelValue(.point(Double(next(9)), Double(next(9))), forKeyPath: "position", of: l)
                    default: try rt.removeAllAnimations(from: l)
                    }
                }
                try rt.tick(t)
                for l in layers {
                    for p in paths { values.append(try rt.presentationValue(forKeyPath: p, of: l).scalar.bitPattern) }
                }
                // Within one tick, animations are reported in the order the
                // batch holds them, which freezing changes: compare as sets.
                events += rt.drain().map { "\($0.type) \($0.reason) \($0.time) \($0.object.raw & 0xFFFFFFFFFFFF)" }.sorted()
            }
            if freezing { #expect(rt.batches.frozen.count > 0) }
            outputs.append((values, events))
        }
        #expect(outputs[0].1 == outputs[1].1)
        #expect(outputs[0].0 == outputs[1].0)
    }
}
