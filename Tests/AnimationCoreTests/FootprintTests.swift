import Testing
@testable import AnimationCore

/// The records paid once per layer and per attached animation stay small
/// (make bench measures the bytes per layer and per animation at 10^6).
@Suite("Footprint of layers and attached animations")
struct FootprintTests {
    @Test("an attached animation's record is 36 bytes, a layer's 72")
    func records() {
        #expect(MemoryLayout<Runtime.Instance>.stride == 36)
        #expect(MemoryLayout<Runtime.LayerRecord>.stride == 72)
    }

    @Test("a bulk add sizes the batch columns and the tables once, with no slack")
    func bulkReservesExactly() throws {
        let rt = Runtime()
        var layers = [Handle](repeating: Handle(raw: 0), count: 1000)
        try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
        #expect(rt.layers.capacity == 1000)
        let d = try rt.createAnimation(.basic("opacity", from: .scalar(0), to: .scalar(1)))
        try layers.withUnsafeBufferPointer { try rt.addAnimations(d, to: $0, columns: [], forKey: nil, joining: nil) }
        #expect(rt.instances.capacity == 1000)
        #expect(rt.batches.lanes[Int(CurveTable.linear)].begin.capacity == 1000)
    }

    @Test("a description is 320 bytes: its values live out of line")
    func descriptionSize() {
        // Every step of building and adding one copies it whole; with its
        // values inline it was 721 bytes.
        #expect(MemoryLayout<Animation>.stride == 320)
        #expect(MemoryLayout<Animation.Content>.size == 72)  // the keyframes, the largest inline payload
    }

    @Test("large tables advise only the whole 2 MiB pages inside them")
    func largePageRanges() {
        let mb2 = UInt(LargePages.size)
        // Under two pages: left alone, aligned or not.
        #expect(LargePages.advisable(address: 0, bytes: 2 * Int(mb2) - 1) == nil)
        #expect(LargePages.advisable(address: 4096, bytes: 2 * Int(mb2) - 1) == nil)
        // Exactly two aligned pages: both.
        #expect(LargePages.advisable(address: 8 * mb2, bytes: 2 * Int(mb2)) == (8 * mb2)..<(10 * mb2))
        // Unaligned: the pages wholly inside, no byte outside the block.
        #expect(LargePages.advisable(address: 8 * mb2 + 16, bytes: 3 * Int(mb2)) == (9 * mb2)..<(11 * mb2))
        #expect(LargePages.advisable(address: 8 * mb2 + 16, bytes: 2 * Int(mb2)) == (9 * mb2)..<(10 * mb2))
        // At the top of the address space: no overflow, nothing advised past it.
        #expect(LargePages.advisable(address: UInt.max - mb2, bytes: 4 * Int(mb2)) == nil)
    }

    @Test("a layer with more properties than fit inline keeps each apart")
    func overflowingProperties() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        let paths = ["opacity", "cornerRadius", "borderWidth", "zPosition", "lineWidth", "strokeEnd"]
        for (i, p) in paths.enumerated() { try rt.setModelValue(.scalar(Double(i) + 0.5), forKeyPath: p, of: l) }
        try rt.add(.basic("lineWidth", from: .scalar(10), to: .scalar(20), timing: MediaTiming(beginTime: 0.001, duration: 1)),
                   to: l, forKey: nil)
        try rt.tick(0.501)
        for (i, p) in paths.enumerated() where p != "lineWidth" { #expect(try rt.scalar(p, l) == Double(i) + 0.5) }
        #expect(try rt.scalar("lineWidth", l) == 15)
        #expect(try rt.layerValues(l).count == 6)
    }
}
