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
