// Descriptions as data: an animation encodes to JSON and back to the bit
// (machine snapshots carry the animations a machine started). Encoders and
// decoders must carry infinities and NaN as strings (repeatCount inf):
// JSONEncoder's nonConformingFloatEncodingStrategy.

// Animation, its Content, Keyframes, MediaTiming, Spring, StepsFunction, Decay
// and PathElement declare Codable where they are declared. The compiler
// writes their encoding; their decoding is written here, each reading its
// object through `members(_:of:)`: a snapshot edited by hand may misspell a
// member ("begintime"), and the compiler's decoding would read past it and
// restore the default in its place. Their `CodingKeys` are those the compiler
// would write (the encoder uses them), listed here for the refusal to name.
extension CalculationMode: Codable {}
extension FillMode: Codable {}
extension PlaybackDirection: Codable {}
extension StepPosition: Codable {}
extension ValueKind: Codable {}
extension RotationMode: Codable {}

extension AnimatableValue: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case kind, components }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "an animatable value")
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
    private enum CodingKeys: String, CodingKey, CaseIterable { case linear, cubicBezier, steps, piecewiseLinear, custom }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a timing function")
        // One of two kinds ({"linear": true, "steps": …}) is not guessed at.
        // None is linear, as it has always been read.
        if !c.allKeys.isEmpty { _ = try c.onlyMember(of: "a timing function") }
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
        } else if c.contains(.linear) {
            // The encoder writes `true`: anything else ("linear": 1, false)
            // is an edit whose meaning is not guessed at.
            guard try c.decode(Bool.self, forKey: .linear) else {
                throw DecodingError.dataCorruptedError(forKey: .linear, in: c, debugDescription: "linear is written true (or left out), not false")
            }
            self = .linear
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

extension Animation {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case keyPath, timing, timingFunction, isRemovedOnCompletion, isAdditive, isCumulative, startsFromPresentation
        case usesSettlingDuration, content
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "an animation")
        keyPath = try c.decodeIfPresent(String.self, forKey: .keyPath)
        timing = try c.decode(MediaTiming.self, forKey: .timing)
        timingFunction = try c.decodeIfPresent(TimingFunction.self, forKey: .timingFunction)
        isRemovedOnCompletion = try c.decode(Bool.self, forKey: .isRemovedOnCompletion)
        isAdditive = try c.decode(Bool.self, forKey: .isAdditive)
        isCumulative = try c.decode(Bool.self, forKey: .isCumulative)
        startsFromPresentation = try c.decode(Bool.self, forKey: .startsFromPresentation)
        usesSettlingDuration = try c.decode(Bool.self, forKey: .usesSettlingDuration)
        content = try c.decode(Content.self, forKey: .content)
    }
}

extension Animation.Content {
    // A case is a member named for it, holding its associated values under
    // their labels (`_3` for the fourth, unlabelled).
    enum CodingKeys: String, CodingKey, CaseIterable { case basic, spring, keyframe, group, decay }
    enum BasicCodingKeys: String, CodingKey, CaseIterable { case from, to, by }
    enum SpringCodingKeys: String, CodingKey, CaseIterable { case from, to, by, _3 }
    enum KeyframeCodingKeys: String, CodingKey, CaseIterable { case _0 }
    enum GroupCodingKeys: String, CodingKey, CaseIterable { case _0 }
    enum DecayCodingKeys: String, CodingKey, CaseIterable { case from, velocity, _2 }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "an animation's content")
        switch try c.onlyMember(of: "an animation's content") {
        case .basic:
            let v = try c.superDecoder(forKey: .basic).members(BasicCodingKeys.self, of: "a basic animation's content")
            self = .basic(from: try v.decodeIfPresent(AnimatableValue.self, forKey: .from),
                          to: try v.decodeIfPresent(AnimatableValue.self, forKey: .to),
                          by: try v.decodeIfPresent(AnimatableValue.self, forKey: .by))
        case .spring:
            let v = try c.superDecoder(forKey: .spring).members(SpringCodingKeys.self, of: "a spring animation's content")
            self = .spring(from: try v.decodeIfPresent(AnimatableValue.self, forKey: .from),
                           to: try v.decodeIfPresent(AnimatableValue.self, forKey: .to),
                           by: try v.decodeIfPresent(AnimatableValue.self, forKey: .by), try v.decode(Spring.self, forKey: ._3))
        case .keyframe:
            let v = try c.superDecoder(forKey: .keyframe).members(KeyframeCodingKeys.self, of: "a keyframe animation's content")
            self = .keyframe(try v.decode(Keyframes.self, forKey: ._0))
        case .group:
            let v = try c.superDecoder(forKey: .group).members(GroupCodingKeys.self, of: "a group's content")
            self = .group(try v.decode([Animation].self, forKey: ._0))
        case .decay:
            let v = try c.superDecoder(forKey: .decay).members(DecayCodingKeys.self, of: "a decay animation's content")
            self = .decay(from: try v.decodeIfPresent(AnimatableValue.self, forKey: .from),
                          velocity: try v.decodeIfPresent(AnimatableValue.self, forKey: .velocity), try v.decode(Decay.self, forKey: ._2))
        }
    }
}

