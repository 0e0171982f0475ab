import AnimationCore

/// What `in()`, `timerActive()`, `text()`, `now()` and computed context
/// fields ask of the machine.
protocol ExpressionHost: AnyObject {
    func isActive(_ state: Int) -> Bool
    func isTimerActive(_ timer: Int) -> Bool
    func text(_ key: Int) -> String
    var clock: Double { get }
    /// The value of computed context field `field` now.
    func computed(_ field: Int) throws(AnimrtError) -> MachineValue
}

/// The values an expression reads: the instance's config and context, the
/// payload of the event being processed.
struct EvaluationContext {
    var config: [MachineValue]
    var context: [MachineValue]
    var event: [MachineValue]
    unowned(unsafe) var host: (any ExpressionHost)?
    /// The copy of a repeated part an action or part property is evaluated
    /// for (`index`); 0 elsewhere.
    var index: Double = 0

    static var empty: EvaluationContext { EvaluationContext(config: [], context: [], event: [], host: nil) }
}

/// Evaluates checked expression trees. Type errors cannot happen here (the
/// parser checked them); a registered function may throw, which becomes the
/// machine's `error.execution`.
enum Evaluator {
    /// Evaluates an expression (its compiled program).
    static func evaluate(_ e: Expression, _ c: inout EvaluationContext) throws(AnimrtError) -> MachineValue {
        if case .constant(let v) = e.root { return v }
        return try e.program.run(&c)
    }

    static func number(_ n: Node, _ c: inout EvaluationContext) throws(AnimrtError) -> Double {
        if case .number(let d) = try evaluate(n, &c) { return d }
        return .nan
    }

    static func bool(_ n: Node, _ c: inout EvaluationContext) throws(AnimrtError) -> Bool {
        if case .bool(let b) = try evaluate(n, &c) { return b }
        return false
    }

    static func evaluate(_ node: Node, _ c: inout EvaluationContext) throws(AnimrtError) -> MachineValue {
        switch node {
        case .constant(let v): return v
        case .config(let i): return c.config[i]
        case .context(let i): return c.context[i]
        case .event(let i): return c.event[i]
        case .computed(let i): return try c.host?.computed(i) ?? .number(0)
        case .index: return .number(c.index)
        case .negate(let a): return .number(-(try number(a, &c)))
        case .not(let a): return .bool(!(try bool(a, &c)))
        case .and(let a, let b):
            guard try bool(a, &c) else { return .bool(false) }
            return .bool(try bool(b, &c))
        case .or(let a, let b):
            if try bool(a, &c) { return .bool(true) }
            return .bool(try bool(b, &c))
        case .conditional(let k, let a, let b): return try bool(k, &c) ? evaluate(a, &c) : evaluate(b, &c)
        case .arithmetic(let op, let a, let b):
            let x = try number(a, &c), y = try number(b, &c)
            switch op {
            case .add: return .number(x + y)
            case .subtract: return .number(x - y)
            case .multiply: return .number(x * y)
            case .divide: return .number(x / y)
            case .remainder: return .number(x.truncatingRemainder(dividingBy: y))
            }
        case .concatenate(let a, let b):
            guard case .string(let x) = try evaluate(a, &c), case .string(let y) = try evaluate(b, &c) else { return .string("") }
            return .string(try join(x, y))
        case .compare(let op, let a, let b):
            let x = try evaluate(a, &c), y = try evaluate(b, &c)
            switch op {
            case .equal: return .bool(x == y)
            case .notEqual: return .bool(x != y)
            default:
                let l = x.number ?? .nan, r = y.number ?? .nan
                switch op {
                case .less: return .bool(l < r)
                case .lessOrEqual: return .bool(l <= r)
                case .greater: return .bool(l > r)
                default: return .bool(l >= r)
                }
            }
        case .isActive(let s): return .bool(c.host?.isActive(s) ?? false)
        case .timerActive(let t): return .bool(c.host?.isTimerActive(t) ?? false)
        case .text(let k): return .string(c.host?.text(k) ?? "")
        case .builtin(let f, let args): return try builtin(f, args, &c)
        case .external(let f, let args):
            var values: [MachineValue] = []
            values.reserveCapacity(args.count)
            for a in args { values.append(try evaluate(a, &c)) }
            return try f.call(values) ?? .number(0)
        }
    }

    /// `x + y` for strings, refused past `DefinitionLimits.maxStringBytes`.
    static func join(_ x: String, _ y: String) throws(AnimrtError) -> String {
        let n = x.utf8.count + y.utf8.count
        guard n <= DefinitionLimits.maxStringBytes else {
            throw AnimrtError(.outOfRange, "'+' would make a string of \(n) bytes; an expression makes strings of at most \(DefinitionLimits.maxStringBytes) bytes")
        }
        return x + y
    }

