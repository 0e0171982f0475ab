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

extension AnimationFlag {
    /// Refuses turning this flag on for `animation` where it would do
    /// nothing or contradict another flag (changing nothing): whether an
    /// animation adds to the value below, builds on its repeats or starts
    /// from the screen is a property animation's, and starting from the
    /// screen is for animations whose start is a value (basic, spring). The
    /// spring-only flags are checked where they are set.
    public func check(on animation: Animation) throws(AnimrtError) {
        switch self {
        case .additive, .cumulative:
            if case .group = animation.content {
                let name = self == .additive ? "additive" : "cumulative"
                throw AnimrtError(.kind, "a group has no value of its own to make \(name); set \(name) on its animations")
            }
            if self == .additive && animation.startsFromPresentation { throw AnimrtError(.invalidArgument, message: AnimationFlag.additiveFromPresentation) }
        case .fromPresentation:
            switch animation.content {
            case .basic, .spring: break
            case .keyframe:
                throw AnimrtError(.kind, "fromPresentation applies to basic and spring animations; a keyframe animation starts from its first value: make the on-screen value the first")
            case .decay:
                throw AnimrtError(.kind, "fromPresentation applies to basic and spring animations; a decay starts from its fromValue, or from the model without one")
            case .group:
                throw AnimrtError(.kind, "a group has no value of its own to start from the screen; set fromPresentation on its animations")
            }
            if animation.isAdditive { throw AnimrtError(.invalidArgument, message: AnimationFlag.additiveFromPresentation) }
        case .autoreverses, .removedOnCompletion, .allowsOverdamping, .settlingDuration:
            break
        }
    }

    /// Why `additive` and `fromPresentation` are refused together, and what to do instead.
    public static let additiveFromPresentation = "additive and fromPresentation do not combine: an additive animation's ends are differences added to the value below it, and the on-screen value is not one; leave fromPresentation off and give the difference to start from as fromValue (0 adds nothing to what is below)"
}

extension Animation {
    /// Checks every flag that is on (see `AnimationFlag.check`), this
    /// description's own; a group's animations are checked as they resolve.
    func checkFlags() throws(AnimrtError) {
        if isAdditive { try AnimationFlag.additive.check(on: self) }
        if isCumulative { try AnimationFlag.cumulative.check(on: self) }
        if startsFromPresentation { try AnimationFlag.fromPresentation.check(on: self) }
    }
}
