/// A C function that eases progress: `y = f(x, parameters, context)`. This
/// is the form plugins and hosts register (`animrt_curve_fn`); `parameters`
/// holds the function's parameters ("elastic(0.3)": 0.3).
public typealias NativeCurveFunction = @convention(c) (Double, UnsafePointer<Double>?, UnsafeMutableRawPointer?) -> Double

/// A C function `double f(double)`: a function bound with the signature "f64(f64)".
public typealias UnaryCurveFunction = @convention(c) (Double) -> Double

/// A C function that eases `count` progress values at once: `y[i] = f(x[i],
/// parameters, context)` for i in 0 ..< count (`animrt_curve_block_fn`). Each
/// y[i] depends on x[i], the parameters and the context alone, so one call
/// over many values gives what as many calls of count 1 give.
public typealias BlockCurveFunction = @convention(c) (UnsafePointer<Double>?, UnsafeMutablePointer<Double>?, Int,
                                                      UnsafePointer<Double>?, UnsafeMutableRawPointer?) -> Void

/// How a timing function from outside the core computes its value.
public enum CustomCurveBody: @unchecked Sendable {
    /// A C function of x, the parameters and a context pointer. The batch
    /// calls it directly, with no Swift closure in between.
    case native(NativeCurveFunction, context: UnsafeMutableRawPointer?)
    /// A C function of x alone (the batch calls it directly too).
    case unary(UnaryCurveFunction)
    /// A C function over an array of x, the parameters and a context
    /// pointer: the batch calls it once per run of entries on one curve,
    /// everything else with one value.
    case block(BlockCurveFunction, context: UnsafeMutableRawPointer?)
    /// A Swift closure of x and the parameters.
    case closure(@Sendable (Double, [Double]) -> Double)
}

/// A named family of timing functions supplied from outside the core (a
/// plugin, the host, a bound C function), with up to
/// `maximumParameters` numeric parameters: "elastic" is the member with the
/// defaults, "elastic(0.3)" the member whose first parameter is 0.3.
///
/// A family's functions must be safe to call from several threads at once
/// (large batches are evaluated in parallel) and never call back into the
/// runtime that evaluates them.
public final class TimingFunctionFamily: @unchecked Sendable {
    /// The most parameters a family may take (`ANIMRT_CURVE_PARAMS_MAX`).
    public static let maximumParameters = 8
    /// The most families one registry holds (`ANIMRT_TIMING_FUNCTIONS_MAX`).
    public static let maximumCount = 65_536

    public let name: String
    /// The parameters a member takes when they are left out ("elastic", "bounce(4)" of a two-parameter family).
    public let defaults: [Double]
    /// The allowed values of each parameter (both ends included).
    public let ranges: [ClosedRange<Double>]
    public let body: CustomCurveBody
    /// What must live as long as any function of the family: the plugin
    /// that provides it, a binding's call descriptor.
    public let owner: AnyObject?

    /// A family; the defaults must be finite and within their ranges.
    public init(name: String, defaults: [Double] = [], ranges: [ClosedRange<Double>]? = nil, body: CustomCurveBody,
                owner: AnyObject? = nil) throws(AnimrtError) {
        guard defaults.count <= Self.maximumParameters else {
            throw AnimrtError(.outOfRange, "timing function '\(name)' declares \(defaults.count) parameters; at most \(Self.maximumParameters) are allowed")
        }
        let ranges = ranges ?? Array(repeating: -Double.infinity...Double.infinity, count: defaults.count)
        guard ranges.count == defaults.count else {
            throw AnimrtError(.invalidArgument, "timing function '\(name)' has \(defaults.count) defaults but \(ranges.count) ranges")
        }
        for (i, (d, r)) in zip(defaults, ranges).enumerated() {
            guard d.isFinite else {
                throw AnimrtError(.invalidArgument, "the default of parameter \(i + 1) of timing function '\(name)' is \(d); it must be a finite number")
            }
            guard r.contains(d) else {
                throw AnimrtError(.outOfRange, "the default of parameter \(i + 1) of timing function '\(name)' is \(d), outside its range [\(r.lowerBound), \(r.upperBound)]")
            }
        }
        self.name = name; self.defaults = defaults; self.ranges = ranges; self.body = body; self.owner = owner
    }

