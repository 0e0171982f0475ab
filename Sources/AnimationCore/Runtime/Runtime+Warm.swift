import CBatchKernel

/// Loading ahead what a large batch of lifecycle changes will touch.
///
/// When many animations finish in one tick (a UI replacing 1 % of 10^6
/// animations every frame), each one's records — its instance, its layer,
/// its batch entry in nine columns, the entry moved into its place — are
/// scattered through memory much larger than the caches. Handled one at a
/// time, each finish waits for its misses in turn, because each record
/// leads to the next. `warm` first asks for them for a chunk of changes in
/// short loops whose requests do not depend on one another, so the
/// processor has many misses in flight at once; the loop that then makes
/// the changes, in the same order as before, finds them in cache. It
/// changes nothing. The requests are prefetches where nothing waits for
/// the line (a load is kept in flight until its line arrives, so a few
/// dozen of them fill the processor's window and the loop stalls); what
/// is needed to find the next record (an instance's layer and entry) is
/// loaded.
extension Runtime {
    /// Fewer changes than this are handled without warming (their records
    /// are few, and often already in cache).
    static let warmThreshold = 64
    /// Changes warmed at a time: their records fit in a core's L2 cache
    /// (warmed further ahead, they would be evicted before they are used).
    static let warmChunk = 256

    /// Asks for the records that `processTransitions` will touch for `list`:
    /// every change's instance, a start's layer handle, and an end's layer,
    /// batch entry and the entry that will fill its place.
    func warm(_ list: ArraySlice<(Int32, LifeState)>) {
        for (ii, _) in list { instances.prefetch(Int(ii)) }
        // Removals per lane: each moves one of the lane's last entries into
        // its hole, so those entries and their owners are asked for too.
        var removals = [Int](repeating: 0, count: batches.lanes.count)
        for (ii32, state) in list {
            let ii = Int(ii32)
            guard instances.isLive(ii) else { continue }
            let inst = instances[ii]
            // A start reads only the layer's handle (for its event).
            guard state == .ended else { layers.prefetchHandle(Int(inst.layer)); continue }
            layers.prefetch(Int(inst.layer))
            if inst.inBatch {
                batches.withLane(Int(inst.lane)) { $0.prefetch(Int(inst.tierIndex)) }
                removals[Int(inst.lane)] += 1
            }
        }
        for (lane, n) in zip(batches.lanes, removals) where n > 0 {
            for k in max(0, lane.count - n)..<lane.count {
                lane.prefetch(k); instances.prefetch(Int(lane.owner[k]))
            }
        }
    }

    /// Asks for the instance records and layers of `lane`'s entries
    /// `range`, which a shutdown detaches.
    func warmDetaching(_ lane: BatchStorage, _ range: Range<Int>) {
        for k in range { instances.prefetch(Int(lane.owner[k])) }
        for k in range { layers.prefetch(Int(instances[Int(lane.owner[k])].layer)) }
    }

    /// Asks for the layers and values that `syncStaleProperties` will touch
    /// for `pairs`, a chunk of the stale properties (`warmChunk` at a time,
    /// as the changes above).
    func warmStale(_ pairs: ArraySlice<(Int32, Int32)>) {
        for (li, _) in pairs where layers.isLive(Int(li)) { layers.prefetch(Int(li)) }
        model.withUnsafeBufferPointer { m in
            presentation.withUnsafeBufferPointer { p in
                for (li, property) in pairs where layers.isLive(Int(li)) {
                    if let off = layers[Int(li)].props.offset(of: property) {
                        animrt_prefetch(m.baseAddress! + Int(off)); animrt_prefetch(p.baseAddress! + Int(off))
                    }
                }
            }
        }
    }

    /// Asks for the layer records, the instance slots the new animations
    /// will take (those freed by animations that ended lie all over the
    /// table), and the presentation of `property` on each layer when the
    /// animations start from it, that a bulk add to `targets` reads. A bulk
    /// add warms `warmChunk` items at a time, just before it adds them:
    /// warmed all at once, 10^4 items' lines outgrow a core's L2 cache and
    /// the first ones are gone again when they are used (the churn's bulk
    /// add spent 1.55 ms of its frame on 10^4 items warmed at once, 1.03 ms
    /// warmed by chunks).
    func warm(layers targets: UnsafeBufferPointer<Handle>, property: Int32, fromPresentation: Bool) {
        instances.prefetchNextFree(targets.count)
        for h in targets { layers.prefetch(h.index) }
        if fromPresentation {
            presentation.withUnsafeBufferPointer { p in
                for h in targets {
                    if let off = layers[h.index].props.offset(of: property) { animrt_prefetch(p.baseAddress! + Int(off)) }
                }
            }
        }
    }
}