extension Keyframes {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case values, keyTimes, timingFunctions, calculationMode, path, rotationMode, tensionValues, continuityValues, biasValues
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "keyframes")
        values = try c.decode([AnimatableValue].self, forKey: .values)
        keyTimes = try c.decodeIfPresent([Double].self, forKey: .keyTimes)
        timingFunctions = try c.decode([TimingFunction].self, forKey: .timingFunctions)
        calculationMode = try c.decode(CalculationMode.self, forKey: .calculationMode)
        path = try c.decodeIfPresent([PathElement].self, forKey: .path)
        rotationMode = try c.decode(RotationMode.self, forKey: .rotationMode)
        tensionValues = try c.decode([Double].self, forKey: .tensionValues)
        continuityValues = try c.decode([Double].self, forKey: .continuityValues)
        biasValues = try c.decode([Double].self, forKey: .biasValues)
    }
}

extension PathElement {
    enum CodingKeys: String, CodingKey, CaseIterable { case move, line, quad, cubic, close }
    enum MoveCodingKeys: String, CodingKey, CaseIterable { case _0, _1 }
    enum LineCodingKeys: String, CodingKey, CaseIterable { case _0, _1 }
    enum QuadCodingKeys: String, CodingKey, CaseIterable { case _0, _1, _2, _3 }
    enum CubicCodingKeys: String, CodingKey, CaseIterable { case _0, _1, _2, _3, _4, _5 }

    /// The members of `close`, which has none (`{"close": {}}`).
    private enum NoMember: CodingKey, CaseIterable {
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { switch self {} }
        var intValue: Int? { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a path element")
        switch try c.onlyMember(of: "a path element") {
        case .move:
            let v = try c.superDecoder(forKey: .move).members(MoveCodingKeys.self, of: "a path's move")
            self = .move(try v.decode(Double.self, forKey: ._0), try v.decode(Double.self, forKey: ._1))
        case .line:
            let v = try c.superDecoder(forKey: .line).members(LineCodingKeys.self, of: "a path's line")
            self = .line(try v.decode(Double.self, forKey: ._0), try v.decode(Double.self, forKey: ._1))
        case .quad:
            let v = try c.superDecoder(forKey: .quad).members(QuadCodingKeys.self, of: "a path's quad")
            self = .quad(try v.decode(Double.self, forKey: ._0), try v.decode(Double.self, forKey: ._1),
                         try v.decode(Double.self, forKey: ._2), try v.decode(Double.self, forKey: ._3))
        case .cubic:
            let v = try c.superDecoder(forKey: .cubic).members(CubicCodingKeys.self, of: "a path's cubic")
            self = .cubic(try v.decode(Double.self, forKey: ._0), try v.decode(Double.self, forKey: ._1),
                          try v.decode(Double.self, forKey: ._2), try v.decode(Double.self, forKey: ._3),
                          try v.decode(Double.self, forKey: ._4), try v.decode(Double.self, forKey: ._5))
        case .close:
            _ = try c.superDecoder(forKey: .close).members(NoMember.self, of: "a path's close")
            self = .close
        }
    }
}

extension MediaTiming {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case beginTime, duration, speed, timeOffset, repeatCount, repeatDuration, autoreverses, fillMode
        case iterationStart, endDelay, direction, delay, iterations, iterationDuration
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "an animation's timing")
        beginTime = try c.decode(Double.self, forKey: .beginTime)
        duration = try c.decode(Double.self, forKey: .duration)
        speed = try c.decode(Double.self, forKey: .speed)
        timeOffset = try c.decode(Double.self, forKey: .timeOffset)
        repeatCount = try c.decode(Double.self, forKey: .repeatCount)
        repeatDuration = try c.decode(Double.self, forKey: .repeatDuration)
        autoreverses = try c.decode(Bool.self, forKey: .autoreverses)
        fillMode = try c.decode(FillMode.self, forKey: .fillMode)
        iterationStart = try c.decode(Double.self, forKey: .iterationStart)
        endDelay = try c.decode(Double.self, forKey: .endDelay)
        direction = try c.decode(PlaybackDirection.self, forKey: .direction)
        delay = try c.decode(Double.self, forKey: .delay)
        iterations = try c.decodeIfPresent(Double.self, forKey: .iterations)
        iterationDuration = try c.decodeIfPresent(Double.self, forKey: .iterationDuration)
    }
}

extension Spring {
    enum CodingKeys: String, CodingKey, CaseIterable { case mass, stiffness, damping, initialVelocity, allowsOverdamping }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a spring")
        self.init(mass: try c.decode(Double.self, forKey: .mass), stiffness: try c.decode(Double.self, forKey: .stiffness),
                  damping: try c.decode(Double.self, forKey: .damping), initialVelocity: try c.decode(Double.self, forKey: .initialVelocity),
                  allowsOverdamping: try c.decode(Bool.self, forKey: .allowsOverdamping))
    }
}

extension Decay {
    enum CodingKeys: String, CodingKey, CaseIterable { case decelerationRate, restVelocity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "a decay")
        self.init(decelerationRate: try c.decode(Double.self, forKey: .decelerationRate),
                  restVelocity: try c.decode(Double.self, forKey: .restVelocity))
    }
}

extension StepsFunction {
    enum CodingKeys: String, CodingKey, CaseIterable { case count, position }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.members(CodingKeys.self, of: "steps()")
        self.init(count: try c.decode(Int.self, forKey: .count), position: try c.decode(StepPosition.self, forKey: .position))
    }
}
