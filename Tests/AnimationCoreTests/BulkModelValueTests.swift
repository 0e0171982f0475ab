import Testing
@testable import AnimationCore

/// `setModelValues(_:keyPath:of:)`, the bulk set behind
/// `animrt_layer_set_values`: the same values as sets made one at a time,
/// all or none, and every refusal naming its item.
@Suite("Bulk model values equal sets made one at a time, all or none")
struct BulkModelValueTests {
    /// Calls the bulk set with Swift arrays.
    func set(_ rt: Runtime, _ layers: [Handle], _ path: String, _ values: [Double]) throws(AnimrtError) {
        let kp = try rt.properties.resolve(path)
        do {
            try values.withUnsafeBufferPointer { v in
                try layers.withUnsafeBufferPointer { l in try rt.setModelValues(v, keyPath: kp, of: l) }
            }
        } catch let error as AnimrtError { throw error } catch { Issue.record("not an AnimrtError: \(error)") }
    }

    /// Every component of `path` on `layers`: model, then presentation.
    func values(_ rt: Runtime, _ layers: [Handle], _ path: String) throws -> [[Double]] {
        try layers.map { l in
            let m = try rt.modelValue(forKeyPath: path, of: l), p = try rt.presentationValue(forKeyPath: path, of: l)
            return (0..<m.kind.componentCount).map { m.lanes[$0] } + (0..<p.kind.componentCount).map { p.lanes[$0] }
        }
    }

