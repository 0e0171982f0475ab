import Testing
@testable import AnimationCore

@Suite("R1.7, R1.8 removing attached animations")
struct RemovalTests {
    @Test("removeInstance stops the animation with .removed and detaches it; its handle goes stale")
    func removeInstance() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
        let b = try rt.createBarrier()
        let h = try rt.add(linear("opacity", 0, 1, duration: 4), to: l, forKey: "a", joining: b)
        try rt.notify(b, token: 3)
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 0.25)
        _ = rt.drain()
        try rt.removeInstance(h)
        let events = rt.drain()
        #expect(events.map(\.tag) == ["stopped:removed", "notified:3"])
        #expect(events.first?.object == h && events.first?.reason.finished == false)
        #expect(try rt.animationKeys(of: l).isEmpty)
        #expect(rt.attachedCounts.total == 0)
        try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 0.5)  // the model again
        expectFailure(.handle, containing: "stale") { try rt.removeInstance(h) }
        expectFailure(.handle, containing: "not a") { try rt.removeInstance(l) }
    }

    @Test("Each way of stopping reports its own reason", arguments: [
        ("remove", StopReason.removed), ("removeAll", .removed), ("replace", .replaced),
        ("destroyLayer", .layerDestroyed), ("shutdown", .runtimeDestroyed), ("finish", .finished),
    ])
    func reasons(_ how: String, _ reason: StopReason) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let h = try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "a")
        try rt.tick(0)
        _ = rt.drain()
        var events: [Event] = []
        switch how {
        case "remove": try rt.removeAnimation(forKey: "a", from: l)
        case "removeAll": try rt.removeAllAnimations(from: l)
        case "replace": try rt.add(linear("opacity", 1, 0), to: l, forKey: "a")
        case "destroyLayer": try rt.destroyLayer(l)
        case "shutdown": events = rt.shutdown()
        default: try rt.tick(1)
        }
        events += rt.drain()
        let stops = events.filter { $0.type == .animationStopped && $0.object == h }
        #expect(stops.count == 1)
        #expect(stops.first?.reason == reason)
        #expect(stops.first?.reason.finished == (reason == .finished))
    }

    @Test("Removing an animation that never started reports a stop and no start")
    func neverStarted() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1, begin: 50), to: l, forKey: "late")
        try rt.tick(1)
        #expect(rt.drain().isEmpty)
        #expect(try rt.removeAnimation(forKey: "late", from: l))
        #expect(rt.drain().map(\.tag) == ["stopped:removed"])
        #expect(try !rt.removeAnimation(forKey: "never added", from: l))
    }

    /// A host that adds stored descriptions tells its animations' events
    /// apart by the description each names (`animrt_event.animation`): the
    /// stop names it as the start did, whichever way it stops; one added
    /// from a value names none.
    @Test("R1.7 a stopped event names the description the animation was added from, as its started event does")
    func stoppedNamesTheDescription() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let fade = try rt.createAnimation(linear("opacity", 0, 1, duration: 2))
        let bounce = try rt.createAnimation(.spring("cornerRadius", Spring(mass: 1, stiffness: 100, damping: 10),
                                                    from: .scalar(0), to: .scalar(8)))
        let a = try rt.addAnimation(fade, to: l, forKey: "a")
        let b = try rt.addAnimation(bounce, to: l, forKey: "b")
        let c = try rt.add(linear("position.x", 0, 5, duration: 2), to: l, forKey: "c")
        let named: [Handle: Handle] = [a: fade, b: bounce, c: Handle(raw: 0)]
        try rt.tick(0)
        let started = rt.drain()
        #expect(started.map(\.tag) == ["started", "started", "started"])
        for e in started { #expect(e.animation == named[e.object]) }
        try rt.removeAnimation(forKey: "a", from: l)
        try rt.removeAllAnimations(from: l)
        let stopped = rt.drain()
        #expect(stopped.map(\.tag) == ["stopped:removed", "stopped:removed", "stopped:removed"])
        #expect(stopped.map(\.object) == [a, b, c])
        for e in stopped { #expect(e.animation == named[e.object]) }
    }

    /// A removed animation's properties show the model again at the next
    /// tick, a group's each of them as a plain animation's does.
    @Test("R1.7 a removed group's properties show their model values at the next tick")
    func removedGroupShowsTheModel() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.2), forKeyPath: "opacity", of: l)
        try rt.setModelValue(.point(3, 4), forKeyPath: "position", of: l)
        try rt.add(.group([linear("opacity", 0, 1, duration: 2), .basic("position", from: .point(0, 0), to: .point(10, 20))],
                          timing: MediaTiming(duration: 2)), to: l, forKey: "g")
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.scalar("opacity", l) == 0.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(5, 10))
        #expect(try rt.removeAnimation(forKey: "g", from: l))
        try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 0.2)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(3, 4))
    }
}
