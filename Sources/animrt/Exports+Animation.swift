// Animation descriptions: creation and every setter.
import AnimationCore
import CAnimrt
#if canImport(Glibc)
import Glibc
#endif

func wrongKind(_ a: Animation, _ h: animrt_id, _ wanted: String) -> AnimrtError {
    AnimrtError(.kind, "animation \(Handle(raw: h).hex) is a \(a.kindName) animation; this call needs a \(wanted) animation")
}

/// Applies `body` to the keyframes of a keyframe animation.
private func updateKeyframes(_ rt: OpaquePointer?, _ h: animrt_id, trace call: @autoclosure () -> TraceCall,
                             _ body: (Runtime, Animation, inout Keyframes) throws(AnimrtError) -> Void) -> animrt_status {
    withRuntime(rt, trace: call()) { r throws(AnimrtError) in
        try r.updateAnimation(Handle(raw: h)) { (a: inout Animation) throws(AnimrtError) in
            guard case .keyframe(var k) = a.content else { throw wrongKind(a, h, "keyframe") }
            try body(r, a, &k)
            a.content = .keyframe(k)
        }
    }
}

/// The contents a new description starts with. A basic one is made once
/// and shared (its values live out of line, so each create would otherwise
/// allocate a box; a copy shares it until a value is set). Spring and decay
/// contents are made per create: kept in a global, their box is held by a
/// pointer carrying the enum's case in its spare bits, which leak checkers
/// do not recognise as a reference, and they are rarer.
private enum EmptyContent {
    static let basic = Animation.Content.basic(from: nil, to: nil, by: nil)
    static var spring: Animation.Content { .spring(from: nil, to: nil, by: nil, Spring()) }
    static var decay: Animation.Content { .decay(from: nil, velocity: nil, Decay()) }
}

@c @implementation
public func animrt_animation_create(_ rt: OpaquePointer!, _ kind: animrt_animation_kind, _ keyPath: UnsafePointer<CChar>!,
                                    _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    traced(rt, { TraceCall("animrt_animation_create", [.integer(Int64(kind.rawValue)), Traced.text(keyPath)]) }) { box throws(AnimrtError) in
        let r = box.runtime
        let out = try required(out, "out")
        let content: Animation.Content
        switch try enumValue(Int32(bitPattern: kind.rawValue), AnimationKind.self, "animrt_animation_kind") {
        case .basic: content = EmptyContent.basic
        case .keyframe: content = .keyframe(Keyframes(values: []))
        case .spring: content = EmptyContent.spring
        case .decay: content = EmptyContent.decay
        case .group:
            guard keyPath == nil else { throw AnimrtError(.invalidArgument, "a group animation takes no key path; pass NULL") }
            out.pointee = try r.createAnimation(.group([])).raw
            return
        }
        if let keyPath, let (path, resolved) = box.keyPathNames.find(keyPath) {
            out.pointee = try r.createAnimation(Animation(keyPath: path, content: content), resolved: resolved).raw
            return
        }
        let path = try nameString(keyPath, "key_path")
        let resolved = try r.properties.resolve(path)
        out.pointee = try r.createAnimation(Animation(keyPath: path, content: content), resolved: resolved).raw
        box.keyPathNames.remember(keyPath, (path, resolved))
    }
}

@c @implementation
public func animrt_animation_destroy(_ rt: OpaquePointer!, _ animation: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_destroy", [.handle(animation)])) { r throws(AnimrtError) in try r.destroyAnimation(Handle(raw: animation)) }
}

@c @implementation
public func animrt_animation_set_timing(_ rt: OpaquePointer!, _ animation: animrt_id, _ param: animrt_timing_param,
                                        _ v: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_timing", [.handle(animation), .integer(Int64(param.rawValue)), .number(v)])) { r throws(AnimrtError) in
        let p = try enumValue(Int32(bitPattern: param.rawValue), TimingParameter.self, "animrt_timing_param")
        try r.setTiming(p, v, ofAnimation: Handle(raw: animation))
    }
}

@c @implementation
public func animrt_animation_get_timing(_ rt: OpaquePointer!, _ animation: animrt_id, _ param: animrt_timing_param,
                                        _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let p = try enumValue(Int32(bitPattern: param.rawValue), TimingParameter.self, "animrt_timing_param")
        out.pointee = try r.animationOrAttached(Handle(raw: animation)).timing[p]
    }
}

