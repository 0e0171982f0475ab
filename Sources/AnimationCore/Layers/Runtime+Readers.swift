import Dispatch

extension Runtime {
    // MARK: Bulk reads

    /// Where a bulk read finds each value.
    public struct BulkTargets: Sendable {
        /// Offset of each plain component in the presentation pool, or -1
        /// when the key path needs computing (`special`).
        var offsets: [Int32]
        var special: [Int: (layer: Handle, keyPath: KeyPath)]
        /// Each target's layer, generation included: a read refuses to go
        /// on once one of them has been destroyed (its slot, and its values'
        /// place in the pools, may belong to another layer by then).
        var layers: [Handle]
        /// `layerEpoch` when every layer was last known alive: while no
        /// layer is destroyed, a read checks nothing per target.
        var checkedEpoch: UInt64
        /// Doubles written per target.
        public let width: Int
        /// Whether every target is plain and each one's values follow the
        /// previous one's in the pool (a read is then one copy).
        var contiguous = false
        public var count: Int { offsets.count }
    }

    /// Resolves (layer, key path) pairs once for `readPresentation`. Every key
    /// path must have the same kind (`width` doubles per target).
    public func resolveTargets(_ targets: [(Handle, String)]) throws(AnimrtError) -> BulkTargets {
        var resolved: [(Handle, KeyPath)] = []
        resolved.reserveCapacity(targets.count)
        for (n, (layer, path)) in targets.enumerated() {
            do { resolved.append((layer, try properties.resolve(path))) }
            catch { throw error.prefixed("target \(n): ") }
        }
        return try resolveTargets(keyPaths: resolved)
    }

    /// Resolves (layer, key path) pairs whose key paths are already resolved.
    public func resolveTargets(keyPaths targets: [(Handle, KeyPath)]) throws(AnimrtError) -> BulkTargets {
        // Check everything first (a refused call changes nothing), then
        // materialise the values.
        var indices: [Int] = []
        indices.reserveCapacity(targets.count)
        var width: Int? = nil
        var missing = Set<Int64>(), sizes: [Int] = []
        for (n, (layer, kp)) in targets.enumerated() {
            let i: Int
            do { i = try layers.index(of: layer) }
            catch { throw error.prefixed("target \(n): ") }
            let w = kp.kind.componentCount
            if let width, width != w {
                throw AnimrtError(.kind, "target \(n): '\(kp.name)' is a \(kp.kind.name); every target of one bulk read must have \(counted(width, "component"))")
            }
            width = w
            indices.append(i)
            if layers[i].props.offset(of: kp.property) == nil, missing.insert(Int64(i) << 32 | Int64(kp.property)).inserted {
                sizes.append(properties.info(kp.property).kind.componentCount)
            }
        }
        try reserveValues(sizes: sizes)
        var offsets: [Int32] = []
        offsets.reserveCapacity(targets.count)
        var special: [Int: (Handle, KeyPath)] = [:]
        for (n, (layer, kp)) in targets.enumerated() {
            let base = valueSlot(layer: indices[n], property: kp.property, create: true)!
            if let plain = kp.plainComponents { offsets.append(base + Int32(plain.first)) }
            else { offsets.append(-1); special[n] = (layer, kp) }
        }
        let w = Int32(width ?? 1)
        var contiguous = special.isEmpty
        for n in offsets.indices.dropFirst() where offsets[n] != offsets[n - 1] &+ w { contiguous = false; break }
        return BulkTargets(offsets: offsets, special: special, layers: targets.map { $0.0 }, checkedEpoch: layerEpoch,
                           width: Int(w), contiguous: contiguous)
    }

    /// Throws `.handle`, naming the first target whose layer was destroyed,
    /// if any layer has been destroyed since `targets` were last checked.
    /// Returns whether the targets were rechecked.
    @discardableResult
    func checkLayers(of targets: BulkTargets) throws(AnimrtError) -> Bool {
        guard targets.checkedEpoch != layerEpoch else { return false }
        for (n, layer) in targets.layers.enumerated() {
            do { _ = try layers.index(of: layer) }
            catch { throw error.prefixed("target \(n) can no longer be read: ") }
        }
        return true
    }

