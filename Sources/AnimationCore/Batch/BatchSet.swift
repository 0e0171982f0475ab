import Dispatch

/// The batch lanes and the store of finished entries that fill.
///
/// Lanes come in families: one per curve kind, so each lane's loop is
/// specialised; and the Bézier curves in use get a family each (up to
/// `curveLaneLimit` of them), so that every block of four in such a lane
/// has one curve: the AVX2 blocks then read its coefficients once instead
/// of gathering four curves' (a scene whose animations end and start all
/// over the lanes mixes its curves in every block otherwise). Further
/// curves share the Bézier family. A family has a lane per range of value
/// slots its entries show in (`bucketShift`), and a tick evaluates the
/// lanes range by range. The frozen store holds finished entries that
/// fill: their value no longer changes, so no tick evaluates them (see
/// `Runtime.freeze`).
final class BatchSet {
    /// The first lane of each kind's family (index = kind), the frozen
    /// store, then the lanes made as they are needed: a Bézier curve's
    /// first lane when it gets a family, a family's lane for a range of
    /// values when an entry first shows there (a runtime that never batches
    /// a Bézier pays for none). None is removed. Read on every change and
    /// tick: unchecked, as the columns are.
    @exclusivity(unchecked) private(set) var lanes = [
        BatchStorage(kind: CurveTable.linear), BatchStorage(kind: CurveTable.bezier),
        BatchStorage(kind: CurveTable.general), BatchStorage(kind: CurveTable.native),
        BatchStorage(kind: CurveTable.unary), BatchStorage(kind: CurveTable.block),
        BatchStorage(kind: BatchSet.frozenKind)]

    /// The kind of the frozen store: entries of every curve kind.
    static let frozenKind: UInt8 = 255

    /// The frozen store's index in `lanes` (what `Instance.lane` holds for it).
    let frozenIndex = 6
    var frozen: BatchStorage { lanes[frozenIndex] }

    /// Bézier curves with a lane of their own, at most.
    static let curveLaneLimit = 24

    /// Lane families: one per curve kind (index = kind, frozen excluded),
    /// then one per Bézier curve with lanes of its own.
    static let familyCount = 6 + curveLaneLimit

    /// A family's entries are split by where they show: one lane per range
    /// of 2^bucketShift value slots (512 KiB of presentation values; tests
    /// lower it to spread a few entries over many lanes), made
    /// when an entry first shows there. A tick evaluates the lanes range by
    /// range, so the stores of each stay within a few hundred kilobytes that
    /// the caches keep, whatever order the entries were added in (appended
    /// at one lane's end, entries added after a scene's churn, or to layers
    /// whose values were made in another order, stored all over the pools).
    @exclusivity(unchecked) var bucketShift: Int32 = 16

    /// Lanes at most, made for ranges (a curve's first lane is made
    /// whatever the count: 24 more at most): past it, a family's entries in
    /// a range without a lane go to its first lane (slower stores, the same
    /// values). Lowered by tests, to reach it with a few entries.
    @exclusivity(unchecked) var laneLimit = 4096

    /// By curve id: its family plus one, or 0 for none.
    @exclusivity(unchecked) private var familyOfCurve: [Int8] = []
    /// By own family (family - 6): the curve it holds, for the families given so far.
    @exclusivity(unchecked) private var curveOfFamily: [Int32] = []
    /// By bucket * familyCount + family: the lane, or -1 for none yet.
    @exclusivity(unchecked) private var bucketLanes: [Int16] = Array(0..<6) + [Int16](repeating: -1, count: familyCount - 6)
    /// The lanes a tick evaluates, in the order it evaluates them: by
    /// bucket, then by family (their first lane's index).
    @exclusivity(unchecked) private(set) var order: [Int16] = Array(0..<6)
    /// By lane: its bucket and family's first lane, the key of `order`.
    @exclusivity(unchecked) private var orderKey: [Int] = Array(0..<6) + [-1]

    /// How many families of one curve have been given to a curve.
    var curveLanesGiven: Int { curveOfFamily.count }

    /// Every batch entry, frozen ones included.
    var count: Int {
        var n = 0
        for k in 0..<lanes.count { n += lanes[k].count }
        return n
    }

    /// The entries a tick evaluates.
    var activeCount: Int { count - frozen.count }

    /// Entries below this many per thread are not worth a second thread
    /// (the lanes' entries taken together: see `evaluate`).
    var minimumPerThread = 32_768

    /// Lane `i`, lent to `body` without a reference count: the lanes live
    /// as long as the set, and none is removed (counted, each use on a
    /// lifecycle change's path was a retain and a release).
    @inline(__always)
    func withLane<R>(_ i: Int, _ body: (BatchStorage) -> R) -> R {
        Unmanaged.passUnretained(lanes[i])._withUnsafeGuaranteedRef(body)
    }

    /// The family for a new entry with curve `curve` (retained by the
    /// caller) of kind `kind`, when it is known: nil for a Bézier curve with
    /// no family yet (then `giveFamily`).
    @inline(__always)
    func family(curve: Int32, kind: UInt8) -> Int? {
        guard kind == CurveTable.bezier else { return Int(kind) }
        let c = Int(curve)
        return c < familyOfCurve.count && familyOfCurve[c] != 0 ? Int(familyOfCurve[c]) - 1 : nil
    }

    /// The lane of family `f` for an entry shown at value slot `slot`.
    @inline(__always)
    func lane(family f: Int, slot: Int32) -> Int {
        let i = Int(slot >> bucketShift) &* BatchSet.familyCount &+ f
        if i < bucketLanes.count, case let l = bucketLanes[i], l >= 0 { return Int(l) }
        return makeLane(family: f, slot: slot)
    }

