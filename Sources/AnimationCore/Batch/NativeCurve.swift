/// A C timing function as the batch calls it: the function pointer and its
/// arguments, read from one dense table (no Swift object, closure or
/// reference count on the way). The `CustomTimingFunction` it comes from is
/// kept alive by the curve table, and with it the parameters' memory.
struct NativeCurve: @unchecked Sendable {
    var function: NativeCurveFunction
    var unary: UnaryCurveFunction
    var parameters: UnsafePointer<Double>?
    var context: UnsafeMutableRawPointer?
    /// `CurveTable.native`, `.unary`, or `.general` for a Swift closure.
    var kind: UInt8

    private static let identity: NativeCurveFunction = { x, _, _ in x }
    private static let unaryIdentity: UnaryCurveFunction = { x in x }

    /// What the other kinds hold (never called).
    static let none = NativeCurve(function: identity, unary: unaryIdentity, parameters: nil, context: nil, kind: CurveTable.general)

    private init(function: NativeCurveFunction, unary: UnaryCurveFunction, parameters: UnsafePointer<Double>?,
                 context: UnsafeMutableRawPointer?, kind: UInt8) {
        self.function = function; self.unary = unary; self.parameters = parameters; self.context = context; self.kind = kind
    }

    init(_ f: CustomTimingFunction) {
        switch f.body {
        case .native(let fn, let context):
            self.init(function: fn, unary: Self.unaryIdentity, parameters: UnsafePointer(f.parameterAddress), context: context,
                      kind: CurveTable.native)
        case .unary(let fn):
            self.init(function: Self.identity, unary: fn, parameters: nil, context: nil, kind: CurveTable.unary)
        case .closure:
            self = .none
        }
    }
}
