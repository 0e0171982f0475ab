extension Runtime {
    // MARK: Bulk reads

    /// Where a bulk read finds each value.
    public struct BulkTargets: Sendable {
        /// Offset of each plain component in the presentation pool, or -1
        /// when the key path needs computing (`special`).
        var offsets: [Int32]
        var special: [Int: (layer: Handle, keyPath: KeyPath)]
        /// Doubles written per target.
        public let width: Int
        public var count: Int { offsets.count }
    }

    /// Resolves (layer, key path) pairs once for `readPresentation`. Every key
    /// path must have the same kind (`width` doubles per target).
    public func resolveTargets(_ targets: [(Handle, String)]) throws(AnimrtError) -> BulkTargets {
        var resolved: [(Handle, KeyPath)] = []
        resolved.reserveCapacity(targets.count)
        for (n, (layer, path)) in targets.enumerated() {
            do { resolved.append((layer, try properties.resolve(path))) }
            catch { throw AnimrtError(error.status, "target \(n): \(error.message)") }
        }
        return try resolveTargets(keyPaths: resolved)
    }

    /// Resolves (layer, key path) pairs whose key paths are already resolved.
    public func resolveTargets(keyPaths targets: [(Handle, KeyPath)]) throws(AnimrtError) -> BulkTargets {
        var offsets: [Int32] = []
        offsets.reserveCapacity(targets.count)
        var special: [Int: (Handle, KeyPath)] = [:]
        var width: Int? = nil
        for (n, (layer, kp)) in targets.enumerated() {
            let i: Int
            do { i = try layers.index(of: layer) }
            catch { throw AnimrtError(error.status, "target \(n): \(error.message)") }
            let path = kp.name
            let w = kp.kind.componentCount
            if let width, width != w {
                throw AnimrtError(.kind, "target \(n): '\(path)' is a \(kp.kind.name); every target of one bulk read must have \(width) component(s)")
            }
            width = w
            let base = valueSlot(layer: i, property: kp.property, create: true)!
            if let plain = kp.plainComponents { offsets.append(base + Int32(plain.first)) }
            else { offsets.append(-1); special[n] = (layer, kp) }
        }
        return BulkTargets(offsets: offsets, special: special, width: width ?? 1)
    }

    /// Copies the presentation value of every target into `out`
    /// (`targets.count × targets.width` doubles). A target whose layer was
    /// destroyed since it was resolved fails with `.handle`, and nothing is
    /// written past the previous targets.
    public func readPresentation(_ targets: BulkTargets, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) {
        guard out.count >= targets.count * targets.width else {
            throw AnimrtError(.buffer, "the buffer holds \(out.count) doubles; \(targets.count * targets.width) are needed")
        }
        for (layer, _) in targets.special.values { _ = try layers.index(of: layer) }
        let w = targets.width
        presentation.withUnsafeBufferPointer { pool in
            targets.offsets.withUnsafeBufferPointer { offs in
                if w == 1 {
                    for n in 0..<offs.count where offs[n] >= 0 { out[n] = pool[Int(offs[n])] }
                } else {
                    for n in 0..<offs.count where offs[n] >= 0 {
                        for k in 0..<w { out[n * w + k] = pool[Int(offs[n]) + k] }
                    }
                }
            }
        }
        for (n, (layer, kp)) in targets.special {
            let v = kp.get(wholeValue(presentation, layer: layer.index, property: kp.property))
            for k in 0..<w { out[n * w + k] = v.lanes[k] }
        }
    }

    /// Stores resolved bulk-read targets under a handle.
    public func createReader(_ targets: [(Handle, KeyPath)]) throws(AnimrtError) -> Handle {
        try readers.insert(try resolveTargets(keyPaths: targets))
    }

    /// The targets stored under a reader handle.
    public func reader(_ h: Handle) throws(AnimrtError) -> BulkTargets { readers[try readers.index(of: h)] }

    public func destroyReader(_ h: Handle) throws(AnimrtError) { readers.remove(at: try readers.index(of: h)) }
}