    /// The member with `parameters`; trailing parameters left out take their defaults.
    public func function(_ parameters: [Double]) throws(AnimrtError) -> CustomTimingFunction {
        guard parameters.count <= defaults.count else {
            let takes = defaults.isEmpty ? "takes no parameters" : "takes at most \(defaults.count) parameter\(defaults.count == 1 ? "" : "s")"
            throw AnimrtError(.invalidArgument, "timing function '\(name)' \(takes); \(given(parameters.count))")
        }
        var full = defaults
        for (i, p) in parameters.enumerated() {
            guard p.isFinite else {
                throw AnimrtError(.invalidArgument, "parameter \(i + 1) of timing function '\(name)' is \(p); it must be a finite number")
            }
            guard ranges[i].contains(p) else {
                throw AnimrtError(.outOfRange, "parameter \(i + 1) of timing function '\(name)' is \(p); it must be in [\(ranges[i].lowerBound), \(ranges[i].upperBound)]")
            }
            full[i] = p
        }
        return CustomTimingFunction(family: self, parameters: full)
    }

    /// The member with the defaults.
    public var defaultFunction: CustomTimingFunction { CustomTimingFunction(family: self, parameters: defaults) }
}

/// A timing function supplied from outside the core. Two functions of one
/// family with the same parameters are equal (so animations using
/// "elastic(0.3)" share one curve); a function made from a closure alone is
/// equal only to itself.
public final class CustomTimingFunction: Hashable, @unchecked Sendable {
    /// "elastic" for the defaults, "elastic(0.3)" otherwise.
    public let name: String
    public let family: TimingFunctionFamily?
    public let parameters: [Double]
    public let body: CustomCurveBody
    /// The parameters where C code can read them, for as long as the function lives.
    public let parameterAddress: UnsafeMutablePointer<Double>

    /// A function from a Swift closure. `body` must be safe to call from
    /// the thread that ticks the runtime.
    public convenience init(name: String, _ body: @escaping @Sendable (Double) -> Double) {
        self.init(name: name, family: nil, parameters: [], body: .closure({ x, _ in body(x) }))
    }

    convenience init(family: TimingFunctionFamily, parameters: [Double]) {
        let name = parameters == family.defaults ? family.name
            : family.name + "(" + parameters.map(parameterText).joined(separator: ", ") + ")"
        self.init(name: name, family: family, parameters: parameters, body: family.body)
    }

    private init(name: String, family: TimingFunctionFamily?, parameters: [Double], body: CustomCurveBody) {
        self.name = name; self.family = family; self.parameters = parameters; self.body = body
        parameterAddress = .allocate(capacity: max(1, parameters.count))
        parameterAddress.initialize(repeating: 0, count: max(1, parameters.count))
        for (i, p) in parameters.enumerated() { parameterAddress[i] = p }
    }

    deinit { parameterAddress.deallocate() }

    /// Calls the function; a non-finite result is treated as 0 so that a
    /// misbehaving plugin cannot poison presentation values.
    public func evaluate(_ x: Double) -> Double {
        // The function is promised 0 ≤ x ≤ 1 (a plugin may index a table
        // with it), but not every caller stays there: a keyframe segment
        // under an overshooting curve, animrt_timing_function_evaluate.
        // Clamped here, once for every path; NaN becomes 0.
        let x = x > 0 ? (x < 1 ? x : 1) : 0
        let y: Double
        switch body {
        case .native(let f, let context): y = f(x, parameterAddress, context)
        case .unary(let f): y = f(x)
        case .block(let f, let context):
            // y starts at 0, so a function that leaves it unwritten gives 0 here as in the batch.
            var x = x, out = 0.0
            f(&x, &out, 1, parameterAddress, context)
            y = out
        case .closure(let f): y = f(x, parameters)
        }
        return y.isFinite ? y : 0
    }

    public static func == (l: CustomTimingFunction, r: CustomTimingFunction) -> Bool {
        if l === r { return true }
        guard let a = l.family, let b = r.family else { return false }
        return a === b && l.parameters == r.parameters
    }

    public func hash(into h: inout Hasher) {
        if let family { h.combine(ObjectIdentifier(family)); h.combine(parameters) }
        else { h.combine(ObjectIdentifier(self)) }
    }
}

/// A parameter as a curve's name writes it: "4" rather than "4.0".
func parameterText(_ d: Double) -> String {
    if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
}
