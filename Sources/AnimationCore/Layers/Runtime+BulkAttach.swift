/// What one column of a bulk add sets per animation (`animrt_column`; raw
/// values are part of the C ABI): a timing parameter (its
/// `animrt_timing_param` number) or a value (16 + its `animrt_value_slot`).
public enum BulkField: Hashable, Sendable {
    case timing(TimingParameter)
    case value(ValueSlot)

    public static let valueBase: Int32 = 16

    public init?(rawValue: Int32) {
        if let p = TimingParameter(rawValue: rawValue) { self = .timing(p) }
        else if let s = ValueSlot(rawValue: rawValue &- BulkField.valueBase) { self = .value(s) }
        else { return nil }
    }

    public var rawValue: Int32 {
        switch self { case .timing(let p): p.rawValue; case .value(let s): BulkField.valueBase + s.rawValue }
    }

    public var name: String {
        switch self { case .timing(let p): p.name; case .value(let s): s.name }
    }
}

/// One column of a bulk add: `field` for every animation, read from
/// `values` (one double each for timing, the key path's component count
/// for values, item after item).
public struct BulkColumn {
    public var field: BulkField
    public var values: UnsafePointer<Double>
    public init(_ field: BulkField, _ values: UnsafePointer<Double>) { self.field = field; self.values = values }
}

