import Testing
@testable import AnimationCore

@Suite("R1.7, R1.8, R1.9 attachment and lifecycle")
struct LifecycleTests {
    @Test("R1.7 adding under an existing key replaces; remove by key; remove all")
    func keys() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let a = try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        try rt.add(linear("position.x", 0, 1), to: l, forKey: "b")
        try rt.add(linear("cornerRadius", 0, 1), to: l, forKey: nil)
        #expect(try rt.animationKeys(of: l) == ["a", "b"])
        try rt.tick(0)
        _ = rt.drain()
        let a2 = try rt.add(linear("opacity", 1, 0), to: l, forKey: "a")
        #expect(try rt.animationKeys(of: l) == ["b", "a"])
        let replaced = rt.drain()
        #expect(replaced.map(\.tag) == ["stopped:replaced"])
        #expect(replaced[0].object == a && !replaced[0].reason.finished)
        #expect(try rt.instance(forKey: "a", of: l) == a2)
        #expect(try rt.removeAnimation(forKey: "b", from: l))
        #expect(try !rt.removeAnimation(forKey: "b", from: l))
        #expect(rt.drain().map(\.tag) == ["stopped:removed"])
        try rt.removeAllAnimations(from: l)
        #expect(rt.drain().map(\.tag) == ["stopped:removed", "stopped:removed"])  // a2 (never started) and the anonymous one
        #expect(rt.attachedCounts.total == 0)
    }

    @Test("R1.8 started once, stopped exactly once, with the reason")
    func reasons() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "f")
        for t in [0.0, 0.3, 0.6, 1.0, 1.5, 2.0] { try rt.tick(t) }
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])

        let doomed = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1), to: doomed, forKey: "x")
        try rt.tick(2.1)
        try rt.destroyLayer(doomed)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:layerDestroyed"])
        #expect(throws: AnimrtError.self) { try rt.destroyLayer(doomed) }

        var retained = linear("opacity", 0, 1, fill: .forwards); retained.isRemovedOnCompletion = false
        try rt.add(retained, to: l, forKey: "kept")
        try rt.tick(2.2); try rt.tick(5)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        try rt.removeAnimation(forKey: "kept", from: l)  // already finished: no second stop
        #expect(rt.drain().isEmpty)

        try rt.add(linear("opacity", 0, 1), to: l, forKey: "end")
        try rt.tick(5.1)
        #expect(rt.shutdown().map(\.tag) == ["started", "stopped:runtimeDestroyed"])
    }

    /// Web Animations finishes an animation when playback reaches the end of
    /// its local time line: its end time forwards (delay + active duration +
    /// endDelay), 0 backwards. So a positive endDelay keeps it running, its
    /// fill showing, past its active interval, and a start delay does the
    /// same for a backwards play; a negative endDelay ends it where it cuts.
    @Test("R1.8 a positive endDelay finishes an animation at its end time, a delay a backwards one at 0")
    func endDelayFinish() throws {
        let rt = Runtime()
        let held = try rt.createLayer(), bare = try rt.createLayer(), back = try rt.createLayer(), cut = try rt.createLayer()
        func opacity(_ l: Handle) throws -> Double { try rt.presentationValue(forKeyPath: "opacity", of: l).components[0] }
        var a = linear("opacity", 0, 0.5, duration: 1, fill: .forwards); a.timing.endDelay = 1
        try rt.add(a, to: held, forKey: "a")
        var b = linear("opacity", 0, 0.5, duration: 1); b.timing.endDelay = 1
        try rt.add(b, to: bare, forKey: "b")
        // Backwards from its end time (2): active for local time in (1, 2], then the delay's second.
        var c = linear("opacity", 0, 0.5, duration: 1); c.timing.delay = 1; c.timing.speed = -1
        try rt.add(c, to: back, forKey: "c")
        var d = linear("opacity", 0, 0.5, duration: 1); d.timing.endDelay = -0.5
        try rt.add(d, to: cut, forKey: "d")
        try rt.tick(0)
        #expect(rt.drain().map(\.tag) == ["started", "started", "started", "started"])
        try rt.tick(0.5)
        #expect(rt.drain().map(\.tag) == ["stopped:finished"])
        #expect(try rt.animationKeys(of: cut).isEmpty)
        try rt.tick(1.5)
        #expect(rt.drain().isEmpty, "past their active intervals, before their ends: running")
        #expect(try opacity(held) == 0.5, "the forwards fill shows")
        #expect(try opacity(bare) == 1 && opacity(back) == 1, "nothing fills: the model shows")
        #expect(try rt.animationKeys(of: held) == ["a"] && rt.animationKeys(of: bare) == ["b"] && rt.animationKeys(of: back) == ["c"])
        try rt.tick(2)  // exactly the end time, and 0 backwards: all three finish
        #expect(rt.drain().map(\.tag) == ["stopped:finished", "stopped:finished", "stopped:finished"])
        #expect(try rt.animationKeys(of: bare).isEmpty && rt.animationKeys(of: back).isEmpty)
        #expect(try rt.animationKeys(of: held).isEmpty, "removed on completion, at its end time")
    }

    @Test("R1.8 an animation added with its end already past starts and finishes in one tick")
    func pastAnimation() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(10)
        try rt.add(linear("opacity", 0, 1, begin: 1, duration: 1), to: l, forKey: "old")
        try rt.tick(10)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
    }

    @Test("R1.9 set the model, then animate from the old presentation value: no jump at the end")
    func implicitPattern() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(1), forKeyPath: "opacity", of: l)
        try rt.tick(0)
        let old = try rt.presentationValue(forKeyPath: "opacity", of: l)
        try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l)
        try rt.add(.basic("opacity", from: old, timing: MediaTiming(duration: 1), timingFunction: .easeInEaseOut), to: l, forKey: "fade")
        var last = 1.0
        // Added between ticks, the animation begins at the next tick (0.01) and ends at 1.01.
        for i in 1...101 {
            try rt.tick(Double(i) * 0.01)
            let v = try rt.scalar("opacity", l)
            #expect(abs(v - last) < 0.03, "jump of \(abs(v - last)) at t = \(Double(i) * 0.01)")
            last = v
        }
        #expect(last == 0)
        try rt.tick(2)
        #expect(try rt.scalar("opacity", l) == 0)
    }

    @Test("R1.9 replacing mid-flight under the same key starts from the presentation value")
    func interrupt() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let first = try rt.add(linear("position.x", 0, 100), to: l, forKey: "move")
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("position.x", l) == 50)
        _ = rt.drain()
        var second = Animation.basic("position.x", to: .scalar(200), timing: MediaTiming(duration: 1))
        second.startsFromPresentation = true
        try rt.add(second, to: l, forKey: "move")
        let stopped = rt.drain()
        #expect(stopped.map(\.tag) == ["stopped:replaced"] && stopped[0].object == first)
        try rt.tick(0.5)
        #expect(try rt.scalar("position.x", l) == 50)  // no jump
        try rt.tick(1.0)
        #expect(try rt.scalar("position.x", l) == 125)
    }

    /// A description made in Swift reaches no setter: adding it checks its
    /// flags (`AnimationFlag.check`), and a refused add changes nothing.
    @Test func flagsThatWouldDoNothingOrContradictAreRefusedWhenAdded() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        var both = Animation.basic("position.x", to: .scalar(200), timing: MediaTiming(duration: 1))
        both.isAdditive = true
        both.startsFromPresentation = true
        var cumulativeGroup = Animation.group([.basic("position.x", to: .scalar(1))])
        cumulativeGroup.isCumulative = true
        var fromScreenKeyframes = Animation.keyframe("position.x", Keyframes(values: [.scalar(0), .scalar(1)]))
        fromScreenKeyframes.startsFromPresentation = true
        var fromScreenDecay = Animation.decay("position.x", velocity: .scalar(100))
        fromScreenDecay.startsFromPresentation = true
        // Inside a group, as on its own.
        let nested = Animation.group([.basic("position.x", to: .scalar(1)), both])
        let cases: [(Animation, Status, String)] = [
            (both, .invalidArgument, "additive and fromPresentation do not combine"),
            (cumulativeGroup, .kind, "a group has no value of its own to make cumulative"),
            (fromScreenKeyframes, .kind, "a keyframe animation starts from its first value"),
            (fromScreenDecay, .kind, "a decay starts from its fromValue"),
            (nested, .invalidArgument, "group child 1: additive and fromPresentation"),
        ]
        for (a, status, message) in cases {
            do { try rt.add(a, to: l, forKey: "a"); Issue.record("accepted: \(message)") } catch {
                #expect(error.status == status && error.message.contains(message), "\(error.message)")
            }
        }
        #expect(try rt.animationKeys(of: l).isEmpty)
        both.isAdditive = false  // the same description, one flag off, is taken
        try rt.add(both, to: l, forKey: "a")
        #expect(try rt.animationKeys(of: l) == ["a"])
    }
}

