import Testing
@testable import AnimationCore

/// R0.3, R0.4: nothing accepted traps later, handles never come back to
/// life, every cost and every table is bounded. The same findings are
/// tested from C in bindings/c/tests/test_reliability.c.
@Suite("R0.4 reliability: total ticks, bounded costs, handle identity")
struct ReliabilityTests {
    // MARK: Numbers a tick computes

    @Test("Paced keyframes far apart are measured without overflow and evaluate finitely")
    func pacedFarApart() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: [.scalar(0), .scalar(1e160)])
        k.calculationMode = .cubicPaced
        try rt.add(.keyframe("position.x", k, timing: MediaTiming(duration: 1)), to: l, forKey: "k")
        for t in [0.0, 0.25, 0.5, 0.999] {
            try rt.tick(t)
            let v = try rt.scalar("position.x", l)
            #expect(v.isFinite && v >= 0 && v <= 1e160)
        }
        #expect(AnimatableValue.scalar(0).distance(to: .scalar(1e160)) == 1e160)
        #expect(AnimatableValue.point(0, 0).distance(to: .point(3e-200, 4e-200)) == 5e-200)
    }

    @Test("Keyframes that cannot be evaluated are refused when added", arguments: [
        ([0, 1e308, -1e308], CalculationMode.linear, 0.0),
        ([-1e308, 1e308, 0], .paced, 0),
        ([0, 1, 1e308, -1e308], .cubicPaced, 0),
        ([0, 1e160], .cubicPaced, -1e308),
        ([0, 1e300, 0], .cubic, -1e10),
    ])
    func unevaluableKeyframes(values: [Double], mode: CalculationMode, tension: Double) throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: values.map { .scalar($0) })
        k.calculationMode = mode
        k.tensionValues = [Double](repeating: tension, count: values.count)
        do { try rt.add(.keyframe("position.x", k), to: l, forKey: "k"); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange) }
        #expect(rt.attachedCounts.total == 0)
    }

    @Test("Basic ends whose difference overflows are refused; ends from the model stay finite")
    func basicEnds() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let wide = Animation.basic("opacity", from: .scalar(-1e308), to: .scalar(1e308))
        do { try rt.add(wide, to: l, forKey: nil); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
        let byTooFar = Animation.basic("opacity", from: .scalar(1e308), by: .scalar(1e308))
        do { try rt.add(byTooFar, to: l, forKey: nil); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
        // Only the model end is known at a tick: the overflow is caught where it is written.
        try rt.setModelValue(.scalar(-1e308), forKeyPath: "opacity", of: l)
        try rt.add(.basic("opacity", to: .scalar(1e308), timing: MediaTiming(duration: 1)), to: l, forKey: nil)
        for t in [0.0, 0.5, 0.75] {
            try rt.tick(t)
            #expect(try rt.scalar("opacity", l).isFinite)
        }
    }

    @Test("A curve that overshoots past the doubles shows the largest finite value")
    func overshoot() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        let curve = try TimingFunction.cubicBezier(0.5, 1e300, 0.5, 1e300)
        for path in ["opacity", "transform.rotation.z"] {  // the batch and the general path
            try rt.add(.basic(path, from: .scalar(0), to: .scalar(1e300), timing: MediaTiming(duration: 1), timingFunction: curve),
                       to: l, forKey: path)
        }
        // A plugin curve is only known to return finite numbers.
        let wild = TimingFunction.custom(CustomTimingFunction(name: "wild") { _ in 1e300 })
        try rt.add(.basic("strokeEnd", from: .scalar(-1e300), to: .scalar(1e300), timing: MediaTiming(duration: 1), timingFunction: wild),
                   to: l, forKey: "wild")
        #expect(rt.attachedCounts.batched == 2)  // opacity (Bézier lane) and strokeEnd (the plugin curves' lane)
        try rt.tick(0); try rt.tick(0.5)
        #expect(try rt.scalar("opacity", l) == .greatestFiniteMagnitude)
        #expect(try rt.scalar("strokeEnd", l) == .greatestFiniteMagnitude)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l)
        #expect(m.components.allSatisfy { $0.isFinite })
        #expect(try rt.scalar("transform.rotation.z", l).isFinite)
    }

    @Test("presentable: NaN shows the fallback, infinities the largest finite double")
    func presentableValues() {
        #expect(presentable(2, fallback: 7) == 2)
        #expect(presentable(.nan, fallback: 7) == 7)
        #expect(presentable(.infinity, fallback: 7) == .greatestFiniteMagnitude)
        #expect(presentable(-.infinity, fallback: 7) == -.greatestFiniteMagnitude)
        #expect(presentable(.nan, fallback: .nan) == 0)
        #expect(clampedIndex(.nan, upperBound: 5) == 0)
        #expect(clampedIndex(-.infinity, upperBound: 5) == 0)
        #expect(clampedIndex(.infinity, upperBound: 5) == 5)
        #expect(clampedIndex(3.7, upperBound: 5) == 3)
        #expect(clampedIndex(5, upperBound: 5) == 5)
    }

    @Test("Springs whose closed form overflows are refused", arguments: [
        (1e-300, 1e300, 10.0, 0.0), (1e300, 1e-300, 10, 0), (1e-200, 1e-200, 0, 0), (1, 100, 19.999999999999, 1e308),
    ])
    func unevaluableSprings(mass: Double, stiffness: Double, damping: Double, velocity: Double) {
        let s = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
        do { try s.validate(); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
        #expect(throws: Never.self) { try Spring(mass: 1, stiffness: 1e6, damping: 0).validate() }
    }

    @Test("Cumulative transforms repeat in logarithmic time, whatever the count")
    func cumulativeTransform() throws {
        let turn = AnimatableValue.transform(.rotationZ(0.5))
        #expect(turn.repeated(3) == .transform(Transform3D.rotationZ(0.5).concatenating(.rotationZ(0.5)).concatenating(.rotationZ(0.5))))
        #expect(turn.repeated(0) == .transform(.identity))
        let huge = AnimatableValue.transform(.scale(2, 2)).repeated(1e300)  // 2^(1e300): overflows, quickly
        #expect(!huge.lanes[0].isFinite)
        let rt = Runtime(); let l = try rt.createLayer()
        var a = Animation.basic("transform", from: .transform(.identity), to: .transform(.scale(2, 2)),
                                timing: MediaTiming(duration: 1e-300, repeatCount: 1e308))
        a.isCumulative = true
        try rt.add(a, to: l, forKey: nil)
        try rt.tick(0); try rt.tick(1)
        #expect(try rt.presentationValue(forKeyPath: "transform", of: l).components.allSatisfy { $0.isFinite })
    }

    @Test("A transform part whose matrix would overflow is refused; reads stay finite")
    func transformParts() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        // The first row is √2 × 1.5e308 long: its scale overflows, so
        // recomposing the matrix with another part changed does too.
        var big = Transform3D.identity
        big[0, 0] = 1.5e308; big[0, 1] = 1.5e308
        try rt.setModelValue(.transform(big), forKeyPath: "transform", of: l)
        #expect(try rt.modelValue(forKeyPath: "transform.scale.x", of: l).scalar.isFinite)
        do { try rt.setModelValue(.scalar(2), forKeyPath: "transform.scale.y", of: l); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange) }
        #expect(try rt.modelValue(forKeyPath: "transform", of: l) == .transform(big))
    }

    @Test("Local times are computed without recursion and stay finite")
    func deepTree() throws {
        let rt = Runtime()
        let root = try rt.createLayer()
        var leaf = root
        for _ in 0..<100_000 { leaf = try rt.createLayer(parent: leaf) }
        try rt.add(linear("opacity", 0, 1, duration: 1), to: leaf, forKey: "a")
        try rt.setTiming(LayerTiming(speed: 2), of: root)  // demotes the whole subtree, iteratively
        try rt.tick(0); try rt.tick(0.25)
        #expect(try rt.scalar("opacity", leaf) == 0.5)
        let middle = try rt.parent(of: try rt.parent(of: leaf)!)!
        try rt.setTiming(LayerTiming(speed: 1e308), of: middle)
        try rt.tick(0.5)
        let local = try rt.localTime(of: leaf)  // nil: unresolved (outside a timed layer's interval)
        #expect(local.map { $0.isFinite } ?? true)
        try rt.setParent(leaf, nil)
        try rt.destroyLayer(root)
        #expect(rt.layerCount == 100_000)
    }

    // MARK: Handles

    @Test("Runtime tags: distinct while alive, reused as late as possible, refused past the limit")
    func runtimeTags() {
        let tags = RuntimeTags(capacity: 3)
        let a = tags.acquire(), b = tags.acquire(), c = tags.acquire()
        #expect([a, b, c] == [1, 2, 3])
        #expect(tags.acquire() == nil)  // at the limit: refused, never a trap
        tags.release(2)
        #expect(tags.acquire() == 2)
        tags.release(1); tags.release(3)
        #expect(tags.acquire() == 3)  // the cursor moves on from 2 before coming back to 1
        #expect(tags.acquire() == 1)
        #expect(tags.count == 3)
        let fresh = RuntimeTags(capacity: 5)
        let first = fresh.acquire()!
        fresh.release(first)
        #expect(fresh.acquire() != first)
        #expect(RuntimeTags.shared.capacity == Limits.runtimes)
    }

    @Test("Runtime tags: a tag given back twice, or never held, changes nothing")
    func runtimeTagsReleasedTwice() throws {
        let tags = RuntimeTags(capacity: 3)
        let a = tags.acquire()!, b = tags.acquire()!
        #expect(tags.count == 2)
        tags.release(a)
        tags.release(a)
        // Stop here if not: a count below the truth lets `acquire` look for a free tag where none is.
        try #require(tags.count == 1)
        tags.release(0); tags.release(4); tags.release(3)  // none held: outside 1 ... 3, or free
        try #require(tags.count == 1)
        #expect(tags.acquire() == 3 && tags.acquire() == a)
        #expect(tags.acquire() == nil && tags.count == 3)
        tags.release(b)
        #expect(tags.acquire() == b)
    }

    @Test("Runtimes alive at once have distinct tags; a foreign handle is refused")
    func liveRuntimesDiffer() throws {
        let a = try Runtime.make(), b = try Runtime.make()
        #expect(a.tag != b.tag && a.tag != 0 && b.tag != 0)
        let la = try a.createLayer()
        do { _ = try b.createLayer(parent: la); Issue.record("accepted") } catch { #expect(error.message.contains("another runtime")) }
        expectFailure(.outOfRange) { _ = try Runtime.make(configuration: .init(eventCapacity: Limits.eventCapacity + 1)) }.map {
            #expect($0.message == "event capacity 16777217 is more than the 16777216 allowed")
        }
        #expect(try Runtime.make(configuration: .init(eventCapacity: Limits.eventCapacity)).configuration.eventCapacity == Limits.eventCapacity)
    }

    @Test("A slot whose generations are used up is retired: its old handles never come back")
    func slotRetirement() throws {
        let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
        let first = try table.insert(1)
        table.remove(at: first.index)
        var last = first
        for _ in 1..<Limits.generations {
            last = try table.insert(2)
            #expect(last.index == first.index)
            table.remove(at: last.index)
        }
        #expect(last.generation == UInt32(Limits.generations))
        let next = try table.insert(3)
        #expect(next.index != first.index)  // the slot is retired, not wrapped to generation 1
        #expect(throws: AnimrtError.self) { try table.index(of: first) }
        // The retired slot's last handle was given: stale, not unknown.
        #expect(expectFailure(.handle) { _ = try table.index(of: last) }?.message == "layer handle \(last.hex) is stale (the layer was destroyed)")
    }

    @Test("R0.3 a handle the table never gave (a slot not made, a generation not reached) is named as such, not as stale")
    func neverGiven() throws {
        let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
        let a = try table.insert(1), b = try table.insert(2)
        table.remove(at: a.index)
        func message(_ h: Handle) -> String? { expectFailure(.handle) { _ = try table.index(of: h) }?.message }
        func forged(index: Int, generation: UInt32) -> Handle { Handle(runtime: 1, kind: .layer, generation: generation, index: index) }
        let never = { (h: Handle) in "layer handle \(h.hex) was never given out by this runtime: no layer had its slot and generation (a number that is not a handle, or one altered?)" }
        // Freed: a's handle is stale; the generation after it (the slot's next) was never given.
        #expect(message(a) == "layer handle \(a.hex) is stale (the layer was destroyed)")
        let next = forged(index: a.index, generation: a.generation + 1)
        #expect(message(next) == never(next))
        // Live: b's older generations do not exist (b is its slot's first), nor do later ones.
        for h in [forged(index: b.index, generation: b.generation + 1), forged(index: b.index, generation: 0),
                  forged(index: 2, generation: 1), forged(index: Handle.maxIndex, generation: 1)] {
            #expect(message(h) == never(h))
            _ = expectFailure(.handle) { _ = try table.isLive(h) }
        }
        #expect(try table.isLive(a) == false && table.isLive(b))
        // Once the slot is reused, the freed generation is stale and the live one valid.
        let c = try table.insert(3)
        #expect(c.index == a.index && c.generation == next.generation)
        #expect(message(a) == "layer handle \(a.hex) is stale (the layer was destroyed)")
        #expect(try table.index(of: next) == a.index)
    }

    @Test("A slot released twice is freed once: two inserts after it get two slots")
    func doubleRelease() throws {
        let table = SlotTable<Int>(kind: .barrier, tag: 1, placeholder: 0)
        let a = try table.insert(1), b = try table.insert(2)
        table.release(at: a.index)
        table.release(at: a.index)  // a caller's fault: the table stays as it was after the first
        #expect(table.count == 1)
        let c = try table.insert(3), d = try table.insert(4)
        #expect(c.index == a.index && d.index != c.index && d.index != b.index)
        #expect(table[c.index] == 3 && table[d.index] == 4 && table[b.index] == 2 && table.count == 3)
        #expect(throws: AnimrtError.self) { try table.index(of: a) }
    }

    @Test("The next free slots are the ones the next inserts take, and asking for them changes nothing")
    func nextFree() throws {
        let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
        var handles: [Handle] = []
        for v in 0..<8 { handles.append(try table.insert(100 + v)) }
        for i in [1, 6, 3, 4] { table.remove(at: handles[i].index) }  // freed in this order: a stack
        #expect(Array(table.nextFree(2)) == [4, 3])
        #expect(Array(table.nextFree(0)).isEmpty && Array(table.nextFree(-1)).isEmpty)
        #expect(Array(table.nextFree(99)) == [4, 3, 6, 1])
        table.prefetchNextFree(99)
        #expect(try table.insert(7).index == 4 && table.insert(8).index == 3 && table.insert(9).index == 6)
        #expect(Array(table.nextFree(99)) == [1])
        #expect(table[0] == 100 && table[7] == 107 && table[4] == 7)
    }

    @Test("A table refuses with .noMemory at its slot limit, and has room again after a removal")
    func slotLimit() throws {
        let table = SlotTable<Int>(kind: .timer, tag: 1, placeholder: 0, slotLimit: 4)
        var handles: [Handle] = []
        for i in 0..<4 { handles.append(try table.insert(i)) }
        #expect(!table.hasRoom)
        expectFailure(.noMemory) { _ = try table.insert(9) }.map {
            #expect($0.message == "too many timers: a runtime holds at most 4 at once, and each slot is reused 1048575 times at most")
        }
        #expect(table.count == 4)  // nothing was inserted
        table.remove(at: handles[1].index)
        #expect(table.hasRoom)
        #expect(try table.insert(9).index == handles[1].index)
        #expect(SlotTable<Int>(kind: .timer, tag: 1, placeholder: 0).slotLimit == Limits.objects)
    }

    /// What an operation refused midway (a machine restore) relies on: the
    /// objects it made and freed again leave no trace in the table.
    @Test("A journal rewound puts a table back as it was: free slots in order, generations unspent, a retired slot free again")
    func journalRewind() throws {
        // Two tables with the same history: one makes and frees objects in
        // a journal and rewinds it, the other never does.
        func prepared() throws -> (SlotTable<Int>, Handle) {
            let table = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
            let a = try table.insert(1), b = try table.insert(2), c = try table.insert(3)
            table.remove(at: b.index)
            table.remove(at: a.index)  // the free slots: b's, then a's on top
            return (table, c)
        }
        let (table, kept) = try prepared(), (untouched, _) = try prepared()
        #expect(table.beginJournal())
        #expect(!table.beginJournal(), "one journal at a time")
        let x = try table.insert(10), y = try table.insert(11), z = try table.insert(12)  // a's slot, b's, a new one
        table.remove(at: y.index)
        let w = try table.insert(13)  // b's slot again, one generation on
        #expect(w.index == y.index && w.generation == y.generation + 1)
        for h in [x, w, z] { table.remove(at: h.index) }
        #expect(table.rewindJournal())
        #expect(table.count == untouched.count && table.capacity == untouched.capacity)
        #expect(try table.index(of: kept) == kept.index && table[kept.index] == 3)
        for v in 0..<4 { #expect(try table.insert(v) == untouched.insert(v)) }

        // A slot on its last generation, made and freed in a journal, is
        // retired; rewound, it is free again with that generation unspent.
        let last = SlotTable<Int>(kind: .layer, tag: 1, placeholder: 0)
        for _ in 1..<Limits.generations { last.remove(at: try last.insert(0).index) }
        #expect(last.beginJournal())
        let final = try last.insert(1)
        #expect(final.generation == UInt32(Limits.generations))
        last.remove(at: final.index)
        #expect(last.rewindJournal())
        #expect(try last.insert(2) == final)

        // An object still live, or an older one freed: the table is left as it is.
        #expect(table.beginJournal())
        let live = try table.insert(20)
        #expect(!table.rewindJournal())
        #expect(try table.index(of: live) == live.index)
        #expect(table.beginJournal())
        table.remove(at: live.index)
        #expect(!table.rewindJournal())
        #expect(throws: AnimrtError.self) { try table.index(of: live) }
    }

    @Test("A reader whose target layer was destroyed fails, even once the slot is reused")
    func readerTargets() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer()
        let kp = try rt.properties.resolve("opacity")
        let reader = try rt.createReader([(a, kp), (b, kp)])
        var out = [Double](repeating: -1, count: 2)
        try out.withUnsafeMutableBufferPointer { try rt.readPresentation(reader: reader, into: $0) }
        #expect(out == [1, 1])
        try rt.destroyLayer(b)
        let c = try rt.createLayer()  // takes b's slot and its values' place
        try rt.setModelValue(.scalar(0.25), forKeyPath: "opacity", of: c)
        try rt.tick(0)
        out = [-1, -1]
        do throws(AnimrtError) {
            try out.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.readPresentation(reader: reader, into: b) }
            Issue.record("read through a dead target")
        } catch {
            #expect(error.status == .handle)
            #expect(error.message.hasPrefix("target 1 can no longer be read"))
        }
        #expect(out == [-1, -1])  // nothing written
        let fresh = try rt.createReader([(a, kp), (c, kp)])
        try out.withUnsafeMutableBufferPointer { try rt.readPresentation(reader: fresh, into: $0) }
        #expect(out == [1, 0.25])
    }

    // MARK: Names

    @Test("Malformed key paths are refused and mint no id", arguments: [
        "opacity.", "position.", ".x", "position..x", "", "position.x.", ".", "bounds.size.", "transform.rotation.",
    ])
    func malformedKeyPaths(path: String) {
        let rt = Runtime()
        do { _ = try rt.keyPathID(path); Issue.record("accepted '\(path)'") } catch { #expect(error.status == .notFound) }
        #expect(rt.keyPathTable.isEmpty)
    }

    @Test("Names are at most 255 bytes: 255 are taken, one byte more is refused with its length and nothing is kept")
    func nameLength() throws {
        var registry = PropertyRegistry()
        let longest = String(repeating: "p", count: Limits.nameBytes)
        try registry.define(longest, default: .scalar(0))
        #expect(try registry.resolve(longest).name == longest)
        let defined = registry.properties.count
        expectFailure(.outOfRange) { try registry.define(longest + "q", default: .scalar(0)) }.map {
            #expect($0.message == "property name is 256 bytes long; names are at most 255 bytes")
        }
        #expect(registry.properties.count == defined)  // nothing was defined
        expectFailure(.outOfRange) { _ = try registry.resolve(longest + ".x") }.map {
            #expect($0.message == "key path is 257 bytes long; names are at most 255 bytes")
        }
        let rt = Runtime(); let l = try rt.createLayer()
        let key = String(repeating: "k", count: 255)
        try rt.add(linear("opacity", 0, 1), to: l, forKey: key)
        expectFailure(.outOfRange) { try rt.add(linear("opacity", 0, 1), to: l, forKey: key + "k") }.map {
            #expect($0.message == "animation key is 256 bytes long; names are at most 255 bytes")
        }
        #expect(try rt.animationKeys(of: l) == [key])  // nothing was added
        // A stored description goes to the batch by a path of its own
        // (the C boundary reads no more than 256 bytes; Swift reads all).
        let d = try rt.createAnimation(linear("opacity", 0, 1)), m = try rt.createLayer()
        expectFailure(.outOfRange) { try rt.addAnimation(d, to: m, forKey: key + "k") }.map {
            #expect($0.message == "animation key is 256 bytes long; names are at most 255 bytes")
        }
        #expect(try rt.animationKeys(of: m).isEmpty && rt.attachedCounts.batched == 1)
        try rt.addAnimation(d, to: m, forKey: key)
        #expect(try rt.animationKeys(of: m) == [key] && rt.attachedCounts.batched == 2)
        // 255 bytes are looked up (and not found); 256 are refused for their length.
        expectFailure(.notFound, containing: "no timing function named") { _ = try rt.timingFunctions.function(named: String(repeating: "e", count: 255)) }
        expectFailure(.outOfRange) { _ = try rt.timingFunctions.function(named: String(repeating: "e", count: 256)) }.map {
            #expect($0.message == "timing function name is 256 bytes long; names are at most 255 bytes")
        }
    }

    @Test("Suggestions: the banded distance agrees with the full one")
    func boundedDistance() {
        func full(_ a: [UInt8], _ b: [UInt8]) -> Int {
            if a.isEmpty { return b.count }
            if b.isEmpty { return a.count }
            var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            for i in 1...a.count { for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                // An exchange of neighbours is one edit (optimal string alignment).
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            } }
            return d[a.count][b.count]
        }
        let words = ["opacity", "opacty", "opactiy", "position.x", "postion.x", "bounds.size.width", "bounds.size", "", "o", "xyz",
                     "transform.rotation.z", "transfrom.rotation", "cornerRadius", "cornerradius"]
        for a in words { for b in words { for bound in 0...6 {
            let exact = full(Array(a.utf8), Array(b.utf8))
            #expect(boundedEditDistance(Array(a.utf8), Array(b.utf8), bound: bound) == (exact <= bound ? exact : nil), "\(a) \(b) \(bound)")
        } } }
        #expect(closestMatch(to: "opacty", in: ["position", "opacity", "zPosition"]) == "opacity")
        #expect(closestMatch(to: "widht", in: ["height", "width"]) == "width")
        #expect(boundedEditDistance(Array("opactiy".utf8), Array("opacity".utf8), bound: 3) == 1)
        #expect(closestMatch(to: "completely-different", in: ["opacity"]) == nil)
    }

    @Test("Suggestions cost at most their budget, however many and long the names")
    func suggestionBudget() {
        let long = String(repeating: "a", count: 200)
        let candidates = (0..<100_000).map { _ in long }  // all within the length band
        // Each candidate costs ~201 × 133 cells: the budget is spent after a few dozen.
        #expect(closestMatch(to: long + "b", in: candidates, budget: 1 << 20) == long)
        #expect(closestMatch(to: long + "b", in: candidates, budget: 10) == nil)
    }

    @Test("An unknown name's message is completed lazily and keeps its suggestion through a prefix")
    func lazySuggestion() {
        var registry = PropertyRegistry()
        do { _ = try registry.resolve("opacty"); Issue.record("accepted") } catch {
            #expect(error.prefixed("target 2: ").message == "target 2: key path 'opacty' is not animatable; did you mean 'opacity'?")
        }
        do { _ = try registry.resolve("zzzzzzzzzzzzzzzz"); Issue.record("accepted") } catch {
            #expect(error.message == "key path 'zzzzzzzzzzzzzzzz' is not animatable (built-in properties: anchorPoint, "
                    + "backgroundColor, borderColor, borderWidth, bounds, cornerRadius, lineWidth, opacity, position, "
                    + "strokeColor, strokeEnd, strokeStart, transform, zPosition; define host properties with animrt_property_define)")
        }
    }

    @Test("A runtime holds at most 65,536 properties")
    func propertyLimit() throws {
        var registry = PropertyRegistry()
        for i in registry.properties.count..<Limits.properties { try registry.define("p\(i)", default: .scalar(0)) }
        #expect(registry.properties.count == Limits.properties)
        expectFailure(.outOfRange) { try registry.define("one-more", default: .scalar(0)) }.map {
            #expect($0.message == "cannot define 'one-more': a runtime holds at most 65536 properties (built-in ones included)")
        }
        #expect(registry.properties.count == Limits.properties)  // nothing was defined
        expectFailure(.notFound, containing: "'one-more' is not animatable") { _ = try registry.resolve("one-more") }
    }

    @Test("A runtime gives ids for at most 32,768 distinct key paths; the next is refused and those given stay valid")
    func keyPathLimit() throws {
        let rt = Runtime()
        for i in 0..<Limits.keyPaths { try rt.properties.define("k\(i)", default: .scalar(0)) }
        var ids: [Int32] = []
        for i in 0..<Limits.keyPaths { ids.append(try rt.keyPathID("k\(i)")) }
        #expect(ids == (0..<Int32(Limits.keyPaths)).map { $0 })  // at the limit: every one given, in order
        expectFailure(.outOfRange) { _ = try rt.keyPathID("opacity") }.map {
            #expect($0.message == "a runtime resolves at most 32768 distinct key paths; 'opacity' would be one more")
        }
        #expect(rt.keyPathTable.count == Limits.keyPaths)  // nothing was minted
        #expect(try rt.keyPathID("k0") == 0 && rt.keyPathID("k32767") == 32_767)  // those given: the same ids
        #expect(try rt.keyPath(id: 32_767).name == "k32767")
        expectFailure(.notFound) { _ = try rt.keyPathID("opacty") }  // an unknown one is still unknown, not out of range
    }

    // MARK: Groups

    @Test("Groups: at most 1024 animations in all, at most 16 levels")
    func groupLimits() throws {
        var g = Animation.group([])
        let leaf = linear("opacity", 0, 1)
        for _ in 0..<Limits.groupSize { try g.appendToGroup(leaf) }
        do { try g.appendToGroup(leaf); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
        var doubling = Animation.group([leaf])
        var calls = 0
        while true {
            do { try doubling.appendToGroup(doubling); calls += 1 } catch { #expect(error.status == .outOfRange); break }
        }
        #expect(calls == 9)  // 1, 3, 7, …, 1023 animations; the 10th doubling would hold 2047
        var deep = Animation.group([leaf])
        for _ in 1..<Limits.groupDepth { let inner = deep; deep = .group([]); try deep.appendToGroup(inner) }
        #expect(deep.groupMeasure().depth == Limits.groupDepth)
        var deeper = Animation.group([])
        do { try deeper.appendToGroup(deep); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
        // Built directly in Swift past the limit: refused when added, before any recursion.
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.add(deep, to: l, forKey: nil)
        do { try rt.add(.group([deep]), to: l, forKey: nil); Issue.record("accepted") } catch { #expect(error.status == .outOfRange) }
    }

    @Test("At most 256 transactions are open at once")
    func transactionDepth() throws {
        let rt = Runtime()
        for _ in 0..<Limits.transactionDepth { try rt.beginTransaction() }
        expectFailure(.outOfRange) { try rt.beginTransaction() }.map {
            #expect($0.message == "256 transactions are open on this thread, the most at once; commit one first")
        }
        #expect(rt.transactionDepth == Limits.transactionDepth)  // nothing was opened
        try rt.commitTransaction(token: 1)
        try rt.beginTransaction()
    }

    @Test("At most 2^20 notifications wait on one barrier; at zero a notify runs and is not held")
    func barrierNotifies() throws {
        let rt = Runtime()
        let b = try rt.createBarrier()
        try rt.enter(b)
        for t in 0..<UInt64(Limits.barrierNotifies) { try rt.notify(b, token: t) }
        expectFailure(.outOfRange) { try rt.notify(b, token: 7) }.map {
            #expect($0.message.hasSuffix("has 1048576 notifications waiting for its count to reach zero, the most a barrier holds; wait for them, or notify another barrier"))
        }
        expectFailure(.outOfRange) { try rt.notify(b) { Issue.record("a refused closure ran") } }
        #expect(rt.barriers[b.index].actions.count == Limits.barrierNotifies)  // nothing added
        try rt.leave(b)
        #expect(rt.barriers[b.index].actions.isEmpty)
        var ran = 0
        for _ in 0..<3 { try rt.notify(b) { ran += 1 } }  // at zero: run at once, none held
        #expect(ran == 3 && rt.barriers[b.index].actions.isEmpty)
    }

    // MARK: Memory held

    @Test("Curves and animation keys are released when nothing uses them")
    func internedReleased() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var t = 0.0
        for i in 0..<2_000 {
            let curve = try TimingFunction.cubicBezier(0.25, Double(i) / 1000, 0.75, 1)
            try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 0.01), timingFunction: curve),
                       to: l, forKey: "key \(i)")
            t += 0.02; try rt.tick(t); t += 0.02; try rt.tick(t)
            #expect(rt.curves.liveCount <= 1 && rt.liveKeyCount <= 1)
        }
        #expect(rt.curves.liveCount == 0 && rt.liveKeyCount == 0)
        #expect(rt.curves.functions.count <= 2 && rt.keyNames.count <= 2)  // ids were reused
        // Shared while in use, released after.
        let curve = try TimingFunction.cubicBezier(0.1, 0.2, 0.3, 0.4)
        let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), timingFunction: curve), to: a, forKey: "same")
        try rt.add(.basic("opacity", from: .scalar(0), to: .scalar(1), timingFunction: curve), to: b, forKey: "same")
        #expect(rt.curves.liveCount == 1 && rt.liveKeyCount == 1)
        try rt.destroyLayer(a)
        #expect(rt.curves.liveCount == 1 && rt.liveKeyCount == 1)
        try rt.removeAnimation(forKey: "same", from: b)
        #expect(rt.curves.liveCount == 0 && rt.liveKeyCount == 0)
    }

    @Test("Work queued between ticks stays proportional to what is alive")
    func queuedWorkBounded() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        for i in 0..<20_000 {
            try rt.setModelValue(.scalar(Double(i)), forKeyPath: "opacity", of: l)
            try rt.add(linear("position.x", 0, 1), to: l, forKey: "k")
        }
        #expect(rt.staleProperties.count <= 2 * rt.model.count + 64)
        #expect(rt.pendingBegins.count <= 2 * rt.attachedCounts.total + 64)
        try rt.tick(0)
        #expect(try rt.scalar("opacity", l) == 19_999)
    }

    /// Copies added to several layers at once (a machine's `animate` on a
    /// repeated part) are all or none: a table with room for some of them
    /// refuses them all before the first is attached.
    @Test("R0.4 adding copies to more layers than the table has room for attaches none of them")
    func copiesPastTheTable() throws {
        let rt = Runtime()
        let layers = try (0..<4).map { _ in try rt.createLayer() }
        try rt.add(linear("opacity", 0, 1), to: layers[0], forKey: "first")
        rt.limitTable(.instance, to: 3)  // room for 2 more
        let copies = [Animation](repeating: linear("position.x", 0, 9), count: 3)
        expectFailure(.noMemory, containing: "too many", "at most 3") {
            _ = try rt.add(copies, to: Array(layers[1...]), forKey: "x")
        }
        #expect(rt.attachedCounts.total == 1)
        for l in layers[1...] { #expect(try rt.animationKeys(of: l).isEmpty) }
        let added = try rt.add(Array(copies[..<2]), to: Array(layers[1..<3]), forKey: "x")
        #expect(added.count == 2 && rt.attachedCounts.total == 3)
        #expect(try rt.animationKeys(of: layers[2]) == ["x"])
    }

    /// The Swift calls that take one item per layer refuse counts that do
    /// not match, and a layer given twice for one value, with a status and
    /// nothing changed (they trapped, which a Swift host could reach).
    @Test("R0.3 R0.4 copies and model values for a layer count of their own, or a layer twice, are refused whole")
    func mismatchedCountsRefused() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: layers[0])
        let copies = [Animation](repeating: linear("opacity", 0, 1), count: 2)
        let added = expectFailure(.invalidArgument) { _ = try rt.add(copies, to: layers, forKey: "x") }
        #expect(added?.message == "2 animations for 3 layers: give one layer per animation")
        let one = expectFailure(.invalidArgument) { _ = try rt.add([copies[0]], to: [], forKey: "x") }
        #expect(one?.message == "1 animation for 0 layers: give one layer per animation")
        #expect(rt.attachedCounts.total == 0)
        let values = expectFailure(.invalidArgument) {
            try rt.setModelValues([.scalar(0.1)], forKeyPath: "opacity", of: Array(layers[..<2]))
        }
        #expect(values?.message == "1 value for 2 layers: give one value per layer")
        let more = expectFailure(.invalidArgument) {
            try rt.setModelValues([.scalar(0.1), .scalar(0.2)], forKeyPath: "opacity", of: [layers[0]])
        }
        #expect(more?.message == "2 values for 1 layer: give one value per layer")
        let twice = expectFailure(.invalidArgument) {
            try rt.setModelValues([.scalar(0.1), .scalar(0.2), .scalar(0.3)], forKeyPath: "opacity",
                                  of: [layers[1], layers[0], layers[1]])
        }
        #expect(twice?.message == "\(layers[1]) is given twice; a layer takes one value of 'opacity' at a time")
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[0]).scalar == 0.5)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[1]).scalar == 1)
        // The same layers once each are taken, in order.
        try rt.setModelValues([.scalar(0.1), .scalar(0.2)], forKeyPath: "opacity", of: [layers[1], layers[0]])
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[0]).scalar == 0.2)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[1]).scalar == 0.1)
    }

    /// Layers made in one call are all or none: a table with room for some
    /// of them refuses them all before the first is made.
    @Test("R0.4 creating more layers at once than the table has room for creates none of them")
    func layersPastTheTable() throws {
        let rt = Runtime()
        let root = try rt.createLayer()
        rt.limitTable(.layer, to: 3)  // room for 2 more
        var out = [Handle](repeating: Handle(raw: 0), count: 3)
        expectFailure(.noMemory, containing: "too many layers", "at most 3") {
            try out.withUnsafeMutableBufferPointer { try rt.createLayers(parent: root, into: $0) }
        }
        #expect(rt.layerCount == 1)
        #expect(try rt.children(of: root).isEmpty)
        #expect(out == [Handle](repeating: Handle(raw: 0), count: 3))
        try out.withUnsafeMutableBufferPointer { try rt.createLayers(parent: root, into: UnsafeMutableBufferPointer(rebasing: $0[0..<2])) }
        #expect(rt.layerCount == 3)
        #expect(try rt.children(of: root) == Array(out[0..<2]))
    }

    @Test("The value pools refuse with .noMemory at their limit, and reuse freed places")
    func valuePoolLimit() throws {
        let rt = Runtime()
        rt.valuePoolLimit = 8
        let a = try rt.createLayer()
        try rt.setModelValue(.rect(0, 0, 1, 1), forKeyPath: "bounds", of: a)        // 4
        try rt.setModelValue(.color(0, 0, 0, 1), forKeyPath: "backgroundColor", of: a)  // 8: at the limit
        do { try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: a); Issue.record("accepted") }
        catch { #expect(error.status == .noMemory) }
        do { try rt.add(linear("opacity", 0, 1), to: a, forKey: nil); Issue.record("accepted") }
        catch { #expect(error.status == .noMemory) }
        #expect(rt.attachedCounts.total == 0)
        try rt.destroyLayer(a)
        let b = try rt.createLayer()
        try rt.setModelValue(.rect(1, 1, 1, 1), forKeyPath: "bounds", of: b)  // reuses a's place
        #expect(rt.model.count == 8)
    }
}
