/// The kinds of animation description (`animrt_animation_kind`). Raw values
/// are part of the C ABI: never renumber, only append.
public enum AnimationKind: Int32, Sendable, CaseIterable {
    case basic = 0, keyframe, spring, group
}

/// The on/off options of an animation (`animrt_flag`). Raw values are part
/// of the C ABI: never renumber, only append.
public enum AnimationFlag: Int32, Sendable, CaseIterable {
    /// `MediaTiming.autoreverses`.
    case autoreverses = 0
    /// `Animation.isRemovedOnCompletion`.
    case removedOnCompletion
    /// `Animation.isAdditive`.
    case additive
    /// `Animation.isCumulative`.
    case cumulative
    /// `Animation.startsFromPresentation`.
    case fromPresentation
    /// `Spring.allowsOverdamping` (spring animations only).
    case allowsOverdamping
    /// `Animation.usesSettlingDuration`: a spring runs until settled.
    case settlingDuration
}

/// The from / to / by values of a basic or spring animation
/// (`animrt_value_slot`). Raw values are part of the C ABI.
public enum ValueSlot: Int32, Sendable, CaseIterable {
    case from = 0, to, by

    /// Core Animation's property name: "fromValue", "toValue", "byValue".
    public var name: String {
        switch self { case .from: "fromValue"; case .to: "toValue"; case .by: "byValue" }
    }
}

extension Animation {
    /// Which kind of description this is.
    public var kind: AnimationKind {
        switch content { case .basic: .basic; case .keyframe: .keyframe; case .spring: .spring; case .group: .group }
    }
}
