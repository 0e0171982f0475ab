/// A C timing function as the batch calls it: the function pointer and its
/// arguments, read from one dense table (no Swift object, closure or
/// reference count on the way). The `CustomTimingFunction` it comes from is
/// kept alive by the curve table, and with it the parameters' memory.
struct NativeCurve: @unchecked Sendable {
    var function: NativeCurveFunction
    var unary: UnaryCurveFunction
    var block: BlockCurveFunction
    var parameters: UnsafePointer<Double>?
    var context: UnsafeMutableRawPointer?
    /// `CurveTable.native`, `.unary`, `.block`, or `.general` for a Swift closure.
    var kind: UInt8

    private static let identity: NativeCurveFunction = { x, _, _ in x }
    private static let unaryIdentity: UnaryCurveFunction = { x in x }
    private static let blockIdentity: BlockCurveFunction = { _, _, _, _, _ in }

    /// What the other kinds hold (never called).
    static let none = NativeCurve(kind: CurveTable.general)

    private init(function: NativeCurveFunction = identity, unary: UnaryCurveFunction = unaryIdentity,
                 block: BlockCurveFunction = blockIdentity, parameters: UnsafePointer<Double>? = nil,
                 context: UnsafeMutableRawPointer? = nil, kind: UInt8) {
        self.function = function; self.unary = unary; self.block = block
        self.parameters = parameters; self.context = context; self.kind = kind
    }

    init(_ f: CustomTimingFunction) {
        switch f.body {
        case .native(let fn, let context):
            self.init(function: fn, parameters: UnsafePointer(f.parameterAddress), context: context, kind: CurveTable.native)
        case .unary(let fn):
            self.init(unary: fn, kind: CurveTable.unary)
        case .block(let fn, let context):
            self.init(block: fn, parameters: UnsafePointer(f.parameterAddress), context: context, kind: CurveTable.block)
        case .closure:
            self = .none
        }
    }
}