@Suite("R2 barriers and transactions")
struct BarrierTests {
    @Test("R2.1 notify runs once per drain, at once when already empty; leave without enter is an error")
    func barrierRules() throws {
        let rt = Runtime()
        let b = try rt.createBarrier()
        try rt.notify(b, token: 1)
        #expect(rt.drain().map(\.tag) == ["notified:1"])
        try rt.enter(b); try rt.enter(b)
        try rt.notify(b, token: 2)
        try rt.leave(b)
        #expect(rt.drain().isEmpty)
        try rt.leave(b)
        #expect(rt.drain().map(\.tag) == ["notified:2"])
        expectFailure(.state, containing: "without a matching enter") { try rt.leave(b) }
        #expect(try rt.count(of: b) == 0)
        try rt.enter(b); try rt.leave(b)
        #expect(rt.drain().isEmpty)  // the notification was used up by the first drain
        try rt.destroyBarrier(b)
        #expect(throws: AnimrtError.self) { try rt.enter(b) }
    }

    @Test("R2.2 animations joining a barrier enter on add and leave when they stop, finished or not")
    func joining() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "a", joining: b)
        try rt.add(linear("position.x", 0, 1, duration: 2), to: l, forKey: "b", joining: b)
        try rt.add(linear("cornerRadius", 0, 1, duration: 9), to: l, forKey: "c", joining: b)
        #expect(try rt.count(of: b) == 3)
        try rt.notify(b, token: 7)
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.count(of: b) == 2)
        try rt.tick(2)
        try rt.removeAnimation(forKey: "c", from: l)
        #expect(rt.drain().map(\.tag).filter { $0.hasPrefix("notified") } == ["notified:7"])
    }

    @Test("R2.3 the next step starts when the previous one stops, not after a guessed delay")
    func chaining() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1, duration: 0.55), to: l, forKey: "step1", joining: b)
        try rt.notify(b) {
            #expect(throws: Never.self) { try rt.add(linear("position.x", 0, 100, duration: 1), to: l, forKey: "step2") }
        }
        try rt.tick(0); try rt.tick(0.3)
        #expect(try rt.animationKeys(of: l) == ["step1"])
        try rt.tick(0.6)  // step 1 ends (at 0.55, seen at 0.6): step 2 begins now
        #expect(try rt.animationKeys(of: l) == ["step2"])
        try rt.tick(1.1)
        expectClose(try rt.scalar("position.x", l), 50, 1e-12)
    }

    @Test("R2.4 a transaction completes when everything added inside has stopped")
    func transactions() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.beginTransaction(animationDuration: 2)
        try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1)), to: l, forKey: "a")
        try rt.add(linear("position.x", 0, 1, duration: 1), to: l, forKey: "b")
        try rt.commitTransaction(token: 9)
        try rt.add(linear("cornerRadius", 0, 1, duration: 5), to: l, forKey: "outside")
        try rt.tick(0); try rt.tick(1)
        #expect(!rt.drain().contains { $0.type == .transactionCompleted })
        try rt.tick(2)  // "a" used the transaction's 2 s duration
        let tags = rt.drain().map(\.tag)
        #expect(tags.suffix(2) == ["stopped:finished", "transaction:9"])
        try rt.beginTransaction()
        try rt.commitTransaction(token: 10)
        #expect(rt.drain().map(\.tag) == ["transaction:10"])
        expectFailure(.state, containing: "without an open transaction") { try rt.commitTransaction(token: 1) }
    }

    @Test("R2.4 nested transactions each count what was added inside them")
    func nested() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.beginTransaction()
        try rt.add(linear("opacity", 0, 1, duration: 3), to: l, forKey: "outer")
        try rt.beginTransaction()
        try rt.add(linear("position.x", 0, 1, duration: 1), to: l, forKey: "inner")
        try rt.commitTransaction(token: 2)
        try rt.commitTransaction(token: 1)
        try rt.tick(0); try rt.tick(1)
        #expect(rt.drain().map(\.tag).filter { $0.hasPrefix("transaction") } == ["transaction:2"])
        try rt.tick(3)
        #expect(rt.drain().map(\.tag).filter { $0.hasPrefix("transaction") } == ["transaction:1"])
    }
}

