// Reading animations back: descriptions and attached copies alike.
import AnimationCore
import CAnimrt

/// The description or attached copy named by `h`.
private func described(_ r: Runtime, _ h: animrt_id) throws(AnimrtError) -> Animation {
    try r.animationOrAttached(Handle(raw: h))
}

/// The keyframes of the description or attached copy named by `h`.
func describedKeyframes(_ r: Runtime, _ h: animrt_id) throws(AnimrtError) -> Keyframes {
    let a = try r.animationOrAttached(Handle(raw: h))
    guard case .keyframe(let k) = a.content else { throw wrongKind(a, h, "keyframe") }
    return k
}

@c @implementation
public func animrt_animation_get_kind(_ rt: OpaquePointer!, _ animation: animrt_id,
                                      _ out: UnsafeMutablePointer<animrt_animation_kind>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = animrt_animation_kind(rawValue: UInt32(try described(r, animation).kind.rawValue))
    }
}

@c @implementation
public func animrt_animation_get_key_path(_ rt: OpaquePointer!, _ animation: animrt_id, _ buf: UnsafeMutablePointer<CChar>!,
                                          _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        try copyString(try described(r, animation).keyPath ?? "", buf, cap, needed, "the key path")
    }
}

@c @implementation
public func animrt_animation_get_flag(_ rt: OpaquePointer!, _ animation: animrt_id, _ flag: animrt_flag,
                                      _ out: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let a = try described(r, animation)
        let on: Bool
        switch flag.rawValue {
        case ANIMRT_FLAG_AUTOREVERSES.rawValue: on = a.timing.autoreverses
        case ANIMRT_FLAG_REMOVED_ON_COMPLETION.rawValue: on = a.isRemovedOnCompletion
        case ANIMRT_FLAG_ADDITIVE.rawValue: on = a.isAdditive
        case ANIMRT_FLAG_CUMULATIVE.rawValue: on = a.isCumulative
        case ANIMRT_FLAG_FROM_PRESENTATION.rawValue: on = a.startsFromPresentation
        case ANIMRT_FLAG_ALLOWS_OVERDAMPING.rawValue:
            guard case .spring(_, _, _, let s) = a.content else { throw wrongKind(a, animation, "spring") }
            on = s.allowsOverdamping
        case ANIMRT_FLAG_SETTLING_DURATION.rawValue:
            guard case .spring = a.content else { throw wrongKind(a, animation, "spring") }
            on = a.usesSettlingDuration
        default: throw AnimrtError(.unknownEnum, "\(flag.rawValue) is not a valid animrt_flag; it is one of \(EnumNames.members(AnimationFlag.self, "animrt_flag"))")
        }
        out.pointee = on ? 1 : 0
    }
}

@c @implementation
public func animrt_animation_get_fill_mode(_ rt: OpaquePointer!, _ animation: animrt_id,
                                           _ out: UnsafeMutablePointer<animrt_fill_mode>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = animrt_fill_mode(rawValue: UInt32(try described(r, animation).timing.fillMode.rawValue))
    }
}

@c @implementation
public func animrt_animation_get_direction(_ rt: OpaquePointer!, _ animation: animrt_id,
                                           _ out: UnsafeMutablePointer<animrt_direction>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = animrt_direction(rawValue: UInt32(try described(r, animation).timing.direction.rawValue))
    }
}

@c @implementation
public func animrt_animation_get_timing_function(_ rt: OpaquePointer!, _ animation: animrt_id,
                                                 _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int,
                                                 _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        try copyString((try described(r, animation).timingFunction ?? .linear).name, buf, cap, needed, "the timing function")
    }
}

@c @implementation
public func animrt_animation_get_value(_ rt: OpaquePointer!, _ animation: animrt_id, _ slot: animrt_value_slot,
                                       _ out: UnsafeMutablePointer<Double>!, _ cap: Int,
                                       _ count: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let a = try described(r, animation)
        let s = try enumValue(Int32(bitPattern: slot.rawValue), ValueSlot.self, "animrt_value_slot")
        try copyDoubles(try a.value(s)?.components ?? [], out, cap, count, "count", "value")
    }
}

