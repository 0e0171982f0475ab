/// CSS Easing Level 2's linear easing function, `linear(0, 0.25 75%, 1)`:
/// straight lines between points, the first two and last two continued
/// outside them.
public struct PiecewiseLinear: Hashable, Sendable {
    /// One stop as written: an output and zero, one or two input positions
    /// (fractions: 75% is 0.75).
    public struct Stop: Hashable, Sendable {
        public var output: Double
        public var inputs: [Double]
        public init(_ output: Double, _ inputs: Double...) { self.output = output; self.inputs = inputs }
        public init(output: Double, inputs: [Double]) { self.output = output; self.inputs = inputs }
    }

    /// The points after parsing: inputs never decrease.
    public let inputs: [Double]
    public let outputs: [Double]

    /// The most points one function may have (a two-input stop makes two).
    public static let maximumPoints = 10_000
    /// The largest position (either sign): its name writes each position
    /// as a percentage, 100 times it, which must be a finite double.
    public static let largestPosition = Double.greatestFiniteMagnitude / 100

    /// CSS Easing 2 "create a linear easing function": at least two stops;
    /// an input smaller than an earlier one is raised to it; a first stop
    /// without input is at 0, a last one at 1 (or the largest input so far);
    /// runs without inputs are spread evenly between their neighbours.
    public init(stops: [Stop]) throws(AnimrtError) {
        guard stops.count >= 2 else {
            throw AnimrtError(.invalidArgument, "linear() needs at least two stops, got \(stops.count)")
        }
        var count = 0
        for (i, stop) in stops.enumerated() {
            guard stop.output.isFinite else {
                throw AnimrtError(.invalidArgument, "linear() stop \(i): the output is \(stop.output); it must be finite")
            }
            guard stop.inputs.count <= 2 else {
                throw AnimrtError(.invalidArgument, "linear() stop \(i) has \(stop.inputs.count) positions; at most two")
            }
            for x in stop.inputs where !x.isFinite {
                throw AnimrtError(.invalidArgument, "linear() stop \(i): a position is \(x); positions must be finite")
            }
            // Text gives none past it (a percentage over 100); a description's
            // points or a Stop can, and were named "inf%", which parses to nothing.
            for x in stop.inputs where !(x * 100).isFinite {
                throw AnimrtError(.outOfRange, "linear() stop \(i): the position \(x) is past what a percentage can write "
                                  + "(its name writes positions as percentages); positions are at most ±\(PiecewiseLinear.largestPosition)")
            }
            count += max(stop.inputs.count, 1)
        }
        guard count <= PiecewiseLinear.maximumPoints else {
            throw AnimrtError(.outOfRange, "linear() has \(count) points; at most \(PiecewiseLinear.maximumPoints) are accepted")
        }
        var ins: [Double?] = [], outs: [Double] = []
        var largest = -Double.infinity
        for (i, stop) in stops.enumerated() {
            if !stop.inputs.isEmpty {
                for x in stop.inputs {
                    largest = max(x, largest)
                    ins.append(largest); outs.append(stop.output)
                }
            } else if i == 0 {
                largest = 0
                ins.append(0); outs.append(stop.output)
            } else if i == stops.count - 1 {
                ins.append(max(1, largest)); outs.append(stop.output)
            } else {
                ins.append(nil); outs.append(stop.output)
            }
        }
        // Runs of missing inputs: evenly between the known neighbours (the
        // first and last points always have one).
        var i = 0
        while i < ins.count {
            guard ins[i] == nil else { i += 1; continue }
            var j = i
            while ins[j] == nil { j += 1 }
            let a = ins[i - 1]!, b = ins[j]!
            // (b − a)·n can pass the largest double (inputs of ±10^306,
            // 1e308% written, with a run of a hundred between them gave ∞,
            // and inputs that decrease): a·(1 − f) + b·f then, each term
            // finite, kept between a and b.
            for k in i..<j {
                let n = Double(k - i + 1), m = Double(j - i + 1), p = (b - a) * n
                ins[k] = p.isFinite ? a + p / m : min(max(a * (1 - n / m) + b * (n / m), a), b)
            }
            i = j
        }
        inputs = ins.map { $0! }
        outputs = outs
    }