    /// Makes the lane of family `f` for the bucket of `slot` (its first
    /// lane past `laneLimit`).
    @inline(never)
    private func makeLane(family f: Int, slot: Int32) -> Int {
        let bucket = Int(slot >> bucketShift)
        let first = Int(bucketLanes[f])
        guard lanes.count < laneLimit else { return first }
        let lane = BatchStorage(kind: lanes[first].kind)
        let index = addLane(lane, key: bucket << 16 | first)
        let i = bucket * BatchSet.familyCount + f
        if i >= bucketLanes.count { bucketLanes += repeatElement(-1, count: i + 1 - bucketLanes.count) }
        bucketLanes[i] = Int16(index)
        return index
    }

    /// Appends `lane` to the lanes, in its place in `order`; returns its index.
    private func addLane(_ lane: BatchStorage, key: Int) -> Int {
        lanes.append(lane)
        orderKey.append(key)
        let index = lanes.count - 1
        var at = order.count
        while at > 0 && orderKey[Int(order[at - 1])] > key { at -= 1 }
        order.insert(Int16(index), at: at)
        return index
    }

    /// A family for Bézier curve `curve`, which has none: one of its own if
    /// one is left, else the shared Bézier family. A curve keeps its family
    /// while any entry uses it; a family of its own goes to another curve
    /// only once its lanes are empty and its curve unused (`isUsed`), so no
    /// entry anywhere can hold that curve.
    func giveFamily(curve: Int32, isUsed: (Int32) -> Bool) -> Int {
        var own = -1
        if curveOfFamily.count < BatchSet.curveLaneLimit {
            own = 6 + curveOfFamily.count
            let lane = BatchStorage(kind: CurveTable.bezier)
            bucketLanes[own] = Int16(addLane(lane, key: lanes.count))
            curveOfFamily.append(curve)
        } else if let k = curveOfFamily.indices.first(where: { isEmpty(family: 6 + $0) && !isUsed(curveOfFamily[$0]) }) {
            familyOfCurve[Int(curveOfFamily[k])] = 0
            curveOfFamily[k] = curve
            own = 6 + k
        }
        guard own >= 0 else { return Int(CurveTable.bezier) }
        let c = Int(curve)
        if c >= familyOfCurve.count { familyOfCurve += repeatElement(0, count: c + 1 - familyOfCurve.count) }
        familyOfCurve[c] = Int8(own + 1)
        return own
    }

    /// Whether every lane of family `f` is empty.
    private func isEmpty(family f: Int) -> Bool {
        stride(from: f, to: bucketLanes.count, by: BatchSet.familyCount).allSatisfy {
            bucketLanes[$0] < 0 || lanes[Int(bucketLanes[$0])].count == 0
        }
    }

    /// Every lane of family `f`, in bucket order (for tests).
    func lanes(family f: Int) -> [Int] {
        stride(from: f, to: bucketLanes.count, by: BatchSet.familyCount).compactMap { bucketLanes[$0] >= 0 ? Int(bucketLanes[$0]) : nil }
    }

    /// Evaluates every lane but the frozen store at `now`, range by range
    /// (`order`): see `BatchSet.evaluate(_:)`.
    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, scope: WorkerScope? = nil, path: BatchPath = .native,
                  transitions: inout [(Int32, LifeState)]) {
        var active: [BatchStorage] = []
        for k in order where lanes[Int(k)].count > 0 { active.append(lanes[Int(k)]) }
        BatchSet.evaluate(active, minimumPerThread: minimumPerThread, now: now, curves: curves, model: model,
                          presentation: presentation, threads: threads, scope: scope, path: path, transitions: &transitions)
    }

    /// Evaluates `lanes`, one after another, at `now`: writes each entry's
    /// presentation component and appends to `transitions` the owners whose
    /// lifecycle state moved forwards, in the lanes' order and each lane's
    /// entry order. With `threads` > 1 and enough entries, the lanes' entries
    /// taken together are cut into contiguous shares that run concurrently,
    /// each inside `scope`: the values, and the order of `transitions`, are
    /// the same to the bit as on one thread.
    static func evaluate(_ lanes: [BatchStorage], minimumPerThread: Int, now: Double, curves: CurveTable,
                         model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>, threads: Int,
                         scope: WorkerScope?, path: BatchPath, transitions: inout [(Int32, LifeState)]) {
        var n = 0
        for l in lanes { n += l.count }
        let workers = max(1, min(threads, n / max(1, minimumPerThread)))
        if workers == 1 {
            for l in lanes { l.run(0..<l.count, now: now, curves: curves, model: model, presentation: presentation, path: path,
                                   transitions: &transitions) }
            return
        }
        var lists = [[(Int32, LifeState)]](repeating: [], count: workers)
        // What every worker reads: the lanes and pools are only read, but for
        // each worker's own entries' values and states.
        let shared = UncheckedSendable((lanes, curves, model, presentation))
        let total = n
        lists.withUnsafeMutableBufferPointer { lists in
            let out = UncheckedSendable(lists.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let share = {
                    let (lanes, curves, model, presentation) = shared.value
                    // Entries [lo, hi) of the lanes taken together.
                    let lo = total * w / workers, hi = total * (w + 1) / workers
                    var start = 0
                    for l in lanes where start < hi {
                        let a = max(lo, start), b = min(hi, start + l.count)
                        if a < b {
                            l.run((a - start)..<(b - start), now: now, curves: curves, model: model,
                                  presentation: presentation, path: path, transitions: &out.value[w])
                        }
                        start += l.count
                    }
                }
                if let scope { scope(share) } else { share() }
            }
        }
        for l in lists { transitions += l }
    }
}
