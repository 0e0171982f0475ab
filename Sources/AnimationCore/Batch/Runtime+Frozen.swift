/// Finished fills cost nothing per tick.
///
/// A batch entry that has ended and stays attached (removedOnCompletion off,
/// Core Animation's idiom for keeping the end state on screen) shows a value
/// that no longer changes with time: its layer runs on the runtime's time
/// and its timing is past its active interval. It moves to the frozen store,
/// which no tick evaluates. Its presentation component stays as the tick
/// that ended it wrote it, until something changes:
///
/// - its property's model value is set: the property follows the model, and
///   the frozen component is evaluated again at the next tick (`refreeze`);
/// - it is removed: the property shows its model (as for any removal);
/// - its layer's time changes (layer timing, or a timed parent): it moves to
///   the general path with every other batch entry of the subtree and is
///   evaluated per tick there, in the layer's new time.
///
/// Readers of the attached animation (its timing, values, snapshot) see the
/// entry as it was: the frozen store has the same columns as a lane.
extension Runtime {
    /// Moves ended batch entry `ii` to the frozen store.
    func freeze(_ ii: Int) {
        guard freezesFinishedFills, instances[ii].inBatch, Int(instances[ii].lane) != batches.frozenIndex else { return }
        let lane = batches.lanes[Int(instances[ii].lane)]
        let k = Int(instances[ii].tierIndex)
        let index = lane.copy(k, to: batches.frozen)
        if let moved = lane.remove(at: k) { instances[Int(moved)].tierIndex = Int32(k) }
        instances[ii].lane = Int16(batches.frozenIndex)
        instances[ii].tierIndex = index
    }

    /// Evaluates again the frozen entries of (layer, property) pairs whose
    /// presentation was just reset to the model.
    func refreeze(_ pairs: [(Int32, Int32)], now: Double) {
        guard batches.frozen.count > 0 else { return }
        let frozen = batches.frozen, frozenLane = Int16(batches.frozenIndex)
        model.withUnsafeBufferPointer { m in
            presentation.withUnsafeMutableBufferPointer { p in
                for (li, property) in pairs where layers.isLive(Int(li)) {
                    var c = layers[Int(li)].firstInstance
                    while c >= 0 {
                        let inst = instances[Int(c)]
                        if inst.lane == frozenLane && inst.property == property {
                            frozen.evaluateOne(Int(inst.tierIndex), now: now, curves: curves, model: m.baseAddress!,
                                               presentation: p.baseAddress!)
                        }
                        c = inst.next
                    }
                }
            }
        }
    }
}
