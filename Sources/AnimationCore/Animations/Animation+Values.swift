/// The values of a description by slot (`animrt_value_slot`; raw values are
/// part of the C ABI).
public enum ValueSlot: Int32, Sendable, CaseIterable {
    case from = 0, to, by
    /// A decay's initial velocity (units per second).
    case velocity

    /// Core Animation's property name: "fromValue", "toValue", "byValue".
    public var name: String {
        switch self { case .from: "fromValue"; case .to: "toValue"; case .by: "byValue"; case .velocity: "velocity" }
    }
}

extension Animation {
    /// The value in `slot`, or nil when it is not set. Basic and spring
    /// animations have from, to and by; a decay has from and velocity.
    public func value(_ slot: ValueSlot) throws(AnimrtError) -> AnimatableValue? {
        switch (content, slot) {
        case (.basic(let f, _, _), .from), (.spring(let f, _, _, _), .from), (.decay(let f, _, _), .from): return f
        case (.basic(_, let t, _), .to), (.spring(_, let t, _, _), .to): return t
        case (.basic(_, _, let b), .by), (.spring(_, _, let b, _), .by): return b
        case (.decay(_, let v, _), .velocity): return v
        default: throw slotError(slot)
        }
    }

    /// Sets (or with nil clears) the value in `slot`.
    public mutating func setValue(_ v: AnimatableValue?, _ slot: ValueSlot) throws(AnimrtError) {
        switch (content, slot) {
        case (.basic(_, let t, let b), .from): content = .basic(from: v, to: t, by: b)
        case (.basic(let f, _, let b), .to): content = .basic(from: f, to: v, by: b)
        case (.basic(let f, let t, _), .by): content = .basic(from: f, to: t, by: v)
        case (.spring(_, let t, let b, let s), .from): content = .spring(from: v, to: t, by: b, s)
        case (.spring(let f, _, let b, let s), .to): content = .spring(from: f, to: v, by: b, s)
        case (.spring(let f, let t, _, let s), .by): content = .spring(from: f, to: t, by: v, s)
        case (.decay(_, let velocity, let d), .from): content = .decay(from: v, velocity: velocity, d)
        case (.decay(let f, _, let d), .velocity): content = .decay(from: f, velocity: v, d)
        default: throw slotError(slot)
        }
    }

    private func slotError(_ slot: ValueSlot) -> AnimrtError {
        let has: String
        switch content {
        case .basic, .spring: has = "fromValue, toValue and byValue"
        case .decay: has = "fromValue and velocity"
        case .keyframe: has = "keyframe values (animrt_keyframe_set_values)"
        case .group: has = "no values of its own"
        }
        return AnimrtError(.kind, "a \(kindName) animation has no \(slot.name): it has \(has)")
    }
}
