import Testing
@testable import AnimationCore

/// A bulk add, and the add of a stored description, must give exactly what
/// the same adds made one by one give: the same attached animations, the
/// same events in the same order and the same values, to the bit.
@Suite("Bulk adds and stored-description adds equal one-by-one adds")
struct BulkAddTests {
    /// A handle without its runtime's tag (two runtimes number alike).
    static func local(_ h: Handle) -> UInt64 { h.raw & ((1 << 48) - 1) }

    static func eventKey(_ e: Event) -> String {
        "\(e.type) \(e.reason) \(e.time) \(local(e.layer)) \(local(e.object)) \(local(e.animation)) \(e.token)"
    }

    /// A scene whose layers exercise every way an add can go: plain layers,
    /// layers under a timed parent (the general path), layers that already
    /// animate the property (composition), and layers named twice.
    struct Scene {
        let runtime = Runtime()
        var layers: [Handle] = []
        var targets: [Handle] = []
        let barrier: Handle

        init(count: Int) throws {
            let rt = runtime
            let slow = try rt.createLayer()
            try rt.setTiming(LayerTiming(beginTime: 0.05, speed: 1.5, timeOffset: 0), of: slow)
            for i in 0..<count {
                let l = try rt.createLayer(parent: i % 7 == 3 ? slow : nil)
                if i % 11 == 5 { try rt.add(linear("opacity", 0.5, 0.25, begin: 0.1, duration: 0.5), to: l, forKey: "under") }
                if i % 13 == 2 { try rt.add(linear("opacity", 0.9, 0.1, begin: 0.2, duration: 0.3), to: l, forKey: "k") }
                layers.append(l)
            }
            targets = layers
            for i in stride(from: 0, to: count, by: 17) { targets.append(layers[i]) }  // some layers twice
            barrier = try rt.createBarrier()
        }

        /// Ticks through `frames` frames; returns every opacity after each and the events.
        func run(frames: Int) throws -> ([UInt64], [String]) {
            var values: [UInt64] = []
            var events: [String] = []
            for f in 0..<frames {
                try runtime.tick(Double(f) / 30)
                for l in layers { values.append(try runtime.scalar("opacity", l).bitPattern) }
                events += runtime.drain().map(BulkAddTests.eventKey)
            }
            return (values, events)
        }
    }

    struct Columns {
        var begin: [Double] = [], duration: [Double] = [], from: [Double] = [], to: [Double] = []
        init(count: Int, seed: UInt64) {
            var s = seed
            func next() -> Double {
                s = s &* 6364136223846793005 &+ 1442695040888963407
                return Double(s >> 33) / Double(1 << 31)
            }
            for i in 0..<count {
                begin.append(i % 5 == 0 ? 0 : 0.01 + next())  // 0: begins at the next tick
                duration.append(0.05 + next())
                from.append(next() * 100)
                to.append(next() * 100)
            }
        }
    }

    /// One-by-one: set the columns' values on the description, add it.
    static func oneByOne(_ scene: Scene, _ d: Handle, _ c: Columns, key: String?, barrier: Bool) throws -> [Handle] {
        let rt = scene.runtime
        var out: [Handle] = []
        for (i, l) in scene.targets.enumerated() {
            try rt.setTiming(.beginTime, c.begin[i], ofAnimation: d)
            try rt.setTiming(.duration, c.duration[i], ofAnimation: d)
            try rt.setValue(.scalar(c.from[i]), .from, ofAnimation: d)
            try rt.setValue(.scalar(c.to[i]), .to, ofAnimation: d)
            out.append(try rt.addAnimation(d, to: l, forKey: key, joining: barrier ? scene.barrier : nil))
        }
        return out
    }

