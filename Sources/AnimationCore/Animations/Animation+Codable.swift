// Descriptions as data: an animation encodes to JSON and back to the bit
// (machine snapshots carry the animations a machine started). Encoders and
// decoders must carry infinities and NaN as strings (repeatCount inf):
// JSONEncoder's nonConformingFloatEncodingStrategy.

// Animation, its Content, Keyframes, MediaTiming, Spring, StepsFunction, Decay
// and PathElement declare Codable where they are declared (the compiler
// writes their coding).
extension CalculationMode: Codable {}
extension FillMode: Codable {}
extension PlaybackDirection: Codable {}
extension StepPosition: Codable {}
extension ValueKind: Codable {}
extension RotationMode: Codable {}

extension AnimatableValue: Codable {
    private enum CodingKeys: String, CodingKey { case kind, components }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(ValueKind.self, forKey: .kind)
        let components = try c.decode([Double].self, forKey: .components)
        guard components.count == kind.componentCount else {
            throw DecodingError.dataCorruptedError(forKey: .components, in: c,
                                                   debugDescription: "a \(kind.name) has \(kind.componentCount) components, not \(components.count)")
        }
        // The setters refuse a value that is not finite; decoded text (an
        // edited snapshot) is held to the same rule.
        guard components.allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorruptedError(forKey: .components, in: c,
                                                   debugDescription: "a value's components must be finite, not \(components)")
        }
        var lanes = SIMD16<Double>()
        for (i, v) in components.enumerated() { lanes[i] = v }
        self.init(kind: kind, lanes: lanes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(components, forKey: .components)
    }
}

extension CodingUserInfoKey {
    /// The `TimingFunctionRegistry` that decodes timing functions registered
    /// by name (plugins' and the host's); without it they cannot be decoded.
    public static let timingFunctions = CodingUserInfoKey(rawValue: "animrt.timingFunctions")!
}

extension TimingFunction: Codable {
    private enum CodingKeys: String, CodingKey { case linear, cubicBezier, steps, piecewiseLinear, custom }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.cubicBezier) {
            let p = try c.decode([Double].self, forKey: .cubicBezier)
            guard p.count == 4, let f = try? TimingFunction.cubicBezier(p[0], p[1], p[2], p[3]) else {
                throw DecodingError.dataCorruptedError(forKey: .cubicBezier, in: c, debugDescription: "not a valid cubic-bezier: \(p)")
            }
            self = f
        } else if c.contains(.steps) {
            // Checked as steps(n, position) by name is: an edited snapshot
            // could carry steps(0), whose progress is NaN.
            let s = try c.decode(StepsFunction.self, forKey: .steps)
            guard let f = try? TimingFunction.steps(s.count, s.position) else {
                throw DecodingError.dataCorruptedError(forKey: .steps, in: c, debugDescription: "not a valid steps(): \(s.count) steps, \(s.position.name)")
            }
            self = f
        } else if c.contains(.piecewiseLinear) {
            // (output, input) pairs: one input per stop gives back the points exactly.
            let pairs = try c.decode([[Double]].self, forKey: .piecewiseLinear)
            guard pairs.allSatisfy({ $0.count == 2 }),
                  let f = try? PiecewiseLinear(stops: pairs.map { PiecewiseLinear.Stop(output: $0[0], inputs: [$0[1]]) }) else {
                throw DecodingError.dataCorruptedError(forKey: .piecewiseLinear, in: c, debugDescription: "not a valid linear(): \(pairs)")
            }
            self = .piecewiseLinear(f)
        } else if c.contains(.custom) {
            let name = try c.decode(String.self, forKey: .custom)
            guard let registry = decoder.userInfo[.timingFunctions] as? TimingFunctionRegistry,
                  let f = try? registry.function(named: name) else {
                throw DecodingError.dataCorruptedError(forKey: .custom, in: c, debugDescription: "no timing function named '\(name)' is registered")
            }
            self = f
        } else {
            self = .linear
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .linear: try c.encode(true, forKey: .linear)
        case .cubicBezier(let b): try c.encode([b.x1, b.y1, b.x2, b.y2], forKey: .cubicBezier)
        case .steps(let s): try c.encode(s, forKey: .steps)
        case .piecewiseLinear(let p): try c.encode(zip(p.outputs, p.inputs).map { [$0, $1] }, forKey: .piecewiseLinear)
        case .custom(let f): try c.encode(f.name, forKey: .custom)
        }
    }
}