@c @implementation
public func animrt_animation_set_flag(_ rt: OpaquePointer!, _ animation: animrt_id, _ flag: animrt_flag, _ on: Int32) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_flag", [.handle(animation), .integer(Int64(flag.rawValue)), .integer(Int64(on))])) { r throws(AnimrtError) in
        let b = on != 0
        let flag = try enumValue(Int32(bitPattern: flag.rawValue), AnimationFlag.self, "animrt_flag")
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in
            if b { try flag.check(on: a) }
            switch flag {
            case .autoreverses: a.timing.autoreverses = b
            case .removedOnCompletion: a.isRemovedOnCompletion = b
            case .additive: a.isAdditive = b
            case .cumulative: a.isCumulative = b
            case .fromPresentation: a.startsFromPresentation = b
            case .allowsOverdamping:
                guard case .spring(let f, let t, let by, var s) = a.content else { throw wrongKind(a, animation, "spring") }
                s.allowsOverdamping = b
                a.content = .spring(from: f, to: t, by: by, s)
            case .settlingDuration:
                guard case .spring = a.content else { throw wrongKind(a, animation, "spring") }
                a.usesSettlingDuration = b
            }
        }
    }
}

@c @implementation
public func animrt_animation_set_fill_mode(_ rt: OpaquePointer!, _ animation: animrt_id, _ mode: animrt_fill_mode) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_fill_mode", [.handle(animation), .integer(Int64(mode.rawValue))])) { r throws(AnimrtError) in
        let m = try enumValue(Int32(bitPattern: mode.rawValue), FillMode.self, "animrt_fill_mode")
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in a.timing.fillMode = m }
    }
}

@c @implementation
public func animrt_animation_set_direction(_ rt: OpaquePointer!, _ animation: animrt_id, _ direction: animrt_direction) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_direction", [.handle(animation), .integer(Int64(direction.rawValue))])) { r throws(AnimrtError) in
        let d = try enumValue(Int32(bitPattern: direction.rawValue), PlaybackDirection.self, "animrt_direction")
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in a.timing.direction = d }
    }
}

/// The timing function a C name gives (NULL: none).
private func timingFunction(named name: UnsafePointer<CChar>?, _ box: RuntimeBox) throws(AnimrtError) -> TimingFunction? {
    guard let name else { return nil }
    if let f = box.curveNames.find(name) { return f }
    let f = try box.runtime.timingFunctions.function(named: try string(name, "name"))
    // A curve from outside the core is not remembered: its plugin may be
    // unloaded (the name must stop resolving), and a remembered function
    // would count as a use and refuse the unload.
    if case .custom = f { return f }
    box.curveNames.remember(name, f)
    return f
}

@c @implementation
public func animrt_animation_set_timing_function(_ rt: OpaquePointer!, _ animation: animrt_id, _ name: UnsafePointer<CChar>!) -> animrt_status {
    traced(rt, { TraceCall("animrt_animation_set_timing_function", [.handle(animation), Traced.text(name)]) }) { box throws(AnimrtError) in
        try box.runtime.setTimingFunction(try timingFunction(named: name, box), ofAnimation: Handle(raw: animation))
    }
}

@c @implementation
public func animrt_animation_set_cubic_bezier(_ rt: OpaquePointer!, _ animation: animrt_id, _ x1: Double, _ y1: Double,
                                              _ x2: Double, _ y2: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_cubic_bezier", [.handle(animation), .number(x1), .number(y1), .number(x2), .number(y2)])) { r throws(AnimrtError) in
        let f = try TimingFunction.cubicBezier(x1, y1, x2, y2)
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in a.timingFunction = f }
    }
}

@c @implementation
public func animrt_animation_set_value(_ rt: OpaquePointer!, _ animation: animrt_id, _ slot: animrt_value_slot,
                                       _ v: UnsafePointer<Double>!, _ count: Int) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_value", [.handle(animation), .integer(Int64(slot.rawValue)), Traced.numbers(v, count), .integer(Int64(count))])) { r throws(AnimrtError) in
        let h = Handle(raw: animation)
        let s = try enumValue(Int32(bitPattern: slot.rawValue), ValueSlot.self, "animrt_value_slot")
        let newValue: AnimatableValue? = (v == nil && count == 0) ? nil : try value(try r.valueKind(ofAnimation: h), v, count, s.name)
        try r.setValue(newValue, s, ofAnimation: h)
    }
}