extension Runtime {
    /// Attaches the stored description `description` to every layer of
    /// `layers`, the i-th copy with the i-th value of each column: the same
    /// as setting those values on the description and adding it, one layer
    /// after the other (same entries, events and values), without the
    /// per-animation cost. Everything is checked before anything is added:
    /// on error nothing is attached. `handles`, when given (as many as
    /// `layers`), receives the attached animations.
    public func addAnimations(_ description: Handle, to layers: UnsafeBufferPointer<Handle>, columns: [BulkColumn],
                              forKey key: String?, joining barrier: Handle?,
                              handles: UnsafeMutableBufferPointer<Handle>? = nil) throws(AnimrtError) {
        let d = try definitions.index(of: description)
        if let barrier { _ = try hostBarrier(barrier) }
        let n = layers.count
        if let handles, handles.count < n {
            throw AnimrtError(.buffer, "the handle buffer holds \(handles.count); \(n) animations are added")
        }
        // Which parameters and values vary, and how wide each value is.
        let stored = definitions[d]
        var timingColumns: [(TimingParameter, UnsafePointer<Double>)] = []
        var valueColumns: [(ValueSlot, UnsafePointer<Double>)] = []
        var seen = Set<BulkField>()
        for (c, column) in columns.enumerated() {
            guard seen.insert(column.field).inserted else {
                throw AnimrtError(.invalidArgument, "columns[\(c)] sets \(column.field.name), which an earlier column sets already")
            }
            switch column.field {
            case .timing(let p): timingColumns.append((p, column.values))
            case .value(let s):
                var probe = stored.animation
                try probe.setValue(nil, s)  // a slot this kind of animation has
                valueColumns.append((s, column.values))
            }
        }
        let width = valueColumns.isEmpty ? 0 : try valueKind(ofAnimation: description).componentCount
        for i in 0..<n {
            do throws(AnimrtError) { _ = try self.layers.index(of: layers[i]) }
            catch { throw AnimrtError(error.status, "layers[\(i)]: \(error.message)") }
        }
        for (p, values) in timingColumns {
            for i in 0..<n where !MediaTiming.accepts(p, values[i]) {
                do throws(AnimrtError) { try MediaTiming.check(p, values[i]) }
                catch { throw AnimrtError(error.status, "item \(i) of the \(p.name) column: \(error.message)") }
            }
        }
        // Each value is good on its own; a repeat column can still meet the
        // other repeat field (the description's or another column's).
        if timingColumns.contains(where: { $0.0 == .repeatCount || $0.0 == .repeatDuration || $0.0 == .iterations }) {
            for i in 0..<n {
                var t = stored.animation.timing
                for (p, values) in timingColumns { t.assign(p, values[i]) }
                do throws(AnimrtError) { try t.checkRepeatCombination() }
                catch { throw AnimrtError(error.status, "item \(i): \(error.message)") }
            }
        }
        for (s, values) in valueColumns {
            for k in 0..<(n * width) where !values[k].isFinite {
                throw AnimrtError(.invalidArgument, "item \(k / width) of the \(s.name) column: component \(k % width) is \(values[k]); components must be finite")
            }
        }
        if let key { try requireNameLength(key, "animation key") }
        guard instances.hasRoom(for: n) else { throw instances.fullError }
        if let kp = stored.keyPath {
            // Room in the value pools for the layers that lack the property.
            let width = properties.info(kp.property).kind.componentCount
            if model.count + n * width > valuePoolLimit {
                var missing = Set<Int>()
                for i in 0..<n where self.layers[layers[i].index].props.offset(of: kp.property) == nil { missing.insert(layers[i].index) }
                try reserveValues(sizes: Array(repeating: width, count: missing.count))
            }
        }

        if var template = batchTemplate(d, endsGiven: false) {
            for (s, _) in valueColumns { template.item.set(s, 0) }
            if template.hasBothEnds {
                try addBatchedColumns(template, layers, timingColumns, valueColumns, key: key, barrier: barrier,
                                      definition: description, handles: handles)
                return
            }
        }
        // The general path: each copy is built and checked first, then added.
        // The values the copies create are counted together (a property
        // once per layer): each may fit alone while all of them do not.
        var copies: [Animation] = []
        copies.reserveCapacity(n)
        var created = Set<Int64>(), sizes: [Int] = []
        for i in 0..<n {
            var a = stored.animation
            for (p, values) in timingColumns { a.timing.assign(p, values[i]) }
            for (s, values) in valueColumns {
                try a.setValue(try AnimatableValue(kind: stored.keyPath!.kind,
                                                   components: UnsafeBufferPointer(start: values + i * width, count: width)), s)
            }
            do throws(AnimrtError) {
                let r = try ResolvedAnimation.resolve(a, properties: &properties, defaultDuration: defaultAnimationDuration)
                let li = layers[i].index
                for p in r.targets where self.layers[li].props.offset(of: p) == nil
                    && created.insert(Int64(li) << 32 | Int64(p)).inserted {
                    sizes.append(properties.info(p).kind.componentCount)
                }
            } catch { throw AnimrtError(error.status, "item \(i): \(error.message)") }
            copies.append(a)
        }
        try reserveValues(sizes: sizes)
        for i in 0..<n {
            let h = try add(copies[i], to: layers[i], forKey: key, joining: barrier, definition: description)
            handles?[i] = h
        }
    }