    static func bulk(_ scene: Scene, _ d: Handle, _ c: Columns, key: String?, barrier: Bool) throws -> [Handle] {
        let rt = scene.runtime
        var out = [Handle](repeating: Handle(raw: 0), count: scene.targets.count)
        try c.begin.withUnsafeBufferPointer { b in
            try c.duration.withUnsafeBufferPointer { du in
                try c.from.withUnsafeBufferPointer { f in
                    try c.to.withUnsafeBufferPointer { t in
                        try scene.targets.withUnsafeBufferPointer { layers in
                            try out.withUnsafeMutableBufferPointer { handles in
                                try rt.addAnimations(d, to: layers, columns: [
                                    BulkColumn(.timing(.beginTime), b.baseAddress!), BulkColumn(.timing(.duration), du.baseAddress!),
                                    BulkColumn(.value(.from), f.baseAddress!), BulkColumn(.value(.to), t.baseAddress!),
                                ], forKey: key, joining: barrier ? scene.barrier : nil, handles: handles)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    static func template(_ rt: Runtime, fill: FillMode, removed: Bool, curve: TimingFunction, fromPresentation: Bool = false) throws -> Handle {
        var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(fillMode: fill), timingFunction: curve)
        a.isRemovedOnCompletion = removed
        a.startsFromPresentation = fromPresentation
        return try rt.createAnimation(a)
    }

    @Test("bulk add: same handles, events and values as the adds made one by one",
          arguments: [(FillMode.both, false, "k" as String?, true), (.forwards, true, nil, false), (.removed, true, "k", false),
                      (.backwards, false, nil, true)])
    func bulkEqualsOneByOne(fill: FillMode, removed: Bool, key: String?, barrier: Bool) throws {
        let n = 300
        let one = try Scene(count: n), many = try Scene(count: n)
        let columns = Columns(count: one.targets.count, seed: 7)
        try one.runtime.tick(0); try many.runtime.tick(0)
        _ = one.runtime.drain(); _ = many.runtime.drain()
        let d1 = try Self.template(one.runtime, fill: fill, removed: removed, curve: .easeInEaseOut)
        let d2 = try Self.template(many.runtime, fill: fill, removed: removed, curve: .easeInEaseOut)
        let h1 = try Self.oneByOne(one, d1, columns, key: key, barrier: barrier)
        let h2 = try Self.bulk(many, d2, columns, key: key, barrier: barrier)
        #expect(h1.map(Self.local) == h2.map(Self.local))
        #expect(one.runtime.attachedCounts == many.runtime.attachedCounts)
        #expect(many.runtime.attachedCounts.batched > n / 2)  // most went to the batch
        try one.runtime.notify(one.barrier, token: 9); try many.runtime.notify(many.barrier, token: 9)
        let (v1, e1) = try one.run(frames: 50), (v2, e2) = try many.run(frames: 50)
        #expect(e1.count > n)
        #expect(e1 == e2)
        #expect(v1 == v2)
    }

    @Test("a bulk add on fresh layers counts its key and its barrier once per animation: both last until the last one goes")
    func keyCountedPerAnimation() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 40)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        let d = try rt.createAnimation(.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: 1, duration: 1)))
        let barrier = try rt.createBarrier()
        try layers.withUnsafeBufferPointer { try rt.addAnimations(d, to: $0, columns: [], forKey: "fade", joining: barrier) }
        #expect(rt.attachedCounts.batched == 40)
        let id = try #require(rt.keyIDs["fade"])
        #expect(rt.keyUses[Int(id)] == 40)
        // Every animation is in the barrier: it fires when the last one goes, not before.
        try rt.notify(barrier, token: 5)
        for l in layers.dropLast() { #expect(try rt.removeAnimation(forKey: "fade", from: l)) }
        #expect(rt.keyIDs["fade"] == id)
        try rt.tick(0.5)
        #expect(!rt.drain().contains { $0.type == .barrierNotified })
        #expect(try rt.removeAnimation(forKey: "fade", from: layers.last!))
        #expect(rt.keyIDs["fade"] == nil)
        try rt.tick(0.6)
        #expect(rt.drain().filter { $0.type == .barrierNotified }.map(\.token) == [5])
        // An empty bulk add with a new key leaves no key behind.
        try layers.withUnsafeBufferPointer { try rt.addAnimations(d, to: UnsafeBufferPointer(rebasing: $0[0..<0]), columns: [],
                                                                  forKey: "never", joining: nil) }
        #expect(rt.keyIDs["never"] == nil)
    }

    @Test("timing columns apply in the host's order, as the setters would: a duration after an iteration duration clears it",
          arguments: [[TimingParameter.iterationDuration, .duration], [.duration, .iterationDuration], [.beginTime, .duration]])
    func timingColumnOrder(order: [TimingParameter]) throws {
        let n = 12
        let values: [TimingParameter: [Double]] = [
            .iterationDuration: (0..<n).map { 0.3 + Double($0) / 40 }, .duration: (0..<n).map { 0.8 + Double($0) / 20 },
            .beginTime: (0..<n).map { 0.01 + Double($0) / 100 },
        ]
        var results: [[UInt64]] = []
        for bulk in [false, true] {
            let rt = Runtime()
            var layers = [Handle](repeating: Handle(raw: 0), count: n)
            try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
            let d = try rt.createAnimation(.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: 0.01)))
            if bulk {
                let buffers = order.map { p in UnsafeMutableBufferPointer<Double>.allocate(capacity: n) }
                defer { buffers.forEach { $0.deallocate() } }
                for (b, p) in zip(buffers, order) { _ = b.initialize(from: values[p]!) }
                let columns = zip(order, buffers).map { BulkColumn(.timing($0), UnsafePointer($1.baseAddress!)) }
                try layers.withUnsafeBufferPointer { try rt.addAnimations(d, to: $0, columns: columns, forKey: nil, joining: nil) }
            } else {
                for (i, l) in layers.enumerated() {
                    for p in order { try rt.setTiming(p, values[p]![i], ofAnimation: d) }
                    try rt.addAnimation(d, to: l, forKey: nil)
                }
            }
            var seen: [UInt64] = []
            for f in 0...40 {
                try rt.tick(Double(f) / 30)
                for l in layers { seen.append(try rt.scalar("opacity", l).bitPattern) }
            }
            results.append(seen)
        }
        #expect(results[0] == results[1])
        #expect(Set(results[0]).count > 100)  // the animations move, each at its own pace
    }

    @Test("adding a stored description gives what adding the same animation value gives")
    func storedEqualsValue() throws {
        for (fromPresentation, curve) in [(false, TimingFunction.easeIn), (true, .linear), (false, .steps(StepsFunction(count: 3, position: .jumpEnd)))] {
            let a = try Scene(count: 120), b = try Scene(count: 120)
            let c = Columns(count: a.targets.count, seed: 3)
            try a.runtime.tick(0); try b.runtime.tick(0)
            let d = try Self.template(a.runtime, fill: .both, removed: false, curve: curve, fromPresentation: fromPresentation)
            _ = try Self.template(b.runtime, fill: .both, removed: false, curve: curve, fromPresentation: fromPresentation)
            for (i, l) in a.targets.enumerated() {
                try a.runtime.setTiming(.beginTime, c.begin[i], ofAnimation: d)
                try a.runtime.setTiming(.duration, c.duration[i], ofAnimation: d)
                try a.runtime.setValue(.scalar(c.from[i]), .from, ofAnimation: d)
                try a.runtime.setValue(.scalar(c.to[i]), .to, ofAnimation: d)
                try a.runtime.addAnimation(d, to: l, forKey: "k")
                // The same description as a value, through the general add.
                let value = try a.runtime.animation(d)
                try b.runtime.add(value, to: b.targets[i], forKey: "k", definition: d)
            }
            let (v1, e1) = try a.run(frames: 40), (v2, e2) = try b.run(frames: 40)
            #expect(e1 == e2)
            #expect(v1 == v2)
        }
    }

    @Test("a template the batch does not take (a spring) is added one by one, alike")
    func generalTemplate() throws {
        let one = try Scene(count: 60), many = try Scene(count: 60)
        let c = Columns(count: one.targets.count, seed: 5)
        let spring = Animation.spring("opacity", Spring(mass: 1, stiffness: 100, damping: 10), from: .scalar(0), to: .scalar(1))
        let d1 = try one.runtime.createAnimation(spring), d2 = try many.runtime.createAnimation(spring)
        let h1 = try Self.oneByOne(one, d1, c, key: nil, barrier: false)
        let h2 = try Self.bulk(many, d2, c, key: nil, barrier: false)
        #expect(h1.map(Self.local) == h2.map(Self.local))
        let (v1, e1) = try one.run(frames: 30), (v2, e2) = try many.run(frames: 30)
        #expect(e1 == e2 && v1 == v2)
    }

    @Test("a bad value, layer or column adds nothing, and the message says which")
    func allOrNothing() throws {
        let scene = try Scene(count: 20)
        let rt = scene.runtime
        let d = try Self.template(rt, fill: .both, removed: false, curve: .linear)
        let before = rt.attachedCounts.total
        var c = Columns(count: scene.targets.count, seed: 1)
        c.duration[7] = -1
        let e1 = #expect(throws: AnimrtError.self) { _ = try Self.bulk(scene, d, c, key: nil, barrier: false) }
        #expect(e1?.status == .outOfRange && e1!.message.contains("item 7") && e1!.message.contains("duration"))
        c = Columns(count: scene.targets.count, seed: 1)
        c.to[12] = .nan
        let e2 = #expect(throws: AnimrtError.self) { _ = try Self.bulk(scene, d, c, key: nil, barrier: false) }
        #expect(e2?.status == .invalidArgument && e2!.message.contains("item 12") && e2!.message.contains("toValue"))
        var stale = scene
        let gone = try rt.createLayer()
        try rt.destroyLayer(gone)
        stale.targets[3] = gone
        c = Columns(count: scene.targets.count, seed: 1)
        let e3 = #expect(throws: AnimrtError.self) { _ = try Self.bulk(stale, d, c, key: nil, barrier: false) }
        #expect(e3?.status == .handle && e3!.message.contains("layers[3]"))
        let values = [1.0, 2.0]
        let e4 = #expect(throws: AnimrtError.self) {
            try values.withUnsafeBufferPointer { v in
                try [scene.layers[0]].withUnsafeBufferPointer { l in
                    try rt.addAnimations(d, to: l, columns: [BulkColumn(.timing(.duration), v.baseAddress!),
                                                             BulkColumn(.timing(.duration), v.baseAddress!)],
                                         forKey: nil, joining: nil)
                }
            }
        }
        #expect(e4?.status == .invalidArgument)
        #expect(rt.attachedCounts.total == before)
        // The description is unchanged by a bulk add.
        #expect(try rt.animation(d).timing.duration == 0)
    }

