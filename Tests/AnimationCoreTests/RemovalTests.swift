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
}