    /// The bulk add of a template that goes straight to the batch: each
    /// item is a batch entry unless its layer does not qualify (then it is
    /// added as `add` would, from the same description).
    private func addBatchedColumns(_ template: BatchTemplate, _ layers: UnsafeBufferPointer<Handle>,
                                   _ timingColumns: [(TimingParameter, UnsafePointer<Double>)],
                                   _ valueColumns: [(ValueSlot, UnsafePointer<Double>)], key: String?, barrier: Handle?,
                                   definition: Handle, handles: UnsafeMutableBufferPointer<Handle>?) throws(AnimrtError) {
        let n = layers.count
        // One item, rewritten per animation: each column sets its own field
        // every time, and nothing else changes (no copy of the template each time).
        var item = template.item
        // Ends too far apart are refused as the general add refuses them.
        let columns = ItemColumns(timingColumns, valueColumns)
        for i in 0..<n {
            columns.setValues(&item, i)
            guard !item.endsAreFinite else { continue }
            var a = definitions[try definitions.index(of: definition)].animation
            for (p, values) in timingColumns { a.timing.assign(p, values[i]) }
            for (s, values) in valueColumns { try a.setValue(.scalar(values[i]), s) }
            do throws(AnimrtError) { _ = try ResolvedAnimation.resolve(a, properties: &properties, defaultDuration: defaultAnimationDuration) }
            catch { throw AnimrtError(error.status, "item \(i): \(error.message)") }
        }
        let curve = curves.retain(template.curve)
        defer { curves.release(curve) }
        let family = batchFamily(curve: curve)
        instances.reserve(n)
        reserveValueCapacity(n * properties.info(template.property).kind.componentCount)
        // Entries with simple timing take the planned lane and flags; the
        // timing columns decide whether an item's timing can be other.
        let plan = BatchPlan(family: family, curve: curve,
                             flags: BatchStorage.flags(fill: template.item.timing.fillMode,
                                                       removedOnCompletion: template.removedOnCompletion,
                                                       fromPresentation: template.fromPresentation))
        let mayBeComplex = !template.item.timing.isSimple || timingColumns.contains { $0.0 != .beginTime && $0.0 != .duration }
        // The key is looked up once, not per animation (`addPlanned`).
        let keyID = retainKey(key)
        defer { releaseKey(keyID) }
        let warming = n >= Runtime.warmThreshold
        var cursor = LaneCursor()
        defer { for (l, floor) in cursor.grown { batches.lanes[l].trim(keeping: floor) } }
        for i in 0..<n {
            if warming && i % Runtime.warmChunk == 0 {
                let ahead = UnsafeBufferPointer(rebasing: layers[i..<min(i + Runtime.warmChunk, n)])
                warm(layers: ahead, property: template.property, fromPresentation: template.fromPresentation)
            }
            columns.setTiming(&item, i)
            columns.setValues(&item, i)
            let li = layers[i].index
            let h: Handle
            let simple = !mayBeComplex || item.timing.isSimple
            if simple && self.layers[li].firstInstance < 0 && hasIdentityTime(li) {
                h = instances.handle(at: addPlanned(template, &item, layer: li, keyID: keyID, joining: barrier,
                                                    definition: definition, plan: plan, left: n - i, cursor: &cursor))
            } else if let added = try addBatched(template, item, layer: li, key: key, joining: barrier, definition: definition,
                                                 plan: simple ? plan : nil) {
                h = added
            } else {
                var a = definitions[try definitions.index(of: definition)].animation
                a.timing = item.timing
                for (s, values) in valueColumns { try a.setValue(.scalar(values[i]), s) }
                h = try add(a, to: layers[i], forKey: key, joining: barrier, definition: definition)
            }
            handles?[i] = h
        }
        if !inTick { runDeferred() }
    }