    @Test("a bulk add of a group the value pools hold for each layer but not for all of them adds nothing")
    func groupPastTheValuePools() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        // Each copy needs a new opacity (1 double) and position (2) on its layer.
        let d = try rt.createAnimation(.group([linear("opacity", 0, 1), .basic("position", from: .point(0, 0), to: .point(1, 1))],
                                              timing: MediaTiming(duration: 1)))
        rt.valuePoolLimit = rt.model.count + 5  // room for one layer's, not two
        let durations = [1.0, 2.0, 3.0]
        expectFailure(.noMemory, containing: "value pools are full") {
            try durations.withUnsafeBufferPointer { v in
                try layers.withUnsafeBufferPointer { l in
                    try rt.addAnimations(d, to: l, columns: [BulkColumn(.timing(.duration), v.baseAddress!)], forKey: "g", joining: nil)
                }
            }
        }
        #expect(rt.attachedCounts.total == 0)
        for l in layers { #expect(try rt.animationKeys(of: l).isEmpty) }
        // With room for all three, the same call adds all three.
        rt.valuePoolLimit = rt.model.count + 9
        try durations.withUnsafeBufferPointer { v in
            try layers.withUnsafeBufferPointer { l in
                try rt.addAnimations(d, to: l, columns: [BulkColumn(.timing(.duration), v.baseAddress!)], forKey: "g", joining: nil)
            }
        }
        for l in layers { #expect(try rt.animationKeys(of: l) == ["g"]) }
    }

    /// A handle buffer one short would be written past; a value column for
    /// a slot the description lacks would be dropped without a word on the
    /// batch's path (a basic animation has no velocity). Both are refused
    /// before anything is attached.
    @Test("a bulk add refuses a handle buffer one short and a column for a slot the description lacks, attaching nothing")
    func bufferAndSlotRefused() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        let d = try Self.template(rt, fill: .both, removed: false, curve: .linear)
        let values = [0.25, 0.5, 0.75]
        var out = [Handle](repeating: Handle(raw: 0), count: 3)
        expectFailure(.buffer, containing: "the handle buffer holds 2; 3 animations are added") {
            try layers.withUnsafeBufferPointer { l in
                try out.withUnsafeMutableBufferPointer { h in
                    try rt.addAnimations(d, to: l, columns: [], forKey: "k", joining: nil, handles: UnsafeMutableBufferPointer(rebasing: h[0..<2]))
                }
            }
        }
        #expect(out == [Handle](repeating: Handle(raw: 0), count: 3))
        expectFailure(.kind, containing: "a basic animation has no velocity") {
            try values.withUnsafeBufferPointer { v in
                try layers.withUnsafeBufferPointer { l in
                    try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.velocity), v.baseAddress!)], forKey: "k", joining: nil)
                }
            }
        }
        #expect(rt.attachedCounts.total == 0)
        for l in layers { #expect(try rt.animationKeys(of: l).isEmpty) }
        try layers.withUnsafeBufferPointer { l in
            try out.withUnsafeMutableBufferPointer { h in try rt.addAnimations(d, to: l, columns: [], forKey: "k", joining: nil, handles: h) }
        }
        #expect(try out.map { try rt.layer(ofAttached: $0) } == layers)
    }

    /// The value pools' check counts the layers that lack the property,
    /// each once: not the layers that have it, nor a layer named twice.
    @Test("a bulk add at the value pools' limit needs room only for the layers that lack the property")
    func poolsCountMissingLayersOnce() throws {
        let rt = Runtime()
        let set = try rt.createLayer(), fresh = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: set)
        let d = try Self.template(rt, fill: .both, removed: false, curve: .linear)
        let targets = [set, fresh, fresh]
        func addAll() throws {
            try targets.withUnsafeBufferPointer { l in try rt.addAnimations(d, to: l, columns: [], forKey: nil, joining: nil) }
        }
        rt.valuePoolLimit = rt.model.count  // no room for fresh's opacity
        expectFailure(.noMemory, containing: "value pools are full") { try addAll() }
        #expect(rt.attachedCounts.total == 0)
        rt.valuePoolLimit = rt.model.count + 1  // room for exactly that one
        try addAll()
        #expect(rt.attachedCounts.total == 3)
        #expect(rt.model.count == rt.valuePoolLimit)
        try rt.tick(0); try rt.tick(0.125)  // the default 0.25 s, halfway
        #expect(try rt.scalar("opacity", set) == 0.5 && rt.scalar("opacity", fresh) == 0.5)
    }

    /// A by column gives each copy its own by value, on the batch's path as
    /// on the general one.
    @Test("a bulk add's by column moves each copy by its own value")
    func byColumn() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        let d = try rt.createAnimation(.basic("position.x", from: .scalar(1), by: .scalar(100), timing: MediaTiming(duration: 1)))
        let by = [2.0, 4.0, 8.0]
        try by.withUnsafeBufferPointer { v in
            try layers.withUnsafeBufferPointer { l in
                try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.by), v.baseAddress!)], forKey: nil, joining: nil)
            }
        }
        #expect(rt.attachedCounts.batched == 3)
        try rt.tick(0); try rt.tick(0.5)
        #expect(try layers.map { try rt.scalar("position.x", $0) } == [2, 3, 5])
    }

    /// Ends whose difference passes the largest double cannot be evaluated:
    /// `add` refuses them, and so does a bulk add that would put them in the
    /// batch, naming the item, before anything is attached.
    @Test("a bulk add whose ends are too far apart is refused, naming the item, and attaches nothing")
    func endsTooFarApart() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        let d = try rt.createAnimation(.basic("position.x", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1)))
        let from = [0.0, -1e308, 5], to = [1.0, 1e308, 6]
        let e = expectFailure(.outOfRange, containing: "item 1: ") {
            try from.withUnsafeBufferPointer { f in
                try to.withUnsafeBufferPointer { t in
                    try layers.withUnsafeBufferPointer { l in
                        try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.from), f.baseAddress!), BulkColumn(.value(.to), t.baseAddress!)],
                                             forKey: "x", joining: nil)
                    }
                }
            }
        }
        let alone = expectFailure(.outOfRange) {
            try rt.add(.basic("position.x", from: .scalar(-1e308), to: .scalar(1e308), timing: MediaTiming(duration: 1)), to: layers[0], forKey: "x")
        }
        #expect(e?.message == "item 1: " + (alone?.message ?? ""))
        #expect(rt.attachedCounts.total == 0)
        for l in layers { #expect(try rt.animationKeys(of: l).isEmpty) }
    }

    /// A column for speed or repeat count makes the copies' timing other
    /// than simple: on fresh layers as elsewhere, each copy runs at its own
    /// speed, as often as its own count says.
    @Test("speed and repeat count columns reach the copies on fresh layers: each runs at its own speed, its own number of times")
    func speedAndRepeatColumns() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 8)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        let d = try rt.createAnimation(.basic("opacity", from: .scalar(0), to: .scalar(1),
                                              timing: MediaTiming(beginTime: 1, duration: 1), timingFunction: .linear))
        let speed = [1.0, 1, 2, 1, 1, 1, 1, 0.5], repeats = [1.0, 2, 1, 1, 2, 1, 1, 1]
        try speed.withUnsafeBufferPointer { s in
            try repeats.withUnsafeBufferPointer { r in
                try layers.withUnsafeBufferPointer { l in
                    try rt.addAnimations(d, to: l, columns: [BulkColumn(.timing(.speed), s.baseAddress!),
                                                             BulkColumn(.timing(.repeatCount), r.baseAddress!)],
                                         forKey: nil, joining: nil)
                }
            }
        }
        try rt.tick(1.25)
        #expect(try layers.map { try rt.scalar("opacity", $0) } == [0.25, 0.25, 0.5, 0.25, 0.25, 0.25, 0.25, 0.125])
        try rt.tick(1.75)  // the copy at speed 2 is done: the model's 1 shows again
        #expect(try layers.map { try rt.scalar("opacity", $0) } == [0.75, 0.75, 1, 0.75, 0.75, 0.75, 0.75, 0.375])
        try rt.tick(2.5)  // the copies repeated twice are halfway through their second time
        #expect(try layers.map { try rt.scalar("opacity", $0) } == [1, 0.5, 1, 1, 0.5, 1, 1, 0.75])
    }

    /// A template of one component (position.y) writes that component of
    /// each fresh layer's property, not its first one.
    @Test("a bulk add of position.y on fresh layers animates y, each copy to its own value, and leaves x alone")
    func componentOnFreshLayers() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 5)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        let d = try rt.createAnimation(.basic("position.y", from: .scalar(0), to: .scalar(100),
                                              timing: MediaTiming(beginTime: 1, duration: 1), timingFunction: .linear))
        let to = [10.0, 20, 30, 40, 50]
        try to.withUnsafeBufferPointer { t in
            try layers.withUnsafeBufferPointer { l in
                try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.to), t.baseAddress!)], forKey: nil, joining: nil)
            }
        }
        #expect(rt.attachedCounts.batched == 5)
        try rt.tick(1.5)
        #expect(try layers.map { try rt.scalar("position.y", $0) } == [5, 10, 15, 20, 25])
        #expect(try layers.map { try rt.scalar("position.x", $0) } == [0, 0, 0, 0, 0])
    }

    /// A copy whose begin time is 0 begins at the tick after the add, as
    /// `add` makes it, also when the runtime's clock is long past 0.
    @Test("a bulk add with begin time 0 made at time 5 begins at the next tick, not at time 0")
    func beginZeroLate() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 5)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        let one = try rt.createLayer()
        let d = try rt.createAnimation(.basic("opacity", from: .scalar(0), to: .scalar(0.5),
                                              timing: MediaTiming(duration: 1), timingFunction: .linear))
        try rt.tick(5)
        try layers.withUnsafeBufferPointer { l in try rt.addAnimations(d, to: l, columns: [], forKey: nil, joining: nil) }
        try rt.addAnimation(d, to: one, forKey: nil)
        try rt.tick(5.25)
        #expect(try (layers + [one]).map { try rt.scalar("opacity", $0) } == [0, 0, 0, 0, 0, 0])
        try rt.tick(5.75)
        #expect(try (layers + [one]).map { try rt.scalar("opacity", $0) } == [0.25, 0.25, 0.25, 0.25, 0.25, 0.25])
        try rt.tick(6.5)  // done: the model's 1
        #expect(try (layers + [one]).map { try rt.scalar("opacity", $0) } == [1, 1, 1, 1, 1, 1])
    }

    /// A point column holds two numbers per copy: copy i reads numbers 2i
    /// and 2i + 1 (the general path, which points take).
    @Test("a bulk add's point column gives each copy its own point")
    func pointColumn() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 3)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        let d = try rt.createAnimation(.basic("position", from: .point(0, 0), to: .point(100, 200),
                                              timing: MediaTiming(beginTime: 1, duration: 1, fillMode: .both), timingFunction: .linear))
        let from: [Double] = [1, 2, 3, 4, 5, 6]
        try from.withUnsafeBufferPointer { f in
            try layers.withUnsafeBufferPointer { l in
                try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.from), f.baseAddress!)], forKey: nil, joining: nil)
            }
        }
        try rt.tick(0)  // before the begin time, the backwards fill shows each copy's from point
        #expect(try layers.map { try rt.presentationValue(forKeyPath: "position", of: $0) } == [.point(1, 2), .point(3, 4), .point(5, 6)])
        try rt.tick(1.5)
        #expect(try layers.map { try rt.presentationValue(forKeyPath: "position", of: $0) }
                == [.point(50.5, 101), .point(51.5, 102), .point(52.5, 103)])
    }
}
