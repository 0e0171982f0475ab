/// The timing functions of the batch entries, as the kernel sees them: a
/// kind byte and, for Béziers, the solver, in dense arrays indexed by the
/// entries' `curve` column.
///
/// Entries are reference counted: equal curves share one id, and an id
/// whose last batch entry went away is freed (its solver table released)
/// and reused. So a host that sets a new cubic-bezier on every animation
/// holds memory for the curves in use, not for every curve it ever used.
struct CurveTable {
    static let linear: UInt8 = 0, bezier: UInt8 = 1, general: UInt8 = 2
    /// C functions from outside the core, called directly by their lanes:
    /// one value per call (native, unary) or an array of them (block).
    static let native: UInt8 = 3, unary: UInt8 = 4, block: UInt8 = 5
    var kinds: [UInt8] = []
    /// Per curve: ax, bx, cx, ay, by, cy.
    var coefficients: [Double] = []
    /// Per curve: the guess table's address (kept alive by `functions`).
    var tables: [UnsafePointer<Double>] = []
    var functions: [TimingFunction] = []
    /// Per curve: the C function and its arguments, for the native kinds.
    var natives: [NativeCurve] = []
    private var uses: [Int32] = []
    private var ids: [TimingFunction: Int32] = [:]
    private var free: [Int32] = []
    /// The ids `retain` found last by hashing (at most 8), and where the next goes.
    private var recent: [Int32] = []
    private var nextRecent = 0
    /// Per curve, what `retain` compares the recent ids by: plain values,
    /// where comparing the functions themselves copies each one (see `QuickKey`).
    private var quickKeys: [QuickKey] = []

    /// A linear or cubic Bézier function as plain values: equal keys, equal
    /// functions (a Bézier is equal to another with the same control
    /// points). Other functions have no key and are compared whole.
    struct QuickKey: Equatable {
        var kind: UInt8
        var points: SIMD4<Double>

        static let none = QuickKey(kind: 0, points: .zero)

        init(kind: UInt8, points: SIMD4<Double>) { self.kind = kind; self.points = points }

        init(_ f: TimingFunction) {
            switch f {
            case .linear: self.init(kind: 1, points: .zero)
            case .cubicBezier(let b): self.init(kind: 2, points: SIMD4(b.x1, b.y1, b.x2, b.y2))
            default: self = .none
            }
        }
    }

    /// What a free slot, and the non-Bézier kinds, point at.
    private static let identity = UnitBezier(0, 0, 1, 1)

    /// How many distinct curves are in use.
    var liveCount: Int { ids.count }

    /// Whether some batch entry uses curve `id`.
    func isUsed(_ id: Int32) -> Bool { Int(id) < uses.count && uses[Int(id)] > 0 }

    /// The id of `f` for one more batch entry, adding it if it is new.
    mutating func retain(_ f: TimingFunction) -> Int32 {
        // Adds mostly use a few curves: compare with the last ones before hashing.
        let key = QuickKey(f)
        for id in recent where uses[Int(id)] > 0 && (key != .none ? quickKeys[Int(id)] == key : functions[Int(id)] == f) {
            uses[Int(id)] += 1
            return id
        }
        let id = retainHashed(f)
        if recent.count < 8 { recent.append(id) } else { recent[nextRecent] = id; nextRecent = (nextRecent + 1) % 8 }
        return id
    }

    private mutating func retainHashed(_ f: TimingFunction) -> Int32 {
        if let id = ids[f] { uses[Int(id)] += 1; return id }
        let id: Int32
        if let reused = free.popLast() { id = reused }
        else {
            id = Int32(functions.count)
            functions.append(.linear); kinds.append(CurveTable.linear); uses.append(0); natives.append(.none)
            quickKeys.append(.none)
            coefficients += repeatElement(0, count: 6)
            tables.append(UnsafePointer(CurveTable.identity.table.pieces))
        }
        set(Int(id), f)
        uses[Int(id)] = 1
        ids[f] = id
        return id
    }

    /// One more batch entry uses curve `id` (already in use); returns `id`.
    mutating func retain(id: Int32) -> Int32 {
        uses[Int(id)] += 1
        return id
    }

    /// One batch entry fewer uses curve `id`; the last one frees it.
    mutating func release(_ id: Int32) {
        let i = Int(id)
        uses[i] -= 1
        guard uses[i] == 0 else { return }
        ids[functions[i]] = nil
        set(i, .linear)
        free.append(id)
    }

    private mutating func set(_ i: Int, _ f: TimingFunction) {
        let b: UnitBezier
        switch f {
        case .linear: kinds[i] = CurveTable.linear; b = CurveTable.identity
        case .cubicBezier(let c): kinds[i] = CurveTable.bezier; b = c
        default: kinds[i] = CurveTable.general; b = CurveTable.identity
        }
        // A C curve gets the lane that calls it directly (a closure stays general).
        natives[i] = .none
        if case .custom(let c) = f {
            natives[i] = NativeCurve(c)
            kinds[i] = natives[i].kind
        }
        functions[i] = f
        quickKeys[i] = QuickKey(f)
        for (k, v) in [b.ax, b.bx, b.cx, b.ay, b.by, b.cy].enumerated() { coefficients[i * 6 + k] = v }
        tables[i] = UnsafePointer(b.table.pieces)
    }
}