    /// CSS Easing 2 "calculate linear easing output progress".
    public func evaluate(_ x: Double) -> Double {
        if x.isNaN { return outputs[0] }
        let a = segment(x)
        let inA = inputs[a], inB = inputs[a + 1]
        if inA == inB { return outputs[a + 1] }
        // Inside the segment outA·(1 − t) + outB·t rather than outA + t·(outB
        // − outA): it ends exactly on both outputs, and the difference of two
        // large outputs could overflow. Outside it (the first and last
        // segments continued), that sum cancels: t·outB − (t − 1)·outA loses
        // everything by t = 10^17 (linear(1, 1) gave 0 there), so the line
        // goes on from its nearer end by the difference, and a flat end stays
        // at its output at any x, infinite too.
        let t = (x - inA) / (inB - inA)
        let outA = outputs[a], outB = outputs[a + 1], d = outB - outA
        if t >= 0 && t <= 1 || !d.isFinite { return outA * (1 - t) + outB * t }
        if d == 0 { return outA }
        return t < 0 ? outA + t * d : outB + (t - 1) * d
    }

    /// The slope at `x`, on the segment `evaluate` uses there.
    public func slope(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        let a = segment(x)
        let inA = inputs[a], inB = inputs[a + 1]
        return inA == inB ? 0 : outputs[a + 1] / (inB - inA) - outputs[a] / (inB - inA)
    }

    /// Point A of the spec: the last point with input ≤ x, or 0, and never
    /// the last point (so that a point B follows). Binary search: the
    /// inputs never decrease.
    private func segment(_ x: Double) -> Int {
        var lo = 0, hi = inputs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if inputs[mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return min(max(lo - 1, 0), inputs.count - 2)
    }

    /// The serialization CSS Easing 2 gives: every point with its input,
    /// `linear(0 0%, 0.25 50%, 1 100%)`.
    public var cssText: String {
        let points = zip(outputs, inputs).map { "\(shortNumber($0)) \(shortNumber($1 * 100))%" }
        return "linear(" + points.joined(separator: ", ") + ")"
    }

    /// Parses the inside of `linear(...)`: comma-separated stops, each a
    /// number and up to two percentages in either order.
    static func parse(_ arguments: [Substring], text: String) throws(AnimrtError) -> PiecewiseLinear {
        var stops: [Stop] = []
        let arguments = arguments.count == 1 && arguments[0].isEmpty ? [] : arguments
        for (i, arg) in arguments.enumerated() {
            var output: Double?
            var inputs: [Double] = []
            var sawPercentage = false, afterPercentages = false
            for token in arg.split(separator: " ", omittingEmptySubsequences: true) {
                if token.hasSuffix("%"), let p = Double(token.dropLast()) {
                    if afterPercentages {
                        throw AnimrtError(.invalidArgument, "'\(text)': stop \(i) splits its positions around the number")
                    }
                    inputs.append(p / 100)
                    sawPercentage = true
                } else if output == nil, let v = Double(token) {
                    output = v
                    afterPercentages = sawPercentage
                } else {
                    throw AnimrtError(.invalidArgument, "'\(text)': stop \(i) ('\(arg)') must be a number and up to two percentages")
                }
            }
            guard let output else {
                throw AnimrtError(.invalidArgument, "'\(text)': stop \(i) ('\(arg)') has no output number")
            }
            stops.append(Stop(output: output, inputs: inputs))
        }
        do { return try PiecewiseLinear(stops: stops) }
        catch { throw AnimrtError(error.status, "'\(text)': \(error.message)") }
    }
}

/// A number as CSS would write it: no trailing ".0".
func shortNumber(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
}
