import AnimationCore
@testable import StateMachines
import Testing

@Suite("R3.4 indicatorBar (seed 002): a capsule bar with a percentage that rides above the fill")
struct IndicatorBarTests {
    @Test("R3.4.1 fill width = progress × width, indicator x = progress × width − labelWidth / 2, label \"%.0f%%\"", arguments: [
        (0.3, 90.0, 70.0, "30%"), (0, 0, -20, "0%"), (1, 300, 280, "100%"), (0.125, 37.5, 17.5, "12%"), (0.135, 40.5, 20.5, "14%"),
        (0.004, 1.2, -18.8, "0%"), (0.995, 298.5, 278.5, "100%"),
    ])
    func geometry(_ c: (Double, Double, Double, String)) throws {
        let h = Harness()
        let m = try h.shipped("indicatorBar")
        try h.send(m, "progress", [.number(c.0)])
        #expect(abs(h.model(m, "fill", "bounds.size.width") - c.1) < 1e-12)
        #expect(abs(h.model(m, "indicator", "position.x") - c.2) < 1e-12)
        #expect(h.text(m, "label") == c.3)
        #expect(abs(h.context(m, "fillWidth").number! - c.1) < 1e-12 && abs(h.context(m, "indicatorX").number! - c.2) < 1e-12)
    }

    @Test("R3.4.1 an unknown progress is drawn as 0; values outside [0, 1] are clamped")
    func unknown() throws {
        let h = Harness()
        let m = try h.shipped("indicatorBar", config: ["width": .number(200), "labelWidth": .number(60)])
        #expect(h.state(m) == "unknown")
        #expect(h.model(m, "fill", "bounds.size.width") == 0 && h.text(m, "label") == "0%")
        #expect(h.model(m, "indicator", "position.x") == -30)
        try h.send(m, "progress", [.number(0.5)])
        #expect(h.model(m, "fill", "bounds.size.width") == 100)
        _ = h.events()
        try h.send(m, "unknown")
        #expect(h.events().last { $0.type == .machineStateChanged }?.payload == [.number(0)])
        #expect(h.model(m, "fill", "bounds.size.width") == 0 && h.text(m, "label") == "0%")
        try h.send(m, "progress", [.number(1.4)])
        #expect(h.model(m, "fill", "bounds.size.width") == 200 && h.text(m, "label") == "100%")
    }
}
