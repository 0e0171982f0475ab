import AnimationCore
@testable import StateMachines
import Testing

@Suite("R3.3 streakCard (seed 001): two styles, taps forwarded, and a bar that never fakes progress")
struct StreakCardTests {
    @Test("R3.3.3 (seed 001) 0 days shows exactly 0: the fill has no minimum width")
    func zeroShowsZero() throws {
        let h = Harness()
        let m = try h.shipped("streakCard")
        h.tick(0.1)
        #expect(h.state(m) == "tracking")
        #expect(h.shownValue(m, "fill", "bounds")[2] == 0)
        try h.send(m, "track", [.number(3), .number(4)])
        h.tick(0.2)
        #expect(h.shownValue(m, "fill", "bounds")[2] == 295 * (3.0 / 7))
        try h.send(m, "track", [.number(0), .number(7)])   // the streak was reset
        h.tick(0.3)
        let width = h.shownValue(m, "fill", "bounds")[2]
        #expect(width == 0 && width.sign == .plus)
        #expect(h.context(m, "ratio") == .number(0))
    }

    @Test("R3.3.3 fill width = track width × clamp(ratio, 0, 1), from the track's left edge")
    func width() throws {
        let h = Harness()
        let m = try h.shipped("streakCard", config: ["trackWidth": .number(200)])
        for (done, left, expected) in [(1.0, 9.0, 20.0), (5, 5, 100), (7, 0, 200), (12, 0, 200)] {
            try h.send(m, "track", [.number(done), .number(left)])
            #expect(h.model(m, "fill", "bounds.size.width") == expected)
        }
        #expect(try h.runtime.modelValue(forKeyPath: "anchorPoint", of: h.layer(m, "fill")) == .point(0, 0.5))
        expectError(.outOfRange, ["field 'remainingDays' of 'track' is -1", "minimum is 0"]) { () throws(AnimrtError) in
            try h.send(m, "track", [.number(1), .number(-1)])
        }
    }

    @Test("R3.3.1 tracking(remainingDays, completedDays) and completed are reported with their values, each with its layout")
    func styles() throws {
        let h = Harness()
        let m = try h.shipped("streakCard")
        _ = h.events()
        try h.send(m, "track", [.number(3), .number(4)])
        #expect(h.events().last { $0.type == .machineStateChanged }?.payload == [.number(4), .number(3)])
        #expect(h.text(m, "title") == "4 days to go")
        #expect(h.model(m, "infoIcon", "opacity") == 1 && h.model(m, "unlockButton", "opacity") == 0)
        try h.send(m, "track", [.number(6), .number(1)])
        #expect(h.text(m, "title") == "1 day to go")
        try h.send(m, "complete", [.number(7)])
        #expect(h.state(m) == "completed")
        #expect(h.events().last { $0.type == .machineStateChanged }?.payload == [.number(7)])
        #expect(h.text(m, "title") == "7 days in a row — done!")
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "card")) == .color(0x7b / 255.0, 0x39 / 255.0, 0xed / 255.0, 1))
        #expect(h.model(m, "infoIcon", "opacity") == 0 && h.model(m, "recalculateButton", "opacity") == 1 && h.model(m, "unlockButton", "opacity") == 1)
        let zh = try h.shipped("streakCard", locale: "zh")
        try h.send(zh, "track", [.number(3), .number(4)])
        #expect(h.text(zh, "title") == "还剩 4 天")
    }

    @Test("R3.3.1 days are whole: track(2.5, 1) and complete(6.5) are refused with nothing changed; track(3, 4) is taken")
    func wholeDays() throws {
        let h = Harness()
        let m = try h.shipped("streakCard")
        try h.send(m, "track", [.number(1), .number(6)])
        _ = h.events()
        let refusals: [(String, [TaggedValue], String)] = [
            ("track", [.number(2.5), .number(1)], "field 'completedDays' of 'track' is 2.5; it must be a whole number"),
            ("track", [.number(3), .number(0.25)], "field 'remainingDays' of 'track' is 0.25; it must be a whole number"),
            ("complete", [.number(6.5)], "field 'completedDays' of 'complete' is 6.5; it must be a whole number"),
        ]
        for (event, payload, message) in refusals {
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in try h.send(m, event, payload) }
            #expect(text == message)
        }
        #expect(h.state(m) == "tracking")
        #expect(h.context(m, "completedDays") == .number(1) && h.context(m, "remainingDays") == .number(6))
        #expect(h.events().isEmpty)
        try h.send(m, "track", [.number(3), .number(4)])
        #expect(h.context(m, "completedDays") == .number(3) && h.context(m, "remainingDays") == .number(4))
        #expect(h.text(m, "title") == "4 days to go")
        try h.send(m, "complete", [.integer(7)])
        #expect(h.state(m) == "completed" && h.text(m, "title") == "7 days in a row — done!")
    }

    @Test("R3.3.1 (seed 001) the completed style: no bar, no days left, one day in the singular; tracking again restores the white card and its bar")
    func completedStyle() throws {
        let h = Harness()
        let m = try h.shipped("streakCard")
        try h.send(m, "track", [.number(3), .number(4)])
        try h.send(m, "complete", [.number(1)])
        #expect(h.text(m, "title") == "1 day in a row — done!")
        #expect(h.context(m, "remainingDays") == .number(0) && h.context(m, "ratio") == .number(1))
        #expect(h.model(m, "track", "opacity") == 0 && h.model(m, "fill", "opacity") == 0)
        let zh = try h.shipped("streakCard", locale: "zh")
        try h.send(zh, "complete", [.number(1)])
        #expect(h.text(zh, "title") == "已连续完成 1 天")
        try h.send(m, "track", [.number(0), .number(7)])
        #expect(try h.runtime.modelValue(forKeyPath: "backgroundColor", of: h.layer(m, "card")) == .color(1, 1, 1, 1))
        #expect(h.model(m, "track", "opacity") == 1 && h.model(m, "fill", "opacity") == 1 && h.model(m, "infoIcon", "opacity") == 1)
        #expect(h.model(m, "recalculateButton", "opacity") == 0 && h.model(m, "unlockButton", "opacity") == 0)
        #expect(h.model(m, "fill", "bounds.size.width") == 0)
    }

    @Test("R3.3.2 taps are forwarded to the host and decide nothing; a tap on a button the style does not show is refused")
    func tapsForwarded() throws {
        let h = Harness()
        let m = try h.shipped("streakCard")
        _ = h.events()
        try h.send(m, "infoTap")
        #expect(h.machineEvents(m) == ["emit info"])
        #expect(h.state(m) == "tracking")
        expectError(.state, ["'unlockTap' is not accepted in state 'tracking'"]) { () throws(AnimrtError) in try h.send(m, "unlockTap") }
        try h.send(m, "complete", [.number(7)])
        _ = h.events()
        try h.send(m, "recalculateTap")
        try h.send(m, "unlockTap")
        #expect(h.machineEvents(m) == ["emit recalculate", "emit unlock"])
        #expect(h.state(m) == "completed")   // the host, not the card, decides what follows
        #expect(h.context(m, "completedDays") == .number(7))
        expectError(.state, ["'infoTap' is not accepted in state 'completed'"]) { () throws(AnimrtError) in try h.send(m, "infoTap") }
    }
}
