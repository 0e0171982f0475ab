import AnimationCore
@testable import StateMachines
import Testing

extension Harness {
    /// The number of the latest fetchProgress request reported (and drains the queue).
    func lastRequest(_ m: Handle) -> UInt64? {
        events().last { $0.object == m && $0.type == .machineRequest }?.token
    }

    /// A progress card fetched and ready at `progress`, at time `t`.
    func readyCard(_ progress: Double, at t: Double = 0, config: [String: MachineValue] = [:], locale: String? = nil) throws -> Handle {
        if runtime.currentTime == nil { tick(t) }
        let m = try shipped("progressCard", config: config, locale: locale)
        try send(m, "fetch")
        let id = lastRequest(m)!
        try send(m, "fetched", [.number(Double(id)), .number(progress)])
        return m
    }
}

@Suite("R3.2 progressCard (seed 000): the state boundaries of the home screen's progress card")
struct ProgressCardTests {
    @Test("R3.2.2 (seed 000 §5.1) a result of an older fetch is ignored and reported as stale; only the latest fetch's result counts")
    func staleResultIgnored() throws {
        let h = Harness()
        let m = try h.shipped("progressCard")
        try h.send(m, "fetch")
        let first = h.lastRequest(m)!
        try h.send(m, "fetch")   // pulled to refresh again: a new request
        let second = h.lastRequest(m)!
        #expect(second > first)
        #expect(try h.send(m, "fetched", [.number(Double(first)), .number(0.9)]) == .stale)
        #expect(h.state(m) == "loading")
        #expect(h.machineEvents(m) == ["stale fetched #\(first)"])
        #expect(try h.send(m, "fetched", [.number(Double(second)), .number(0.4), .string("3 tasks to go")]) == .taken)
        #expect(h.state(m) == "ready")
        #expect(h.context(m, "progress") == .number(0.4))
        #expect(h.text(m, "subtitle") == "3 tasks to go")
        // A late failure of the first fetch changes nothing either.
        #expect(try h.send(m, "fetchFailed", [.number(Double(first)), .bool(true)]) == .stale)
        #expect(h.state(m) == "ready")
        // Leaving loading forgets the request: its result is stale too.
        try h.send(m, "fetch")
        let third = h.lastRequest(m)!
        try h.send(m, "hide")
        #expect(try h.send(m, "fetched", [.number(Double(third)), .number(0.5)]) == .stale)
        #expect(h.state(m) == "hidden")
    }

    @Test("R3.2.5 (seed 000 §5.2) jitter: a change of 0.05 or less is set without animation; a larger one animates from what is on screen")
    func jitter() throws {
        let h = Harness()
        let m = try h.readyCard(0.35)
        h.tick(0.1)
        #expect(h.shown(m, "ring", "strokeEnd") == 0.35)
        try h.send(m, "progress", [.number(0.38)])
        #expect(h.keys(m, "ring").isEmpty)
        h.tick(0.2)
        #expect(h.shown(m, "ring", "strokeEnd") == 0.38)
        try h.send(m, "progress", [.number(0.72)])
        #expect(h.keys(m, "ring") == ["fill"])
        #expect(h.model(m, "ring", "strokeEnd") == 0.72)   // the model holds the target: nothing jumps at the end
        h.tick(0.3)   // begins
        #expect(h.shown(m, "ring", "strokeEnd") == 0.38)
        h.tick(0.55)  // half of fillSeconds, ease in-out: halfway
        #expect(abs(h.shown(m, "ring", "strokeEnd") - 0.55) < 1e-6)
        h.tick(0.85)
        #expect(h.shown(m, "ring", "strokeEnd") == 0.72)
        // The threshold is configurable.
        let strict = try h.readyCard(0.35, config: ["jitterThreshold": .number(0)])
        try h.send(strict, "progress", [.number(0.36)])
        #expect(h.keys(strict, "ring") == ["fill"])
    }

