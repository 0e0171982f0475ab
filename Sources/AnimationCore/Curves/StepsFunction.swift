/// Where the jumps of a `steps()` function fall (CSS Easing 1).
public enum StepPosition: Int, Sendable, CaseIterable {
    case jumpStart = 0, jumpEnd, jumpNone, jumpBoth

    /// The CSS keyword (`start` and `end` are accepted as aliases when parsing).
    public var name: String {
        switch self {
        case .jumpStart: "jump-start"
        case .jumpEnd: "jump-end"
        case .jumpNone: "jump-none"
        case .jumpBoth: "jump-both"
        }
    }

    public init?(name: String) {
        switch name {
        case "jump-start", "start": self = .jumpStart
        case "jump-end", "end": self = .jumpEnd
        case "jump-none": self = .jumpNone
        case "jump-both": self = .jumpBoth
        default: return nil
        }
    }
}

/// A step timing function: `steps(count, position)`.
public struct StepsFunction: Hashable, Sendable, Codable {
    public let count: Int
    public let position: StepPosition

    /// `count` must be ≥ 1, and ≥ 2 for `jumpNone` (validated by `TimingFunction.steps`).
    public init(count: Int, position: StepPosition) {
        self.count = count
        self.position = position
    }

    /// The CSS Easing step algorithm. `beforeFlag` comes from the timing model:
    /// it is set in the before phase while playing forwards (or in the after
    /// phase while playing backwards) and pulls a jump at exactly x back.
    /// A NaN progress shows what progress 0 shows, as every other curve's
    /// does (a Bézier's 0, a `linear()`'s first output).
    public func solve(_ x: Double, beforeFlag: Bool = false) -> Double {
        let x = x.isNaN ? 0 : x
        let n = Double(count)
        var step = (x * n).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        if beforeFlag && (x * n).truncatingRemainder(dividingBy: 1) == 0 { step -= 1 }
        if x >= 0 && step < 0 { step = 0 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd: jumps = n
        case .jumpNone: jumps = n - 1
        case .jumpBoth: jumps = n + 1
        }
        if x <= 1 && step > jumps { step = jumps }
        return step / jumps
    }
}
