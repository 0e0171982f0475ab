extension Runtime {
    // MARK: Values

    /// Makes sure the value pools can hold `properties` of layer `i` (the
    /// ones it does not have yet), so that creating their slots later cannot
    /// fail: `.noMemory` past `Limits.valuePool` doubles.
    func reserveValues(layer i: Int, properties: [Int32]) throws(AnimrtError) {
        var sizes: [Int] = []
        for p in Set(properties) where layers[i].props.offset(of: p) == nil { sizes.append(self.properties.info(p).kind.componentCount) }
        try reserveValues(sizes: sizes)
    }

    /// Whether layer `i` has `property`, or a new value of it fits in the
    /// pools (`reserveValues` for one property, without allocating).
    @inline(__always)
    func hasRoomForValue(layer i: Int, property: Int32, components n: Int) -> Bool {
        layers[i].props.offset(of: property) != nil || !freeValueSlots[n].isEmpty || model.count + n <= valuePoolLimit
    }

    /// `.noMemory` unless new values of `sizes` doubles fit in the pools
    /// (freed places of the right size are reused first).
    func reserveValues(sizes: [Int]) throws(AnimrtError) {
        var wanted: [Int: Int] = [:]
        for n in sizes { wanted[n, default: 0] += 1 }
        var growth = 0
        for (n, count) in wanted { growth += n * max(0, count - freeValueSlots[n].count) }
        guard growth == 0 || model.count + growth <= valuePoolLimit else {
            throw AnimrtError(.noMemory, "the value pools are full (\(valuePoolLimit) numbers); destroy layers to make room")
        }
    }

    @inline(__always)
    func valueSlot(layer i: Int, property: Int32, create: Bool) -> Int32? {
        if let offset = layers[i].props.offset(of: property) { return offset }
        guard create else { return nil }
        return createValueSlot(layer: i, property: property)
    }

    /// Materialises `property` on layer `i` with its default value.
    private func createValueSlot(layer i: Int, property: Int32) -> Int32 {
        // The default is read in place, component by component (a whole
        // value is 144 bytes, and bulk adds come here once per layer); a new
        // slot is appended with its value, not appended as 0 then written
        // (that second pass costs a bulk add of 10^6 about 5 ns per animation).
        let p = Int(property)
        let n = properties.defaults[p].kind.componentCount
        let offset: Int32
        if !freeValueSlots[n].isEmpty {
            offset = freeValueSlots[n].removeLast()
            for k in 0..<n {
                let v = properties.defaults[p].lanes[k]
                model[Int(offset) + k] = v
                presentation[Int(offset) + k] = v
            }
        } else {
            offset = Int32(model.count)
            for k in 0..<n {
                let v = properties.defaults[p].lanes[k]
                model.append(v)
                presentation.append(v)
            }
        }
        layers[i].props.append(PropSlot(property: property, offset: offset))
        return offset
    }

    /// Makes room in the value pools for `n` more doubles each.
    func reserveValueCapacity(_ n: Int) {
        guard model.count + n > model.capacity else { return }
        let target = model.isEmpty ? n : max(model.count + n, model.capacity + model.capacity / 4)
        model.reserveCapacity(target)
        presentation.reserveCapacity(target)
    }

    func releaseValueSlot(_ offset: Int32, count n: Int) { freeValueSlots[n].append(offset) }

    func wholeValue(_ pool: [Double], layer i: Int, property: Int32) -> AnimatableValue {
        let info = properties.info(property)
        guard let off = valueSlot(layer: i, property: property, create: false) else { return info.defaultValue }
        var lanes = SIMD16<Double>()
        for k in 0..<info.kind.componentCount { lanes[k] = pool[Int(off) + k] }
        return AnimatableValue(kind: info.kind, lanes: lanes)
    }

    /// Writes a whole value. Presentation values are always finite: a
    /// component that came out NaN shows the model value, one that
    /// overflowed shows the largest finite double of its sign.
    func writeWhole(_ v: AnimatableValue, toPresentation: Bool, toModel: Bool, layer i: Int, property: Int32) {
        let off = Int(valueSlot(layer: i, property: property, create: true)!)
        for k in 0..<v.kind.componentCount {
            if toModel { model[off + k] = v.lanes[k] }
            if toPresentation { presentation[off + k] = presentable(v.lanes[k], fallback: model[off + k]) }
        }
    }

    /// A small integer naming `path` in this runtime, for calls that are
    /// made often (reads every frame): the string is parsed once.
    public func keyPathID(_ path: String) throws(AnimrtError) -> Int32 {
        if let id = keyPathIDs[path] { return id }
        // Only valid key paths get ids, and there are finitely many of them
        // (at most `Limits.properties` properties, each with a few sub-paths).
        let kp = try properties.resolve(path)
        guard keyPathTable.count < Limits.keyPaths else {
            throw AnimrtError(.outOfRange, "a runtime resolves at most \(Limits.keyPaths) distinct key paths; '\(path)' would be one more")
        }
        let id = Int32(keyPathTable.count)
        keyPathTable.append(kp)
        let plain = kp.plainComponents ?? (0, 0)
        plainKeyPaths.append((kp.property, Int32(plain.first), Int32(plain.count)))
        keyPathIDs[path] = id
        return id
    }

    /// The key path named by an id from `keyPathID(_:)`.
    public func keyPath(id: Int32) throws(AnimrtError) -> KeyPath {
        guard id >= 0 && Int(id) < keyPathTable.count else {
            throw AnimrtError(.notFound, "key path id \(id) is not known to this runtime (get ids from animrt_keypath_id)")
        }
        return keyPathTable[Int(id)]
    }

    /// Writes the presentation value of key path `id` into `out` and returns
    /// how many doubles it has; nothing is written if `out` is too small.
    public func readPresentation(keyPathID id: Int32, of layer: Handle, into out: UnsafeMutableBufferPointer<Double>) throws(AnimrtError) -> Int {
        let i = try layers.index(of: layer)
        guard id >= 0 && Int(id) < plainKeyPaths.count else { _ = try keyPath(id: id); return 0 }
        let plain = plainKeyPaths[Int(id)]
        if plain.count > 0 {
            let n = Int(plain.count)
            guard out.count >= n else { return n }
            let slot = layers[i].props.offset(of: plain.property)
            if let off = slot {
                let base = Int(off + plain.first)
                presentation.withUnsafeBufferPointer { pool in for k in 0..<n { out[k] = pool[base + k] } }
            } else {
                let d = properties.info(plain.property).defaultValue
                for k in 0..<n { out[k] = d.lanes[Int(plain.first) + k] }
            }
            return n
        }
        let kp = keyPathTable[Int(id)]
        let n = kp.kind.componentCount
        guard out.count >= n else { return n }
        let v = kp.get(wholeValue(presentation, layer: i, property: kp.property))
        for k in 0..<n { out[k] = v.lanes[k] }
        return n
    }

    /// Sets the model value of `keyPath`. The presentation value is what the
    /// last tick put on screen: it follows the model at the next tick (a
    /// layer no tick has shown yet presents its model at once). So "set the
    /// model, then animate from the presentation value" works in either order.
    public func setModelValue(_ value: AnimatableValue, forKeyPath path: String, of layer: Handle) throws(AnimrtError) {
        _ = try layers.index(of: layer)
        try setModelValue(value, keyPath: try properties.resolve(path), of: layer)
    }

    /// Sets the model value of a resolved key path.
    public func setModelValue(_ value: AnimatableValue, keyPath kp: KeyPath, of layer: Handle) throws(AnimrtError) {
        let i = try layers.index(of: layer)
        try checkModelValue(value, keyPath: kp)
        try reserveValues(layer: i, properties: [kp.property])
        writeModelValue(try wholeModelValue(value, keyPath: kp, layer: i), layer: i, property: kp.property)
    }

    /// Sets `values[k]` as the model value of `keyPath` on `layers[k]`
    /// (each layer once): all or none. Every one is checked — its layer,
    /// its value, the whole value it makes (a part of a transform can
    /// overflow), room in the value pools for all of them — before the
    /// first is written, so that one the runtime refuses leaves every
    /// layer as it was, which sets made one at a time cannot promise. A
    /// machine's `set` on a repeated part sets its copies so. A count of
    /// values other than the count of layers, or a layer given twice, is
    /// refused (`invalidArgument`) before anything is checked.
    public func setModelValues(_ values: [AnimatableValue], forKeyPath path: String, of layers: [Handle]) throws(AnimrtError) {
        guard values.count == layers.count else {
            throw AnimrtError(.invalidArgument, "\(counted(values.count, "value")) for \(counted(layers.count, "layer")): give one value per layer")
        }
        guard !values.isEmpty else { return }
        let kp = try properties.resolve(path)
        var checked: [(layer: Int, whole: AnimatableValue)] = []
        checked.reserveCapacity(values.count)
        var seen = SeenIndices(capacity: self.layers.capacity, expected: values.count)
        for (value, layer) in zip(values, layers) {
            let i = try self.layers.index(of: layer)
            guard seen.insert(i) else {
                throw AnimrtError(.invalidArgument, "\(layer) is given twice; a layer takes one value of '\(kp.name)' at a time")
            }
            try checkModelValue(value, keyPath: kp)
            checked.append((i, try wholeModelValue(value, keyPath: kp, layer: i)))
        }
        try writeModelValues(checked, property: kp.property)
    }

    /// Sets the model value of `kp` on every layer of `targets` in one call:
    /// `targets[k]` takes the components `values[k·w ..< (k+1)·w]`, `w` the
    /// key path's components. All or none, as `setModelValues(_:forKeyPath:of:)`:
    /// every layer, every value, the whole value it makes and the room in the
    /// value pools are checked before the first is written, and a refusal
    /// names the item (`layers[k]`, `values for layers[k]`). A layer given
    /// twice, or a count of values that is not `w` per layer, is refused
    /// (`invalidArgument`) with nothing written.
    public func setModelValues(_ values: UnsafeBufferPointer<Double>, keyPath kp: KeyPath,
                               of targets: UnsafeBufferPointer<Handle>) throws(AnimrtError) {
        let n = targets.count, w = kp.kind.componentCount
        guard values.count == n * w else {
            throw AnimrtError(.invalidArgument, "\(counted(values.count, "number")) for \(counted(n, "layer")): '\(kp.name)' takes \(counted(w, "number")) per layer, so \(n * w) are needed")
        }
        guard n > 0 else { return }
        var seen = SeenIndices(capacity: layers.capacity, expected: n)
        var accepted: [(layer: Int, whole: AnimatableValue)] = []
        accepted.reserveCapacity(n)
        for k in 0..<n {
            let i: Int
            do throws(AnimrtError) { i = try layers.index(of: targets[k]) }
            catch { throw error.prefixed("layers[\(k)]: ") }
            guard seen.insert(i) else {
                let first = (0..<k).first { targets[$0].index == i } ?? k
                throw AnimrtError(.invalidArgument, "layers[\(k)] is layers[\(first)] again; a layer takes one value of '\(kp.name)' per call")
            }
            do throws(AnimrtError) {
                let value = try AnimatableValue(kind: kp.kind, components: UnsafeBufferPointer(rebasing: values[(k * w)..<(k * w + w)]))
                accepted.append((i, try wholeModelValue(value, keyPath: kp, layer: i)))
            } catch { throw error.prefixed("values for layers[\(k)]: ") }
        }
        try writeModelValues(accepted, property: kp.property)
    }

    /// Writes checked model values of `property`, each on its own layer
    /// (no layer twice), after making room in the value pools for the
    /// layers that lack it: all of them, or none when there is no room.
    private func writeModelValues(_ checked: [(layer: Int, whole: AnimatableValue)], property: Int32) throws(AnimrtError) {
        let width = properties.info(property).kind.componentCount
        var sizes: [Int] = []
        for (i, _) in checked where layers[i].props.offset(of: property) == nil { sizes.append(width) }
        try reserveValues(sizes: sizes)
        for (i, whole) in checked { writeModelValue(whole, layer: i, property: property) }
    }

    /// The checks of a model value that need no layer: its kind and finite components.
    @inline(__always)
    private func checkModelValue(_ value: AnimatableValue, keyPath kp: KeyPath) throws(AnimrtError) {
        guard value.kind == kp.kind else {
            let n = kp.kind.componentCount
            throw AnimrtError(.kind, "'\(kp.name)' takes a \(kp.kind.name) (\(n) number\(n == 1 ? "" : "s")), not a \(value.kind.name)")
        }
        for k in 0..<value.kind.componentCount { try requireFinite(value.lanes[k], "component \(k) of the value for '\(kp.name)'") }
    }

    /// The whole property value that setting `value` on layer `i` makes
    /// (nothing is written).
    @inline(__always)
    private func wholeModelValue(_ value: AnimatableValue, keyPath kp: KeyPath, layer i: Int) throws(AnimrtError) -> AnimatableValue {
        let whole = kp.set(value, in: wholeValue(model, layer: i, property: kp.property))
        // A part of a transform is set by recomposing the matrix, which can
        // overflow even from finite parts: such a value is refused.
        for k in 0..<whole.kind.componentCount where !whole.lanes[k].isFinite {
            throw AnimrtError(.outOfRange, "setting '\(kp.name)' to \(value.components) makes \(properties.info(kp.property).name) overflow (component \(k) is \(whole.lanes[k]))")
        }
        return whole
    }

    /// Writes a checked model value (room for it is reserved).
    @inline(__always)
    private func writeModelValue(_ whole: AnimatableValue, layer i: Int, property: Int32) {
        // A layer no tick has shown has no on-screen value: what it shows
        // first, and what an animation added before then starts from, is
        // its model (a property it never set shows its default, as shown).
        writeWhole(whole, toPresentation: isUnshown(i), toModel: true, layer: i, property: property)
        markStale(layer: Int32(i), property: property)
    }

    /// Notes that the presentation of (layer, property) must catch up with
    /// the model at the next tick. A host that sets values many times
    /// between ticks gets the list deduplicated, never longer than about
    /// twice the properties that exist.
    func markStale(layer: Int32, property: Int32) {
        if staleProperties.count >= 2 * model.count + 64 {
            var seen = Set<Int64>()
            staleProperties.removeAll { !seen.insert(Int64($0.0) << 32 | Int64($0.1)).inserted }
        }
        staleProperties.append((layer, property))
    }

    /// The model value of `keyPath`.
    public func modelValue(forKeyPath path: String, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        _ = try layers.index(of: layer)
        return try modelValue(keyPath: try properties.resolve(path), of: layer)
    }

    /// The model value of a resolved key path.
    public func modelValue(keyPath kp: KeyPath, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        let i = try layers.index(of: layer)
        return kp.get(wholeValue(model, layer: i, property: kp.property))
    }

    /// The presentation value of `keyPath` as of the last tick.
    public func presentationValue(forKeyPath path: String, of layer: Handle) throws(AnimrtError) -> AnimatableValue {
        let i = try layers.index(of: layer)
        let kp = try properties.resolve(path)
        return kp.get(wholeValue(presentation, layer: i, property: kp.property))
    }
}
