/// Loading ahead what a large batch of lifecycle changes will touch.
///
/// When many animations finish in one tick (a UI replacing 1 % of 10^6
/// animations every frame), each one's records — its instance, its layer,
/// its batch entry in nine columns, the entry moved into its place — are
/// scattered through memory much larger than the caches. Handled one at a
/// time, each finish waits for its misses in turn, because each record
/// leads to the next. `warm` first loads them for the whole batch in short
/// loops whose loads do not depend on one another, so the processor has
/// many misses in flight at once; the loop that then makes the changes, in
/// the same order as before, finds them in cache. It changes nothing: what
/// it loads is only summed into `warmSink`, so that the loads are kept.
extension Runtime {
    /// Fewer changes than this are handled without warming (their records
    /// are few, and often already in cache).
    static let warmThreshold = 64
    /// Changes warmed at a time: their records fit in a core's L2 cache
    /// (warmed further ahead, they would be evicted before they are used).
    static let warmChunk = 256

    /// Loads the records that `processTransitions` will touch for `list`.
    func warm(_ list: ArraySlice<(Int32, LifeState)>) {
        var sink: UInt64 = 0
        for (ii, _) in list { sink &+= instances.touch(Int(ii)) }
        // Removals per lane: each moves one of the lane's last entries into
        // its hole, so those entries and their owners are loaded too.
        var removals = [Int](repeating: 0, count: batches.lanes.count)
        for (ii32, state) in list where state == .ended {
            let ii = Int(ii32)
            guard instances.isLive(ii) else { continue }
            let inst = instances[ii]
            sink &+= layers.touch(Int(inst.layer))
            if inst.inBatch {
                sink &+= batches.lanes[Int(inst.lane)].touch(Int(inst.tierIndex))
                removals[Int(inst.lane)] += 1
            }
        }
        for (lane, n) in zip(batches.lanes, removals) where n > 0 {
            for k in max(0, lane.count - n)..<lane.count {
                sink &+= lane.touch(k) &+ instances.touch(Int(lane.owner[k]))
            }
        }
        warmSink = sink
    }

    /// Loads the instance records and layers of `lane`'s entries `range`,
    /// which a shutdown detaches.
    func warmDetaching(_ lane: BatchStorage, _ range: Range<Int>) {
        var sink: UInt64 = 0
        for k in range { sink &+= instances.touch(Int(lane.owner[k])) }
        for k in range { sink &+= layers.touch(Int(instances[Int(lane.owner[k])].layer)) }
        warmSink = sink
    }

    /// Loads the layers and values that `syncStaleProperties` will touch
    /// for `pairs`, a chunk of the stale properties (`warmChunk` at a time,
    /// as the changes above).
    func warmStale(_ pairs: ArraySlice<(Int32, Int32)>) {
        var sink: UInt64 = 0
        for (li, _) in pairs where layers.isLive(Int(li)) { sink &+= layers.touch(Int(li)) }
        model.withUnsafeBufferPointer { m in
            presentation.withUnsafeBufferPointer { p in
                for (li, property) in pairs where layers.isLive(Int(li)) {
                    if let off = layers[Int(li)].props.offset(of: property) {
                        sink &+= m[Int(off)].bitPattern &+ p[Int(off)].bitPattern
                    }
                }
            }
        }
        warmSink = sink
    }

    /// Loads the layer records, the instance slots the new animations will
    /// take (those freed by animations that ended lie all over the table),
    /// and the presentation of `property` on each layer when the animations
    /// start from it, that a bulk add to `targets` reads. A bulk add warms
    /// `warmChunk` items at a time, just before it adds them: warmed all at
    /// once, 10^4 items' lines outgrow a core's L2 cache and the first ones
    /// are gone again when they are used (the churn's bulk add spent 1.55 ms
    /// of its frame on 10^4 items warmed at once, 1.03 ms warmed by chunks).
    func warm(layers targets: UnsafeBufferPointer<Handle>, property: Int32, fromPresentation: Bool) {
        var sink: UInt64 = instances.touchNextFree(targets.count)
        for h in targets { sink &+= layers.touch(h.index) }
        if fromPresentation {
            presentation.withUnsafeBufferPointer { p in
                for h in targets {
                    if let off = layers[h.index].props.offset(of: property) { sink &+= p[Int(off)].bitPattern }
                }
            }
        }
        warmSink = sink
    }
}
