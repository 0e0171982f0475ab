import Dispatch

/// Lifecycle of an attached animation. Time only moves forwards, so the
/// state only moves forwards too.
enum LifeState: UInt8 {
    case waiting = 0, running = 1, ended = 2
}

extension MediaTiming {
    /// The timing sample and the lifecycle state at `parentTime`, computing
    /// the model once.
    func sampleAndState(at parentTime: Double) -> (TimingSample, LifeState) {
        let s = sample(at: parentTime)
        let state: LifeState
        if speed == 0 { state = .running }
        else if speed > 0 { state = s.phase == .before ? .waiting : s.phase == .active ? .running : .ended }
        else { state = s.phase == .after ? .waiting : s.phase == .active ? .running : .ended }
        return (s, state)
    }

    /// True when the timing is "play once from beginTime at speed 1", the
    /// case the batch evaluates inline.
    var isSimple: Bool {
        speed == 1 && timeOffset == 0 && (repeatCount == 0 || repeatCount == 1) && repeatDuration == 0
            && !autoreverses && iterationStart == 0 && endDelay == 0 && direction == .normal
    }
}

/// The timing functions as the batch sees them: a kind byte and, for
/// Béziers, the solver, in dense arrays indexed by registry id.
struct CurveTable {
    static let linear: UInt8 = 0, bezier: UInt8 = 1, general: UInt8 = 2
    var kinds: [UInt8] = []
    /// Per curve: ax, bx, cx, ay, by, cy and the guess table's address.
    var coefficients: [Double] = []
    var tables: [UnsafePointer<Double>] = []
    var functions: [TimingFunction] = []
    private var keepAlive: [UnitBezier] = []

    mutating func sync(with registry: TimingFunctionRegistry) {
        guard functions.count != registry.functions.count else { return }
        for f in registry.functions[functions.count...] {
            functions.append(f)
            let b: UnitBezier
            switch f {
            case .linear: kinds.append(CurveTable.linear); b = UnitBezier(0, 0, 1, 1)
            case .cubicBezier(let c): kinds.append(CurveTable.bezier); b = c
            default: kinds.append(CurveTable.general); b = UnitBezier(0, 0, 1, 1)
            }
            keepAlive.append(b)
            coefficients += [b.ax, b.bx, b.cx, b.ay, b.by, b.cy]
            tables.append(UnsafePointer(b.table.pieces))
        }
    }
}

/// A growable column of plain values in manually managed memory, so that
/// the batch can hand raw pointers to several threads at once.
final class Column<T: BitwiseCopyable> {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<T>
    @exclusivity(unchecked) private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    func append(_ v: T) {
        if count == capacity {
            // Grow by half: less slack per animation than doubling, for a
            // little more copying while a scene is built.
            let newCapacity = capacity + capacity / 2
            let bigger = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            bigger.initialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = newCapacity
        }
        (base + count).initialize(to: v)
        count += 1
    }

    func removeLast() { count -= 1 }

    subscript(i: Int) -> T {
        get { base[i] }
        set { base[i] = newValue }
    }
}

/// Structure-of-arrays storage for the animations the runtime evaluates in
/// one tight loop: basic scalar animations with constant endpoints, the
/// only animation on their property, on layers whose time is the runtime's.
/// Everything else goes to the general path.
final class BatchStorage {
    static let fillBackwards: UInt8 = 1, fillForwards: UInt8 = 2, removedOnCompletion: UInt8 = 4, complexTiming: UInt8 = 8
    /// Bits 4, 5, 6: whether the entry is in effect before, during and after
    /// its active interval (so the kernel picks one without branching).
    static let effectShift: UInt8 = 4

    /// The curve kind every entry of this lane has (`CurveTable.linear`, …).
    let kind: UInt8

    init(kind: UInt8) { self.kind = kind }

    let begin = Column<Double>()
    let duration = Column<Double>()
    let from = Column<Double>()
    let to = Column<Double>()
    /// Offset of the animated component in the model and presentation pools.
    let slot = Column<Int32>()
    let curve = Column<Int32>()
    let flags = Column<UInt8>()
    let state = Column<UInt8>()
    /// Index into `complex` when the timing is not simple, else -1.
    let extra = Column<Int32>()
    /// The instance slot that owns each entry.
    let owner = Column<Int32>()

