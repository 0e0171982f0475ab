import CBatchKernel
import Dispatch

/// Structure-of-arrays storage for the animations the runtime evaluates in
/// one tight loop: basic scalar animations with constant endpoints, the
/// only animation on their property, on layers whose time is the runtime's.
/// Everything else goes to the general path.
final class BatchStorage {
    static let fillBackwards: UInt8 = 1, fillForwards: UInt8 = 2, removedOnCompletion: UInt8 = 4, complexTiming: UInt8 = 8
    /// Added with startsFromPresentation (kept only to read it back).
    static let fromPresentation: UInt8 = 128
    /// Bits 4, 5, 6: whether the entry is in effect before, during and after
    /// its active interval (so the kernel picks one without branching).
    static let effectShift: UInt8 = 4

    /// The curve kind every entry of this lane has (`CurveTable.linear`, …).
    let kind: UInt8

    init(kind: UInt8) { self.kind = kind }

    let begin = Column<Double>()
    /// The iteration duration; for an entry with complex timing (flag
    /// `complexTiming`), the bit pattern of its index in `complex` instead
    /// (the kernel reads the duration of simple entries only).
    let duration = Column<Double>()
    let from = Column<Double>()
    let to = Column<Double>()
    /// Offset of the animated component in the model and presentation pools.
    let slot = Column<Int32>()
    let curve = Column<Int32>()
    let flags = Column<UInt8>()
    let state = Column<UInt8>()
    /// The instance slot that owns each entry.
    let owner = Column<Int32>()

    var complex: [MediaTiming] = []
    private var freeComplex: [Int32] = []

    var count: Int { begin.count }

    func append(owner o: Int32, timing: MediaTiming, from f: Double, to t: Double, slot s: Int32,
                curve c: Int32, removedOnCompletion: Bool, fromPresentation: Bool = false) -> Int32 {
        var fl = BatchStorage.flags(fill: timing.fillMode, removedOnCompletion: removedOnCompletion,
                                    fromPresentation: fromPresentation)
        var d = timing.effectiveDuration
        if !timing.isSimple {
            fl |= BatchStorage.complexTiming
            d = storeComplex(timing)
        }
        return append(owner: o, begin: timing.beginTime, duration: d, from: f, to: t, slot: s, curve: c, flags: fl)
    }

    /// The flags of an entry with simple timing.
    static func flags(fill: FillMode, removedOnCompletion: Bool, fromPresentation: Bool) -> UInt8 {
        var fl: UInt8 = fromPresentation ? BatchStorage.fromPresentation : 0
        if fill.fillsBackwards { fl |= BatchStorage.fillBackwards }
        if fill.fillsForwards { fl |= BatchStorage.fillForwards }
        if removedOnCompletion { fl |= BatchStorage.removedOnCompletion }
        let before: UInt8 = fill.fillsBackwards ? 1 : 0
        let after: UInt8 = fill.fillsForwards && !removedOnCompletion ? 4 : 0
        return fl | (before | 2 | after) << BatchStorage.effectShift
    }

    /// Appends an entry whose flags (and, for complex timing, stored
    /// timing) are ready; returns its index.
    @inline(__always)
    func append(owner o: Int32, begin b: Double, duration d: Double, from f: Double, to t: Double, slot s: Int32,
                curve c: Int32, flags fl: UInt8) -> Int32 {
        begin.append(b); duration.append(d)
        from.append(f); to.append(t); slot.append(s); curve.append(c)
        flags.append(fl); state.append(LifeState.waiting.rawValue); owner.append(o)
        return Int32(count - 1)
    }

    /// Makes room for `n` more entries in every column.
    func reserve(_ n: Int) {
        begin.reserve(n); duration.reserve(n); from.reserve(n); to.reserve(n); slot.reserve(n); curve.reserve(n)
        flags.reserve(n); state.reserve(n); owner.reserve(n)
    }

    /// Whether the next append grows the columns.
    var isFull: Bool { begin.count == begin.capacity }

    /// Gives back the columns' room past the entries and `floor` (see `Column.trim`).
    func trim(keeping floor: Int) {
        begin.trim(keeping: floor); duration.trim(keeping: floor); from.trim(keeping: floor); to.trim(keeping: floor)
        slot.trim(keeping: floor); curve.trim(keeping: floor); flags.trim(keeping: floor); state.trim(keeping: floor)
        owner.trim(keeping: floor)
    }

    /// Keeps a complex timing; returns what its entry's duration holds.
    private func storeComplex(_ timing: MediaTiming) -> Double {
        let index: Int32
        if let i = freeComplex.popLast() { complex[Int(i)] = timing; index = i }
        else { index = Int32(complex.count); complex.append(timing) }
        return Double(bitPattern: UInt64(index))
    }

    /// The index in `complex` of entry `i`'s timing, or nil for simple timing.
    @inline(__always)
    func complexIndex(_ i: Int) -> Int? {
        flags[i] & BatchStorage.complexTiming != 0 ? Int(duration[i].bitPattern) : nil
    }

    /// The timing of entry `i` as a `MediaTiming`.
    func timing(_ i: Int) -> MediaTiming {
        if let c = complexIndex(i) { return complex[c] }
        var t = MediaTiming(beginTime: begin[i], duration: duration[i])
        let f = flags[i]
        let back = f & BatchStorage.fillBackwards != 0, fwd = f & BatchStorage.fillForwards != 0
        t.fillMode = back && fwd ? .both : back ? .backwards : fwd ? .forwards : .removed
        return t
    }