    /// Copies the presentation value of every target into `out`
    /// (`targets.count × targets.width` doubles). If a target's layer was
    /// destroyed since the targets were resolved, the read fails with
    /// `.handle` naming it, and nothing is written.
    public func readPresentation(_ targets: BulkTargets, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) {
        guard out.count >= targets.count * targets.width else {
            throw AnimrtError(.buffer, "the buffer holds \(counted(out.count, "double")); \(targets.count * targets.width) are needed")
        }
        try checkLayers(of: targets)
        copyPresentation(targets, into: out)
    }

    /// A large read is split in contiguous ranges of targets over
    /// `evaluationThreads`, as the batch is (each worker inside `workerScope`).
    private func copyPresentation(_ targets: BulkTargets, into out: UnsafeMutableBufferPointer<Double>) {
        let w = targets.width, n = targets.count
        let workers = max(1, min(evaluationThreads, n * w / readMinimumPerThread))
        presentation.withUnsafeBufferPointer { pool in
            targets.offsets.withUnsafeBufferPointer { offs in
                let copy = targets.contiguous
                guard workers > 1 else { return Runtime.gather(0..<n, w, copy, offs, pool, out) }
                let shared = UncheckedSendable((offs, pool, out)), scope = workerScope
                DispatchQueue.concurrentPerform(iterations: workers) { k in
                    let share = {
                        let (offs, pool, out) = shared.value
                        Runtime.gather((n * k / workers)..<(n * (k + 1) / workers), w, copy, offs, pool, out)
                    }
                    if let scope { scope(share) } else { share() }
                }
            }
        }
        for (n, (layer, kp)) in targets.special {
            let v = kp.get(wholeValue(presentation, layer: layer.index, property: kp.property))
            for k in 0..<w { out[n * w + k] = v.lanes[k] }
        }
    }

    /// Copies the plain targets `range` (`width` doubles each) from the
    /// pool: in one piece when the targets are `contiguous` there.
    @inline(__always)
    private static func gather(_ range: Range<Int>, _ w: Int, _ contiguous: Bool, _ offs: UnsafeBufferPointer<Int32>,
                               _ pool: UnsafeBufferPointer<Double>, _ out: UnsafeMutableBufferPointer<Double>) {
        if contiguous {
            guard !range.isEmpty else { return }
            (out.baseAddress! + range.lowerBound * w).update(from: pool.baseAddress! + Int(offs[range.lowerBound]),
                                                             count: range.count * w)
        } else if w == 1 {
            for n in range where offs[n] >= 0 { out[n] = pool[Int(offs[n])] }
        } else {
            for n in range where offs[n] >= 0 {
                for k in 0..<w { out[n * w + k] = pool[Int(offs[n]) + k] }
            }
        }
    }

    /// Stores resolved bulk-read targets under a handle.
    public func createReader(_ targets: [(Handle, KeyPath)]) throws(AnimrtError) -> Handle {
        try readers.insert(try resolveTargets(keyPaths: targets))
    }

    /// The targets stored under a reader handle.
    public func reader(_ h: Handle) throws(AnimrtError) -> BulkTargets { readers[try readers.index(of: h)] }

    /// How many doubles a read of reader `h` writes.
    public func readerSize(_ h: Handle) throws(AnimrtError) -> Int {
        let i = try readers.index(of: h)
        return readers[i].count * readers[i].width
    }

    /// Reads through a stored reader (see `readPresentation(_:into:)`);
    /// once its targets are rechecked after a layer destruction, later reads
    /// check nothing again until the next one.
    public func readPresentation(reader h: Handle, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) {
        let i = try readers.index(of: h)
        let n = readers[i].count * readers[i].width
        guard out.count >= n else { throw AnimrtError(.buffer, "the buffer holds \(counted(out.count, "double")); \(n) are needed") }
        if try checkLayers(of: readers[i]) { readers[i].checkedEpoch = layerEpoch }
        copyPresentation(readers[i], into: out)
    }

    public func destroyReader(_ h: Handle) throws(AnimrtError) { readers.remove(at: try readers.index(of: h)) }
}