@c @implementation
public func animrt_animation_set_decay(_ rt: OpaquePointer!, _ animation: animrt_id, _ decelerationRate: Double,
                                       _ restVelocity: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_decay", [.handle(animation), .number(decelerationRate), .number(restVelocity)])) { r throws(AnimrtError) in
        let d = Decay(decelerationRate: decelerationRate, restVelocity: restVelocity)
        try d.validate()
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in
            guard case .decay(let f, let v, _) = a.content else { throw wrongKind(a, animation, "decay") }
            a.content = .decay(from: f, velocity: v, d)
        }
    }
}

@c @implementation
public func animrt_animation_get_decay(_ rt: OpaquePointer!, _ animation: animrt_id, _ decelerationRate: UnsafeMutablePointer<Double>!,
                                       _ restVelocity: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let a = try r.animationOrAttached(Handle(raw: animation))
        guard case .decay(_, _, let d) = a.content else { throw wrongKind(a, animation, "decay") }
        decelerationRate?.pointee = d.decelerationRate
        restVelocity?.pointee = d.restVelocity
    }
}

@c @implementation
public func animrt_animation_set_spring(_ rt: OpaquePointer!, _ animation: animrt_id, _ mass: Double, _ stiffness: Double,
                                        _ damping: Double, _ initialVelocity: Double) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_animation_set_spring", [.handle(animation), .number(mass), .number(stiffness), .number(damping), .number(initialVelocity)])) { r throws(AnimrtError) in
        try r.updateAnimation(Handle(raw: animation)) { (a: inout Animation) throws(AnimrtError) in
            guard case .spring(let f, let t, let b, let old) = a.content else { throw wrongKind(a, animation, "spring") }
            let s = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                           allowsOverdamping: old.allowsOverdamping)
            try s.validate()
            a.content = .spring(from: f, to: t, by: b, s)
        }
    }
}

/// Replaces the spring of a spring animation with `make(old)`.
private func updateSpring(_ rt: OpaquePointer?, _ h: animrt_id, trace call: @autoclosure () -> TraceCall,
                          _ make: (Spring) throws(AnimrtError) -> Spring) -> animrt_status {
    withRuntime(rt, trace: call()) { r throws(AnimrtError) in
        try r.updateAnimation(Handle(raw: h)) { (a: inout Animation) throws(AnimrtError) in
            guard case .spring(let f, let t, let b, let old) = a.content else { throw wrongKind(a, h, "spring") }
            a.content = .spring(from: f, to: t, by: b, try make(old))
        }
    }
}

@c @implementation
public func animrt_animation_set_spring_response(_ rt: OpaquePointer!, _ animation: animrt_id, _ response: Double,
                                                 _ dampingRatio: Double) -> animrt_status {
    updateSpring(rt, animation, trace: TraceCall("animrt_animation_set_spring_response", [.handle(animation), .number(response), .number(dampingRatio)])) { (old: Spring) throws(AnimrtError) in
        try Spring.checked(response: response, dampingRatio: dampingRatio, initialVelocity: old.initialVelocity)
    }
}

@c @implementation
public func animrt_animation_set_spring_perceptual(_ rt: OpaquePointer!, _ animation: animrt_id, _ perceptualDuration: Double,
                                                   _ bounce: Double) -> animrt_status {
    updateSpring(rt, animation, trace: TraceCall("animrt_animation_set_spring_perceptual", [.handle(animation), .number(perceptualDuration), .number(bounce)])) { (old: Spring) throws(AnimrtError) in
        try Spring.checked(perceptualDuration: perceptualDuration, bounce: bounce, initialVelocity: old.initialVelocity)
    }
}

@c @implementation
public func animrt_animation_get_spring_param(_ rt: OpaquePointer!, _ animation: animrt_id, _ param: animrt_spring_param,
                                              _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        let p = try enumValue(Int32(bitPattern: param.rawValue), SpringParameter.self, "animrt_spring_param")
        let a = try r.animationOrAttached(Handle(raw: animation))
        guard case .spring(_, _, _, let s) = a.content else { throw wrongKind(a, animation, "spring") }
        out.pointee = s[p]
    }
}