@Suite("R0 ground rules: clock, determinism, bad input")
struct GroundRuleTests {
    @Test("R0.2 timers run on the tick clock; a cancelled timer never fires")
    func timers() throws {
        let rt = Runtime()
        try rt.tick(100)
        try rt.startTimer(after: 3, token: 5)
        let cancelled = try rt.startTimer(after: 1, token: 6)
        try rt.cancelTimer(cancelled)
        try rt.tick(102.9)
        #expect(rt.drain().isEmpty)
        try rt.tick(103)
        #expect(rt.drain().map(\.tag) == ["timer:5"])
        #expect(throws: AnimrtError.self) { try rt.cancelTimer(cancelled) }
        #expect(rt.pendingTimerCount == 0)
    }

    @Test("R0.2 the same inputs give bit-identical outputs")
    func determinism() throws {
        func run() throws -> ([UInt64], [String]) {
            let rt = Runtime()
            var layers: [Handle] = []
            for i in 0..<20 {
                let l = try rt.createLayer(parent: layers.last)
                layers.append(l)
                var a = linear(i % 2 == 0 ? "opacity" : "position.x", Double(i), Double(i * 3), duration: 0.3 + Double(i) * 0.07)
                a.timingFunction = [.easeIn, .default, .easeInEaseOut, nil][i % 4]
                a.timing.autoreverses = i % 3 == 0
                a.timing.repeatCount = Double(i % 4)
                try rt.add(a, to: l, forKey: "k")
                if i % 5 == 0 { try rt.add(.spring("cornerRadius", Spring(damping: Double(i)), to: .scalar(4)), to: l, forKey: "s") }
            }
            var bits: [UInt64] = []
            for f in 0..<120 {
                try rt.tick(Double(f) / 60)
                for l in layers { bits.append(try rt.scalar("opacity", l).bitPattern); bits.append(try rt.scalar("cornerRadius", l).bitPattern) }
            }
            return (bits, rt.drain().map { "\($0.tag)@\($0.time)" })
        }
        let (a, ea) = try run(), (b, eb) = try run()
        #expect(a == b)
        #expect(ea == eb)
        #expect(ea.count > 20)
    }