    /// `addBatched` with a plan, for a layer that has no animation and runs
    /// on the runtime's time, without the checks that a bulk add has made
    /// for all its items at once (room, finite ends) or that such a layer
    /// makes moot (nothing to replace, nothing else writing the property).
    /// The caller holds `keyID`; the instance retains it, and the plan's
    /// curve, as it is made (a later item may demote entries of that curve,
    /// and the curve must stay counted for each entry still in the batch).
    /// `item` is only read: it is `inout` so that the call passes the
    /// caller's item in place (borrowed, it was copied, 128 bytes, for every
    /// animation of a bulk add).
    ///
    /// A lane it fills is given room for the `left` items of the add (this
    /// one included) at once, as many as its range of values can show, and
    /// noted in the cursor to be trimmed after the add: a bulk add to 10^6
    /// fresh layers fills each lane exactly, where growing by an eighth at
    /// a time copied each entry about eight times, and one whose layers are
    /// spread over every range leaves no room in its lanes but what appends
    /// would have left.
    @inline(__always)
    private func addPlanned(_ t: borrowing BatchTemplate, _ item: inout BatchItem, layer li: Int, keyID: Int32,
                            joining barrier: Handle?, definition: Handle, plan: BatchPlan, left: Int,
                            cursor: inout LaneCursor) -> Int {
        // The duration `addBatched` gives: the runtime's default for 0.
        var d = item.timing.duration
        let iteration = item.timing.iterationDuration
        if d == 0 && iteration == nil { d = defaultAnimationDuration }
        let duration = iteration ?? (d > 0 ? d : MediaTiming.defaultDuration)
        let slot = valueSlot(layer: li, property: t.property, create: true)! + t.component
        let (from, to) = item.ends(captured: presentation[Int(slot)], fromPresentation: t.fromPresentation)
        if keyID != 0 { keyUses[Int(keyID)] += 1 }
        let ii = insertInstance(layer: li, keyID: keyID, property: t.property, definition: definition)
        var begin = item.timing.beginTime
        if begin == 0, let stamped = stampTime(ii) { begin = stamped }
        let shift = batches.bucketShift
        if slot >> shift != cursor.bucket {
            cursor.bucket = slot >> shift
            cursor.lane = batches.lane(family: plan.family, slot: slot)
            cursor.storage = Unmanaged.passUnretained(batches.lanes[cursor.lane])
        }
        instances[ii].lane = Int16(truncatingIfNeeded: cursor.lane)
        instances[ii].tierIndex = cursor.storage!._withUnsafeGuaranteedRef { lane in
            if lane.isFull {
                cursor.grown.append((cursor.lane, GrowingBlock.grownCapacity(Double.self, from: lane.count)))
                lane.reserve(Swift.max(1, Swift.min(left, (1 << Int(shift)) - lane.count)))
            }
            return lane.append(owner: Int32(ii), begin: begin, duration: duration, from: from, to: to,
                               slot: slot, curve: curves.retain(id: plan.curve), flags: plan.flags)
        }
        joinBarriers(ii, barrier)
        return ii
    }
}

/// The lane a bulk add's last planned item went to: the next one, showing
/// in the same range of values (neighbouring layers', or every hundredth
/// layer's of 10^6), goes there without a look in the set's tables. The
/// lanes live as long as the runtime, so it holds none.
private struct LaneCursor {
    var bucket: Int32 = -1
    var lane = 0
    var storage: Unmanaged<BatchStorage>? = nil
    /// The lanes given room for the rest of the add, trimmed after it to
    /// their entries, or to what an append would have grown them to.
    var grown: [(lane: Int, floor: Int)] = []
}

/// The columns of a bulk add as a batch item reads them: the usual ones
/// (begin time, duration, from, to, by) as pointers set once, so that each
/// item is filled without a loop over the columns and a switch per column.
private struct ItemColumns {
    var begin, duration, from, to, by: UnsafePointer<Double>?
    /// All timing columns in the host's order, when some are not begin time
    /// or duration (then the order matters: a duration clears an iteration
    /// duration given before it, as the setters do).
    var timing: [(TimingParameter, UnsafePointer<Double>)] = []

    init(_ timingColumns: [(TimingParameter, UnsafePointer<Double>)], _ valueColumns: [(ValueSlot, UnsafePointer<Double>)]) {
        if timingColumns.allSatisfy({ $0.0 == .beginTime || $0.0 == .duration }) {
            for (p, v) in timingColumns { if p == .beginTime { begin = v } else { duration = v } }
        } else {
            timing = timingColumns
        }
        for (s, v) in valueColumns {
            switch s {
            case .from: from = v
            case .to: to = v
            case .by: by = v
            case .velocity: break  // a batch item has none (BatchItem.set)
            }
        }
    }

    @inline(__always)
    func setTiming(_ item: inout BatchItem, _ i: Int) {
        if let begin { item.timing.beginTime = begin[i] }
        if let duration { item.timing.assign(.duration, duration[i]) }
        for (p, values) in timing { item.timing.assign(p, values[i]) }
    }

    @inline(__always)
    func setValues(_ item: inout BatchItem, _ i: Int) {
        if let from { item.from = from[i] }
        if let to { item.to = to[i] }
        if let by { item.by = by[i] }
    }
}

extension BatchItem {
    mutating func set(_ slot: ValueSlot, _ v: Double) {
        switch slot {
        case .from: from = v
        case .to: to = v
        case .by: by = v
        case .velocity: break
        }
    }
}