@c @implementation
public func animrt_animation_get_settling_duration(_ rt: OpaquePointer!, _ animation: animrt_id,
                                                   _ out: UnsafeMutablePointer<Double>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try r.animationOrAttached(Handle(raw: animation)).settlingDuration()
    }
}

@c @implementation
public func animrt_keyframe_set_values(_ rt: OpaquePointer!, _ animation: animrt_id, _ values: UnsafePointer<Double>!,
                                       _ count: Int, _ components: Int) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_values", [.handle(animation), Traced.numbers(values, count &* components), .integer(Int64(count)), .integer(Int64(components))])) { (r: Runtime, a: Animation, k: inout Keyframes) throws(AnimrtError) in
        let kind = try r.valueKind(ofAnimation: Handle(raw: animation))
        let count = try checkedCount(count, "count")
        guard components == kind.componentCount else {
            throw AnimrtError(.kind, "'\(a.keyPath ?? "")' takes \(counted(kind.componentCount, "component")) per keyframe, not \(UInt(bitPattern: components))")
        }
        let flat = try doubles(values, count * components, "values")
        var list: [AnimatableValue] = []
        for i in 0..<count {
            list.append(try value(kind, flat.baseAddress! + i * components, components, "keyframe \(i)"))
        }
        k.values = list
    }
}

@c @implementation
public func animrt_keyframe_set_key_times(_ rt: OpaquePointer!, _ animation: animrt_id, _ times: UnsafePointer<Double>!,
                                          _ count: Int) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_key_times", [.handle(animation), Traced.numbers(times, count), .integer(Int64(count))])) { (_: Runtime, _: Animation, k: inout Keyframes) throws(AnimrtError) in
        k.keyTimes = count == 0 ? nil : Array(try doubles(times, count, "times"))
    }
}

@c @implementation
public func animrt_keyframe_set_timing_functions(_ rt: OpaquePointer!, _ animation: animrt_id,
                                                 _ names: UnsafePointer<UnsafePointer<CChar>?>!, _ count: Int) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_timing_functions", [.handle(animation), Traced.texts(names, count), .integer(Int64(count))])) { (r: Runtime, _: Animation, k: inout Keyframes) throws(AnimrtError) in
        let count = try checkedCount(count, "count")
        if count > 0 && names == nil { throw AnimrtError(.nullPointer, "names is NULL but count is \(count)") }
        var functions: [TimingFunction] = []
        for i in 0..<count {
            functions.append(try optionalString(names[i], "names[\(i)]")
                .map { (n: String) throws(AnimrtError) in try r.timingFunctions.function(named: n) } ?? .linear)
        }
        k.timingFunctions = functions
    }
}

@c @implementation
public func animrt_keyframe_set_calculation_mode(_ rt: OpaquePointer!, _ animation: animrt_id,
                                                 _ mode: animrt_calculation_mode) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_calculation_mode", [.handle(animation), .integer(Int64(mode.rawValue))])) { (_: Runtime, _: Animation, k: inout Keyframes) throws(AnimrtError) in
        k.calculationMode = try enumValue(Int32(bitPattern: mode.rawValue), CalculationMode.self, "animrt_calculation_mode")
    }
}

@c @implementation
public func animrt_keyframe_set_spline(_ rt: OpaquePointer!, _ animation: animrt_id, _ tension: UnsafePointer<Double>!,
                                       _ continuity: UnsafePointer<Double>!, _ bias: UnsafePointer<Double>!, _ count: Int) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_spline", [.handle(animation), Traced.numbers(tension, count), Traced.numbers(continuity, count), Traced.numbers(bias, count), .integer(Int64(count))])) { (_: Runtime, _: Animation, k: inout Keyframes) throws(AnimrtError) in
        let count = try checkedCount(count, "count")
        func list(_ p: UnsafePointer<Double>?, _ name: String) throws(AnimrtError) -> [Double] {
            guard let p else { return [] }
            let values = Array(UnsafeBufferPointer(start: p, count: count))
            for v in values { try requireFiniteValue(v, name) }
            return values
        }
        k.tensionValues = try list(tension, "tension")
        k.continuityValues = try list(continuity, "continuity")
        k.biasValues = try list(bias, "bias")
    }
}

