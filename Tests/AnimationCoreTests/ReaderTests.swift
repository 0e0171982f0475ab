import Testing
@testable import AnimationCore

/// Readers (R5.2): every target's presentation value in one call, in the
/// order of the targets, whatever happened to the runtime since the
/// reader was made, gathered target by target or (targets whose values
/// follow each other in the pool) copied in one piece, and the same on one
/// thread or split over several.
@Suite("Readers: the values of their targets, in order, frame after frame")
struct ReaderTests {
    /// What a reader must give: each target's presentation value read alone.
    static func expected(_ rt: Runtime, _ targets: [(Handle, String)]) throws -> [Double] {
        var out: [Double] = []
        for (layer, path) in targets { out += try rt.presentationValue(forKeyPath: path, of: layer).components }
        return out
    }

    static func read(_ rt: Runtime, _ reader: Handle) throws -> [Double] {
        var out = [Double](repeating: .nan, count: try rt.readerSize(reader))
        try out.withUnsafeMutableBufferPointer { (b) throws(AnimrtError) in try rt.readPresentation(reader: reader, into: b) }
        return out
    }

    static func reader(_ rt: Runtime, _ targets: [(Handle, String)]) throws -> Handle {
        var resolved: [(Handle, KeyPath)] = []
        for (layer, path) in targets { resolved.append((layer, try rt.properties.resolve(path))) }
        return try rt.createReader(resolved)
    }

    @Test("a read split over threads gives, bit for bit, what one thread gives", arguments: [1, 2, 3, 8])
    func threads(threads: Int) throws {
        let rt = Runtime()
        rt.evaluationThreads = threads
        rt.readMinimumPerThread = 5  // splits reads of tens of values
        var layers: [Handle] = []
        for i in 0..<97 {
            let l = try rt.createLayer()
            layers.append(l)
            try rt.add(linear("opacity", 0, Double(i), duration: 1 + Double(i % 7)), to: l, forKey: "o")
            try rt.add(.basic("position", from: .point(0, Double(i)), to: .point(Double(i), -1),
                              timing: MediaTiming(duration: 2)), to: l, forKey: "p")
            try rt.setModelValue(.scalar(Double(i) / 10), forKeyPath: "transform.rotation.z", of: l)
        }
        // Layers out of order, plain and computed key paths mixed (rotation is read from the transform).
        let scalars = (0..<97).map { i in (layers[(i * 31) % 97], i % 5 == 0 ? "transform.rotation.z" : "opacity") }
        let points = (0..<97).reversed().map { (layers[$0], "position") }
        let r1 = try Self.reader(rt, scalars), r2 = try Self.reader(rt, points)
        // Fresh layers whose positions the reader makes, in order, x then y: one copy.
        var fresh: [Handle] = []
        for _ in 0..<41 { fresh.append(try rt.createLayer()) }
        let xy = fresh.flatMap { [($0, "position.x"), ($0, "position.y")] }
        let r3 = try Self.reader(rt, xy)
        for (i, l) in fresh.enumerated() {
            try rt.add(.basic("position", from: .point(Double(i), 1), to: .point(-1, Double(i)), timing: MediaTiming(duration: 3)),
                       to: l, forKey: "p")
        }
        #expect(try rt.reader(r3).contiguous && !(try rt.reader(r1).contiguous) && !(try rt.reader(r2).contiguous))
        for now in [0, 0.3, 0.75, 1.5, 4] as [Double] {
            try rt.tick(now)
            let a = try Self.read(rt, r1), b = try Self.read(rt, r2)
            #expect(a.map(\.bitPattern) == (try Self.expected(rt, scalars)).map(\.bitPattern))
            #expect(b.map(\.bitPattern) == (try Self.expected(rt, points)).map(\.bitPattern))
            #expect((try Self.read(rt, r3)).map(\.bitPattern) == (try Self.expected(rt, xy)).map(\.bitPattern))
            #expect(b.count == 194 && a.count == 97)
        }
    }

    @Test("values stay right through adds, removals, model changes, destroyed layers and reused value places, copied or gathered")
    func churn() throws {
        let rt = Runtime()
        rt.evaluationThreads = 2
        rt.readMinimumPerThread = 8
        var layers: [Handle] = []
        for _ in 0..<60 { layers.append(try rt.createLayer()) }
        // Fresh layers: their opacities take consecutive places, so a read of them is one copy.
        let opacities = layers.map { ($0, "opacity") }
        let copied = try Self.reader(rt, opacities)
        let targets = layers.enumerated().map { (i, l) in (l, i % 2 == 0 ? "opacity" : "position.x") }
        let reader = try Self.reader(rt, targets)
        #expect(try rt.reader(copied).contiguous && !(try rt.reader(reader).contiguous))
        var spare: [Handle] = []
        var checked = 0
        for frame in 0..<40 {
            let now = Double(frame) / 10
            let i = (frame * 7) % 60, path = targets[i].1
            switch frame % 5 {
            case 0:  // an animation added (it joins the batch)
                try rt.add(linear(path, Double(frame), -Double(frame), begin: now, duration: 0.35), to: layers[i], forKey: "a")
            case 1:  // one removed: another batch entry moves into its place
                let j = ((frame - 1) * 7) % 60
                _ = try rt.removeAnimation(forKey: "a", from: layers[j])
                try rt.add(linear(targets[j].1, 5, 6, begin: now, duration: 1, fill: .forwards), to: layers[j], forKey: "b")
            case 2:  // a new model value
                try rt.setModelValue(.scalar(Double(frame) + 0.5), forKeyPath: path, of: layers[i])
            case 3:  // layers outside the reader made and destroyed: their value places are reused
                if spare.count > 3 { try rt.destroyLayer(spare.removeFirst()) }
                let s = try rt.createLayer()
                try rt.setModelValue(.scalar(-1000), forKeyPath: "opacity", of: s)
                try rt.add(linear("position.x", -7, -9, begin: now, duration: 2), to: s, forKey: "s")
                spare.append(s)
            default:
                try rt.removeAllAnimations(from: layers[(i + 3) % 60])
            }
            try rt.tick(now)
            let got = try Self.read(rt, reader), want = try Self.expected(rt, targets)
            #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "frame \(frame)")
            #expect((try Self.read(rt, copied)).map(\.bitPattern) == (try Self.expected(rt, opacities)).map(\.bitPattern))
            checked += got.filter { $0 != 0 && $0 != 1 }.count
        }
        #expect(checked > 100)  // the frames had animated and set values to read, not only defaults
    }