    var complex: [MediaTiming] = []
    private var freeComplex: [Int32] = []

    var count: Int { begin.count }

    /// Entries below this many per thread are not worth a second thread.
    var minimumPerThread = 32_768

    func append(owner o: Int32, timing: MediaTiming, from f: Double, to t: Double, slot s: Int32,
                curve c: Int32, removedOnCompletion: Bool) -> Int32 {
        var fl: UInt8 = 0
        if timing.fillMode.fillsBackwards { fl |= BatchStorage.fillBackwards }
        if timing.fillMode.fillsForwards { fl |= BatchStorage.fillForwards }
        if removedOnCompletion { fl |= BatchStorage.removedOnCompletion }
        let before: UInt8 = timing.fillMode.fillsBackwards ? 1 : 0
        let after: UInt8 = timing.fillMode.fillsForwards && !removedOnCompletion ? 4 : 0
        fl |= (before | 2 | after) << BatchStorage.effectShift
        var ex: Int32 = -1
        if !timing.isSimple {
            fl |= BatchStorage.complexTiming
            if let i = freeComplex.popLast() { complex[Int(i)] = timing; ex = i }
            else { ex = Int32(complex.count); complex.append(timing) }
        }
        begin.append(timing.beginTime); duration.append(timing.effectiveDuration)
        from.append(f); to.append(t); slot.append(s); curve.append(c)
        flags.append(fl); state.append(LifeState.waiting.rawValue); extra.append(ex); owner.append(o)
        return Int32(count - 1)
    }

    /// The timing of entry `i` as a `MediaTiming`.
    func timing(_ i: Int) -> MediaTiming {
        if extra[i] >= 0 { return complex[Int(extra[i])] }
        var t = MediaTiming(beginTime: begin[i], duration: duration[i])
        let f = flags[i]
        let back = f & BatchStorage.fillBackwards != 0, fwd = f & BatchStorage.fillForwards != 0
        t.fillMode = back && fwd ? .both : back ? .backwards : fwd ? .forwards : .removed
        return t
    }

    func setBegin(_ i: Int, _ t: Double) {
        begin[i] = t
        if extra[i] >= 0 { complex[Int(extra[i])].beginTime = t }
    }

    /// Removes entry `i` by moving the last entry into its place. Returns the
    /// owner of the moved entry (whose index is now `i`), if any.
    func remove(at i: Int) -> Int32? {
        if extra[i] >= 0 { freeComplex.append(extra[i]) }
        let last = count - 1
        var moved: Int32? = nil
        if i != last {
            begin[i] = begin[last]; duration[i] = duration[last]; from[i] = from[last]; to[i] = to[last]
            slot[i] = slot[last]; curve[i] = curve[last]; flags[i] = flags[last]; state[i] = state[last]
            extra[i] = extra[last]; owner[i] = owner[last]
            moved = owner[i]
        }
        begin.removeLast(); duration.removeLast(); from.removeLast(); to.removeLast()
        slot.removeLast(); curve.removeLast(); extra.removeLast(); owner.removeLast()
        flags.removeLast(); state.removeLast()
        return moved
    }

    /// Evaluates every entry at `now`: writes the presentation component
    /// (the animated value when in effect, else the model value) and appends
    /// to `transitions` the owners whose lifecycle state moved forwards, in
    /// entry order. With `threads` > 1 and enough entries, contiguous ranges
    /// run concurrently; the results are the same to the bit.
    func evaluate(now: Double, curves: CurveTable, model: UnsafePointer<Double>, presentation: UnsafeMutablePointer<Double>,
                  threads: Int, transitions: inout [(Int32, LifeState)]) {
        let n = count
        if n == 0 { return }
        complex.withUnsafeBufferPointer { complex in
        curves.functions.withUnsafeBufferPointer { functions in
        curves.coefficients.withUnsafeBufferPointer { coefficients in
        curves.tables.withUnsafeBufferPointer { tables in
        curves.kinds.withUnsafeBufferPointer { kinds in
            let kernel = BatchKernel(
                begin: begin.base, duration: duration.base, from: from.base, to: to.base, slot: slot.base,
                curve: curve.base, flags: flags.base, extra: extra.base, owner: owner.base, state: state.base,
                kinds: kinds.baseAddress!, coefficients: coefficients.baseAddress!, tables: tables.baseAddress!,
                functions: functions.baseAddress!, complex: complex.baseAddress, model: model, presentation: presentation)
            let workers = max(1, min(threads, n / minimumPerThread))
            if workers == 1 {
                kernel.run(0..<n, now: now, kind: kind, transitions: &transitions)
                return
            }
            let kind = self.kind
            var lists = [[(Int32, LifeState)]](repeating: [], count: workers)
            lists.withUnsafeMutableBufferPointer { lists in
                let out = UncheckedSendable(lists.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    kernel.run((n * w / workers)..<(n * (w + 1) / workers), now: now, kind: kind, transitions: &out.value[w])
                }
            }
            for l in lists { transitions += l }
        }}}}}
    }
}