    @Test("R0.3 bad input gets a status and changes nothing")
    func badInput() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l)
        var bad = AnimatableValue.scalar(0); bad.lanes[0] = .nan
        #expect(throws: AnimrtError.self) { try rt.setModelValue(bad, forKeyPath: "opacity", of: l) }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: l).scalar == 0.5)
        var negative = linear("opacity", 0, 1); negative.timing.duration = -1
        expectFailure(.outOfRange, containing: "duration is -1") { try rt.add(negative, to: l, forKey: "n") }
        var nanSpeed = linear("opacity", 0, 1); nanSpeed.timing.speed = .nan
        expectFailure(.invalidArgument, containing: "speed") { try rt.add(nanSpeed, to: l, forKey: "n") }
        #expect(try rt.animationKeys(of: l).isEmpty)
        try rt.tick(5)
        expectFailure(.time, containing: "earlier than the previous tick") { try rt.tick(4) }
        expectFailure(.time, containing: "finite") { try rt.tick(.infinity) }
        #expect(rt.currentTime == 5)
        try rt.tick(6)  // still usable
        let other = Runtime()
        expectFailure(.handle, containing: "another runtime") { _ = try other.modelValue(forKeyPath: "opacity", of: l) }
        expectFailure(.handle) { _ = try rt.modelValue(forKeyPath: "opacity", of: Handle(raw: 0)) }
        let b = try rt.createBarrier()
        expectFailure(.handle, containing: "not a barrier") { try rt.enter(l) }
        expectFailure(.handle, containing: "handle \(l.hex) names a layer, not an attached animation") {
            _ = try rt.attachedAnimation(l)
        }
        expectFailure(.invalidArgument) { try rt.setParent(l, l) }
        _ = b
    }

    @Test("R0.3 extreme but finite timing never produces NaN or traps", arguments: [
        (1e308, 1.0, 0.0), (0.0, 1e300, 0.0), (-1e308, -1e300, 0.0), (0.0, 1.0, 1e308)])
    func extremeTiming(_ p: (Double, Double, Double)) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        for (i, curve) in [TimingFunction.easeIn, .steps(StepsFunction(count: 3, position: .jumpBoth))].enumerated() {
            var a = linear("opacity", 0, 1, fill: .both)
            a.timing.timeOffset = p.0; a.timing.speed = p.1; a.timing.repeatCount = .infinity
            a.timingFunction = curve
            a.isRemovedOnCompletion = false
            try rt.add(a, to: l, forKey: "a\(i)")
            var k = Animation.keyframe("cornerRadius", Keyframes(values: [.scalar(0), .scalar(2), .scalar(1)], calculationMode: .cubicPaced))
            k.timing = a.timing
            try rt.add(k, to: l, forKey: "k\(i)")
        }
        for t in [0.0, 1e-9, 3, 1e12] {
            try rt.tick(t + p.2)
            #expect(!(try rt.scalar("opacity", l)).isNaN)
            #expect(!(try rt.scalar("cornerRadius", l)).isNaN)
        }
    }

    @Test("Events beyond the queue's bound are counted and reported, never dropped silently")
    func overflow() throws {
        let rt = Runtime(configuration: .init(eventCapacity: 4))
        for i in 0..<10 { try rt.startTimer(after: 0, token: UInt64(i)) }
        try rt.tick(0)
        let tags = rt.drain().map(\.tag)
        #expect(tags == ["timer:0", "timer:1", "timer:2", "overflow:7"])
        try rt.startTimer(after: 0, token: 42)
        try rt.tick(1)
        #expect(rt.drain().map(\.tag) == ["timer:42"])
    }

    @Test("Stale handles are refused after their object is destroyed and the slot reused")
    func staleHandles() throws {
        let rt = Runtime()
        let a = try rt.createLayer()
        try rt.destroyLayer(a)
        let b = try rt.createLayer()
        #expect(a.index == b.index && a != b)
        expectFailure(.handle, containing: "stale") { _ = try rt.modelValue(forKeyPath: "opacity", of: a) }
    }

    @Test("Layer tree: parents, children, reparenting")
    func tree() throws {
        let rt = Runtime()
        let root = try rt.createLayer(), a = try rt.createLayer(parent: root), b = try rt.createLayer(parent: root)
        #expect(try rt.children(of: root) == [a, b])
        try rt.setParent(b, a)
        #expect(try rt.parent(of: b) == a)
        #expect(try rt.children(of: root) == [a])
        #expect(throws: AnimrtError.self) { try rt.setParent(a, b) }  // would be a cycle
        try rt.destroyLayer(a)
        #expect(try rt.parent(of: b) == nil)
    }

    @Test("Bulk reads resolve targets once and copy many values")
    func bulkRead() throws {
        let rt = Runtime()
        var targets: [(Handle, String)] = []
        for i in 0..<100 {
            let l = try rt.createLayer()
            try rt.add(linear("opacity", 0, Double(i)), to: l, forKey: "o")
            targets.append((l, "opacity"))
        }
        let t = try rt.resolveTargets(targets)
        try rt.tick(0); try rt.tick(0.5)
        var out = [Double](repeating: -1, count: 100)
        try out.withUnsafeMutableBufferPointer { try rt.readPresentation(t, into: $0) }
        #expect(out == (0..<100).map { Double($0) / 2 })
        var small = [Double](repeating: 0, count: 10)
        expectFailure(.buffer) { try small.withUnsafeMutableBufferPointer { try rt.readPresentation(t, into: $0) } }
        #expect(small == [Double](repeating: 0, count: 10))  // nothing written
        let rot = try rt.resolveTargets([(targets[0].0, "transform.rotation.z")])
        var one = [Double](repeating: -1, count: 1)
        try one.withUnsafeMutableBufferPointer { try rt.readPresentation(rot, into: $0) }
        #expect(one == [0])
        #expect(throws: AnimrtError.self) { try rt.resolveTargets([(targets[0].0, "opacity"), (targets[1].0, "position")]) }
    }
}
