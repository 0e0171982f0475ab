import Testing
@testable import AnimationCore

/// The layers' code read line by line (docs/mutants.md, "The layers' code
/// audited again"): the tree, layer timing and its conversions, velocity and
/// retargeting, computed timing, readers and the value pools, each held by
/// values worked out by hand.
@Suite("R1.6 layers: the tree, timing, velocity, reads and the value pools, line by line")
struct LayerCodeAuditTests {
    private static func read(_ rt: Runtime, _ id: Int32, _ layer: Handle, count: Int) throws -> (Int, [Double]) {
        var out = [Double](repeating: -7, count: 4)
        let n = try out.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in
            try rt.readPresentation(keyPathID: id, of: layer, into: UnsafeMutableBufferPointer(rebasing: b[0..<count]))
        }
        return (n, out)
    }

    @Test("Layers made under a parent, one or several at once, are its children in order and present their model until a tick")
    func treeAndUnshown() throws {
        let rt = Runtime()
        let p = try rt.createLayer(), first = try rt.createLayer(parent: p)
        #expect(try rt.parent(of: first) == p)  // p is slot 0: a parent, not a root
        var made = [Handle](repeating: Handle(raw: 0), count: 3)
        try made.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.createLayers(parent: p, into: b) }
        #expect(try rt.children(of: p) == [first] + made)
        for l in made { #expect(try rt.parent(of: l) == p) }
        try rt.tick(0)
        let late = try rt.createLayer()
        var more = [Handle](repeating: Handle(raw: 0), count: 2)
        try more.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.createLayers(parent: late, into: b) }
        #expect(try rt.isShown(layer: made[0]) && !rt.isShown(layer: more[1]))
        try rt.setModelValue(.scalar(0.25), forKeyPath: "opacity", of: more[1])
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: made[0])
        #expect(try rt.scalar("opacity", more[1]) == 0.25)  // not shown yet: presents its model at once
        #expect(try rt.scalar("opacity", made[0]) == 1)  // shown: waits for the tick
        try rt.destroyLayer(made[1])
        #expect(try rt.children(of: p) == [first, made[0], made[2]])
    }

    @Test("Destroying a layer stops every animation on it")
    func destroyStopsAll() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var hs: [Handle] = []
        for k in ["a", "b", "c"] { hs.append(try rt.add(linear("opacity", 0, 1, duration: 10), to: l, forKey: k)) }
        try rt.tick(0); _ = rt.drain()
        try rt.destroyLayer(l)
        let events = rt.drain()
        #expect(events.map(\.tag) == Array(repeating: "stopped:\(StopReason.layerDestroyed)", count: 3))
        #expect(Set(events.map(\.object)) == Set(hs))
        for h in hs { #expect(!rt.isAttached(h)) }
    }

    @Test("A reader refuses to read a layer destroyed since it was made")
    func readerOfDestroyedLayer() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        let opacity = try rt.keyPath(id: rt.keyPathID("opacity"))
        let reader = try rt.createReader([(a, opacity), (b, opacity)])
        try rt.destroyLayer(b)
        _ = try rt.createLayer()  // may take b's slot and its value's place
        var out = [Double](repeating: -1, count: 2)
        expectFailure(.handle, containing: "target 1 can no longer be read") {
            try out.withUnsafeMutableBufferPointer { (o) throws(AnimrtError) in try rt.readPresentation(reader: reader, into: o) }
        }
        #expect(out == [-1, -1])
    }

    @Test("Moving a layer or changing its timing counts as retimed until the next tick")
    func retimedMarks() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.tick(0)
        #expect(try !rt.isRetimed(layer: b) && !rt.isRetimed(layer: a))
        try rt.setParent(b, a)
        #expect(try rt.isRetimed(layer: b) && !rt.isRetimed(layer: a))
        try rt.setTiming(LayerTiming(speed: 2), of: a)
        #expect(try rt.isRetimed(layer: a))
        try rt.tick(1)
        #expect(try !rt.isRetimed(layer: b) && !rt.isRetimed(layer: a))
    }

    /// A layer that was retimed between ticks does not count the times its
    /// new timing would have gone through: a looping layer whose time would
    /// have crossed an animation's whole interval since the last tick only
    /// reports what the time sampled now shows.
    @Test("A retimed looping layer does not count times it never showed")
    func retimedLoopNotCounted() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(linear("opacity", 0, 1, begin: 0.5, duration: 0.2), to: l, forKey: "a")
        try rt.tick(0); _ = rt.drain()
        try rt.setMediaTiming(MediaTiming(duration: 1, repeatCount: .infinity), of: l)
        try rt.tick(1.1)  // local time 0.1; the loop would have passed 0.5 to 0.7
        #expect(rt.drain().isEmpty)
        #expect(try rt.lifecycle(of: h) == .waiting)
        try rt.tick(1.9)  // not retimed now: 0.1 to 0.9 went through the whole interval
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    /// Under a reversed unbounded layer the times between two ticks are
    /// mapped to a range whose ends swap; a looping layer below sees every
    /// time of it, wrapping: from 0.1 down through 0 and its end to 0.3,
    /// across the animation's whole interval (0.5 to 0.7).
    @Test("A looping layer under a reversed parent counts the times it went through")
    func loopUnderReversedParent() throws {
        let rt = Runtime(); let parent = try rt.createLayer(), loop = try rt.createLayer(parent: parent)
        try rt.setTiming(LayerTiming(speed: -1, timeOffset: 100.4), of: parent)
        try rt.setMediaTiming(MediaTiming(duration: 1, repeatCount: .infinity), of: loop)
        let h = try rt.add(linear("opacity", 0, 1, begin: 0.5, duration: 0.2), to: loop, forKey: "a")
        try rt.tick(0)
        expectClose(try rt.localTime(of: loop)!, 0.4, 1e-12)
        try rt.tick(0.3)  // 0.4 down to 0.1: before the animation
        #expect(rt.drain().isEmpty)
        #expect(try rt.lifecycle(of: h) == .waiting)
        try rt.tick(1.1)
        expectClose(try rt.localTime(of: loop)!, 0.3, 1e-12)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    @Test("A refused layer timing leaves the one it had; a duration of 0 is the default and accepted")
    func refusedTimingKept() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let kept = MediaTiming(duration: 2, speed: 2, repeatCount: 3)
        try rt.setMediaTiming(kept, of: l)
        expectFailure(.outOfRange, containing: "layer duration is -1") { try rt.setMediaTiming(MediaTiming(duration: -1), of: l) }
        #expect(throws: AnimrtError.self) { try rt.setMediaTiming(MediaTiming(speed: .nan), of: l) }
        #expect(try rt.mediaTiming(of: l) == kept)
        try rt.setMediaTiming(MediaTiming(duration: 0, speed: 3), of: l)
        #expect(try rt.mediaTiming(of: l) == MediaTiming(speed: 3))
    }

    @Test("A layer's time goes through its parents' timing, saturating where their speeds overflow")
    func localTimes() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer(parent: a), c = try rt.createLayer(parent: b)
        try rt.setTiming(LayerTiming(speed: 2), of: a)
        try rt.tick(5)
        #expect(try rt.localTime(of: c) == 10)
        #expect(try rt.convertTime(4, from: nil, to: c) == 8)
        try rt.setTiming(LayerTiming(speed: 1e200), of: a)
        try rt.setTiming(LayerTiming(speed: 1e200), of: b)
        #expect(try rt.localTime(of: c) == .greatestFiniteMagnitude)
    }

    /// Inside a timed layer of speed 2 (now 1, its time 2), a local time of
    /// 3 is half a second of the runtime's time later: 1.5.
    @Test("A time converted out of a timed layer of speed 2 is divided by its rate")
    func convertOutOfTimedLayer() throws {
        let rt = Runtime(); let outer = try rt.createLayer(), inner = try rt.createLayer(parent: outer)
        try rt.setMediaTiming(MediaTiming(duration: 10, speed: 2), of: outer)
        try rt.tick(1)
        #expect(try rt.convertTime(3, from: inner, to: nil) == 1.5)
        #expect(try rt.convertTime(1.5, from: nil, to: inner) == 3)
    }

    @Test("Velocity counts the layer's speed; an ended animation that is removed has none")
    func velocityRateAndEnded() throws {
        let rt = Runtime(); let p = try rt.createLayer(), l = try rt.createLayer(parent: p)
        try rt.setTiming(LayerTiming(speed: 3), of: p)
        let h = try rt.add(linear("opacity", 0, 10, duration: 10), to: l, forKey: "a")
        try rt.tick(0); try rt.tick(1)
        expectClose(try rt.velocity(of: h).scalar, 3, 1e-15)
        // An edited snapshot's ended animation, restored inside its interval.
        let state = Runtime.AttachmentState(beginTime: 0, duration: 10, captured: .scalar(0), phase: .ended)
        let ended = try rt.add(linear("cornerRadius", 0, 10, duration: 10), to: l, forKey: "e", restoring: state)
        #expect(try rt.lifecycle(of: ended) == .ended)
        #expect(try rt.velocity(of: ended).scalar == 0)
    }

    /// Under speeds whose product overflows (1e200 × 1e200) a layer's time
    /// runs at an infinite rate: an animation it has run past the end of
    /// holds its end, and its velocity is 0, not 0 × ∞.
    @Test("Velocity under layer speeds whose product overflows is 0 once the animation holds its end")
    func velocityUnderOverflowingRate() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer(parent: a), c = try rt.createLayer(parent: b)
        try rt.setTiming(LayerTiming(speed: 1e200), of: a)
        try rt.setTiming(LayerTiming(speed: 1e200), of: b)
        var held = linear("opacity", 0, 10, duration: 10, fill: .forwards)
        held.isRemovedOnCompletion = false
        let h = try rt.add(held, to: c, forKey: "a")
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.scalar("opacity", c) == 10)
        #expect(try rt.velocity(of: h).scalar == 0)
    }

    @Test("A spring on a paused layer is not retargeted, and keeps its target")
    func retargetPaused() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(.spring("position.x", Spring(mass: 1, stiffness: 100, damping: 10), from: .scalar(0), to: .scalar(100),
                                   timing: MediaTiming(duration: 5)), to: l, forKey: "s")
        try rt.tick(0); try rt.tick(0.2)
        try rt.setTiming(LayerTiming(speed: 0, timeOffset: 0.2), of: l)
        try rt.tick(0.3)
        expectFailure(.state, containing: "paused") { try rt.retarget(h, to: .scalar(5)) }
        #expect(try rt.attachedAnimation(h).value(.to) == .scalar(100))
    }

    /// On its way back an autoreversing spring moves against its own
    /// direction; retargeted there, it restarts forwards with the velocity
    /// it showed, not with that velocity turned round.
    @Test("An autoreversing spring retargeted on its way back keeps the velocity it shows")
    func retargetOnTheWayBack() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(.spring("position.x", Spring(mass: 1, stiffness: 100, damping: 10), from: .scalar(0), to: .scalar(100),
                                   timing: MediaTiming(duration: 1, autoreverses: true)), to: l, forKey: "s")
        try rt.tick(0); try rt.tick(1.8)
        let x = try rt.scalar("position.x", l), v = try rt.velocity(of: h).scalar
        #expect(v < -1)  // the reverse of the settling at 0.2 s, not yet at rest
        try rt.retarget(h, to: .scalar(50))
        expectClose(try rt.velocity(of: h).scalar, v, 1e-9)
        try rt.tick(1.8)
        #expect(try rt.scalar("position.x", l) == x)
    }

    @Test("The velocity of bounds.size asked of a bounds animation names its components 2 to 3")
    func velocityPartHint() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(.basic("bounds", from: .rect(0, 0, 10, 10), to: .rect(0, 0, 20, 20), timing: MediaTiming(duration: 1)),
                           to: l, forKey: "b")
        try rt.tick(0)
        expectFailure(.notFound, exactly: "the animation of 'bounds' does not animate 'bounds.size' by that name: it is part of "
                      + "'bounds', whose velocity to ask for (its components 2 to 3)") { _ = try rt.velocity(of: h, keyPath: "bounds.size") }
    }

    @Test("Computed timing gives a repeating animation's local time and iteration")
    func computedTimingFields() throws {
        let rt = Runtime(); let p = try rt.createLayer(), l = try rt.createLayer(parent: p)
        try rt.setTiming(LayerTiming(speed: 2), of: p)
        var a = linear("opacity", 0, 1, duration: 1)
        a.timing.repeatCount = 3
        let h = try rt.add(a, to: l, forKey: "a")
        try rt.tick(0); try rt.tick(0.75)
        let c = try rt.computedTiming(of: h)
        #expect(c.localTime == 1.5)
        #expect(c.activeTime == 1.5)
        #expect(c.currentIteration == 1)
        #expect(c.progress == 0.5)
    }

    @Test("An attached animation's handle reads back where a description's is taken")
    func attachedOrDescription() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let d = try rt.createAnimation(linear("opacity", 0, 1, duration: 2))
        let h = try rt.add(linear("opacity", 0, 0.5, duration: 3), to: l, forKey: "a")
        #expect(try rt.animationOrAttached(d).timing.duration == 2)
        #expect(try rt.animationOrAttached(h).timing.duration == 3)
        #expect(try rt.animationOrAttached(h).value(.to) == .scalar(0.5))
    }

    @Test("A reader counts each new property once against the value pools, and a read checks the doubles it needs")
    func readerPoolsAndBuffer() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: b)
        rt.valuePoolLimit = rt.model.count + 2  // one position, read as two parts
        let targets = try rt.resolveTargets([(a, "position.x"), (a, "position.y")])
        #expect(rt.model.count == rt.valuePoolLimit)
        let points = try rt.resolveTargets([(a, "position"), (b, "position")])
        var out = [Double](repeating: -1, count: 4)
        for short in [2, 3] {
            expectFailure(.buffer, exactly: "the buffer holds \(short) doubles; 4 are needed") {
                try out.withUnsafeMutableBufferPointer { (o) throws(AnimrtError) in
                    try rt.readPresentation(points, into: UnsafeMutableBufferPointer(rebasing: o[0..<short]))
                }
            }
        }
        #expect(out == [-1, -1, -1, -1])
        try rt.tick(0)
        try out.withUnsafeMutableBufferPointer { (o) throws(AnimrtError) in try rt.readPresentation(points, into: o) }
        #expect(out == [0, 0, 1, 2])
        try out.withUnsafeMutableBufferPointer { (o) throws(AnimrtError) in try rt.readPresentation(targets, into: o) }
        #expect(out[0..<2] == [0, 0])
    }

    @Test("Model values past the value pools are refused and write nothing; a property the layer has is set at the limit")
    func modelValuesAndPools() throws {
        let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: a)
        rt.valuePoolLimit = rt.model.count
        try rt.setModelValue(.scalar(0.25), forKeyPath: "opacity", of: a)  // has it: needs no room
        #expect(try rt.modelValue(forKeyPath: "opacity", of: a).scalar == 0.25)
        expectFailure(.noMemory, containing: "value pools are full") {
            try rt.setModelValue(.scalar(0.3), forKeyPath: "opacity", of: b)
        }
        #expect(try rt.layerValues(b).isEmpty)
        rt.valuePoolLimit += 1  // room for one new opacity, not two
        let c = try rt.createLayer()
        expectFailure(.noMemory, containing: "value pools are full") {
            try rt.setModelValues([.scalar(0.1), .scalar(0.2), .scalar(0.3)], forKeyPath: "opacity", of: [a, b, c])
        }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: a).scalar == 0.25)
        #expect(try rt.layerValues(b).isEmpty && rt.layerValues(c).isEmpty)
        try rt.setModelValues([.scalar(0.1), .scalar(0.2)], forKeyPath: "opacity", of: [a, b])
        #expect(try rt.modelValue(forKeyPath: "opacity", of: b).scalar == 0.2)
        #expect(rt.model.count == rt.valuePoolLimit)
    }

    @Test("A read by key path id into too small a buffer writes nothing; an unknown id is refused")
    func readByID() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "transform.rotation.z", of: l)
        let rotation = try rt.keyPathID("transform.rotation.z")
        let (n, out) = try Self.read(rt, rotation, l, count: 0)
        #expect(n == 1 && out == [-7, -7, -7, -7])
        let (m, full) = try Self.read(rt, rotation, l, count: 1)
        #expect(m == 1)
        expectClose(full[0], 0.5, 1e-15)
        #expect(full[1...] == [-7, -7, -7])
        expectFailure(.notFound, containing: "key path id 9999 is not known") { _ = try Self.read(rt, 9999, l, count: 4) }
    }

    @Test("Restored values keep the model and the presentation apart")
    func restoredApart() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(0)
        try rt.restoreValues([("opacity", .scalar(0.75), .scalar(0.25))], of: l)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l).scalar == 0.75)
        #expect(try rt.scalar("opacity", l) == 0.25)
        try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 0.75)
    }
}