    @Test("R1.6 a bulk set gives the model and presentation values of sets made one at a time, sub-paths included",
          arguments: [("opacity", 1), ("position", 2), ("position.y", 1), ("transform.rotation.z", 1), ("backgroundColor", 4)])
    func sameAsOneAtATime(path: String, width: Int) throws {
        let bulk = Runtime(), single = Runtime()
        let count = 100  // past the small-call threshold: the bit set of seen layers
        let a = try (0..<count).map { _ in try bulk.createLayer() }, b = try (0..<count).map { _ in try single.createLayer() }
        for rt in [bulk, single] { try rt.tick(0) }
        // Half the layers have the property already (a value slot), half get one.
        for k in stride(from: 0, to: count, by: 2) {
            try bulk.setModelValue(.point(3, 4), forKeyPath: "position", of: a[k])
            try single.setModelValue(.point(3, 4), forKeyPath: "position", of: b[k])
        }
        let numbers = (0..<(count * width)).map { Double($0) * 0.25 - 7 }
        try set(bulk, a, path, numbers)
        let kp = try single.properties.resolve(path)
        for k in 0..<count {
            try single.setModelValue(try AnimatableValue(kind: kp.kind, components: numbers[(k * width)..<(k * width + width)]),
                                     keyPath: kp, of: b[k])
        }
        #expect(try values(bulk, a, path) == values(single, b, path))
        for rt in [bulk, single] { try rt.tick(1) }
        #expect(try values(bulk, a, path) == values(single, b, path))
        // The values are the ones given: the model of the second layer holds the second item's
        // (a rotation reads back as its angle in (-π, π]).
        let second = try bulk.modelValue(forKeyPath: path, of: a[1]).lanes[0]
        #expect(path.hasPrefix("transform") ? abs(second - numbers[width] - 2 * .pi) < 1e-12 : second == numbers[width],
                "\(second) vs \(numbers[width])")
    }

    /// A refusal of the last item leaves every earlier one unwritten.
    @Test("R0.3 a refused item leaves every layer as it was, and the message names the item",
          arguments: ["destroyed", "nan", "twice", "overflow"])
    func allOrNone(fault: String) throws {
        let rt = Runtime()
        var layers = try (0..<80).map { _ in try rt.createLayer() }
        for l in layers { try rt.setModelValue(.scalar(0.5), forKeyPath: "opacity", of: l) }
        try rt.tick(0)
        var path = "opacity", numbers = [Double](repeating: 0.25, count: layers.count)
        let status: Status, message: String
        switch fault {
        case "destroyed":
            let gone = try rt.createLayer()
            try rt.destroyLayer(gone)
            layers[79] = gone
            (status, message) = (.handle, "layers[79]: layer handle")
        case "nan":
            numbers[79] = .nan
            (status, message) = (.invalidArgument, "values for layers[79]: component 0 of the scalar is nan; components must be finite")
        case "twice":
            layers[79] = layers[3]
            (status, message) = (.invalidArgument, "layers[79] is layers[3] again; a layer takes one value of 'opacity' per call")
        default:
            // A matrix whose first row is longer than the largest double:
            // setting its rotation recomposes it, which overflows.
            path = "transform.rotation.z"
            var big = Transform3D.identity
            big[0, 0] = 1.5e308; big[0, 1] = 1.5e308
            try rt.setModelValue(.transform(big), forKeyPath: "transform", of: layers[79])
            (status, message) = (.outOfRange, "values for layers[79]: setting 'transform.rotation.z' to [0.25] makes transform overflow")
        }
        let kept = layers.filter { (try? rt.modelValue(forKeyPath: path, of: $0)) != nil }  // not the destroyed one
        let before = try kept.map { try rt.modelValue(forKeyPath: path, of: $0) }
        let error = expectFailure(status) { try set(rt, layers, path, numbers) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(kept.count >= 79)
        #expect(try kept.map { try rt.modelValue(forKeyPath: path, of: $0) } == before)
        try rt.tick(1)
        #expect(try kept.map { try rt.presentationValue(forKeyPath: path, of: $0) } == before)
    }

    @Test("R0.3 a layer given twice in a small call is refused too, naming both places")
    func twiceInASmallCall() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        expectFailure(.invalidArgument, containing: "layers[2] is layers[0] again") {
            try set(rt, [layers[0], layers[1], layers[0]], "opacity", [0.1, 0.2, 0.3])
        }
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[0]).scalar == 1)
        #expect(try rt.modelValue(forKeyPath: "opacity", of: layers[1]).scalar == 1)
    }

    @Test("R0.3 a count of numbers that is not the key path's components per layer is refused before anything")
    func wrongCount() throws {
        let rt = Runtime()
        let layers = try (0..<2).map { _ in try rt.createLayer() }
        expectFailure(.invalidArgument, containing: "3 numbers for 2 layers: 'position' takes 2 numbers per layer, so 4 are needed") {
            try set(rt, layers, "position", [1, 2, 3])
        }
        expectFailure(.invalidArgument, containing: "1 number for 0 layers") { try set(rt, [], "opacity", [1]) }
        try set(rt, [], "opacity", [])  // nothing to set
        #expect(try rt.modelValue(forKeyPath: "position", of: layers[0]) == .point(0, 0))
    }

    @Test("R0.4 the value pools hold the new values of all the layers or of none")
    func valuePools() throws {
        let rt = Runtime()
        let layers = try (0..<3).map { _ in try rt.createLayer() }
        rt.valuePoolLimit = rt.model.count + 5  // two new positions, not three
        expectFailure(.noMemory, containing: "value pools are full") { try set(rt, layers, "position", [1, 2, 3, 4, 5, 6]) }
        for l in layers { #expect(try rt.modelValue(forKeyPath: "position", of: l) == .point(0, 0)) }
        rt.valuePoolLimit = rt.model.count + 6
        try set(rt, layers, "position", [1, 2, 3, 4, 5, 6])
        #expect(try rt.modelValue(forKeyPath: "position", of: layers[2]) == .point(5, 6))
    }

    @Test("SeenIndices: both forms find the second of a pair and nothing else")
    func seenIndices() {
        for expected in [3, 1000] {
            var seen = SeenIndices(capacity: 130, expected: expected)
            #expect(seen.insert(0) && seen.insert(64) && seen.insert(129) && seen.insert(63))
            #expect(!seen.insert(64) && !seen.insert(129) && !seen.insert(0) && !seen.insert(63))
            #expect(seen.insert(65) && seen.insert(1))
        }
    }
}
