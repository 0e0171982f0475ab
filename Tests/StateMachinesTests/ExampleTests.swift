import AnimationCore
import FoundationEssentials
@testable import StateMachines
import Testing

/// The repository root (two levels above this file's folder).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

@Suite("The example in docs/machines.md runs as the docs say")
struct ExampleTests {
    @Test("download button: tap, prepare, download (a stale result ignored), finish, reset after doneSeconds")
    func downloadButton() throws {
        let h = Harness()
        let dh = try h.host.load(contentsOf: repositoryRoot + "/examples/machines/download_button.json")
        h.tick(0)
        let m = try h.host.create(dh, options: .init(config: ["doneSeconds": .number(1)]))
        let button = try h.host.part("button", of: m)
        #expect(try h.runtime.modelValue(forKeyPath: "bounds.size.width", of: button) == .scalar(160))
        _ = h.events()
        try h.send(m, "tap")
        #expect(h.state(m) == "preparing")
        h.tick(0.1)   // shrink and round begin
        h.tick(0.35)
        #expect(h.state(m) == "preparing")
        h.tick(0.4)   // both have stopped: the download starts
        #expect(h.state(m) == "downloading")
        #expect(h.machineEvents(m).contains("request download #1"))
        try h.send(m, "progress", [.number(1), .number(0.5)])
        #expect(h.context(m, "progress") == .number(0.5))
        #expect(try h.send(m, "finished", [.number(7), .bool(true)]) == .stale)
        try h.send(m, "finished", [.number(1), .bool(true)])
        #expect(h.state(m) == "finished.succeeded")
        let reports = h.machineEvents(m)
        #expect(reports.contains("emit outcome [true, 'Done']"))
        h.tick(1.0)
        #expect(h.state(m) == "finished.succeeded")
        h.tick(1.4)   // doneSeconds (1) after it finished at 0.4
        #expect(h.state(m) == "idle")
        #expect(h.context(m, "label") == .string("Done"))
    }

    @Test("the same machine in Chinese, failing once")
    func chinese() throws {
        let h = Harness()
        let dh = try h.host.load(contentsOf: repositoryRoot + "/examples/machines/download_button.json")
        let m = try h.host.create(dh, options: .init(locale: "zh"))
        #expect(h.context(m, "label") == .string("下载"))
        try h.send(m, "tap")
        h.tick(0); h.tick(1)
        try h.send(m, "finished", [.number(1), .bool(false)])
        #expect(h.state(m) == "finished.failed")
        #expect(h.context(m, "label") == .string("重试"))
        #expect(h.context(m, "failures") == .number(1))
    }
}