    private static func builtin(_ f: Builtin, _ args: [Node], _ c: inout EvaluationContext) throws(AnimrtError) -> MachineValue {
        func n(_ i: Int) throws(AnimrtError) -> Double { try number(args[i], &c) }
        switch f {
        case .abs: return .number(Swift.abs(try n(0)))
        case .floor: return .number(try n(0).rounded(.down))
        case .ceil: return .number(try n(0).rounded(.up))
        case .round: return .number(try n(0).rounded(.toNearestOrAwayFromZero))
        case .sqrt: return .number(try n(0).squareRoot())
        case .sin: return .number(Libm.sin(try n(0)))
        case .cos: return .number(Libm.cos(try n(0)))
        case .min, .max:
            var r = try n(0)
            for i in 1..<args.count {
                let v = try n(i)
                // NaN propagates, as in IEEE minimum/maximum.
                if v.isNaN || r.isNaN { r = .nan } else { r = f == .min ? Swift.min(r, v) : Swift.max(r, v) }
            }
            return .number(r)
        case .clamp:
            let x = try n(0), lo = try n(1), hi = try n(2)
            if x.isNaN || lo.isNaN || hi.isNaN { return .number(.nan) }
            return .number(Swift.min(Swift.max(x, lo), hi))
        case .now: return .number(c.host?.clock ?? 0)
        case .fixed: return .string(formatFixed(try n(0), digits: try n(1)))
        case .str:
            switch try evaluate(args[0], &c) {
            case .number(let d): return .string(NumberText.format(d))  // str(-0) is "0", as docs/machines.md says
            case .bool(let b): return .string(b ? "true" : "false")
            case .string(let s): return .string(s)
            case .vector(let v): return .string("\(v)")
            }
        case .len:
            guard case .string(let s) = try evaluate(args[0], &c) else { return .number(0) }
            return .number(Double(s.count))
        case .rgba: return .vector(.color(try n(0), try n(1), try n(2), try n(3)))
        case .rect: return .vector(.rect(try n(0), try n(1), try n(2), try n(3)))
        case .point: return .vector(.point(try n(0), try n(1)))
        case .size: return .vector(.size(try n(0), try n(1)))
        case .in, .timerActive, .text: return .bool(false)
        }
    }

    /// `x` with `digits` decimals (taken whole, from 0 to 12; NaN as 0) as C's `%.Nf` prints it: the
    /// exact binary value rounded to nearest, ties to even (53.85 is
    /// 53.850000000000001 in binary, so one decimal gives "53.9").
    /// Non-finite values print as "nan", "inf", "-inf"; a negative value
    /// that rounds to zero, and -0 itself, keep their sign ("-0"), as in C.
    static func formatFixed(_ x: Double, digits: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        // NaN digits are 0; an infinite count is clamped as any count is (inf: 12, -inf: 0).
        let d = digits.isNaN ? 0 : Int(Swift.min(Swift.max(digits.rounded(.down), 0), 12))
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        // Beyond 2^53 a double has no fractional digits left to print.
        guard Swift.abs(x * scale) < 9.0e15 else { return NumberText.format(x.rounded(.toNearestOrEven)) }
        let magnitude = scaledRounded(Swift.abs(x), scale: UInt64(scale))
        let negative = x.sign == .minus  // -0 too: C prints "-0"
        let p = UInt64(scale)
        var text = String(magnitude / p)
        if d > 0 {
            var fraction = String(magnitude % p)
            while fraction.count < d { fraction = "0" + fraction }
            text += "." + fraction
        }
        return negative ? "-" + text : text
    }

    /// `a` × `scale` rounded to the nearest whole number, ties to even,
    /// computed exactly: `a` is m × 2^e, so the product is m × scale / 2^-e,
    /// whose numerator fits in 128 bits (m < 2^53, scale ≤ 10^12 < 2^40).
    /// A multiplication in doubles would round first and could land on the
    /// wrong side of a half. `a` is finite, ≥ 0, and `a` × `scale` < 9e15.
    private static func scaledRounded(_ a: Double, scale: UInt64) -> UInt64 {
        if a == 0 { return 0 }
        let m = UInt128(a.significandBitPattern | (a.isNormal ? 1 << 52 : 0))
        let e = a.isNormal ? Int(a.exponent) - 52 : -1074
        let product = m * UInt128(scale)
        if e >= 0 { return UInt64(product << e) }
        let shift = -e
        if shift >= 128 { return 0 }   // product < 2^93: below one half
        let whole = product >> shift
        let rest = product & ((UInt128(1) << shift) - 1)
        let half = UInt128(1) << (shift - 1)
        let up = rest > half || (rest == half && whole & 1 == 1)
        return UInt64(whole) + (up ? 1 : 0)
    }
}