    /// Targets whose values follow each other in the pool are copied in one
    /// piece; targets in increasing order with gaps between them are not,
    /// or the read would hand out the values in the gaps.
    @Test("targets in increasing order with gaps between them are gathered, each its own value")
    func gapsGathered() throws {
        let rt = Runtime()
        let layers = try (0..<6).map { _ in try rt.createLayer() }
        for (i, l) in layers.enumerated() { try rt.setModelValue(.scalar(Double(i) / 10), forKeyPath: "opacity", of: l) }
        let everyOther = stride(from: 0, to: 6, by: 2).map { (layers[$0], "opacity") }
        let all = layers.map { ($0, "opacity") }
        let gathered = try Self.reader(rt, everyOther), copied = try Self.reader(rt, all)
        let contiguous = (try rt.reader(gathered).contiguous, try rt.reader(copied).contiguous)
        #expect(!contiguous.0 && contiguous.1)
        try rt.tick(0)
        #expect(try Self.read(rt, gathered) == [0, 0.2, 0.4])
        #expect(try Self.read(rt, copied) == [0, 0.1, 0.2, 0.3, 0.4, 0.5])
    }

    /// A reader makes the values of its targets that do not exist yet: all
    /// of them fit in the value pools, or it is refused and makes none.
    @Test("a reader whose new values do not all fit in the value pools is refused and makes none")
    func readerPastTheValuePools() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: a)
        rt.valuePoolLimit = rt.model.count + 2  // room for one position, not for it and b's opacity
        let targets = [(a, "opacity"), (a, "position.x"), (b, "opacity")]
        expectFailure(.noMemory, containing: "value pools are full") { _ = try Self.reader(rt, targets) }
        #expect(try rt.layerValues(a).map(\.property) == ["opacity"])
        #expect(try rt.layerValues(b).isEmpty)
        #expect(rt.model.count == rt.valuePoolLimit - 2)
        rt.valuePoolLimit += 1
        let reader = try Self.reader(rt, targets)
        try rt.tick(0)
        #expect(try Self.read(rt, reader) == [0.5, 0, 1])
        #expect(rt.model.count == rt.valuePoolLimit)
    }

    /// A computed target (a transform's rotation) is read from the
    /// presentation transform, as a plain one is from the presentation
    /// pool: half-way through a 0 → 1 turn of 1 s it is 0.5, while the model
    /// says 0.25.
    @Test("a computed target reads the presentation value an animation gives it, not the model value")
    func computedTargetAnimated() throws {
        let rt = Runtime()
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0.25), forKeyPath: "transform.rotation.z", of: l)
        try rt.add(linear("transform.rotation.z", 0, 1, duration: 1), to: l, forKey: "r")
        let targets = [(l, "transform.rotation.z"), (l, "opacity")]
        let reader = try Self.reader(rt, targets)
        #expect(try !rt.reader(reader).contiguous)
        try rt.tick(0); try rt.tick(0.5)
        let got = try Self.read(rt, reader)
        #expect(got.count == 2)
        expectClose(got[0], 0.5, 1e-12)
        #expect(got[1] == 1)
        #expect(got.map(\.bitPattern) == (try Self.expected(rt, targets)).map(\.bitPattern))
        expectClose(try rt.modelValue(forKeyPath: "transform.rotation.z", of: l).scalar, 0.25, 1e-12)
    }

    /// A read through a stored reader needs `count × width` doubles: two
    /// points are four, and a buffer of three is refused with nothing
    /// written.
    @Test("a read through a stored reader into a buffer too short for it is refused and writes nothing")
    func storedReaderShortBuffer() throws {
        let rt = Runtime()
        let a = try rt.createLayer(), b = try rt.createLayer()
        try rt.setModelValue(.point(1, 2), forKeyPath: "position", of: a)
        try rt.setModelValue(.point(3, 4), forKeyPath: "position", of: b)
        let reader = try Self.reader(rt, [(a, "position"), (b, "position")])
        try rt.tick(0)
        var out = [Double](repeating: -1, count: 4)
        for short in [1, 3] {
            expectFailure(.buffer, exactly: "the buffer holds \(short) double\(short == 1 ? "" : "s"); 4 are needed") {
                try out.withUnsafeMutableBufferPointer { (o) throws(AnimrtError) in
                    try rt.readPresentation(reader: reader, into: UnsafeMutableBufferPointer(rebasing: o[0..<short]))
                }
            }
        }
        #expect(out == [-1, -1, -1, -1])
        #expect(try Self.read(rt, reader) == [1, 2, 3, 4])
    }
}
