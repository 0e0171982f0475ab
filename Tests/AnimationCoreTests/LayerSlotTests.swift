import Testing
@testable import AnimationCore

/// What `Layers/` keeps per layer: value slots in the pools (made, freed,
/// reused, bounded), reads by key path id and by reader, model writes and
/// their checks, restored values, keys and the list of attached animations,
/// the tree. Each test names the fault it was written against.
@Suite("Layers: value slots, reads, model writes, restores, keys, the tree")
struct LayerSlotTests {
    static func read(_ rt: Runtime, _ id: Int32, _ layer: Handle, capacity: Int) throws -> (count: Int, values: [Double]) {
        var out = [Double](repeating: .nan, count: capacity)
        let n = try out.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.readPresentation(keyPathID: id, of: layer, into: b) }
        return (n, out)
    }

    // MARK: Value slots

    @Test("a freed slot goes back to the free list of its own size: a point never takes a scalar's place")
    func freedSlotSize() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.scalar(0.3), forKeyPath: "opacity", of: a)
        try rt.setModelValue(.scalar(0.6), forKeyPath: "opacity", of: b)
        try rt.destroyLayer(a)
        let c = try rt.createLayer()
        try rt.setModelValue(.point(7, 8), forKeyPath: "position", of: c)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: b) == .scalar(0.6))
        #expect(try rt.modelValue(forKeyPath: "position", of: c) == .point(7, 8))
    }

    @Test("a reused slot starts from the property's default, in the model and on screen")
    func reusedSlotDefaults() throws {
        let rt = Runtime()
        let a = try rt.createLayer()
        try rt.setModelValue(.scalar(0.3), forKeyPath: "opacity", of: a)
        try rt.tick(0)
        #expect(try rt.scalar("opacity", a) == 0.3)
        try rt.destroyLayer(a)
        // On screen: the default, not the destroyed layer's value; then, as no
        // tick has shown the new layer yet, the model it is given.
        let b = try rt.createLayer()
        #expect(try rt.scalar("opacity", b) == 1)
        try rt.setModelValue(.scalar(0.6), forKeyPath: "opacity", of: b)
        #expect(try rt.scalar("opacity", b) == 0.6)
        try rt.tick(0.1)
        #expect(try rt.scalar("opacity", b) == 0.6)
        // In the model: an animation from 0 runs to the default 1.
        let c = try rt.createLayer()
        try rt.setModelValue(.scalar(0.3), forKeyPath: "opacity", of: c)
        try rt.destroyLayer(c)
        let d = try rt.createLayer()
        try rt.add(.basic("opacity", from: .scalar(0), timing: MediaTiming(duration: 1)), to: d, forKey: "f")
        try rt.tick(1); try rt.tick(1.5)
        #expect(try rt.scalar("opacity", d) == 0.5)
    }

    @Test("destroyed layers give their values back: the pools stay within their limit")
    func poolsBounded() throws {
        let rt = Runtime()
        rt.valuePoolLimit = 8
        for _ in 0..<50 {
            let l = try rt.createLayer()
            try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: l)
            try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
            try rt.destroyLayer(l)
        }
        let a = try rt.createLayer(), b = try rt.createLayer()
        for l in [a, b] {
            try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: l)
            try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
        }
        let c = try rt.createLayer()
        try rt.setModelValue(.point(3, 4), forKeyPath: "position", of: c)  // 8 numbers: full
        expectFailure(.noMemory, containing: "value pools are full") { try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: c) }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: c) == .scalar(1))
    }

    // MARK: Model writes

    @Test("a model value that is not finite is refused by component, nothing written")
    func modelNotFinite() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        expectFailure(.invalidArgument, containing: "component 1 of the value for 'position'") {
            try rt.setModelValue(.point(1, .nan), forKeyPath: "position", of: l)
        }
        #expect(try rt.modelValue(forKeyPath: "position", of: l) == .point(0, 0))
    }

    @Test("a part write that makes the matrix overflow is refused; reads of such a matrix are finite")
    func partWriteOverflow() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var big = Transform3D.identity
        big[0, 0] = 1.5e308; big[0, 1] = 1.5e308  // finite, but its first row (√2 × 1.5e308) is longer than the largest double
        try rt.setModelValue(.transform(big), forKeyPath: "transform", of: l)
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l) == .scalar(.greatestFiniteMagnitude))
        expectFailure(.outOfRange, containing: "makes transform overflow") {
            try rt.setModelValue(.scalar(0), forKeyPath: "transform.rotation.z", of: l)
        }
        #expect(try rt.modelValue(forKeyPath: "transform", of: l).transform == big)
    }

    @Test("a presentation that overflows shows the largest finite double of its sign")
    func presentationSaturates() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(1e308, -1e308), forKeyPath: "position", of: l)
        var a = Animation.basic("position", from: .point(1e308, -1e308), to: .point(1e308, -1e308), timing: MediaTiming(duration: 1))
        a.isAdditive = true
        try rt.add(a, to: l, forKey: "up")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(.greatestFiniteMagnitude, -.greatestFiniteMagnitude))
    }

    // MARK: Reads

    @Test("a read by key path id: the id's own components, from the default or the slot, into a buffer that fits")
    func readByID() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let alpha = try rt.keyPathID("borderColor.alpha"), y = try rt.keyPathID("position.y")
        let size = try rt.keyPathID("bounds.size"), rotation = try rt.keyPathID("transform.rotation.z")
        // Not materialised: the default's component (borderColor is opaque black).
        let a = try Self.read(rt, alpha, l, capacity: 1)
        #expect(a.count == 1 && a.values == [1])
        try rt.setModelValue(.point(3, 4), forKeyPath: "position", of: l)
        try rt.setModelValue(.rect(1, 2, 5, 6), forKeyPath: "bounds", of: l)
        try rt.tick(0)
        let py = try Self.read(rt, y, l, capacity: 1)
        #expect(py.count == 1 && py.values == [4])
        let s = try Self.read(rt, size, l, capacity: 2)
        #expect(s.count == 2 && s.values == [5, 6])
        let short = try Self.read(rt, size, l, capacity: 1)
        #expect(short.count == 2 && short.values[0].isNaN)  // too small: the size needed, nothing written
        // A computed part reads the presentation, not the model.
        try rt.add(linear("transform.rotation.z", 0, 1), to: l, forKey: "r")
        try rt.tick(1); try rt.tick(1.5)
        let r = try Self.read(rt, rotation, l, capacity: 1)
        #expect(r.count == 1)
        expectClose(r.values[0], 0.5, 1e-12)
    }

    @Test("a reader with computed targets writes each at its own place; targets of other widths are refused")
    func readerComputedTargets() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.size(1, 2), forKeyPath: "transform.translation", of: a)
        try rt.setModelValue(.size(3, 4), forKeyPath: "transform.translation", of: b)
        let reader = try ReaderTests.reader(rt, [(a, "transform.translation"), (b, "transform.translation")])
        try rt.tick(0)
        #expect(try ReaderTests.read(rt, reader) == [1, 2, 3, 4])
        expectFailure(.kind, containing: "target 1", "every target of one bulk read must have 1 component") {
            _ = try rt.resolveTargets([(a, "opacity"), (a, "position")])
        }
    }

    @Test("computed timing's progress is the timing function's output (ease-in at half time: 0.31536)")
    func computedProgressCurve() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var a = linear("opacity", 0, 1); a.timingFunction = .easeIn
        let h = try rt.add(a, to: l, forKey: "e")
        try rt.tick(0); try rt.tick(0.5)
        expectClose(try #require(try rt.computedTiming(of: h).progress), 0.3153568125725393, 1e-9)
    }

    // MARK: Restored values

    @Test("restored values: the presentation as snapshotted, then the model from the next tick")
    func restoredPresentationFollows() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.restoreValues([("opacity", .scalar(5), .scalar(3))], of: l)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l) == .scalar(5))
        #expect(try rt.scalar("opacity", l) == 3)
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 5)
    }

    @Test("values restored again and again between ticks: the list of values to refresh stays short")
    func restoresBounded() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        for k in 0..<5000 { try rt.restoreValues([("opacity", .scalar(Double(k)), .scalar(0))], of: l) }
        #expect(rt.staleProperties.count <= 2 * rt.model.count + 65, "\(rt.staleProperties.count) entries")
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 4999)
    }

    @Test("a restore is checked whole first: a wrong kind, a part's key path or full pools write nothing")
    func restoreRefusals() throws {
        let rt = Runtime()
        let m = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: m)
        try rt.setModelValue(.point(7, 8), forKeyPath: "position", of: m)
        expectFailure(.kind, containing: "'opacity' takes a scalar") {
            try rt.restoreValues([("position", .point(1, 2), .point(1, 2)), ("opacity", .scalar(5), .point(1, 2))], of: m)
        }
        #expect(try rt.modelValue(forKeyPath: "position", of: m) == .point(7, 8))
        // Untouched: the presentation of a layer no tick has shown is its model.
        #expect(try rt.presentationValue(forKeyPath: "position", of: m) == .point(7, 8))
        // A value that is not finite, in the model or on screen (a snapshot's, edited).
        for (model, shown) in [(AnimatableValue.point(.nan, 2), AnimatableValue.point(1, 2)), (.point(1, 2), .point(1, .infinity))] {
            expectFailure(.invalidArgument, containing: "a value of 'position' is ", "it must be a finite number") {
                try rt.restoreValues([("opacity", .scalar(0.25), .scalar(0.25)), ("position", model, shown)], of: m)
            }
        }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: m) == .scalar(0.5))
        #expect(try rt.presentationValue(forKeyPath: "position", of: m) == .point(7, 8))
        let l = try rt.createLayer()
        // A part would be written as the whole property's first component.
        expectFailure(.invalidArgument, containing: "'position.y' is a part of 'position'") {
            try rt.restoreValues([("position.y", .scalar(4), .scalar(4))], of: l)
        }
        #expect(try rt.layerValues(l).isEmpty)
        rt.valuePoolLimit = rt.model.count + 3
        expectFailure(.noMemory, containing: "value pools are full") {
            try rt.restoreValues([("opacity", .scalar(5), .scalar(5)), ("bounds", .rect(1, 2, 3, 4), .rect(1, 2, 3, 4))], of: l)
        }
        #expect(try rt.layerValues(l).isEmpty)
        #expect(try rt.modelValue(forKeyPath: "position", of: l) == .point(0, 0))
    }

    /// A layer has one value of each property: given twice (a snapshot's,
    /// edited), the second was written over the first without a word,
    /// whichever was meant.
    @Test("a restore that gives a property twice is refused and writes nothing")
    func restoreTwice() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
        expectFailure(.invalidArgument, containing: "'opacity' is given twice; a layer has one value of each property") {
            try rt.restoreValues([("opacity", .scalar(1), .scalar(1)), ("cornerRadius", .scalar(4), .scalar(4)),
                                  ("opacity", .scalar(0.25), .scalar(0.25))], of: l)
        }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l) == .scalar(0.5))
        #expect(try rt.modelValue(forKeyPath: "cornerRadius", of: l) == .scalar(0))
        try rt.restoreValues([("opacity", .scalar(1), .scalar(0.75)), ("cornerRadius", .scalar(4), .scalar(4))], of: l)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l) == .scalar(1) && rt.scalar("opacity", l) == 0.75)
    }

    // MARK: Keys, the list of animations, the tree

    @Test("a freed key id reused by another key names the new key; a removed tail leaves the list whole")
    func keysAndList() throws {
        let rt = Runtime()
        let l = try rt.createLayer(), other = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        try rt.add(linear("position.x", 0, 1), to: l, forKey: "b")
        #expect(try rt.removeAnimation(forKey: "b", from: l))
        try rt.add(linear("opacity", 0, 1), to: other, forKey: "x")  // takes b's key id and its slot
        try rt.add(linear("position.y", 0, 1), to: l, forKey: "c")
        #expect(try rt.animationKeys(of: l) == ["a", "c"])
        #expect(try rt.animationKeys(of: other) == ["x"])
        #expect(try rt.instance(forKey: "x", of: other) != nil)
        #expect(try rt.instance(forKey: "b", of: l) == nil)
    }

    @Test("a layer moved under a timed parent leaves the batch and runs on the parent's time")
    func reparentUnderTimedParent() throws {
        let rt = Runtime()
        let parent = try rt.createLayer()
        try rt.setTiming(LayerTiming(speed: 2), of: parent)
        let l = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "o")
        try rt.tick(0)
        #expect(rt.attachedCounts.batched == 1)
        try rt.setParent(l, parent)
        #expect(rt.attachedCounts.batched == 0)
        try rt.tick(0.25)
        #expect(try rt.scalar("opacity", l) == 0.5)  // 0.25 s at speed 2
    }

    @Test("the tree: no layer under its own descendant; a destroyed parent leaves roots behind")
    func tree() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer(parent: a), c = try rt.createLayer(parent: b)
        expectFailure(.invalidArgument, containing: "own ancestor") { try rt.setParent(a, c) }
        #expect(try rt.parent(of: a) == nil)
        try rt.destroyLayer(b)
        #expect(try rt.parent(of: c) == nil)
        let d = try rt.createLayer(parent: a)  // may take b's slot
        #expect(try rt.parent(of: c) == nil)
        #expect(try rt.children(of: d).isEmpty)
        #expect(try rt.children(of: a) == [d])
    }

    @Test("a bulk add names the item and component of a value that is not finite, and adds nothing")
    func bulkValueNotFinite() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 2)
        try layers.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.createLayers(parent: nil, into: b) }
        let d = try rt.createAnimation(.basic("position", from: .point(0, 0), to: .point(1, 1), timing: MediaTiming(duration: 1)))
        let from: [Double] = [0, 0, 1, .nan]
        expectFailure(.invalidArgument, containing: "item 1 of the fromValue column: component 1 is nan") {
            try from.withUnsafeBufferPointer { f in
                try layers.withUnsafeBufferPointer { (l) throws(AnimrtError) in
                    try rt.addAnimations(d, to: l, columns: [BulkColumn(.value(.from), f.baseAddress!)], forKey: nil, joining: nil)
                }
            }
        }
        #expect(rt.attachedCounts.total == 0)
    }

    /// A layer keeps its first three properties inline and the rest in a
    /// list: each of five, written in turn, reads back its own value, and
    /// writing them again changes the same slots (none is made twice).
    @Test("Five properties of one layer, past the three held inline, each keep their own value")
    func propertiesPastTheInlineThree() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let paths = ["opacity", "borderWidth", "cornerRadius", "zPosition", "strokeStart"]
        // Each read right after its write: the fourth is the first in the list.
        for (i, p) in paths.enumerated() {
            try rt.setModelValue(.scalar(Double(i) + 0.5), forKeyPath: p, of: l)
            #expect(try rt.modelValue(forKeyPath: p, of: l) == .scalar(Double(i) + 0.5), "\(p)")
        }
        let pool = rt.model.count
        for (i, p) in paths.enumerated() { try rt.setModelValue(.scalar(Double(i) + 10), forKeyPath: p, of: l) }
        try rt.tick(0)
        for (i, p) in paths.enumerated() {
            #expect(try rt.modelValue(forKeyPath: p, of: l) == .scalar(Double(i) + 10), "\(p)")
            #expect(try rt.presentationValue(forKeyPath: p, of: l) == .scalar(Double(i) + 10), "\(p)")
        }
        #expect(rt.model.count == pool)
    }
}
