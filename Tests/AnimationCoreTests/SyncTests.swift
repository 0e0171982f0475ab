import Dispatch
import Testing
@testable import AnimationCore

@Suite("R2 barrier counts, transaction durations, timer order")
struct SyncTests {
    @Test("R2.4 a committed transaction's closure runs in the tick its last animation ends, after that tick's events")
    func transactionClosureInItsTick() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        _ = try rt.beginTransaction()
        try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1)), to: l, forKey: "fade")
        var ranAt: [Double] = []
        try rt.commitTransaction {
            ranAt.append(rt.now())
            var e = Event(type: .timerFired, time: rt.now()); e.token = 77
            rt.post(e)
        }
        try rt.tick(0)
        #expect(rt.drain().map(\.tag) == ["started"])
        try rt.tick(1)
        #expect(ranAt == [1])
        #expect(rt.drain().map(\.tag) == ["stopped:finished", "timer:77"])
        try rt.tick(2)
        #expect(ranAt == [1] && rt.drain().isEmpty)
    }

    @Test("enter(count:) adds exactly its count; the notification waits for as many leaves")
    func enterCount() throws {
        let rt = Runtime()
        let b = try rt.createBarrier()
        try rt.enter(b, count: 3)
        #expect(try rt.count(of: b) == 3)
        try rt.notify(b, token: 5)
        try rt.leave(b); try rt.leave(b)
        #expect(rt.drain().isEmpty)
        try rt.leave(b)
        #expect(rt.drain().map(\.tag) == ["notified:5"])
        expectFailure(.outOfRange, containing: "at least 1") { try rt.enter(b, count: 0) }
        expectFailure(.outOfRange) { try rt.enter(b, count: -2) }
        #expect(try rt.count(of: b) == 0)  // refused calls changed nothing
        try rt.enter(b)
        #expect(try rt.count(of: b) == 1)
        // At and past the largest count: the edge is accepted, one more is
        // refused with the count unchanged, and an animation that joins still
        // adds one (room is kept for every object a runtime can hold).
        let top = Runtime.maxBarrierEnterCount
        #expect(top == Int.max - Limits.objects)
        try rt.enter(b, count: top - 1)
        #expect(try rt.count(of: b) == top)
        expectFailure(.outOfRange, containing: "largest count") { try rt.enter(b) }
        expectFailure(.outOfRange, containing: "largest count") { try rt.enter(b, count: Int.max) }
        #expect(try rt.count(of: b) == top)
        let layer = try rt.createLayer()
        try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(beginTime: 0, duration: 1)),
                   to: layer, forKey: "a", joining: b)
        #expect(try rt.count(of: b) == top + 1)
        try rt.leave(b)
        #expect(try rt.count(of: b) == top)
    }

    @Test("Notifications run once each, in the order registered")
    func notifyOrder() throws {
        let rt = Runtime()
        let b = try rt.createBarrier()
        try rt.enter(b)
        var order: [Int] = []
        try rt.notify(b, token: 1)
        try rt.notify(b) { order.append(2) }
        try rt.notify(b, token: 3)
        try rt.leave(b)
        #expect(rt.drain().map(\.tag) == ["notified:1", "notified:3"])
        #expect(order == [2])
        try rt.enter(b); try rt.leave(b)
        #expect(rt.drain().isEmpty && order == [2])
    }

    /// DispatchGroup runs each notify block once. A closure that calls the
    /// runtime (here an add, which runs the closures due when it ends) used
    /// to run every closure queued before it again, itself included: with
    /// an add each time, without end.
    @Test("R2.1 a notification that calls the runtime runs once, and those after it in turn")
    func notificationCallingTheRuntime() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.enter(b)
        var order: [String] = []
        try rt.notify(b) {
            order.append("first")
            if order.count == 1 {
                _ = try? rt.add(linear("opacity", 0, 1), to: l, forKey: "k")
                try? rt.notify(b) { order.append("registered by the first") }  // at zero: queued behind the second
            }
        }
        try rt.notify(b) { order.append("second") }
        try rt.leave(b)
        #expect(order == ["first", "second", "registered by the first"])
        #expect(rt.attachedCounts.total == 1)
    }

    @Test("A destroyed barrier never notifies and no longer counts its animations")
    func destroyedBarrier() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "a", joining: b)
        try rt.notify(b, token: 9)
        try rt.destroyBarrier(b)
        try rt.tick(0); try rt.tick(2)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        expectFailure(.handle, containing: "stale") { _ = try rt.count(of: b) }
    }

    /// The barrier made after the destroy takes its slot: an add naming the
    /// old handle must not count in the new barrier, nor attach anything.
    @Test("R0.3, R2.2 an add joining a destroyed barrier is refused, nothing attached, the barrier in its slot not counted")
    func addJoiningADestroyedBarrier() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let gone = try rt.createBarrier()
        try rt.destroyBarrier(gone)
        let b = try rt.createBarrier()
        #expect(b.index == gone.index)
        expectFailure(.handle, containing: "stale") { try rt.add(linear("opacity", 0, 1), to: l, forKey: "a", joining: gone) }
        #expect(rt.attachedCounts.total == 0)
        #expect(try rt.animationKeys(of: l).isEmpty)
        #expect(try rt.count(of: b) == 0)
        try rt.notify(b, token: 4)
        #expect(rt.drain().map(\.tag) == ["notified:4"])
    }

    /// An animation in its barrier and two nested transactions leaves them
    /// innermost first (docs/timing.md), so the events of a stop that
    /// completes all three come in that order, whatever order they were
    /// made or committed in.
    @Test("R2.1, R2.4 a stop leaves the innermost transaction first, its barrier last")
    func leaveOrder() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.enter(b)  // held: the notify waits for the animation
        try rt.notify(b, token: 1)
        try rt.beginTransaction()
        try rt.beginTransaction()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "a", joining: b)
        try rt.leave(b)
        try rt.commitTransaction(token: 3)  // the inner one
        try rt.commitTransaction(token: 2)
        try rt.tick(0); try rt.tick(1)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished", "transaction:3", "transaction:2", "notified:1"])
    }

    /// Its id is never handed out, but a host can build it by hand: nothing
    /// the host does to a barrier may change when the transaction completes.
    @Test("A transaction's barrier cannot be destroyed, entered, left, notified or joined by hand")
    func transactionBarrier() throws {
        let rt = Runtime(); let l = try rt.createLayer(); let other = try rt.createLayer()
        try rt.beginTransaction()
        let h = try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        let joined = rt.memberships[Int(rt.instances[h.index].membership)].barrier
        let d = try rt.createAnimation(linear("opacity", 0, 1))
        let refusals: [(String, () throws -> Void)] = [
            ("destroy", { try rt.destroyBarrier(joined) }),
            ("enter", { try rt.enter(joined) }),
            ("leave", { try rt.leave(joined) }),
            ("notify", { try rt.notify(joined, token: 9) }),
            ("notify a closure", { try rt.notify(joined) { Issue.record("ran") } }),
            ("add joining", { _ = try rt.add(linear("opacity", 0, 1), to: other, forKey: "b", joining: joined) }),
            ("add a description joining", { _ = try rt.addAnimation(d, to: other, forKey: "b", joining: joined) }),
            ("add in bulk joining", { try [other].withUnsafeBufferPointer { try rt.addAnimations(d, to: $0, columns: [], forKey: "b", joining: joined) } }),
        ]
        for (what, call) in refusals {
            expectFailure(.state, containing: "belongs to a transaction; it goes away when the transaction completes, and only the transaction's animations count toward it") { try call() }
            #expect(try rt.count(of: joined) == 1, "\(what)")
            #expect(try rt.animationKeys(of: other).isEmpty, "\(what)")
        }
        try rt.commitTransaction(token: 4)
        try rt.tick(0); try rt.tick(1)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished", "transaction:4"])
        expectFailure(.outOfRange) { try rt.beginTransaction(animationDuration: 0) }
        expectFailure(.invalidArgument) { try rt.beginTransaction(animationDuration: .nan) }
        #expect(rt.transactionDepth == 0)
    }

    /// Core Animation's transactions are per thread: another thread that
    /// opens its own while one is open neither joins, commits nor sees it.
    /// (The threads take turns here, as the C library's lock makes them.)
    @Test("R2.4 a transaction belongs to the thread that began it")
    func transactionsPerThread() throws {
        let rt = Runtime(); let l = try rt.createLayer(), m = try rt.createLayer()
        let mine = try rt.beginTransaction(animationDuration: 2)
        try rt.add(linear("opacity", 0, 1, duration: 0), to: l, forKey: "a")
        final class Seen: @unchecked Sendable {
            var begun: Handle?, current: Handle?, depth = -1, refused: AnimrtError?
        }
        let other = Seen(), done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let shared = rt
        DispatchQueue.global().async {
            let rt = shared
            do throws(AnimrtError) { try rt.commitTransaction(token: 9) } catch { other.refused = error }
            other.current = rt.currentTransaction
            other.begun = try? rt.beginTransaction()
            _ = try? rt.add(linear("opacity", 0, 1, duration: 1), to: m, forKey: "b")
            other.depth = rt.transactionDepth
            try? rt.commitTransaction(token: 7)
            done.signal()
        }
        done.wait()
        #expect(other.refused?.status == .state)
        #expect(other.refused?.message == "commit without an open transaction on this thread; 1 is open on another thread and belongs to it: a transaction is committed by the thread that began it")
        #expect(other.current == nil && other.depth == 1 && other.begun != nil && other.begun != mine)
        #expect(rt.currentTransaction == mine && rt.transactionDepth == 1)
        try rt.commitTransaction(token: 8)
        // The other thread's animation (1 s) completes its own transaction
        // only; this one waits for its animation, 2 s from its transaction.
        try rt.tick(0)
        try rt.tick(1.5)
        #expect(rt.drain().filter { $0.tag.hasPrefix("transaction") }.map(\.tag) == ["transaction:7"])
        try rt.tick(2.5)
        let completed = rt.drain().filter { $0.tag.hasPrefix("transaction") }
        #expect(completed.map(\.tag) == ["transaction:8"] && completed.first?.object == mine)
        #expect(rt.transactionStacks.isEmpty)
    }

    /// A replay makes each recorded call as the thread that made it: the
    /// runtime reaches that thread's transactions, then the caller's again.
    @Test("R2.4 a replayed thread's transactions are its own")
    func replayedThreadTransactions() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let mine = try rt.beginTransaction()
        rt.replayedThread = 1 << 63 | 1
        #expect(rt.currentTransaction == nil)
        let theirs = try rt.beginTransaction()
        try rt.add(linear("opacity", 0, 1, duration: 1), to: l, forKey: "a")
        rt.replayedThread = nil
        #expect(rt.currentTransaction == mine && rt.transactionDepth == 1)
        try rt.commitTransaction(token: 1)  // nothing added on this thread: completes at once
        rt.replayedThread = 1 << 63 | 1
        #expect(rt.currentTransaction == theirs)
        try rt.commitTransaction(token: 2)
        rt.replayedThread = nil
        #expect(rt.drain().filter { $0.tag.hasPrefix("transaction") }.map(\.tag) == ["transaction:1"])
        try rt.tick(0); try rt.tick(1)
        #expect(rt.drain().filter { $0.tag.hasPrefix("transaction") }.map(\.tag) == ["transaction:2"])
        #expect(rt.transactionStacks.isEmpty)
    }

    /// Animating a property twice in one transaction replaces the first
    /// animation, which stops with the transaction still open: its barrier
    /// stays (it went at once, and the next barrier made took its slot).
    @Test("R2.4 an open transaction keeps its barrier when all it holds so far has stopped")
    func openTransactionKeepsItsBarrier() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(0)
        let tr = try rt.beginTransaction()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "a")
        try rt.add(linear("opacity", 1, 0), to: l, forKey: "a")  // replaces the first
        let host = try rt.createBarrier()
        try rt.enter(host)
        try rt.commitTransaction(token: 4)
        #expect(try rt.count(of: host) == 1)
        try rt.tick(0.5)
        #expect(!rt.drain().contains { $0.tag.hasPrefix("transaction") })
        try rt.tick(2)
        let completed = rt.drain().filter { $0.tag.hasPrefix("transaction") }
        #expect(completed.map(\.tag) == ["transaction:4"] && completed.first?.object == tr)
        #expect(rt.barriers.count == 1)  // the transaction's barrier went with its completion: the host's is left
        try rt.leave(host)
        #expect(rt.drain().isEmpty)
        // Removed before the commit: the transaction completes at the commit.
        try rt.beginTransaction()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "b")
        #expect(try rt.removeAnimation(forKey: "b", from: l))
        try rt.commitTransaction(token: 5)
        let barriers = try (0..<3).map { _ in try rt.createBarrier() }
        #expect(Set(barriers).count == 3)
        try rt.tick(3)
        #expect(rt.drain().map(\.tag).filter { $0.hasPrefix("transaction") } == ["transaction:5"])
    }

    /// A notification that its barrier's last animation drains runs once
    /// the call that stopped that animation is over (as DispatchGroup's run
    /// after the leave returns), not while the stop is half done: one that
    /// adds an animation under the stopped one's key used to replace it
    /// before it was detached, and the detach then took the new animation
    /// away unreported (no started, no stopped).
    @Test("R2.1 a notification runs after the stop that drained its barrier, not inside it", arguments: 0..<4)
    func notificationAfterTheStop(_ how: Int) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(0)
        let b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "k", joining: b)
        var next: Handle?
        try rt.notify(b) { next = try? rt.add(linear("opacity", 1, 0, duration: 2), to: l, forKey: "k") }
        try rt.tick(0.5)
        _ = rt.drain()
        var mine: Handle?
        switch how {
        case 0: #expect(try rt.removeAnimation(forKey: "k", from: l))
        case 1: try rt.removeAllAnimations(from: l)
        case 2: try rt.removeInstance(try #require(try rt.instance(forKey: "k", of: l)))
        default: mine = try rt.add(linear("position.x", 0, 1), to: l, forKey: "k")  // replaces it; the notification replaces this
        }
        let added = try #require(next)
        if let mine {  // the handle of the host's own animation, which the notification replaced: stale
            #expect(mine != added)
            #expect(!rt.instances.isLive(mine.index) || rt.instances.handle(at: mine.index) != mine)
        }
        #expect(try rt.instance(forKey: "k", of: l) == added)
        #expect(rt.attachedCounts.total == 1)
        try rt.tick(1); try rt.tick(3)
        let tags = rt.drain().map(\.tag)
        #expect(tags.suffix(2) == ["started", "stopped:finished"])
        #expect(tags.filter { $0 == "started" }.count == 1)
        #expect(rt.attachedCounts.total == 0)
    }

    /// "Enter on add, leave on stop": an add that replaces an animation of
    /// the same barrier enters it before the replaced one leaves, as
    /// DispatchGroup code that enters for the new work before the old work's
    /// stop would. It used to leave first: the count touched zero and the
    /// notification ran while the new animation still played. Both ways of
    /// adding: one animation (general and batch forms) and a bulk add.
    @Test("R2.2 an add that replaces an animation of its barrier keeps the barrier from notifying", arguments: 0..<3)
    func replacementInTheSameBarrier(_ how: Int) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.tick(0)
        let b = try rt.createBarrier()
        let first: Animation = how == 1 ? .basic("position", from: .point(0, 0), to: .point(1, 1), timing: MediaTiming(duration: 1))
                                        : linear("opacity", 0, 1)
        try rt.add(first, to: l, forKey: "k", joining: b)
        try rt.notify(b, token: 1)
        switch how {
        case 0: try rt.add(linear("opacity", 1, 0, duration: 2), to: l, forKey: "k", joining: b)
        case 1: try rt.add(.basic("position", from: .point(1, 1), to: .point(0, 0), timing: MediaTiming(duration: 2)),
                           to: l, forKey: "k", joining: b)
        default:
            let d = try rt.createAnimation(linear("opacity", 1, 0, duration: 2))
            try [l].withUnsafeBufferPointer { try rt.addAnimations(d, to: $0, columns: [], forKey: "k", joining: b) }
        }
        #expect(rt.drain().map(\.tag) == ["stopped:replaced"])
        #expect(try rt.count(of: b) == 1)
        try rt.tick(1)
        #expect(rt.drain().map(\.tag) == ["started"])
        try rt.tick(3)
        #expect(rt.drain().map(\.tag) == ["stopped:finished", "notified:1"])
        #expect(try rt.count(of: b) == 0)
    }

    /// CATransaction's valueForKey: gives the innermost value set, looking
    /// through the enclosing transactions: a nested transaction without an
    /// animationDuration uses its parent's, one with its own uses its own.
    @Test("R2.4 a nested transaction inherits the enclosing animationDuration", arguments: EvaluationPath.allCases)
    func nestedTransactionDuration(_ path: EvaluationPath) throws {
        let rt = Runtime(); let l = try rt.createLayer(), m = try rt.createLayer(), n = try rt.createLayer()
        try rt.beginTransaction(animationDuration: 2)
        try rt.beginTransaction()
        let inner = try rt.add(path.animation(0, 1, MediaTiming()), to: l, forKey: "a")
        try rt.beginTransaction(animationDuration: 0.5)
        try rt.beginTransaction()
        let innermost = try rt.add(path.animation(0, 1, MediaTiming()), to: m, forKey: "a")
        try rt.commitTransaction(token: 1); try rt.commitTransaction(token: 2); try rt.commitTransaction(token: 3)
        let outer = try rt.add(path.animation(0, 1, MediaTiming()), to: n, forKey: "a")
        try rt.commitTransaction(token: 4)
        #expect(try rt.attachedAnimation(inner).timing.duration == 2)
        #expect(try rt.attachedAnimation(innermost).timing.duration == 0.5)
        #expect(try rt.attachedAnimation(outer).timing.duration == 2)
        try rt.tick(0); try rt.tick(0.25)
        #expect(try path.value(rt, l) == 0.125 && path.value(rt, m) == 0.5 && path.value(rt, n) == 0.125)
        // Outside every transaction: Core Animation's 0.25 s.
        #expect(try rt.attachedAnimation(try rt.add(path.animation(0, 1, MediaTiming()), to: l, forKey: "b")).timing.duration == 0.25)
    }

    /// A bulk add gives a zero duration the transaction's, as add does, on
    /// each path it takes: a layer with no animation (a planned batch
    /// entry) and one that already animates the property.
    @Test("R2.4 a bulk add of zero duration in a transaction runs for the transaction's duration")
    func bulkAddTakesTheTransactionDuration() throws {
        let rt = Runtime()
        let fresh = try rt.createLayer(), busy = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1, begin: 50), to: busy, forKey: "other")
        let d = try rt.createAnimation(linear("opacity", 0, 1, duration: 0))
        var out = [Handle](repeating: Handle(raw: 0), count: 2)
        try rt.beginTransaction(animationDuration: 2)
        try [fresh, busy].withUnsafeBufferPointer { l in
            try out.withUnsafeMutableBufferPointer { try rt.addAnimations(d, to: l, columns: [], forKey: "k", joining: nil, handles: $0) }
        }
        try rt.commitTransaction(token: 1)
        #expect(try out.map { try rt.attachedAnimation($0).timing.duration } == [2, 2])
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", fresh) == 0.25 && rt.scalar("opacity", busy) == 0.25)
        try rt.tick(2)
        #expect(rt.drain().filter { $0.type == .transactionCompleted }.map(\.token) == [1])
    }

    /// A tick called from a closure the tick runs used to advance the clock
    /// under the tick still running: the timers after the closure's fired at
    /// the inner tick's time, the outer tick then evaluated its earlier time
    /// over the later one, and finished with the runtime no longer in a tick.
    @Test("R0.4 a tick called from a closure the tick runs is refused, the running tick unchanged")
    func tickInsideATick() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(linear("opacity", 0, 1, duration: 10), to: l, forKey: "a")
        try rt.tick(0)  // begins at 0
        var refused: AnimrtError?
        var seen: [String] = []
        try rt.startTimer(after: 1) {
            do throws(AnimrtError) { try rt.tick(5) } catch { refused = error }
            seen.append("first now=\(rt.now()) inTick=\(rt.inTick)")
        }
        try rt.startTimer(after: 1) { seen.append("second now=\(rt.now())") }
        try rt.tick(2)
        #expect(refused?.status == .state)
        #expect(refused?.message == "tick(5) was called while the tick to 2 is running (from a timer's, a notification's or a transaction's closure); nothing changed: tick again after it returns")
        #expect(seen == ["first now=2.0 inTick=true", "second now=2.0"])
        #expect(!rt.inTick && rt.currentTime == 2)
        #expect(try rt.presentationValue(forKeyPath: "opacity", of: l) == .scalar(0.2))
        try rt.tick(5)
        #expect(try rt.presentationValue(forKeyPath: "opacity", of: l) == .scalar(0.5))
    }

    /// DispatchGroup's leave is the caller's: a host that leaves by hand for
    /// an animation that joined takes the count to zero, and the animation's
    /// stop later has nothing left to leave. The count stays at zero (not
    /// -1), so a notify runs at once and an enter holds the next one.
    @Test("R2.2 an animation that stops after the host left its barrier by hand leaves the count at zero")
    func stopAfterAHandLeave() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let b = try rt.createBarrier()
        try rt.add(linear("opacity", 0, 1), to: l, forKey: "a", joining: b)
        try rt.notify(b, token: 1)
        try rt.leave(b)
        #expect(rt.drain().map(\.tag) == ["notified:1"])
        try rt.tick(0); try rt.tick(2)
        #expect(rt.drain().map(\.tag) == ["started", "stopped:finished"])
        #expect(try rt.count(of: b) == 0)
        try rt.notify(b, token: 2)
        #expect(rt.drain().map(\.tag) == ["notified:2"])
        try rt.enter(b)
        try rt.notify(b, token: 3)
        #expect(rt.drain().isEmpty)
        try rt.leave(b)
        #expect(rt.drain().map(\.tag) == ["notified:3"])
    }

    /// DispatchGroup's notify on an empty group, and Core Animation's
    /// completion block of a transaction with no animations, run without
    /// waiting for anything else: here before the call returns, outside a
    /// tick. A host's leave that drains runs its closures before it returns.
    @Test("R2.1, R2.4 closures due at notify, leave or commit run before the call returns")
    func closuresRunBeforeTheCallReturns() throws {
        let rt = Runtime()
        let b = try rt.createBarrier()
        var ran: [String] = []
        try rt.notify(b) { ran.append("empty barrier") }
        #expect(ran == ["empty barrier"])
        try rt.enter(b)
        try rt.notify(b) { ran.append("leave") }
        #expect(ran == ["empty barrier"])
        try rt.leave(b)
        #expect(ran == ["empty barrier", "leave"])
        try rt.beginTransaction()
        try rt.commitTransaction { ran.append("empty transaction") }
        #expect(ran == ["empty barrier", "leave", "empty transaction"])
        #expect(rt.drain().isEmpty)
    }

    /// A transaction's barrier lives as long as the transaction: one that
    /// completes at its commit, and one refused because the transaction
    /// table is full, keep none (each would otherwise take a barrier for
    /// good, until the barrier table is full too).
    @Test("R2.4, R0.3 a transaction keeps no barrier once completed, nor when its begin is refused")
    func transactionBarriersGo() throws {
        let rt = Runtime()
        for token in 1...3 as ClosedRange<UInt64> {
            let t = try rt.beginTransaction()
            #expect(rt.barriers.count == 1)
            try rt.commitTransaction(token: token)
            #expect(rt.barriers.count == 0)
            let completed = rt.drain()
            #expect(completed.map(\.tag) == ["transaction:\(token)"] && completed.first?.object == t)
        }
        rt.limitTable(.transaction, to: 1)
        let open = try rt.beginTransaction()
        expectFailure(.noMemory, containing: "too many transactions") { try rt.beginTransaction() }
        #expect(rt.barriers.count == 1 && rt.transactionDepth == 1 && rt.currentTransaction == open)
        try rt.commitTransaction(token: 4)
        #expect(rt.barriers.count == 0 && rt.transactionDepth == 0 && rt.transactionStacks.isEmpty)
        #expect(rt.drain().map(\.tag) == ["transaction:4"])
    }

    /// A restored machine's timers keep their due times: one due at the
    /// runtime's time exactly is accepted and fires at the next tick; one
    /// due before it is refused, nothing started. Each takes the next start
    /// order, so ties with timers started by delay follow start order.
    @Test("R0.2, R0.4 a timer at a due time: at the runtime's time accepted, before it refused, in start order")
    func timerAtADueTime() throws {
        let rt = Runtime()
        try rt.tick(2)
        var order: [String] = []
        let a = try rt.startTimer(after: 1) { order.append("a") }
        let b = try rt.startTimer(at: 3) { order.append("b") }
        let c = try rt.startTimer(at: 3) { order.append("c") }
        let d = try rt.startTimer(after: 1) { order.append("d") }
        let seq = try [a, b, c, d].map { try rt.dueTime(of: $0).sequence }
        #expect(seq == [seq[0], seq[0] + 1, seq[0] + 2, seq[0] + 3])
        #expect(try rt.dueTime(of: c).time == 3)
        let now = try rt.startTimer(at: 2) { order.append("now") }
        #expect(try rt.dueTime(of: now).time == 2)
        expectFailure(.outOfRange, containing: "timer time 1.999 is before the runtime's time 2") { try rt.startTimer(at: 1.999) {} }
        expectFailure(.invalidArgument) { try rt.startTimer(at: .nan) {} }
        #expect(rt.pendingTimerCount == 5)
        try rt.tick(2)
        #expect(order == ["now"])
        try rt.tick(3)
        #expect(order == ["now", "a", "b", "c", "d"])
        #expect(rt.pendingTimerCount == 0)
    }

    /// The heap's sift up must compare a timer with its parent: timers
    /// started between firings (here the shortest sequence that shows it,
    /// then a seeded run of starts, cancellations and ticks) fire in due
    /// order, then start order, each at the first tick at or past its time,
    /// as a sorted list of the pending timers says.
    @Test("R0.2 timers started between firings fire by due time, then start order")
    func timersStartedBetweenFirings() throws {
        let rt = Runtime()
        try rt.tick(0)
        func start(_ due: Double) throws { try rt.startTimer(after: due - rt.now(), token: UInt64(due)) }
        for due in [81.0, 96, 7, 51, 13] { try start(due) }
        try rt.tick(7)
        for due in [54.0, 83] { try start(due) }
        try rt.tick(13)
        try start(87)
        for t in [51.0, 54, 81, 83, 87, 96] { try rt.tick(t) }
        #expect(rt.drain().map { "\($0.tag)@\($0.time)" } == [7, 13, 51, 54, 81, 83, 87, 96].map { "timer:\($0)@\(Double($0))" })

        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        let r = Runtime()
        var now = 0.0
        try r.tick(now)
        var pending: [(due: Double, order: Int, handle: Handle)] = []
        var started = 0
        for _ in 0..<3_000 {
            switch next(10) {
            case 0..<6:  // due times repeat (tenths up to 5 s), so start order often decides
                let delay = Double(next(50)) / 10
                let h = try r.startTimer(after: delay, token: UInt64(started))
                pending.append((now + delay, started, h)); started += 1
            case 6 where !pending.isEmpty:
                let k = Int(next(UInt64(pending.count)))
                try r.cancelTimer(pending.remove(at: k).handle)
            default:
                now += Double(next(20)) / 10
                try r.tick(now)
                let due = pending.filter { $0.due <= now }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
                pending.removeAll { $0.due <= now }
                let fired = r.drain()
                #expect(fired.map(\.token) == due.map { UInt64($0.order) })
                #expect(fired.allSatisfy { $0.time == now })
            }
        }
        #expect(r.pendingTimerCount == pending.count)
    }

    @Test("Timers fire in time order, then start order; a zero delay fires at the next tick")
    func timerOrder() throws {
        let rt = Runtime()
        try rt.tick(1)
        try rt.startTimer(after: 2, token: 1)
        try rt.startTimer(after: 1, token: 2)
        try rt.startTimer(after: 1, token: 3)
        try rt.startTimer(after: 0, token: 4)
        expectFailure(.outOfRange) { try rt.startTimer(after: -1, token: 5) }
        expectFailure(.invalidArgument) { try rt.startTimer(after: .infinity, token: 5) }
        #expect(rt.pendingTimerCount == 4)
        try rt.tick(1)
        #expect(rt.drain().map(\.tag) == ["timer:4"])
        try rt.tick(2.5)
        #expect(rt.drain().map(\.tag) == ["timer:2", "timer:3"])
        try rt.tick(3)
        #expect(rt.drain().map { "\($0.tag)@\($0.time)" } == ["timer:1@3.0"])
    }

    /// Cancelled timers stay in the heap until they outnumber the live ones
    /// (more than 2 × live + 64); the heap is then rebuilt from the live
    /// ones. Here it is rebuilt once, after the 183rd of 270 cancellations,
    /// with the earliest timers already gone: the 30 left must still fire
    /// by due time, then start order (due times repeat: (37 k mod 50) / 10).
    @Test("Timers left after the heap drops cancelled ones fire by due time, then start order")
    func timerOrderAfterCompaction() throws {
        let rt = Runtime()
        try rt.tick(0)
        func delay(_ k: Int) -> Double { Double((k * 37) % 50) / 10 + 0.1 }
        var handles: [Handle] = []
        for k in 0..<300 { handles.append(try rt.startTimer(after: delay(k), token: UInt64(k))) }
        #expect(rt.timerQueue.count == 300)
        for k in 0..<300 where k % 10 != 3 { try rt.cancelTimer(handles[k]) }
        // 300 entries until the 183rd cancellation, then the 117 live ones (87 of them cancelled since).
        #expect(rt.timerQueue.count == 117)
        #expect(rt.pendingTimerCount == 30)
        let survivors = (0..<300).filter { $0 % 10 == 3 }
        let expected = survivors.sorted { (delay($0), $0) < (delay($1), $1) }.map { "timer:\($0)" }
        #expect(Set(survivors.map(delay)).count < survivors.count)  // ties: start order decides among them
        try rt.tick(10)
        #expect(rt.drain().map(\.tag) == expected)
        #expect(rt.timerQueue.count == 0)
    }

    /// Before its first tick the runtime's time is 0; timers started then
    /// count from the first tick, as an animation's begin time 0 does, so a
    /// host whose clock reads 5000 does not see a 2 s timer fire at once.
    /// Start order still breaks ties (the heap is rebuilt: 1e-17 and 0
    /// become the same time at 5000), and a cancelled one stays cancelled.
    @Test("R0.2 timers started before the first tick count from it")
    func timersCountFromTheFirstTick() throws {
        let rt = Runtime()
        let early = try rt.startTimer(after: 2, token: 1)
        try rt.startTimer(after: 1e-17, token: 2)
        try rt.startTimer(after: 0, token: 3)
        let gone = try rt.startTimer(after: 1, token: 4)
        var ran: [Double] = []
        try rt.startTimer(at: 0.5) { ran.append(rt.now()) }
        try rt.cancelTimer(gone)
        #expect(try rt.dueTime(of: early).time == 2)
        try rt.tick(5000)
        #expect(rt.drain().map(\.tag) == ["timer:2", "timer:3"])
        #expect(try rt.dueTime(of: early).time == 5002)
        try rt.tick(5001.999)
        #expect(rt.drain().isEmpty && ran == [5001.999])
        try rt.tick(5002)
        #expect(rt.drain().map { "\($0.tag)@\($0.time)" } == ["timer:1@5002.0"])
        // Started after the first tick: from the runtime's time, unmoved.
        try rt.startTimer(after: 1, token: 5)
        try rt.tick(5003)
        #expect(rt.drain().map(\.tag) == ["timer:5"])

        // A first tick at 0 moves nothing; a negative one moves them earlier.
        for (first, due) in [(0.0, 2.0), (-10.0, -8.0)] {
            let r = Runtime()
            let h = try r.startTimer(after: 2, token: 1)
            try r.tick(first)
            #expect(try r.dueTime(of: h).time == due)
        }

        // At the edge: a delay accepted at time 0 whose due time from the
        // first tick would pass the largest double is due at the largest
        // double (it cannot be +inf: a tick has no error to report).
        let r = Runtime()
        let far = try r.startTimer(after: 1.7e308, token: 1)
        let near = try r.startTimer(after: Double.greatestFiniteMagnitude - 1e308, token: 2)
        try r.tick(1e308)
        #expect(try r.dueTime(of: far).time == .greatestFiniteMagnitude)
        #expect(try r.dueTime(of: near).time == .greatestFiniteMagnitude)
        #expect(r.drain().isEmpty)
        try r.tick(.greatestFiniteMagnitude)
        #expect(r.drain().map(\.tag) == ["timer:1", "timer:2"])
    }

    /// Near the end of the clock, a delay that would put the due time past
    /// the largest double (+inf: never due) is refused; one that lands on it
    /// is accepted and fires there.
    @Test("R0.4 a timer due past the largest time is refused; one due at it fires")
    func timerDueAtTheEndOfTime() throws {
        let rt = Runtime()
        try rt.tick(1e308)
        let last = Double.greatestFiniteMagnitude - 1e308
        #expect((1e308 + last).isFinite && (1e308 + 1.7e308).isInfinite)
        expectFailure(.outOfRange, containing: "timer delay 1.7e+308 from time 1e+308 would be due past the largest time") {
            try rt.startTimer(after: 1.7e308, token: 1)
        }
        let h = try rt.startTimer(after: last, token: 2)
        #expect(try rt.dueTime(of: h).time == 1e308 + last)
        try rt.tick(.greatestFiniteMagnitude)
        #expect(rt.drain().map(\.tag) == ["timer:2"])
    }

    /// A timer started while a timer fires is measured from that timer's due
    /// time, so timers that restart themselves replay the steps a stalled
    /// frame skipped, all in its tick; a delay of 0 would never let the tick
    /// return. A tick fires at most `maxTimerFiringsPerTick`: the rest are
    /// due at the tick's time, fire first at the next tick, and a chain goes
    /// on from there.
    @Test("R0.4 a tick fires a bounded number of timers; the rest follow at the next tick")
    func timerFiringsAreBounded() throws {
        let cap = Runtime.maxTimerFiringsPerTick
        for delay in [0.0, 1e-3, 1e-300] {
            let rt = Runtime()
            try rt.tick(0)
            var fired: [Double] = []
            var restart: (() -> Void)!
            restart = { fired.append(rt.now()); try! rt.startTimer(after: delay, restart) }
            try rt.startTimer(after: delay, restart)
            try rt.tick(3600)
            #expect(fired.count == cap, "delay \(delay)")
            #expect(rt.pendingTimerCount == 1)
            try rt.tick(3600.01)
            // The postponed one fires first, then its chain from 3600 (a delay
            // too small to move the time fills the tick again).
            var expected = cap
            if delay == 1e-3 {
                var t = 3600.0
                expected = 1
                while t + delay <= 3600.01 { t += delay; expected += 1 }
                #expect(expected >= 10)
            }
            #expect(fired.count - cap == expected, "delay \(delay)")
            #expect(fired.dropFirst(cap).allSatisfy { $0 == 3600.01 })
        }
        // At and past the edge with independent timers: exactly `cap` due fire
        // in one tick; the three more wait, due at the tick's time (1.5, not
        // their 1), and fire first at the next, in the order they started.
        let rt = Runtime()
        try rt.tick(0)
        var order: [Int] = []
        var handles: [Handle] = []
        for k in 0...cap + 2 { handles.append(try rt.startTimer(after: 1) { order.append(k) }) }
        try rt.startTimer(after: 1.75) { order.append(-1) }
        try rt.tick(1.5)
        #expect(order == Array(0..<cap))
        #expect(try handles[cap...].map { try rt.dueTime(of: $0).time } == [1.5, 1.5, 1.5])
        #expect(rt.pendingTimerCount == 4)
        try rt.tick(2)
        #expect(order.suffix(4) == [cap, cap + 1, cap + 2, -1] && order.count == cap + 4 && rt.pendingTimerCount == 0)
    }
}