@c @implementation
public func animrt_keyframe_get_values(_ rt: OpaquePointer!, _ animation: animrt_id, _ out: UnsafeMutablePointer<Double>!,
                                       _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        try copyDoubles(try describedKeyframes(r, animation).values.flatMap(\.components), out, cap, needed,
                        "needed", "keyframe values")
    }
}

@c @implementation
public func animrt_keyframe_get_key_times(_ rt: OpaquePointer!, _ animation: animrt_id, _ out: UnsafeMutablePointer<Double>!,
                                          _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        try copyDoubles(try describedKeyframes(r, animation).keyTimes ?? [], out, cap, needed, "needed", "key times")
    }
}

/// The children of the group (description or attached copy) named by `h`.
private func describedChildren(_ r: Runtime, _ h: animrt_id) throws(AnimrtError) -> [Animation] {
    let a = try r.animationOrAttached(Handle(raw: h))
    guard case .group(let children) = a.content else { throw wrongKind(a, h, "group") }
    return children
}

@c @implementation
public func animrt_group_get_count(_ rt: OpaquePointer!, _ group: animrt_id, _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try describedChildren(r, group).count
    }
}

@c @implementation
public func animrt_group_get_child(_ rt: OpaquePointer!, _ group: animrt_id, _ index: Int,
                                   _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_group_get_child", [.handle(group), .integer(Int64(index))])) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let children = try describedChildren(r, group)
        guard index >= 0 && index < children.count else {
            throw AnimrtError(.outOfRange, "index \(UInt(bitPattern: index)) is past the group's \(counted(children.count, "child", plural: "children"))")
        }
        out.pointee = try r.createAnimation(children[index]).raw
    }
}

@c @implementation
public func animrt_animation_get_computed_timing(_ rt: OpaquePointer!, _ attached: animrt_id,
                                                 _ out: UnsafeMutablePointer<animrt_computed_timing>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let c = try r.computedTiming(of: Handle(raw: attached))
        out.pointee = animrt_computed_timing(
            phase: c.phase.rawValue, in_effect: c.isInEffect ? 1 : 0,
            local_time: c.localTime ?? .nan, active_time: c.activeTime ?? .nan, active_duration: c.activeDuration,
            end_time: c.endTime, current_iteration: c.currentIteration ?? .nan, progress: c.progress ?? .nan)
    }
}

@c @implementation
public func animrt_animation_get_lifecycle(_ rt: OpaquePointer!, _ attached: animrt_id,
                                           _ out: UnsafeMutablePointer<animrt_lifecycle>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = animrt_lifecycle(rawValue: UInt32(try r.lifecycle(of: Handle(raw: attached)).rawValue))
    }
}

@c @implementation
public func animrt_animation_get_velocity(_ rt: OpaquePointer!, _ attached: animrt_id, _ keyPath: UnsafePointer<CChar>!,
                                          _ out: UnsafeMutablePointer<Double>!, _ cap: Int,
                                          _ count: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let v = try r.velocity(of: Handle(raw: attached), keyPath: try optionalNameString(keyPath, "key_path"))
        try copyDoubles(v.components, out, cap, count, "count", "velocity")
    }
}

@c @implementation
public func animrt_animation_retarget(_ rt: OpaquePointer!, _ attached: animrt_id, _ target: UnsafePointer<Double>!,
                                      _ count: Int) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_retarget", [.handle(attached), Traced.numbers(target, count), .integer(Int64(count))])) { r throws(AnimrtError) in
        let h = Handle(raw: attached)
        // A group has no key path to read the target's kind from: refused
        // as every animation that is not a spring is (ANIMRT_E_KIND), not
        // as a key path '' that is not animatable.
        guard let path = try r.attachedAnimation(h).keyPath else { return try r.retarget(h, to: .scalar(0)) }
        let kind = try r.properties.resolve(path).kind
        try r.retarget(h, to: try value(kind, target, count, "target"))
    }
}
