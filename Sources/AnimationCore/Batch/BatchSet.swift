/// The batch lanes and the store of finished entries that fill.
///
/// One lane per curve kind, so each lane's loop is specialised; and the
/// Bézier curves in use get a lane each (up to `curveLaneLimit` of them),
/// so that every block of four in such a lane has one curve: the AVX2
/// blocks then read its coefficients once instead of gathering four
/// curves' (a scene whose animations end and start all over the lanes
/// mixes its curves in every block otherwise). Further curves share the
/// Bézier lane. The frozen store holds finished entries that fill: their
/// value no longer changes, so no tick evaluates them (see `Runtime.freeze`).
final class BatchSet {
    /// The lanes by curve kind (index = kind), the frozen store, then the
    /// lanes given to one Bézier curve each, made as they are given (a
    /// runtime that never batches a Bézier pays for none). Read on every
    /// change and tick: unchecked, as the columns are.
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

    /// By curve id: the index of its own lane, or 0 for none.
    @exclusivity(unchecked) private var laneOfCurve: [Int8] = []
    /// By own lane (index - frozenIndex - 1): the curve it holds, for the
    /// lanes given so far.
    @exclusivity(unchecked) private var curveOfLane: [Int32] = []

    /// How many lanes of one curve have been given to a curve.
    var curveLanesGiven: Int { curveOfLane.count }

    /// Every batch entry, frozen ones included.
    var count: Int {
        var n = 0
        for k in 0..<lanes.count { n += lanes[k].count }
        return n
    }

    /// The entries a tick evaluates.
    var activeCount: Int { count - frozen.count }

    /// Entries below this many per thread are not worth a second thread.
    var minimumPerThread = 32_768 {
        didSet { for l in lanes { l.minimumPerThread = minimumPerThread } }
    }

    /// Lane `i`, lent to `body` without a reference count: the lanes live
    /// as long as the set, and none is removed (counted, each use on a
    /// lifecycle change's path was a retain and a release).
    @inline(__always)
    func withLane<R>(_ i: Int, _ body: (BatchStorage) -> R) -> R {
        Unmanaged.passUnretained(lanes[i])._withUnsafeGuaranteedRef(body)
    }

    /// The lane for a new entry with curve `curve` (retained by the caller)
    /// of kind `kind`, when it is known: nil for a Bézier curve with no lane
    /// yet (then `giveLane`).
    @inline(__always)
    func lane(curve: Int32, kind: UInt8) -> Int? {
        guard kind == CurveTable.bezier else { return Int(kind) }
        let c = Int(curve)
        return c < laneOfCurve.count && laneOfCurve[c] != 0 ? Int(laneOfCurve[c]) : nil
    }

    /// A lane for Bézier curve `curve`, which has none: one of its own if one
    /// is left, else the shared Bézier lane. A curve keeps its lane while
    /// any entry uses it; a lane of its own goes to another curve only once
    /// it is empty and its curve unused (`isUsed`), so no entry anywhere can
    /// hold that curve.
    func giveLane(curve: Int32, isUsed: (Int32) -> Bool) -> Int {
        var own = -1
        if curveOfLane.count < BatchSet.curveLaneLimit {
            let lane = BatchStorage(kind: CurveTable.bezier)
            lane.minimumPerThread = minimumPerThread
            lanes.append(lane)
            curveOfLane.append(curve)
            own = lanes.count - 1
        } else if let k = curveOfLane.indices.first(where: {
            lanes[frozenIndex + 1 + $0].count == 0 && !isUsed(curveOfLane[$0])
        }) {
            laneOfCurve[Int(curveOfLane[k])] = 0
            curveOfLane[k] = curve
            own = frozenIndex + 1 + k
        }
        guard own >= 0 else { return Int(CurveTable.bezier) }
        let c = Int(curve)
        if c >= laneOfCurve.count { laneOfCurve += repeatElement(0, count: c + 1 - laneOfCurve.count) }
        laneOfCurve[c] = Int8(own)
        return own
    }

    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, scope: WorkerScope? = nil, path: BatchPath = .native,
                  transitions: inout [(Int32, LifeState)]) {
        for k in 0..<lanes.count where k != frozenIndex && lanes[k].count > 0 {
            let lane = lanes[k]
            lane.evaluate(now: now, curves: curves, model: model, presentation: presentation, threads: threads,
                          scope: scope, path: path, transitions: &transitions)
        }
    }
}
