/// An animation description: what to animate, how, and when. A value type;
/// adding it to a layer copies it (later changes do not affect the copy).
public struct Animation: Sendable, Codable {
    /// What the animation computes. The cases that hold values hold them
    /// out of line (`indirect`): three values make a payload of several
    /// hundred bytes, keyframes' arrays and modes seventy, and a description
    /// is copied whole on every step of building and adding it (the C
    /// ABI's create, setters and add). A group holds an array already, and
    /// stays inline: an empty group, the table's placeholder, allocates
    /// nothing.
    public enum Content: Sendable, Codable {
        /// `CABasicAnimation`: from/to/by in Core Animation's combinations.
        indirect case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        /// `CASpringAnimation`: a basic animation paced by a spring.
        indirect case spring(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?, Spring)
        /// `CAKeyframeAnimation`.
        indirect case keyframe(Keyframes)
        /// `CAAnimationGroup`: children run in the group's time, clipped to it.
        case group([Animation])
        /// Inertia from `velocity` (units per second), slowing by the decay's
        /// rate; the duration is derived. Without `from`, it starts from the
        /// live model value.
        indirect case decay(from: AnimatableValue?, velocity: AnimatableValue?, Decay)
    }

    /// The animated key path (nil for groups).
    public var keyPath: String?
    public var timing: MediaTiming
    /// Paces the whole animation; nil is linear.
    public var timingFunction: TimingFunction?
    /// Remove the animation from its layer when its active duration ends.
    public var isRemovedOnCompletion: Bool = true
    /// Add the value to the underlying presentation value instead of replacing it.
    public var isAdditive: Bool = false
    /// Each repeat builds on the end value of the previous one.
    public var isCumulative: Bool = false
    /// Start from the key path's presentation value at the moment the
    /// animation is added (UIKit's "begin from current state"): a basic or
    /// spring animation interrupted mid-flight continues without a jump.
    public var startsFromPresentation: Bool = false
    /// Springs: run for the spring's `settlingDuration` instead of
    /// `timing.duration`, so the animation ends once the spring has come to
    /// rest (Core Animation's rule, kept when this is false, is that a spring
    /// runs for `duration` like any animation and is cut off there).
    public var usesSettlingDuration: Bool = false
    public var content: Content

    public init(keyPath: String?, content: Content, timing: MediaTiming = MediaTiming(), timingFunction: TimingFunction? = nil) {
        self.keyPath = keyPath; self.content = content; self.timing = timing; self.timingFunction = timingFunction
    }

    public static func basic(_ keyPath: String, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
                             by: AnimatableValue? = nil, timing: MediaTiming = MediaTiming(),
                             timingFunction: TimingFunction? = nil) -> Animation {
        Animation(keyPath: keyPath, content: .basic(from: from, to: to, by: by), timing: timing, timingFunction: timingFunction)
    }

    public static func spring(_ keyPath: String, _ spring: Spring, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
                              by: AnimatableValue? = nil, timing: MediaTiming = MediaTiming()) -> Animation {
        Animation(keyPath: keyPath, content: .spring(from: from, to: to, by: by, spring), timing: timing)
    }

    public static func keyframe(_ keyPath: String, _ keyframes: Keyframes, timing: MediaTiming = MediaTiming(),
                                timingFunction: TimingFunction? = nil) -> Animation {
        Animation(keyPath: keyPath, content: .keyframe(keyframes), timing: timing, timingFunction: timingFunction)
    }

    public static func group(_ children: [Animation], timing: MediaTiming = MediaTiming()) -> Animation {
        Animation(keyPath: nil, content: .group(children), timing: timing)
    }

    public static func decay(_ keyPath: String, velocity: AnimatableValue, from: AnimatableValue? = nil,
                             _ decay: Decay = Decay(), timing: MediaTiming = MediaTiming()) -> Animation {
        Animation(keyPath: keyPath, content: .decay(from: from, velocity: velocity, decay), timing: timing)
    }

    /// Which kind of description this is.
    public var kind: AnimationKind {
        switch content {
        case .basic: .basic; case .spring: .spring; case .keyframe: .keyframe; case .group: .group; case .decay: .decay
        }
    }

    /// How long the motion takes to come to rest: a spring's settling
    /// duration (Core Animation's estimate), a decay's derived duration.
    public func settlingDuration() throws(AnimrtError) -> Double {
        switch content {
        case .spring(_, _, _, let s): return s.settlingDuration
        case .decay(_, let v, let d): return v.map(d.duration(initialVelocity:)) ?? 0
        default: throw AnimrtError(.kind, "a \(kindName) animation has no settling duration; springs and decays do")
        }
    }

    /// Which kind of animation this is (for the C ABI and messages).
    public var kindName: String {
        switch content {
        case .basic: "basic"; case .spring: "spring"; case .keyframe: "keyframe"; case .group: "group"; case .decay: "decay"
        }
    }
}

/// The kinds of animation description (`animrt_animation_kind`). Raw values
/// are part of the C ABI: never renumber, only append.
public enum AnimationKind: Int32, Sendable, CaseIterable {
    case basic = 0, keyframe, spring, group, decay
}

/// How keyframe values are spread over time (`calculationMode`).
public enum CalculationMode: Int32, Sendable, CaseIterable {
    case linear = 0, discrete, paced, cubic, cubicPaced

    /// The paced modes move at constant speed: they ignore key times and
    /// timing functions.
    public var isPaced: Bool { self == .paced || self == .cubicPaced }

    /// How many key times `n` values take in this mode: n, or in discrete
    /// mode n + 1 (the last value holds from the last key time) or n.
    public func keyTimeCounts(values n: Int) -> [Int] { self == .discrete ? [n + 1, n] : [n] }

    /// `keyTimeCounts` in words, for a refusal: "4 (or 3)", or "3".
    public func keyTimeCountWords(values n: Int) -> String {
        let allowed = keyTimeCounts(values: n)
        return allowed.count > 1 ? "\(allowed[0]) (or \(allowed[1]))" : "\(allowed[0])"
    }
}

/// The keyframes of a `CAKeyframeAnimation`.
public struct Keyframes: Sendable, Codable {
    public var values: [AnimatableValue]
    /// Times in [0, 1] for each value; nil spreads them evenly.
    public var keyTimes: [Double]?
    /// One per segment; missing ones are linear.
    public var timingFunctions: [TimingFunction]
    public var calculationMode: CalculationMode
    /// Core Animation's `path`: when set, the keyframes are its points (the
    /// start, then each segment's end) and the motion follows its lines and
    /// curves; `values` are ignored. The key path must take a point.
    public var path: [PathElement]? = nil
    /// Core Animation's `rotationMode` (needs a path): the layer's transform
    /// turns to the path's tangent.
    public var rotationMode: RotationMode = .none
    /// Kochanek–Bartels parameters per keyframe for cubic modes (default 0).
    public var tensionValues: [Double] = []
    public var continuityValues: [Double] = []
    public var biasValues: [Double] = []

    public init(values: [AnimatableValue], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction] = [],
                calculationMode: CalculationMode = .linear) {
        self.values = values; self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions; self.calculationMode = calculationMode
    }
}
