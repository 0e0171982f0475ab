import AnimationCore
@testable import StateMachines
import Testing

func shippedJSON(_ name: String) -> String { MachineHost.shippedDefinition(named: name)! }

/// Ticks from `from` to `to` every `step` seconds, as inputs (times on a
/// millisecond grid, so that `to` is exactly the last one).
func ticks(_ from: Double, _ to: Double, step: Double = 0.05) -> [TwinRun.Input] {
    stride(from: Int((from * 1000).rounded()), through: Int((to * 1000).rounded()), by: Int((step * 1000).rounded()))
        .map { .tick(Double($0) / 1000) }
}

@Suite("R3.0.3 each shipped machine, snapshotted mid-session and restored into a fresh runtime, continues bit for bit")
struct ShippedSnapshotTests {
    let snapshots = SnapshotTests()

    @Test("networkButton: snapshotted while the arcs spin, then stopped by an error")
    func buttonSpinning() throws {
        try snapshots.check(shippedJSON("networkButton"), config: ["linesCount": .number(3)],
                            prefix: [.send("startAnimate", [])] + ticks(0.05, 0.75), at: 0.75,
                            later: ticks(0.8, 1.2) + [.send("stopByError", [])] + ticks(1.25, 3))
    }

    @Test("networkButton: snapshotted while the check mark flashes and the bounce waits in its group")
    func buttonMarking() throws {
        try snapshots.check(shippedJSON("networkButton"),
                            prefix: [.send("tap", [])] + ticks(0.1, 1) + [.send("stopAnimate", [])] + ticks(1.1, 1.7), at: 1.7,
                            later: ticks(1.75, 3) + [.send("startAnimate", [])] + ticks(3.05, 4))
    }

    @Test("networkButton in progressMode, with a stop kept while it prepared")
    func buttonProgress() throws {
        try snapshots.check(shippedJSON("networkButton"), config: ["progressMode": .bool(true), "shouldAutoReverse": .bool(true)],
                            prefix: [.send("startAnimate", []), .tick(0.1), .send("updateProgress", [.number(0.3)]), .send("stopAnimate", []),
                                     .tick(0.2)], at: 0.2,
                            later: ticks(0.25, 2.5))
    }

    @Test("progressCard: snapshotted with a throttled update waiting and the freshness timer running")
    func cardThrottled() throws {
        try snapshots.check(shippedJSON("progressCard"),
                            prefix: [.send("fetch", []), .send("fetched", [.number(1), .number(0.35)]), .tick(0.1),
                                     .send("progress", [.number(0.38)]), .send("progress", [.number(0.5)]), .send("progress", [.number(0.72)])],
                            at: 0.1,
                            later: [.tick(0.11), .tick(0.12), .send("progress", [.number(0.74)]), .tick(0.2), .tick(0.4), .tick(0.7),
                                    .send("appear", []), .tick(200), .send("appear", []), .tick(301), .send("appear", []),
                                    .send("fetched", [.number(2), .number(1)]), .tick(301.2), .tick(301.9), .tick(305), .tick(311)])
    }

    @Test("progressCard: snapshotted while the ring fills, before the celebration; a stale result later")
    func cardFilling() throws {
        try snapshots.check(shippedJSON("progressCard"), config: ["afterCompletion": .string("stay")],
                            prefix: [.send("fetch", []), .send("fetch", []), .send("fetched", [.number(2), .number(1)]), .tick(0.1), .tick(0.3)],
                            at: 0.3,
                            later: [.send("fetched", [.number(1), .number(0.2)]), .tick(0.55), .tick(0.62), .tick(2), .tick(3.59),
                                    .tick(3.7), .tick(20), .send("hide", []), .tick(30)])
    }

    @Test("progressCard: snapshotted in error while a retry loads")
    func cardRetrying() throws {
        try snapshots.check(shippedJSON("progressCard"), config: [:],
                            prefix: [.send("fetch", []), .send("fetchFailed", [.number(1), .bool(true), .string("Offline")]), .tick(1),
                                     .send("retry", [])], at: 1,
                            later: [.send("retry", []), .send("fetched", [.number(1), .number(0.5)]), .tick(2),
                                    .send("fetched", [.number(2), .number(0.6), .string("almost")]), .tick(3)])
    }

    @Test("streakCard and indicatorBar: snapshotted mid-session")
    func cards() throws {
        try snapshots.check(shippedJSON("streakCard"), prefix: [.tick(1), .send("track", [.number(3), .number(4)])], at: 1,
                            later: [.send("infoTap", []), .tick(2), .send("complete", [.number(7)]), .send("unlockTap", []), .tick(3)])
        try snapshots.check(shippedJSON("indicatorBar"), prefix: [.tick(1), .send("progress", [.number(0.42)])], at: 1,
                            later: [.send("unknown", []), .tick(2), .send("progress", [.number(0.5)]), .tick(3)])
    }
}