/// A value handed to worker threads whose accesses are made disjoint by
/// construction (each worker touches its own range).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The batch loop over raw columns; one instance is shared by all workers.
struct BatchKernel: @unchecked Sendable {
    let begin, duration, from, to: UnsafeMutablePointer<Double>
    let slot, curve: UnsafeMutablePointer<Int32>
    let flags: UnsafeMutablePointer<UInt8>
    let extra, owner: UnsafeMutablePointer<Int32>
    let state: UnsafeMutablePointer<UInt8>
    let kinds: UnsafePointer<UInt8>
    let coefficients: UnsafePointer<Double>
    let tables: UnsafePointer<UnsafePointer<Double>>
    let functions: UnsafePointer<TimingFunction>
    let complex: UnsafePointer<MediaTiming>?
    let model: UnsafePointer<Double>
    let presentation: UnsafeMutablePointer<Double>

    /// Evaluates `range` of a lane whose curves are all of `kind`; the
    /// loop is specialised per kind, so it never branches on the curve.
    func run(_ range: Range<Int>, now: Double, kind: UInt8, transitions: inout [(Int32, LifeState)]) {
        switch kind {
        case CurveTable.linear:
            loop(range, now, &transitions) { _, x, _ in x }
        case CurveTable.bezier:
            loop(range, now, &transitions) { i, x, _ in
                let c = Int(curve[i])
                let k = coefficients + c &* 6
                let t = UnitBezier.solveT(x, ax: k[0], bx: k[1], cx: k[2], table: tables[c])
                return ((k[3] * t + k[4]) * t + k[5]) * t
            }
        default:
            loop(range, now, &transitions) { i, x, beforeFlag in functions[Int(curve[i])].evaluate(x, beforeFlag: beforeFlag) }
        }
    }

    @inline(__always)
    private func loop(_ range: Range<Int>, _ now: Double, _ transitions: inout [(Int32, LifeState)],
                      _ ease: (Int, Double, Bool) -> Double) {
        for i in range {
            let f = flags[i]
            let out = Int(slot[i])
            var x: Double
            var inEffect: Bool
            var newState: UInt8
            var beforeFlag: Bool
            if f & BatchStorage.complexTiming == 0 {
                // Phase without branches: 0 before, 1 active, 2 after.
                let raw = (now - begin[i]) / duration[i]
                newState = (raw >= 0 ? 1 : 0) &+ (raw >= 1 ? 1 : 0)
                x = Swift.min(Swift.max(raw, 0), 1)
                inEffect = (f >> (BatchStorage.effectShift &+ newState)) & 1 != 0
                beforeFlag = newState == 0
            } else {
                let (s, st) = complex![Int(extra[i])].sampleAndState(at: now)
                newState = st.rawValue
                x = s.directedProgress ?? 0
                inEffect = s.directedProgress != nil && !(st == .ended && f & BatchStorage.removedOnCompletion != 0)
                beforeFlag = s.beforeFlag
            }
            // x is in [0, 1] here: the clamp above, or the timing model.
            let value = from[i] + (to[i] - from[i]) * ease(i, x, beforeFlag)
            presentation[out] = inEffect ? value : model[out]
            if newState > state[i] {
                state[i] = newState
                transitions.append((owner[i], LifeState(rawValue: newState)!))
            }
        }
    }
}

/// One batch lane per curve kind, so each lane's loop is specialised.
final class BatchSet {
    let lanes = [BatchStorage(kind: CurveTable.linear), BatchStorage(kind: CurveTable.bezier),
                 BatchStorage(kind: CurveTable.general)]

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
