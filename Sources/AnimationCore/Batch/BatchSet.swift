/// One batch lane per curve kind, so each lane's loop is specialised, and
/// one store of finished entries that fill: their value no longer changes,
/// so no tick evaluates them (see `Runtime.freeze`).
final class BatchSet {
    /// The lanes by curve kind, then the frozen store (always last).
    let lanes = [BatchStorage(kind: CurveTable.linear), BatchStorage(kind: CurveTable.bezier),
                 BatchStorage(kind: CurveTable.general), BatchStorage(kind: CurveTable.native),
                 BatchStorage(kind: CurveTable.unary), BatchStorage(kind: CurveTable.block),
                 BatchStorage(kind: BatchSet.frozenKind)]

    /// The kind of the frozen store: entries of every curve kind.
    static let frozenKind: UInt8 = 255

    /// The frozen store's index in `lanes` (what `Instance.lane` holds for it).
    var frozenIndex: Int { lanes.count - 1 }
    var frozen: BatchStorage { lanes[lanes.count - 1] }

    /// Every batch entry, frozen ones included.
    var count: Int { lanes.reduce(0) { $0 + $1.count } }

    /// The entries a tick evaluates.
    var activeCount: Int { count - frozen.count }

    /// Entries below this many per thread are not worth a second thread.
    var minimumPerThread: Int {
        get { lanes[0].minimumPerThread }
        set { for l in lanes { l.minimumPerThread = newValue } }
    }

    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, scope: WorkerScope? = nil, path: BatchPath = .native,
                  transitions: inout [(Int32, LifeState)]) {
        for lane in lanes.dropLast() where lane.count > 0 {
            lane.evaluate(now: now, curves: curves, model: model, presentation: presentation, threads: threads,
                          scope: scope, path: path, transitions: &transitions)
        }
    }
}
