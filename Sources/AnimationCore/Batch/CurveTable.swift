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