    func setBegin(_ i: Int, _ t: Double) {
        begin[i] = t
        if let c = complexIndex(i) { complex[c].beginTime = t }
    }

    /// Copies entry `i` to the end of `other` (its complex timing too);
    /// returns its index there. The entry stays here until removed.
    func copy(_ i: Int, to other: BatchStorage) -> Int32 {
        let d = complexIndex(i).map { other.storeComplex(complex[$0]) } ?? duration[i]
        other.begin.append(begin[i]); other.duration.append(d); other.from.append(from[i]); other.to.append(to[i])
        other.slot.append(slot[i]); other.curve.append(curve[i]); other.flags.append(flags[i]); other.state.append(state[i])
        other.owner.append(owner[i])
        return Int32(other.count - 1)
    }

    /// Evaluates entry `i` alone at `now` (a frozen entry whose
    /// presentation was overwritten by its model), as `evaluate` would.
    func evaluateOne(_ i: Int, now: Double, curves: CurveTable, model: UnsafePointer<Double>,
                     presentation: UnsafeMutablePointer<Double>) {
        var none: [(Int32, LifeState)] = []
        withKernel(curves: curves, model: model, presentation: presentation) { kernel in
            kernel.run(i..<(i + 1), now: now, kind: curves.kinds[Int(curve[i])], transitions: &none)
        }
    }

    /// Asks for entry `i`'s line in every column, without waiting for them
    /// (see `Runtime.warm`).
    @inline(__always)
    func prefetch(_ i: Int) {
        animrt_prefetch(begin.base + i); animrt_prefetch(duration.base + i); animrt_prefetch(from.base + i)
        animrt_prefetch(to.base + i); animrt_prefetch(slot.base + i); animrt_prefetch(curve.base + i)
        animrt_prefetch(flags.base + i); animrt_prefetch(state.base + i); animrt_prefetch(owner.base + i)
    }

    /// Removes entry `i` by moving the last entry into its place. Returns the
    /// owner of the moved entry (whose index is now `i`), if any.
    func remove(at i: Int) -> Int32? {
        if let c = complexIndex(i) { freeComplex.append(Int32(c)) }
        let last = count - 1
        var moved: Int32? = nil
        if i != last {
            begin[i] = begin[last]; duration[i] = duration[last]; from[i] = from[last]; to[i] = to[last]
            slot[i] = slot[last]; curve[i] = curve[last]; flags[i] = flags[last]; state[i] = state[last]
            owner[i] = owner[last]
            moved = owner[i]
        }
        begin.removeLast(); duration.removeLast(); from.removeLast(); to.removeLast()
        slot.removeLast(); curve.removeLast(); owner.removeLast()
        flags.removeLast(); state.removeLast()
        return moved
    }

    /// Evaluates every entry at `now` (`BatchSet.evaluate(_:)` with this
    /// lane alone, split across threads when each gets `minimumPerThread`
    /// entries): writes the presentation component (the animated value when
    /// in effect, else the model value) and appends to `transitions` the
    /// owners whose lifecycle state moved forwards, in entry order.
    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, minimumPerThread: Int = 32_768, scope: WorkerScope? = nil, path: BatchPath = .native,
                  transitions: inout [(Int32, LifeState)]) {
        BatchSet.evaluate([self], minimumPerThread: minimumPerThread, now: now, curves: curves, model: model,
                          presentation: presentation, threads: threads, scope: scope, path: path, transitions: &transitions)
    }

    /// Evaluates entries `range` at `now` on this thread (see `evaluate`).
    func run(_ range: Range<Int>, now: Double, curves: CurveTable, model: UnsafePointer<Double>,
             presentation: UnsafeMutablePointer<Double>, path: BatchPath, transitions: inout [(Int32, LifeState)]) {
        withKernel(curves: curves, model: model, presentation: presentation) { kernel in
            kernel.run(range, now: now, kind: kind, transitions: &transitions, path: path)
        }
    }

    /// Runs `body` with a kernel over this storage's columns.
    @inline(__always)
    func withKernel(curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                            _ body: (BatchKernel) -> Void) {
        complex.withUnsafeBufferPointer { complex in
        curves.functions.withUnsafeBufferPointer { functions in
        curves.coefficients.withUnsafeBufferPointer { coefficients in
        curves.tables.withUnsafeBufferPointer { tables in
        curves.kinds.withUnsafeBufferPointer { kinds in
        curves.natives.withUnsafeBufferPointer { natives in
            body(BatchKernel(
                begin: begin.base, duration: duration.base, from: from.base, to: to.base, slot: slot.base,
                curve: curve.base, flags: flags.base, owner: owner.base, state: state.base,
                kinds: kinds.baseAddress!, coefficients: coefficients.baseAddress!, tables: tables.baseAddress!,
                functions: functions.baseAddress!, natives: natives.baseAddress!,
                complex: complex.baseAddress, model: model, presentation: presentation))
        }}}}}}
    }
}

/// What a worker thread of a batch evaluation runs its share of the
/// entries inside (`Runtime.workerScope`).
public typealias WorkerScope = @Sendable (_ share: () -> Void) -> Void

/// A value handed to worker threads whose accesses are made disjoint by
/// construction (each worker touches its own range).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
