/// One batch lane per curve kind, so each lane's loop is specialised.
final class BatchSet {
    let lanes = [BatchStorage(kind: CurveTable.linear), BatchStorage(kind: CurveTable.bezier),
                 BatchStorage(kind: CurveTable.general), BatchStorage(kind: CurveTable.native),
                 BatchStorage(kind: CurveTable.unary)]

    var count: Int { lanes.reduce(0) { $0 + $1.count } }

    /// Entries below this many per thread are not worth a second thread.
    var minimumPerThread: Int {
        get { lanes[0].minimumPerThread }
        set { for l in lanes { l.minimumPerThread = newValue } }
    }

    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, transitions: inout [(Int32, LifeState)]) {
        for lane in lanes where lane.count > 0 {
            lane.evaluate(now: now, curves: curves, model: model, presentation: presentation, threads: threads,
                          transitions: &transitions)
        }
    }
}