    @Test("R3.2.5 (seed 000 §5.2) throttle: a burst of live updates is shown at most 60 times a second, and the last value always")
    func throttle() throws {
        let h = Harness()
        let m = try h.readyCard(0.1, config: ["jitterThreshold": .number(1)])   // set, never animated: count model changes
        var changes: [Double] = []
        var shown = h.model(m, "ring", "strokeEnd")
        var last = 0.0
        for i in 1...2000 {   // 2000 updates in one second, a tick every 0.5 ms
            let t = Double(i) / 2000
            h.tick(t)
            last = 0.1 + 0.8 * Double(i) / 2000
            try h.send(m, "progress", [.number(last)])
            let now = h.model(m, "ring", "strokeEnd")
            if now != shown { changes.append(t); shown = now }
        }
        h.tick(1.1)
        h.tick(1.2)
        #expect(h.model(m, "ring", "strokeEnd") == last)
        #expect(h.shown(m, "ring", "strokeEnd") == last)
        #expect(changes.count <= 61)   // the first at once, then at most one per 1/60 s
        for (a, b) in zip(changes, changes.dropFirst()) { #expect(b - a >= 1.0 / 60 - 1e-9) }
        // Fewer updates per second when configured.
        let slow = try h.readyCard(0.1, config: ["maxUpdatesPerSecond": .number(2)])
        try h.send(slow, "progress", [.number(0.5)])
        #expect(try h.send(slow, "progress", [.number(0.6)]) == .throttled)
        h.tick(1.5)
        #expect(h.context(slow, "progress") == .number(0.5))
        h.tick(1.75)
        #expect(h.context(slow, "progress") == .number(0.6))
    }

    @Test("R3.2.3 (seed 000 §5.3) the ring fills to 100% first; completed(celebrating: true) comes only when that animation has stopped")
    func fillThenCelebrate() throws {
        let h = Harness()
        let m = try h.readyCard(0.72)
        h.tick(1)
        _ = h.events()
        try h.send(m, "fetch")
        let id = h.lastRequest(m)!
        try h.send(m, "fetched", [.number(Double(id)), .number(1)])
        #expect(h.state(m) == "filling")
        #expect(h.keys(m, "ring") == ["fill"])
        h.tick(1.1)   // the fill begins
        h.tick(1.59)
        #expect(h.state(m) == "filling")
        #expect(h.shown(m, "ring", "strokeEnd") < 1)
        _ = h.events()
        h.tick(1.61)
        #expect(h.state(m) == "completed.celebrating")
        #expect(h.shown(m, "ring", "strokeEnd") == 1)
        let changed = h.events().first { $0.object == m && $0.type == .machineStateChanged }!
        #expect(changed.payload == [.bool(true)])   // completed(celebrating: true)
        #expect(h.text(m, "title") == "Congratulations!")
        // After celebrationSeconds: completed(celebrating: false), then hidden after completedSeconds.
        h.tick(4.6)
        #expect(h.state(m) == "completed.celebrating")
        h.tick(4.62)
        #expect(h.state(m) == "completed.settled")
        #expect(h.context(m, "celebrating") == .bool(false))
        #expect(h.text(m, "actionTitle") == "View results")
        h.tick(9.6)
        #expect(h.state(m) == "completed.settled")
        h.tick(9.63)
        #expect(h.state(m) == "hidden")
        #expect(h.model(m, "card", "opacity") == 0)
    }

    @Test("R3.2.3 the celebration waits for the fill whatever stops it; a card kept as a permanent entry stays")
    func fillStoppedEarly() throws {
        let h = Harness()
        let m = try h.readyCard(0.5, config: ["afterCompletion": .string("stay")])
        try h.send(m, "progress", [.number(1)])
        #expect(h.state(m) == "filling")
        #expect(try h.runtime.removeAnimation(forKey: "fill", from: h.layer(m, "ring")))
        #expect(h.state(m) == "completed.celebrating")
        h.tick(3.1)
        #expect(h.state(m) == "completed.settled")
        h.tick(1000)
        #expect(h.state(m) == "completed.settled")
    }

    @Test("R3.2.4 (seed 000 §5.4) the celebration and auto-hide timers never fire after their state is left or the card destroyed")
    func timersEndWithTheirState() throws {
        let h = Harness()
        let m = try h.readyCard(1)   // straight to filling
        h.tick(0.1); h.tick(0.7)
        #expect(h.state(m) == "completed.celebrating")
        try h.send(m, "hide")
        _ = h.events()
        h.tick(100)
        #expect(h.state(m) == "hidden")
        #expect(h.machineEvents(m).isEmpty)   // neither the celebration nor the auto-hide fired
        // Left for loading: the celebration's timer goes with its state.
        let n = try h.readyCard(1)
        h.tick(100.1); h.tick(100.7)
        #expect(h.state(n) == "completed.celebrating")
        try h.send(n, "fetch")
        _ = h.events()
        h.tick(200)
        #expect(h.state(n) == "loading")
        #expect(h.machineEvents(n).isEmpty)
        // Destroyed: every timer of the card is cancelled (the freshness timer too).
        let timers = h.runtime.pendingTimerCount
        let d = try h.readyCard(1)
        h.tick(200.1); h.tick(200.7)
        #expect(h.runtime.pendingTimerCount == timers + 1)   // the celebration (appear refreshes a completed card at any age)
        try h.host.destroy(d)
        #expect(h.runtime.pendingTimerCount == timers)
        _ = h.events()
        h.tick(1000)
        #expect(h.events().allSatisfy { $0.object != d })
    }

    @Test("R3.2.6 (seed 000 §5.5) appear refreshes unless the card is ready with data younger than refreshAfterSeconds")
    func refreshOnAppear() throws {
        let h = Harness()
        let m = try h.readyCard(0.5)
        _ = h.events()
        h.tick(299)
        #expect(try h.send(m, "appear") == .taken)
        #expect(h.state(m) == "ready")
        #expect(h.lastRequest(m) == nil)   // fresh: no fetch
        h.tick(300)
        try h.send(m, "appear")
        #expect(h.state(m) == "loading")
        #expect(h.lastRequest(m) != nil)
        // Not ready: every appear refreshes (in error the error stays visible meanwhile).
        let e = try h.shipped("progressCard")
        try h.send(e, "appear")
        try h.send(e, "fetchFailed", [.number(Double(h.lastRequest(e)!)), .bool(false), .string("Server busy")])
        try h.send(e, "appear")
        #expect(h.state(e) == "error.retrying")
        #expect(h.context(e, "isLoading") == .bool(true) && h.text(e, "title") == "Server busy")
        // The age is configurable.
        let quick = try h.readyCard(0.5, config: ["refreshAfterSeconds": .number(10)])
        h.tick(310)
        _ = h.events()
        try h.send(quick, "appear")
        #expect(h.state(quick) == "loading")
        // Completed is not ready: appear refreshes, at once (seed 000 §5.5: only a
        // ready card with young data is kept), whether celebrating or settled.
        for settle in [false, true] {
            let c = try h.readyCard(0.9)
            try h.send(c, "fetch")
            try h.send(c, "fetched", [.number(Double(h.lastRequest(c)!)), .number(1)])
            h.until(c, "completed.celebrating", from: h.runtime.currentTime! + 0.01)
            if settle { h.until(c, "completed.settled", from: h.runtime.currentTime! + 0.01) }
            _ = h.events()
            #expect(try h.send(c, "appear") == .taken)
            #expect(h.state(c) == "loading" && h.lastRequest(c) != nil)
        }
        // While a fetch runs, or the ring fills to 100%, the data is fresh: ignored.
        let busy = try h.shipped("progressCard")
        try h.send(busy, "fetch")
        #expect(try h.send(busy, "appear") == .ignored)
        try h.send(busy, "fetched", [.number(Double(h.lastRequest(busy)!)), .number(1)])
        #expect(h.state(busy) == "filling")
        #expect(try h.send(busy, "appear") == .ignored)
    }

    @Test("R3.2.2 when the host's eligibility says no, the card is disabled with its reason and no request is made")
    func disabled() throws {
        let h = Harness()
        let m = try h.shipped("progressCard")
        _ = h.events()
        try h.send(m, "fetch", [.bool(false), .string("notLoggedIn")])
        #expect(h.state(m) == "disabled")
        let events = h.events()
        #expect(!events.contains { $0.type == .machineRequest })
        #expect(events.contains { $0.type == .machineStateChanged && $0.payload == [.string("notLoggedIn")] })
        try h.send(m, "fetch", [.bool(false), .string("eventNotStarted")])
        #expect(h.context(m, "reason") == .string("eventNotStarted"))
        try h.send(m, "fetch")
        #expect(h.state(m) == "loading")
    }

    @Test("R3.2.3 error(retryable, message): retry only when retryable; the old error stays visible while the retry loads")
    func errorAndRetry() throws {
        let h = Harness()
        let m = try h.shipped("progressCard")
        try h.send(m, "fetch")
        try h.send(m, "fetchFailed", [.number(Double(h.lastRequest(m)!)), .bool(false)])
        #expect(h.state(m) == "error.shown")
        #expect(h.text(m, "title") == "Something went wrong" && h.text(m, "actionTitle") == "")
        _ = h.events()
        #expect(try h.send(m, "retry") == .taken)   // not retryable: nothing happens (seed 000 §3.2 retry())
        #expect(h.state(m) == "error.shown" && h.lastRequest(m) == nil)
        try h.send(m, "fetch")   // a fetch from error keeps the error
        #expect(h.state(m) == "error.retrying")
        #expect(h.model(m, "errorIcon", "opacity") == 1 && h.model(m, "spinner", "opacity") == 1)
        try h.send(m, "fetchFailed", [.number(Double(h.lastRequest(m)!)), .bool(true), .string("Timed out")])
        #expect(h.text(m, "title") == "Timed out" && h.text(m, "actionTitle") == "Retry")
        try h.send(m, "retry")
        #expect(h.state(m) == "error.retrying")
        #expect(try h.send(m, "retry") == .ignored)
        try h.send(m, "fetched", [.number(Double(h.lastRequest(m)!)), .number(0.2)])
        #expect(h.state(m) == "ready")
        #expect(h.model(m, "errorIcon", "opacity") == 0 && h.model(m, "spinner", "opacity") == 0)
    }

    @Test("R3.2.7 copy by progress bucket and per state, in English, in the seed's Chinese, and overridden per instance")
    func copy() throws {
        let h = Harness()
        let buckets: [(Double, String, String)] = [
            (0, "Start your challenge", "开始你的挑战吧"), (0.1, "A good start is half the battle", "好的开始是成功的一半"),
            (0.2999, "A good start is half the battle", "好的开始是成功的一半"), (0.3, "Keep going", "坚持就是胜利"),
            (0.6999, "Keep going", "坚持就是胜利"), (0.7, "Almost there, keep it up!", "即将完成，加油！"),
            (0.99, "Almost there, keep it up!", "即将完成，加油！"),
        ]
        for (p, en, zh) in buckets {
            #expect(h.text(try h.readyCard(p), "title") == en, "\(p)")
            #expect(h.text(try h.readyCard(p, locale: "zh"), "title") == zh, "\(p)")
        }
        let m = try h.readyCard(0.42)
        #expect(h.text(m, "actionTitle") == "Go" && h.text(m, "percentText") == "42%")
        let zh = try h.shipped("progressCard", locale: "zh")
        try h.send(zh, "fetch")
        #expect(h.text(zh, "title") == "加载中…")
        let custom = try h.shipped("progressCard", strings: ["loading": "One moment…"])
        try h.send(custom, "fetch")
        #expect(h.text(custom, "title") == "One moment…")
    }

    @Test("R3.2.8 progress is clamped to [0, 1]; NaN is refused with nothing changed")
    func clampAndNaN() throws {
        let h = Harness()
        let m = try h.readyCard(0.5)
        try h.send(m, "progress", [.number(-0.3)])
        #expect(h.context(m, "progress") == .number(0))
        expectError(.invalidArgument, ["field 'progress' of 'progress' is nan", "finite"]) { () throws(AnimrtError) in
            try h.send(m, "progress", [.number(.nan)])
        }
        #expect(h.context(m, "progress") == .number(0))
        let over = try h.readyCard(1.7)
        #expect(h.state(over) == "filling")
        #expect(h.context(over, "progress") == .number(1))
    }

    @Test("R3.2.5 a change of exactly the threshold is set, not animated: only |Δ| > threshold animates")
    func jitterAtThreshold() throws {
        let h = Harness()
        let m = try h.readyCard(0.25, config: ["jitterThreshold": .number(0.25)])
        try h.send(m, "progress", [.number(0.5)])   // |Δ| = 0.25 exactly (each a whole power of two)
        #expect(h.keys(m, "ring").isEmpty && h.model(m, "ring", "strokeEnd") == 0.5)
        h.tick(0.5)   // past the throttle's interval
        try h.send(m, "progress", [.number(0.25)])
        #expect(h.keys(m, "ring").isEmpty && h.model(m, "ring", "strokeEnd") == 0.25)
        h.tick(1)
        try h.send(m, "progress", [.number(0.625)])   // 0.375 > 0.25
        #expect(h.keys(m, "ring") == ["fill"])
    }

    @Test("R3.2.3 the fill to 100% runs from what is on screen to 1, and the card says 100% while it runs")
    func fillGoesToFull() throws {
        let h = Harness()
        let m = try h.readyCard(0.5)
        h.tick(1)
        try h.send(m, "progress", [.number(1)])
        #expect(h.state(m) == "filling")
        #expect(h.context(m, "progress") == .number(1) && h.text(m, "percentText") == "100%")
        h.tick(1.1)    // the fill begins
        h.tick(1.35)   // half of fillSeconds, ease in-out: halfway from 0.5 to 1
        #expect(abs(h.shown(m, "ring", "strokeEnd") - 0.75) < 1e-6)
    }

    @Test("R3.2.5 fillSeconds sets how long an animated change of progress takes")
    func fillSeconds() throws {
        let h = Harness()
        let m = try h.readyCard(0.2, config: ["fillSeconds": .number(2)])
        h.tick(1)
        try h.send(m, "progress", [.number(0.8)])
        h.tick(1.1)   // begins
        h.tick(2.1)   // half of 2 s: halfway
        #expect(abs(h.shown(m, "ring", "strokeEnd") - 0.5) < 1e-6)
        h.tick(3.05)
        #expect(h.keys(m, "ring") == ["fill"] && h.shown(m, "ring", "strokeEnd") < 0.8)
        h.tick(3.15)
        #expect(h.keys(m, "ring").isEmpty && h.shown(m, "ring", "strokeEnd") == 0.8)
    }

    @Test("R3.2.2 a retry that fetches 100% fills the ring and celebrates, and one that fetches less is fresh for refreshAfterSeconds")
    func retryResults() throws {
        let h = Harness()
        let full = try h.shipped("progressCard")
        try h.send(full, "fetch")
        try h.send(full, "fetchFailed", [.number(Double(h.lastRequest(full)!)), .bool(true)])
        try h.send(full, "retry")
        try h.send(full, "fetched", [.number(Double(h.lastRequest(full)!)), .number(1)])
        #expect(h.state(full) == "filling")
        h.until(full, "completed.celebrating", from: 0.01)

        let part = try h.shipped("progressCard")
        let t = h.runtime.currentTime!
        try h.send(part, "fetch")
        try h.send(part, "fetchFailed", [.number(Double(h.lastRequest(part)!)), .bool(true)])
        try h.send(part, "retry")
        try h.send(part, "fetched", [.number(Double(h.lastRequest(part)!)), .number(0.4)])
        #expect(h.state(part) == "ready")
        h.tick(t + 299)
        #expect(try h.send(part, "appear") == .taken)
        #expect(h.state(part) == "ready" && h.lastRequest(part) == nil)
        h.tick(t + 300)
        try h.send(part, "appear")
        #expect(h.state(part) == "loading" && h.lastRequest(part) != nil)
    }

    @Test("R3.2.2 leaving error while a retry runs forgets its request: the late result is stale")
    func retryForgottenOnExit() throws {
        let h = Harness()
        for leave: [TaggedValue]? in [nil, [.bool(false), .string("notLoggedIn")]] {
            let m = try h.shipped("progressCard")
            try h.send(m, "fetch")
            try h.send(m, "fetchFailed", [.number(Double(h.lastRequest(m)!)), .bool(true)])
            try h.send(m, "retry")
            let id = h.lastRequest(m)!
            if let leave { try h.send(m, "fetch", leave) } else { try h.send(m, "hide") }
            #expect(h.state(m) == (leave == nil ? "hidden" : "disabled"))
            _ = h.events()
            #expect(try h.send(m, "fetched", [.number(Double(id)), .number(0.5)]) == .stale)
            #expect(h.machineEvents(m) == ["stale fetched #\(id)"])
        }
    }

    @Test("R3.2.7 (seed 000 §4.1) the loading flag is set while any fetch runs; the hint shows only with a ready card")
    func loadingFlagAndHint() throws {
        let h = Harness()
        let m = try h.shipped("progressCard")
        #expect(h.context(m, "isLoading") == .bool(false))
        try h.send(m, "fetch")
        #expect(h.context(m, "isLoading") == .bool(true))
        try h.send(m, "fetched", [.number(Double(h.lastRequest(m)!)), .number(0.4), .string("3 tasks to go")])
        #expect(h.context(m, "isLoading") == .bool(false) && h.text(m, "subtitle") == "3 tasks to go")
        try h.send(m, "fetch")
        #expect(h.text(m, "subtitle") == "" && h.context(m, "isLoading") == .bool(true))
        try h.send(m, "fetchFailed", [.number(Double(h.lastRequest(m)!)), .bool(true)])
        #expect(h.text(m, "subtitle") == "" && h.context(m, "isLoading") == .bool(false))
        try h.send(m, "fetch")
        try h.send(m, "fetched", [.number(Double(h.lastRequest(m)!)), .number(1)])
        h.until(m, "completed.celebrating", from: 0.01)
        #expect(h.text(m, "subtitle") == "")
    }

    @Test("R3.2.1 state changes carry their associated values: ready(progress, secondaryText), error(retryable, message)")
    func associatedValues() throws {
        let h = Harness()
        let m = try h.shipped("progressCard")
        try h.send(m, "fetch")
        try h.send(m, "fetched", [.number(Double(h.lastRequest(m)!)), .number(0.25), .string("2 left")])
        let ready = h.events().last { $0.type == .machineStateChanged }!
        #expect(ready.payload == [.number(0.25), .string("2 left")])
        try h.send(m, "fetch")
        try h.send(m, "fetchFailed", [.number(Double(h.lastRequest(m)!)), .bool(true), .string("Offline")])
        let error = h.events().last { $0.type == .machineStateChanged }!
        #expect(error.payload == [.bool(true), .string("Offline")])
    }
}