@c @implementation
public func animrt_keyframe_set_path(_ rt: OpaquePointer!, _ animation: animrt_id, _ commands: UnsafePointer<Int32>!,
                                     _ commandCount: Int, _ points: UnsafePointer<Double>!, _ pointCount: Int) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_path", [.handle(animation), Traced.integers(commands, commandCount), .integer(Int64(commandCount)), Traced.numbers(points, pointCount), .integer(Int64(pointCount))])) { (_: Runtime, a: Animation, k: inout Keyframes) throws(AnimrtError) in
        let n = try checkedCount(commandCount, "command_count")
        if n > 0 && commands == nil { throw AnimrtError(.nullPointer, "commands is NULL but command_count is \(n)") }
        let numbers = Array(try doubles(points, pointCount, "points"))
        if n == 0 && numbers.isEmpty { k.path = nil; return }
        let raw = Array(UnsafeBufferPointer(start: commands, count: n))
        // Refused here, where the header's constants are known, with them listed.
        if let i = raw.firstIndex(where: { PathElement.Command(rawValue: $0) == nil }) {
            throw AnimrtError(.unknownEnum, "path command \(i) is \(raw[i]), not a valid animrt_path_command; it is one of "
                              + EnumNames.members(PathElement.Command.self, "animrt_path_command"))
        }
        let elements = try PathElement.path(commands: raw, points: numbers)
        try PathElement.validate(elements, keyPath: a.keyPath ?? "")
        k.path = elements
    }
}

@c @implementation
public func animrt_keyframe_get_path(_ rt: OpaquePointer!, _ animation: animrt_id, _ commands: UnsafeMutablePointer<Int32>!,
                                     _ commandCap: Int, _ commandCount: UnsafeMutablePointer<Int>!,
                                     _ points: UnsafeMutablePointer<Double>!, _ pointCap: Int,
                                     _ pointCount: UnsafeMutablePointer<Int>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        // Both counts are set on success and on a buffer too small, so both are required before either is.
        let commandCount = try required(commandCount, "command_count")
        let pointCount = try required(pointCount, "point_count")
        let path = try describedKeyframes(r, animation).path ?? []
        let numbers = path.flatMap(\.coordinates)
        commandCount.pointee = path.count
        guard path.count <= capacity(commandCap), path.isEmpty || commands != nil else {
            pointCount.pointee = numbers.count
            throw AnimrtError(.buffer, "the path has \(counted(path.count, "command")); the buffer holds \(commands == nil ? 0 : commandCap)")
        }
        try copyDoubles(numbers, points, pointCap, pointCount, "point_count", "path points")
        for (i, e) in path.enumerated() { commands[i] = e.command.rawValue }
    }
}

@c @implementation
public func animrt_keyframe_set_rotation_mode(_ rt: OpaquePointer!, _ animation: animrt_id,
                                              _ mode: animrt_rotation_mode) -> animrt_status {
    updateKeyframes(rt, animation, trace: TraceCall("animrt_keyframe_set_rotation_mode", [.handle(animation), .integer(Int64(mode.rawValue))])) { (_: Runtime, _: Animation, k: inout Keyframes) throws(AnimrtError) in
        k.rotationMode = try enumValue(Int32(bitPattern: mode.rawValue), RotationMode.self, "animrt_rotation_mode")
    }
}

@c @implementation
public func animrt_keyframe_get_rotation_mode(_ rt: OpaquePointer!, _ animation: animrt_id,
                                              _ out: UnsafeMutablePointer<animrt_rotation_mode>!) -> animrt_status {
    withRuntime(rt) { r throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = animrt_rotation_mode(rawValue: UInt32(try describedKeyframes(r, animation).rotationMode.rawValue))
    }
}

private func requireFiniteValue(_ v: Double, _ name: String) throws(AnimrtError) {
    guard v.isFinite else { throw AnimrtError(.invalidArgument, "a \(name) value is \(v); it must be finite") }
}

@c @implementation
public func animrt_group_add(_ rt: OpaquePointer!, _ group: animrt_id, _ child: animrt_id) -> animrt_status {
    withRuntime(rt, trace: TraceCall("animrt_group_add", [.handle(group), .handle(child)])) { r throws(AnimrtError) in
        let c = try r.animation(Handle(raw: child))
        try r.updateAnimation(Handle(raw: group)) { (a: inout Animation) throws(AnimrtError) in
            guard case .group = a.content else { throw wrongKind(a, group, "group") }
            try a.appendToGroup(c)
        }
    }
}
