import Foundation
import Testing
@testable import AnimationCore

/// The batch's bookkeeping as a host meets it: how many threads a tick uses
/// (and that each one runs inside the host's worker scope), in what order
/// the lifecycle events of several threads come, what an entry in the
/// frozen store reads back as, that the frozen store costs no curve call per
/// tick, and that entries in a curve's own lane are counted and evaluated
/// like any other.
@Suite("Batch lanes: threads, worker scopes, event order, frozen read-back and counts")
struct BatchLaneTests {
    /// Counts calls from several threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
        func reset() { lock.lock(); n = 0; lock.unlock() }
    }

    static func fade(to: Double, begin: Double = 1, duration: Double = 2, curve: TimingFunction = .linear,
                     fill: FillMode = .removed, removed: Bool = true) -> Animation {
        var a = Animation.basic("opacity", from: .scalar(0), to: .scalar(to),
                                timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill), timingFunction: curve)
        a.isRemovedOnCompletion = removed
        return a
    }

    @Test("minimumPerThread splits the lanes' entries taken together, a curve's own lane made later too, each share inside the worker scope")
    func threadsAndScope() throws {
        let rt = Runtime()
        rt.evaluationThreads = 4
        rt.batches.minimumPerThread = 8
        let scopes = Counter()
        rt.workerScope = { share in scopes.add(); share() }
        var linear: [Handle] = []
        for k in 0..<32 { linear.append(try rt.createLayer()); try rt.add(Self.fade(to: Double(k)), to: linear[k], forKey: nil) }
        try rt.tick(2)
        // 32 entries, at least 8 a thread: four shares, each in the scope.
        #expect(scopes.value == 4)
        for (k, l) in linear.enumerated() { #expect(try rt.scalar("opacity", l) == Double(k) / 2) }
        // A Bézier curve gets its own lane now, after minimumPerThread was set: the two lanes' 64 entries split as one run.
        let curve = TimingFunction.cubicBezier(UnitBezier(0.3, 0, 0.7, 1))
        var own: [Handle] = []
        for k in 0..<32 {
            own.append(try rt.createLayer())
            try rt.add(Self.fade(to: Double(k), begin: 2, curve: curve), to: own[k], forKey: nil)
        }
        #expect(rt.batches.curveLanesGiven == 1)
        scopes.reset()
        try rt.tick(2.5)
        #expect(scopes.value == 4)
        for (k, l) in own.enumerated() { #expect(try rt.scalar("opacity", l) == Double(k) * curve.evaluate(0.25)) }
        // 21 entries at least a thread: three shares, the second across both lanes.
        rt.batches.minimumPerThread = 21
        scopes.reset()
        try rt.tick(2.625)
        #expect(scopes.value == 3)
        for (k, l) in own.enumerated() { #expect(try rt.scalar("opacity", l) == Double(k) * curve.evaluate(0.3125)) }
        for (k, l) in linear.enumerated() { #expect(try rt.scalar("opacity", l) == Double(k) * 0.8125) }
        // Below the minimum, one thread and no scope.
        rt.batches.minimumPerThread = 1_000
        scopes.reset()
        try rt.tick(2.75)
        #expect(scopes.value == 0)
        for (k, l) in linear.enumerated() { #expect(try rt.scalar("opacity", l) == Double(k) * 0.875) }
    }

    @Test("with several threads the lifecycle events come in the order one thread gives them", arguments: [1, 4])
    func eventOrder(threads: Int) throws {
        let rt = Runtime()
        rt.evaluationThreads = threads
        rt.batches.minimumPerThread = 8
        var handles: [Handle] = []
        for k in 0..<40 { handles.append(try rt.add(Self.fade(to: Double(k)), to: try rt.createLayer(), forKey: nil)) }
        try rt.tick(1.5)
        #expect(rt.drain().filter { $0.type == .animationStarted }.map(\.object) == handles)
        try rt.tick(3.5)
        #expect(rt.drain().filter { $0.type == .animationStopped }.map(\.object) == handles)
    }

    @Test("entries only in a curve's own lane are counted, evaluated, and counted again once frozen")
    func ownLaneCounted() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(-1), forKeyPath: "opacity", of: l)
        let curve = TimingFunction.cubicBezier(UnitBezier(0.42, 0, 0.58, 1))
        try rt.add(Self.fade(to: 8, curve: curve, fill: .forwards, removed: false), to: l, forKey: "a")
        #expect(rt.batches.curveLanesGiven == 1)
        #expect(rt.attachedCounts == (1, 1))
        try rt.tick(1.5)
        #expect(try rt.scalar("opacity", l) == 8 * curve.evaluate(0.25))
        try rt.tick(4)
        #expect(rt.batches.frozen.count == 1 && rt.batches.activeCount == 0)
        #expect(rt.attachedCounts == (1, 1))
        #expect(try rt.scalar("opacity", l) == 8)
    }

    @Test("a frozen entry reads back as it was added: begin, ends, fill, flags; and no tick calls its curve")
    func frozenReadBack() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(3), forKeyPath: "opacity", of: l)
        let calls = Counter()
        let curve = TimingFunction.custom(CustomTimingFunction(name: "counted") { x in calls.add(); return x })
        var a = Animation.basic("opacity", to: .scalar(11), timing: MediaTiming(beginTime: 1.5, duration: 2, fillMode: .both),
                                timingFunction: curve)
        a.isRemovedOnCompletion = false
        a.startsFromPresentation = true
        let h = try rt.add(a, to: l, forKey: "a")
        #expect(rt.instances[h.index].inBatch)
        try rt.tick(2.5)
        #expect(try rt.scalar("opacity", l) == 7)
        try rt.tick(4)
        #expect(rt.batches.frozen.count == 1 && rt.instances[h.index].lane == Int16(rt.batches.frozenIndex))
        let r = rt.resolvedAnimation(ofInstance: h.index)
        #expect(r.timing == MediaTiming(beginTime: 1.5, duration: 2, fillMode: .both))
        #expect(r.startsFromPresentation && !r.removedOnCompletion)
        guard case .basic(let from, let to, _) = r.body else { Issue.record("not basic"); return }
        #expect(from == .scalar(3) && to == .scalar(11))
        #expect(try rt.attachmentState(h).beginTime == 1.5)
        // Frozen: further ticks call its curve no more.
        calls.reset()
        for t in [5.0, 6, 7] { try rt.tick(t) }
        #expect(calls.value == 0)
        #expect(try rt.scalar("opacity", l) == 11)
        // A model set evaluates it once again, at its end.
        try rt.setModelValue(.scalar(-4), forKeyPath: "opacity", of: l)
        try rt.tick(8)
        #expect(try rt.scalar("opacity", l) == 11)
    }

    @Test("a stored description's zero duration is the open transaction's, and an additive one adds to the model, in the batch too")
    func templateDurationAndAdditive() throws {
        let rt = Runtime()
        let timed = try rt.createLayer(), added = try rt.createLayer(), plain = try rt.createLayer()
        try rt.setModelValue(.scalar(10), forKeyPath: "opacity", of: added)
        let zero = Animation.basic("opacity", from: .scalar(0), to: .scalar(8), timing: MediaTiming(beginTime: 1, duration: 0))
        let description = try rt.createAnimation(zero)
        // Outside a transaction the default 0.25 s; inside one that sets a duration, that one.
        let outside = try rt.addAnimation(description, to: plain, forKey: nil)
        try rt.beginTransaction(animationDuration: 2)
        let h = try rt.addAnimation(description, to: timed, forKey: nil)
        try rt.commitTransaction(token: 1)
        #expect(rt.instances[h.index].inBatch && rt.instances[outside.index].inBatch)
        #expect(try rt.attachmentState(outside).duration == 0.25 && rt.attachmentState(h).duration == 2)
        var additive = Animation.basic("opacity", from: .scalar(0), to: .scalar(4), timing: MediaTiming(beginTime: 1, duration: 2))
        additive.isAdditive = true
        try rt.addAnimation(try rt.createAnimation(additive), to: added, forKey: nil)
        try rt.tick(1.125)
        #expect(try rt.scalar("opacity", plain) == 4 && rt.scalar("opacity", timed) == 0.5)
        try rt.tick(2)
        #expect(try rt.scalar("opacity", added) == 12 && rt.scalar("opacity", timed) == 4)
    }
}
