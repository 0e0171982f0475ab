import AnimationCore
@testable import StateMachines
import Testing

/// Starts a network button at time 0 and runs it until it spins; returns
/// the time it started spinning.
func spinningButton(_ h: Harness, config: [String: MachineValue] = [:]) throws -> (Handle, Double) {
    let m = try h.shipped("networkButton", config: config)
    try h.send(m, "startAnimate")
    let t = h.until(m, "loading.spinning", from: 0.01, step: 0.01)
    return (m, t)
}

@Suite("R3.1 networkButton (seed 003): the CRNetworkButton choreography, each step gated by a barrier")
struct NetworkButtonTests {
    @Test("R3.1.3 (seed 003) the loading step starts only after the prepare barrier drains, never after a guessed delay")
    func loadingWaitsForPrepareBarrier() throws {
        let h = Harness()
        let m = try h.shipped("networkButton")
        try h.send(m, "startAnimate")
        #expect(h.state(m) == "loading.preparing")
        #expect(h.keys(m, "button") == ["shape"] && h.keys(m, "border") == ["shape"])
        // The two groups begin at the first tick and run 0.2 s.
        h.tick(0.1)
        h.tick(0.29)
        #expect(h.state(m) == "loading.preparing")
        #expect(h.keys(m, "arc[0]").isEmpty && h.shown(m, "arc[0]", "opacity") == 0)
        h.tick(0.31)
        #expect(h.state(m) == "loading.spinning")
        #expect(h.keys(m, "arc[0]") == ["fade", "spin"] && h.keys(m, "arc[1]") == ["fade", "spin"])

        // The barrier, not the clock, starts the step: when the host stops
        // the prepare animations early, the arcs spin at once.
        let n = try h.shipped("networkButton")
        try h.send(n, "startAnimate")
        h.tick(0.35)
        #expect(try h.runtime.removeAnimation(forKey: "shape", from: h.layer(n, "button")))
        #expect(h.state(n) == "loading.preparing")   // the border's group still runs
        #expect(try h.runtime.removeAnimation(forKey: "shape", from: h.layer(n, "border")))
        #expect(h.state(n) == "loading.spinning")
    }

