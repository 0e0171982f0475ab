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

    @Test("a description is 168 bytes: its values and its Bézier live out of line")
    func descriptionSize() {
        // Every step of building and adding one copies it whole: with its
        // values inline it was 721 bytes, with its keyframes and Bézier
        // solver inline 320.
        #expect(MemoryLayout<Animation>.stride == 168)
        #expect(MemoryLayout<Animation.Content>.size == 8)  // a pointer: a box, or a group's array
        #expect(MemoryLayout<TimingFunction>.size == 16)    // linear(...)'s two arrays, the largest inline payload
    }

    @Test("large tables advise the pages they span, whole, and nothing past them")
    func largePageRanges() {
        let mb2 = UInt(LargePages.size)
        // Under two 2 MiB pages: left alone, aligned or not.
        #expect(LargePages.advisable(address: 0, bytes: 2 * Int(mb2) - 1, page: 4096) == nil)
        #expect(LargePages.advisable(address: 4096, bytes: 2 * Int(mb2) - 1, page: 4096) == nil)
        // Exactly two aligned 2 MiB pages: those.
        #expect(LargePages.advisable(address: 8 * mb2, bytes: 2 * Int(mb2), page: 4096) == (8 * mb2)..<(10 * mb2))
        // Unaligned: from the page holding the first byte to the end of the
        // page holding the last (a block from malloc starts 16 bytes into its mapping).
        #expect(LargePages.advisable(address: 8 * mb2 + 16, bytes: 3 * Int(mb2), page: 4096)
                == (8 * mb2)..<(11 * mb2 + 4096))
        #expect(LargePages.advisable(address: 8 * mb2 + 16, bytes: 3 * Int(mb2) - 16, page: 4096)
                == (8 * mb2)..<(11 * mb2))
        // With 64 KiB pages (aarch64), the span is in those.
        #expect(LargePages.advisable(address: 8 * mb2 + 70_000, bytes: 2 * Int(mb2), page: 65_536)
                == (8 * mb2 + 65_536)..<(10 * mb2 + 131_072))
        // At the top of the address space: no overflow, nothing advised past it.
        #expect(LargePages.advisable(address: UInt.max - mb2, bytes: 4 * Int(mb2), page: 4096) == nil)
        // The system's page size is a power of two.
        #expect(LargePages.pageSize >= 4096 && LargePages.pageSize & (LargePages.pageSize - 1) == 0)
    }

    @Test("tables grow by a quarter while small and by an eighth from 256 KiB, so large ones keep little slack")
    func growthSteps() {
        // The step, at and past its edge (in bytes, whatever the record's size).
        let edge = GrowingBlock.fineGrowthBytes
        #expect(edge == 256 << 10)
        #expect(GrowingBlock.grownCapacity(Double.self, from: 0) == 16)
        #expect(GrowingBlock.grownCapacity(Double.self, from: 16) == 36)
        #expect(GrowingBlock.grownCapacity(Double.self, from: edge / 8 - 1) == (edge / 8 - 1) * 5 / 4 + 16)
        #expect(GrowingBlock.grownCapacity(Double.self, from: edge / 8) == edge / 8 + edge / 64)
        #expect(GrowingBlock.grownCapacity(Int32.self, from: edge / 8) == edge / 8 * 5 / 4 + 16)
        #expect(GrowingBlock.grownCapacity(Int32.self, from: edge / 4) == edge / 4 + edge / 32)
        #expect(GrowingBlock.grownCapacity(Runtime.Instance.self, from: 10_000_000) == 11_250_000)

        // A column filled one value at a time holds at most an eighth more
        // room than values once it is large: 10^6 appends, checked all the way.
        let column = Column<Double>()
        var worst = 0.0
        for i in 0..<1_000_000 {
            column.append(Double(i))
            if column.capacity * 8 >= 2 * edge { worst = max(worst, Double(column.capacity) / Double(column.count)) }
        }
        #expect(worst > 1.1 && worst <= 1.125)
        #expect(column[999_999] == 999_999 && column[0] == 0)
        // A table of slots, the same (each attached animation is one).
        let table = SlotTable<Double>(kind: .animation, tag: 1, placeholder: 0)
        var inserted = 0
        for i in 0..<100_000 where (try? table.insert(Double(i))) != nil { inserted += 1 }
        #expect(inserted == 100_000 && table.count == 100_000)
        #expect(table.storage >= 100_000 && table.storage * 8 <= 100_000 * 9)
    }

    @Test("a growing block keeps its records through every growth, plain or reference-counted")
    func growingBlocks() {
        // From empty through the sizes where the C library maps a block on
        // its own (and remaps it to grow), a step at a time as the tables grow.
        var doubles = GrowingBlock.allocate(Double.self, capacity: 0)
        var count = 0, capacity = 0
        while capacity < 3_000_000 {
            let bigger = GrowingBlock.grownCapacity(Double.self, from: capacity)
            doubles = GrowingBlock.grow(doubles, count: count, to: bigger)
            LargePages.advise(doubles, bytes: bigger * MemoryLayout<Double>.stride)
            capacity = bigger
            while count < capacity { (doubles + count).initialize(to: Double(count) * 0.5); count += 1 }
        }
        var wrong = 0
        for i in 0..<count where doubles[i] != Double(i) * 0.5 { wrong += 1 }
        #expect(wrong == 0)
        #expect(count >= 3_000_000)
        GrowingBlock.free(doubles)

        // Values with references move too: nothing is lost or released twice.
        var strings = GrowingBlock.allocate(String.self, capacity: 4)
        for i in 0..<4 { (strings + i).initialize(to: "value \(i) " + String(repeating: "x", count: 40)) }
        strings = GrowingBlock.grow(strings, count: 4, to: 100_000)
        for i in 4..<100_000 { (strings + i).initialize(to: "value \(i) " + String(repeating: "x", count: 40)) }
        strings = GrowingBlock.grow(strings, count: 100_000, to: 1_000_000)
        #expect(strings[3].hasPrefix("value 3 ") && strings[99_999].hasPrefix("value 99999 "))
        strings.deinitialize(count: 100_000)
        GrowingBlock.free(strings)

        // A record holding a weak reference may not be moved by copying its
        // bytes: it takes the usual way, and its references survive growth.
        #if canImport(Glibc)
        #expect(GrowingBlock.usesCAllocator(Double.self) && GrowingBlock.usesCAllocator(String.self))
        #endif
        #expect(!GrowingBlock.usesCAllocator(WeakRecord.self))
        let objects = (0..<1000).map { _ in Marker() }
        var weak = GrowingBlock.allocate(WeakRecord.self, capacity: 1)
        var made = 0, room = 1
        while made < objects.count {
            if made == room { weak = GrowingBlock.grow(weak, count: made, to: room * 2); room *= 2 }
            (weak + made).initialize(to: WeakRecord(object: objects[made], index: made))
            made += 1
        }
        var lost = 0
        for i in 0..<made where weak[i].object !== objects[i] || weak[i].index != i { lost += 1 }
        #expect(lost == 0)
        weak.deinitialize(count: made)
        GrowingBlock.free(weak)
    }

    final class Marker {}
    struct WeakRecord { weak var object: Marker?; var index: Int }

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