    @Test("R3.1.3 (seed 003) the spinner stops from its presentation value with no jump, the short way back to identity")
    func stopsFromPresentation() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        let t = t0 + 0.68   // default velocity: one turn per second
        h.tick(t)
        let before = [h.shown(m, "arc[0]", "transform.rotation.z"), h.shown(m, "arc[1]", "transform.rotation.z")]
        #expect(abs(before[0]) > 1)   // well away from identity, so a jump would show
        try h.send(m, "stopAnimate")
        #expect(h.state(m) == "finishing.rewinding")
        h.tick(t)   // the same instant: the rewind starts exactly where the spin was
        #expect([h.shown(m, "arc[0]", "transform.rotation.z"), h.shown(m, "arc[1]", "transform.rotation.z")] == before)
        var last = abs(before[0])
        var step = t + 1.0 / 60
        while step < t + 0.3 {
            h.tick(step)
            let a = abs(h.shown(m, "arc[0]", "transform.rotation.z"))
            #expect(a <= last + 1e-12)               // monotonic towards identity
            #expect(last - a < abs(before[0]) / 4)   // no frame moves more than a quarter of the way
            last = a
            step += 1.0 / 60
        }
        #expect(abs(before[0]) <= Double.pi)   // read from the transform: the short way round
        h.tick(t + 0.31)
        #expect(h.shown(m, "arc[0]", "transform.rotation.z") == 0 && h.shown(m, "arc[1]", "transform.rotation.z") == 0)
        #expect(h.state(m) == "finishing.dotting")
    }

    @Test("R3.1.3 success: rewind, dots grow, the check mark flashes, the button bounces open, then Done; each step starts when the last stops")
    func success() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        _ = h.events()
        try h.send(m, "stopAnimate")
        let dotting = h.until(m, "finishing.dotting", from: t0 + 0.01)
        #expect(abs(dotting - (t0 + 0.01 + 0.3)) < 0.02)
        #expect(h.model(m, "dot[0]", "opacity") == 1)
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "dot[1]")) == .color(0, 1, 0, 1))
        h.tick(dotting + 0.1)
        let midScale = h.shown(m, "dot[0]", "transform.scale")
        #expect(midScale > 1 && midScale < 50.0 * 2 / 3)
        let marking = h.until(m, "finishing.marking.check", from: dotting + 0.11)
        #expect(h.keys(m, "checkMark") == ["flash"] && h.keys(m, "cross").isEmpty)
        h.tick(marking + 0.1)   // the flash peaks on the circle, which has taken the dots' colour
        #expect(h.shown(m, "checkMark", "opacity") > 0.9)
        #expect(h.shownValue(m, "button", "bounds")[2] == 50)
        #expect(h.shownValue(m, "border", "bounds")[2] == 50)
        #expect(h.shownValue(m, "button", "backgroundColor") == [0, 1, 0, 1])
        let bouncing = h.until(m, "finishing.bouncing", from: marking + 0.11)
        #expect(bouncing >= marking + 0.5 && bouncing <= marking + 0.52)   // when the flash has stopped
        h.tick(bouncing + 0.225)   // keyframe 0.75 of the bounce: 1.2 × the width
        #expect(abs(h.shownValue(m, "border", "bounds")[2] - 180 * 1.2) < 1e-9)
        let finished = h.until(m, "finished.succeeded", from: bouncing + 0.23)
        #expect(finished <= bouncing + 0.31)
        #expect(h.shownValue(m, "button", "bounds") == [0, 0, 180, 50])
        #expect(h.text(m, "title") == "Done")
        #expect(h.shown(m, "title", "opacity") == 1)
        let reports = h.machineEvents(m)
        #expect(reports == ["state loading.spinning -> finishing.rewinding", "state finishing.rewinding -> finishing.dotting",
                            "state finishing.dotting -> finishing.marking.check", "state finishing.marking.check -> finishing.bouncing",
                            "state finishing.bouncing -> finished.succeeded", "emit completed [false]"])
    }

    @Test("R3.1.3 error: the dots and the flash take the error colour, the cross flashes, then Error")
    func error() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h, config: ["errorColor": .vector(.color(1, 0.2, 0.2, 1))])
        try h.send(m, "stopByError")
        h.until(m, "finishing.dotting", from: t0 + 0.01)
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "dot[0]")) == .color(1, 0.2, 0.2, 1))
        let marking = h.until(m, "finishing.marking.cross", from: t0 + 0.3)
        #expect(h.keys(m, "cross") == ["flash"] && h.keys(m, "checkMark").isEmpty)
        h.tick(marking + 0.1)
        #expect(h.shownValue(m, "button", "backgroundColor") == [1, 0.2, 0.2, 1])   // the circle takes the error colour
        _ = h.events()
        h.until(m, "finished.failed", from: marking + 0.11)
        #expect(h.text(m, "title") == "Error")
        #expect(h.machineEvents(m).contains("emit completed [true]"))
        #expect(h.shownValue(m, "border", "borderColor") == [1, 0.2, 0.2, 1])
    }

    @Test("R3.1.2 shouldAutoReverse: back to ready as soon as the outcome has been shown")
    func autoReverse() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h, config: ["shouldAutoReverse": .bool(true)])
        _ = h.events()
        try h.send(m, "stopAnimate")
        h.until(m, "ready", from: t0 + 0.01)
        #expect(h.machineEvents(m) == ["state loading.spinning -> finishing.rewinding", "state finishing.rewinding -> finishing.dotting",
                                       "state finishing.dotting -> finishing.marking.check", "state finishing.marking.check -> finishing.bouncing",
                                       "state finishing.bouncing -> finished.succeeded", "emit completed [false]", "state finished.succeeded -> ready"])
        #expect(h.text(m, "title") == "Go")
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "button")) == .color(47.0 / 255, 128.0 / 255, 237.0 / 255, 1))
        #expect(h.model(m, "border", "borderWidth") == 0)
    }

    @Test("R3.1.4 progressMode: a ring whose strokeEnd follows updateProgress; no arcs spin, and the finish skips the rewind")
    func progressMode() throws {
        let h = Harness()
        let m = try h.shipped("networkButton", config: ["progressMode": .bool(true)])
        try h.send(m, "startAnimate")
        try h.send(m, "updateProgress", [.number(0.1)])   // during the prepare step: kept
        let t = h.until(m, "loading.progress", from: 0.01)
        #expect(h.model(m, "ring", "opacity") == 1 && h.model(m, "ring", "strokeEnd") == 0.1)
        try h.send(m, "updateProgress", [.number(0.64)])
        h.tick(t + 0.01)
        #expect(h.shown(m, "ring", "strokeEnd") == 0.64)
        try h.send(m, "updateProgress", [.number(3)])   // clamped
        #expect(h.model(m, "ring", "strokeEnd") == 1)
        #expect(h.keys(m, "arc[0]").isEmpty)
        try h.send(m, "stopAnimate")
        #expect(h.state(m) == "finishing.dotting")
        #expect(h.model(m, "ring", "opacity") == 0)
    }

    @Test("a stop that arrives while the button is still turning into a circle is kept until the prepare step ends")
    func stopDuringPrepare() throws {
        let h = Harness()
        let m = try h.shipped("networkButton")
        try h.send(m, "startAnimate")
        h.tick(0.1)
        try h.send(m, "stopByError")
        #expect(h.state(m) == "loading.preparing")
        h.until(m, "finishing.rewinding", from: 0.11)
        #expect(h.keys(m, "arc[0]") == ["spin"])   // the rewind, under the spin's key
        h.until(m, "finished.failed", from: 0.3)
    }

    @Test("R3.1.2 linesCount arcs, 2π / linesCount apart, each dotLength long, all turning")
    func arcs() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h, config: ["linesCount": .number(5), "dotLength": .number(0.5), "velocity": .number(2)])
        #expect(try h.host.partCount("arc", of: m) == 5 && h.host.partCount("dot", of: m) == 5)
        for i in 0..<5 {
            #expect(h.model(m, "arc[\(i)]", "strokeStart") == Double(i) / 5)
            #expect(abs(h.model(m, "arc[\(i)]", "strokeEnd") - (Double(i) / 5 + 0.5 / (2 * Double.pi))) < 1e-15)
            #expect(h.keys(m, "arc[\(i)]") == ["fade", "spin"])
        }
        h.tick(t0 + 0.5)   // a quarter turn at two seconds per turn
        #expect(abs(h.shown(m, "arc[3]", "transform.rotation.z") - Double.pi / 2) < 1e-9)
        // Dots sit where the arcs are, halfway along each, inside the border.
        let r = 25.0 - 2 * 5
        let a = 3 * 2 * Double.pi / 5 + 0.25
        let p = h.shownValue(m, "dot[3]", "position")
        #expect(abs(p[0] - (25 + r * Libm.cos(a))) < 1e-12 && abs(p[1] - (25 + r * Libm.sin(a))) < 1e-12)
        expectError(.outOfRange, ["part 'arc' would have 2.5 copies"]) { () throws(AnimrtError) in
            _ = try h.shipped("networkButton", config: ["linesCount": .number(2.5)])
        }
    }

    @Test("R3.1.1 commands: a tap starts only when animateOnTap; taps and starts while busy are ignored; stop at rest is refused")
    func commands() throws {
        let h = Harness()
        let off = try h.shipped("networkButton", config: ["animateOnTap": .bool(false)])
        #expect(try h.send(off, "tap") == .taken)   // animateOnTap off: a tap does nothing (seed 003)
        #expect(h.state(off) == "ready")
        let m = try h.shipped("networkButton")
        expectError(.state, ["'stopAnimate' is not accepted in state 'ready'"]) { () throws(AnimrtError) in try h.send(m, "stopAnimate") }
        #expect(try h.send(m, "updateProgress", [.number(0.5)]) == .ignored)
        #expect(try h.send(m, "tap") == .taken)
        #expect(h.state(m) == "loading.preparing")
        #expect(try h.send(m, "tap") == .ignored)
        #expect(try h.send(m, "startAnimate") == .ignored)
    }

    @Test("startAnimate after the outcome resets first, then starts again; resetToReady stops everything at once")
    func restartAndReset() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        try h.send(m, "stopAnimate")
        h.until(m, "finished.succeeded", from: t0 + 0.01)
        #expect(try h.send(m, "tap") == .ignored)   // as CRNetworkButton: a finished button ignores taps
        _ = h.events()
        try h.send(m, "startAnimate")
        #expect(h.machineEvents(m) == ["state finished.succeeded -> ready", "state ready -> loading.preparing"])
        #expect(h.text(m, "title") == "Go")
        try h.send(m, "resetToReady")
        #expect(h.state(m) == "ready")
        for part in ["button", "border", "title", "ring", "arc[0]", "arc[1]", "dot[0]", "checkMark", "cross"] {
            #expect(h.keys(m, part).isEmpty, "\(part)")
        }
        #expect(h.model(m, "button", "bounds.size.width") == 180 && h.model(m, "arc[0]", "opacity") == 0)
    }

    @Test("R3.1.3 (seed 003) the arcs turn for as long as the request runs: the spin repeats for ever")
    func spinsForEver() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        #expect(h.text(m, "title") == "Go")   // the title keeps its text while hidden; "Done" only at the end
        h.tick(t0 + 100.25)   // a quarter turn past the hundredth, at one turn a second
        #expect(h.state(m) == "loading.spinning")
        #expect(h.keys(m, "arc[0]") == ["spin"] && h.keys(m, "arc[1]") == ["spin"])
        #expect(abs(h.shown(m, "arc[0]", "transform.rotation.z") - Double.pi / 2) < 1e-6)
        #expect(h.text(m, "title") == "Go")
    }

    @Test("R3.1.3 (seed 003) the dots grow linearly from scale 1 to the scale they are left at, height × 2 / 3, in 0.2 s")
    func dotsGrowToTheirModel() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        try h.send(m, "stopAnimate")
        let dotting = h.until(m, "finishing.dotting", from: t0 + 0.01)
        h.tick(dotting + 0.05)
        let a = h.shown(m, "dot[0]", "transform.scale")
        h.tick(dotting + 0.15)
        let b = h.shown(m, "dot[0]", "transform.scale")
        // Linear: the scale gained in 0.1 s is half of what the whole 0.2 s gain, 50 × 2 / 3 − 1.
        #expect(abs((b - a) * 2 - (50.0 * 2 / 3 - 1)) < 1e-9)
        #expect(abs(a - (1 + (50.0 * 2 / 3 - 1) / 4)) < 1e-9)
        #expect(h.model(m, "dot[0]", "transform.scale") == 50.0 * 2 / 3)
    }

    @Test("R3.1.4 a stop during the prepare step in progressMode goes straight to the dots: there are no arcs to rewind")
    func progressModeStopDuringPrepare() throws {
        let h = Harness()
        let m = try h.shipped("networkButton", config: ["progressMode": .bool(true)])
        try h.send(m, "startAnimate")
        h.tick(0.1)   // the prepare groups begin; they stop at 0.3
        try h.send(m, "stopAnimate")
        _ = h.events()
        let t = h.until(m, "finishing.dotting", from: 0.11)
        #expect(abs(t - 0.3) < 0.015)
        #expect(h.machineEvents(m) == ["state loading.preparing -> finishing.dotting"])
        #expect(h.keys(m, "arc[0]").isEmpty && h.keys(m, "dot[0]") == ["grow"])
    }

    @Test("R3.1.3 a stop during the prepare step is kept as sent: stopAnimate finishes with the check mark and Done, the last stop wins")
    func successDuringPrepare() throws {
        let h = Harness()
        for stops in [["stopAnimate"], ["stopByError", "stopAnimate"]] {
            let m = try h.shipped("networkButton")
            try h.send(m, "startAnimate")
            h.tick(h.runtime.currentTime! + 0.05)
            for s in stops { try h.send(m, s) }
            #expect(h.state(m) == "loading.preparing")
            _ = h.events()
            h.until(m, "finished.succeeded", from: h.runtime.currentTime! + 0.01)
            #expect(h.machineEvents(m).contains("state finishing.dotting -> finishing.marking.check"))
            #expect(h.text(m, "title") == "Done")
            #expect(h.context(m, "failed") == .bool(false))
        }
    }

    @Test("R3.1.4 in progressMode stopByError finishes with the error colour, the cross and Error")
    func progressModeError() throws {
        let h = Harness()
        let m = try h.shipped("networkButton", config: ["progressMode": .bool(true)])
        try h.send(m, "startAnimate")
        let t = h.until(m, "loading.progress", from: 0.01)
        try h.send(m, "updateProgress", [.number(0.3)])
        try h.send(m, "stopByError")
        #expect(h.state(m) == "finishing.dotting")
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "dot[0]")) == .color(1, 0, 0, 1))
        _ = h.events()
        h.until(m, "finished.failed", from: t + 0.01)
        #expect(h.machineEvents(m).contains("emit completed [true]"))
        #expect(h.text(m, "title") == "Error")
    }

    @Test("startAnimate during the finish resets the button and starts it again, as it does once finished")
    func restartDuringFinish() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h)
        try h.send(m, "stopAnimate")
        h.until(m, "finishing.dotting", from: t0 + 0.01)
        _ = h.events()
        #expect(try h.send(m, "startAnimate") == .taken)
        #expect(h.machineEvents(m) == ["state finishing.dotting -> ready", "state ready -> loading.preparing"])
        #expect(h.keys(m, "dot[0]").isEmpty && h.keys(m, "button") == ["shape"])
    }

    @Test("R3.1.2 shouldAutoReverse: the button opens from the outcome's colour to its own background, linearly, with no jump at the end")
    func autoReverseOpensToBackground() throws {
        let h = Harness()
        let (m, t0) = try spinningButton(h, config: ["shouldAutoReverse": .bool(true)])
        try h.send(m, "stopAnimate")
        let b = h.until(m, "finishing.bouncing", from: t0 + 0.01)
        let green = [0.0, 1, 0, 1], background = [47.0 / 255, 128.0 / 255, 237.0 / 255, 1]
        for f in [0.5, 0.2 / 0.225] {
            h.tick(b + f * 0.225)
            let shown = h.shownValue(m, "button", "backgroundColor")
            let expected = zip(green, background).map { $0 + f * ($1 - $0) }
            #expect(zip(shown, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(f): \(shown) \(expected)")
        }
    }

    @Test("R3.1.1 each run starts afresh: a stop kept from the last run's prepare step does not finish the next one")
    func nextRunForgetsPendingStop() throws {
        let h = Harness()
        let m = try h.shipped("networkButton")
        try h.send(m, "startAnimate")
        h.tick(0.1)
        try h.send(m, "stopByError")
        h.until(m, "finished.failed", from: 0.11)
        try h.send(m, "startAnimate")
        let t = h.until(m, "loading.spinning", from: h.runtime.currentTime! + 0.01)
        h.tick(t + 3)
        #expect(h.state(m) == "loading.spinning")
        #expect(h.context(m, "stopPending") == .bool(false) && h.context(m, "failed") == .bool(false))
    }

    @Test("R3.1.4 each run's ring starts empty, not at the last run's progress")
    func nextRunRingStartsEmpty() throws {
        let h = Harness()
        let m = try h.shipped("networkButton", config: ["progressMode": .bool(true)])
        try h.send(m, "startAnimate")
        h.until(m, "loading.progress", from: 0.01)
        try h.send(m, "updateProgress", [.number(0.64)])
        try h.send(m, "stopAnimate")
        h.until(m, "finished.succeeded", from: h.runtime.currentTime! + 0.01)
        try h.send(m, "startAnimate")
        #expect(h.context(m, "progress") == .number(0))
        h.until(m, "loading.progress", from: h.runtime.currentTime! + 0.01)
        #expect(h.model(m, "ring", "strokeEnd") == 0 && h.model(m, "ring", "opacity") == 1)
    }

    @Test("the copy comes in English and in Chinese, and each instance can override it")
    func copy() throws {
        let h = Harness()
        let zh = try h.shipped("networkButton", locale: "zh")
        #expect(h.text(zh, "title") == "发送")
        let custom = try h.shipped("networkButton", strings: ["start": "Send", "done": "Sent"])
        #expect(h.text(custom, "title") == "Send")
        try h.send(custom, "startAnimate")
        try h.send(custom, "stopAnimate")
        h.until(custom, "finished.succeeded", from: 0.01)
        #expect(h.text(custom, "title") == "Sent")
    }
}
