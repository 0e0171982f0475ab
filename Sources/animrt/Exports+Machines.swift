// State machines: definitions, instances, events, snapshots.
import AnimationCore
import CAnimrt
import StateMachines

/// The names of `kind` in a definition, in id order.
private func names(_ d: MachineDefinition, _ kind: animrt_name_kind) throws(AnimrtError) -> [String] {
    d.names(try nameKind(kind))
}

private func nameKind(_ kind: animrt_name_kind) throws(AnimrtError) -> NameKind {
    try enumValue(Int32(bitPattern: kind.rawValue), NameKind.self, "animrt_name_kind")
}

@c @implementation
public func animrt_definition_load(_ rt: OpaquePointer!, _ json: UnsafePointer<CChar>!, _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_definition_load", [Traced.text(json)])) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.load(try string(json, "json")).raw
    }
}

@c @implementation
public func animrt_definition_load_file(_ rt: OpaquePointer!, _ path: UnsafePointer<CChar>!,
                                        _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    // A trace records the text read, so that it replays where the file is not.
    var text = ""
    return withMachines(rt, trace: TraceCall("animrt_definition_load", [.text(text)])) { m throws(AnimrtError) in
        let out = try required(out, "out")
        let path = try string(path, "path")
        text = try m.definitionText(contentsOf: path)
        out.pointee = try m.load(text, from: path).raw
    }
}

@c @implementation
public func animrt_definition_load_named(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!,
                                         _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_definition_load_named", [Traced.text(name)])) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.load(named: try string(name, "name")).raw
    }
}

@c @implementation
public func animrt_definition_register(_ rt: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ json: UnsafePointer<CChar>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_definition_register", [Traced.text(name), Traced.text(json)])) { m throws(AnimrtError) in try m.register(definition: try string(json, "json"), as: try string(name, "name")) }
}

@c @implementation
public func animrt_definition_destroy(_ rt: OpaquePointer!, _ definition: animrt_id) -> animrt_status {
    traced(rt, { TraceCall("animrt_definition_destroy", [.handle(definition)]) }) { box throws(AnimrtError) in
        let h = Handle(raw: definition)
        let d = try box.machines.definition(h)
        try box.machines.unload(h)
        // Its export kept for a fill goes with it (a machine made from it may still export it: built again then).
        if box.keptExport?.definition === d { box.keptExport = nil }
    }
}

/// The definition named by `h`, or the one machine `h` was made from (which
/// stays readable after its definition handle is destroyed).
private func describedDefinition(_ m: MachineHost, _ h: animrt_id) throws(AnimrtError) -> MachineDefinition {
    let handle = Handle(raw: h)
    return handle.kindBits == HandleKind.machine.rawValue ? try m.definition(of: handle) : try m.definition(handle)
}

/// A state given by the last parts of its name ("succeeded") where states
/// are named in full: the full names it ends (at most three), or nil.
private func fullNames(endingIn name: String, among states: [String]) -> String? {
    let found = states.filter { $0.hasSuffix("." + name) }
    guard !found.isEmpty else { return nil }
    let listed = found.prefix(3).map { "'\($0)'" }.joined(separator: " or ")
    return "; states are named in full from the top: did you mean \(listed)\(found.count > 3 ? " or another of \(found.count)" : "")?"
}

/// What to write instead of an unknown state: the full names it ends, the
/// closest name, or the states there are. Where the list would be cut, the
/// top-level ones, which a list in alphabetical order hides behind the
/// first one's children.
private func unknownState(_ name: String, among states: [String]) -> String {
    if let full = fullNames(endingIn: name, among: states) { return full }
    let top = states.filter { !$0.contains(".") }
    guard states.count > 10, top.count < states.count, closestMatch(to: name, in: states) == nil,
          let nested = states.first(where: { $0.contains(".") }) else {
        return unknownName(name, among: states, "states")
    }
    return unknownName(name, among: top, "top-level states").dropLast() + "; nested ones are named from the top, as '\(nested)')"
}

@c @implementation
public func animrt_definition_id(_ rt: OpaquePointer!, _ definition: animrt_id, _ kind: animrt_name_kind,
                                 _ name: UnsafePointer<CChar>!, _ out: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        let d = try describedDefinition(m, definition)
        let all = try names(d, kind)
        let n = try string(name, "name")
        guard let i = all.firstIndex(of: n) else {
            let what = try nameKind(kind)
            throw AnimrtError(.notFound, "'\(d.name)' has no \(what.description) named '\(n)'"
                              + (what == .state ? unknownState(n, among: all)
                                 : unknownName(n, among: what == .event ? d.hostEventNames : all, what.description + "s")))
        }
        out.pointee = Int32(i)
    }
}

@c @implementation
public func animrt_definition_name(_ rt: OpaquePointer!, _ definition: animrt_id, _ kind: animrt_name_kind, _ id: Int32,
                                   _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let d = try describedDefinition(m, definition)
        let all = try names(d, kind)
        try d.checkID(Int(id), try nameKind(kind))
        try copyString(all[Int(id)], buf, cap, needed, "the name")
    }
}

@c @implementation
public func animrt_definition_count(_ rt: OpaquePointer!, _ definition: animrt_id, _ kind: animrt_name_kind,
                                    _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try describedDefinition(m, definition).count(try nameKind(kind))
    }
}

/// The field names of item `id` of `kind` (payload fields, or a state's associated values).
private func fieldNames(_ d: MachineDefinition, _ kind: animrt_name_kind, _ id: Int32) throws(AnimrtError) -> [String] {
    let k = try nameKind(kind)
    switch k {
    case .event, .emit, .request, .state: break
    default:
        throw AnimrtError(.invalidArgument, "\(k.description)s have no fields; fields belong to events, emitted events, requests and states")
    }
    try d.checkID(Int(id), k)
    switch k {
    case .event: return d.events[Int(id)].payload.map(\.name)
    case .emit: return d.emits[Int(id)].payload.map(\.name)
    case .request: return d.requests[Int(id)].payload.map(\.name)
    default: return d.associatedValues(of: Int(id)).map { d.context[$0].name }
    }
}

@c @implementation
public func animrt_definition_field_count(_ rt: OpaquePointer!, _ definition: animrt_id, _ kind: animrt_name_kind, _ id: Int32,
                                          _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try fieldNames(try describedDefinition(m, definition), kind, id).count
    }
}

@c @implementation
public func animrt_definition_field_name(_ rt: OpaquePointer!, _ definition: animrt_id, _ kind: animrt_name_kind, _ id: Int32,
                                         _ index: Int, _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int,
                                         _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let fields = try fieldNames(try describedDefinition(m, definition), kind, id)
        guard index >= 0 && index < fields.count else {
            throw AnimrtError(.outOfRange, "field index \(UInt(bitPattern: index)) is past the \(counted(fields.count, "field"))")
        }
        try copyString(fields[index], buf, cap, needed, "the field name")
    }
}

@c @implementation
public func animrt_definition_export(_ rt: OpaquePointer!, _ definition: animrt_id, _ format: animrt_export_format,
                                     _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withBox(rt) { box throws(AnimrtError) in
        // Taken by this call, whatever it asks for: only a refusal for its buffer keeps text again.
        let kept = box.keptExport
        box.keptExport = nil
        let d = try describedDefinition(box.machines, definition)
        let format = try enumValue(Int32(bitPattern: format.rawValue), ExportFormat.self, "animrt_export_format")
        // A definition never changes once loaded: text kept for this one
        // object and format is what building it again would give.
        let text: String
        if let kept, kept.definition === d, kept.format == format { text = kept.text } else { text = d.export(format) }
        do throws(AnimrtError) { try copyString(text, buf, cap, needed, "the export") } catch {
            if error.status == .buffer { box.keptExport = KeptExport(definition: d, format: format, text: text) }
            throw error
        }
    }
}

/// An export kept between the call that learns its size and the call that
/// fills (`RuntimeBox.keptExport`). It holds its definition weakly: it
/// keeps nothing alive (a plugin whose function the definition calls still
/// unloads once the definition goes), and a definition gone matches no call.
struct KeptExport {
    weak var definition: MachineDefinition?
    let format: ExportFormat
    let text: String
}

@c @implementation
public func animrt_machine_create(_ rt: OpaquePointer!, _ definition: animrt_id, _ parent: animrt_id, _ options: UnsafePointer<CChar>!,
                                  _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_machine_create", [.handle(definition), .handle(parent), Traced.text(options)])) { m throws(AnimrtError) in
        let out = try required(out, "out")
        let o = try optionalString(options, "options").map { (s: String) throws(AnimrtError) in try MachineHost.Options(json: s) }
        out.pointee = try m.create(Handle(raw: definition), parent: optionalHandle(parent), options: o ?? .init()).raw
    }
}

@c @implementation
public func animrt_machine_destroy(_ rt: OpaquePointer!, _ machine: animrt_id) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_machine_destroy", [.handle(machine)])) { m throws(AnimrtError) in try m.destroy(Handle(raw: machine)) }
}

@c @implementation
public func animrt_machine_send(_ rt: OpaquePointer!, _ machine: animrt_id, _ event: Int32, _ payload: UnsafePointer<animrt_value>!,
                                _ count: Int, _ outcome: UnsafeMutablePointer<animrt_send_outcome>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_machine_send", [.handle(machine), .integer(Int64(event)), Traced.values(payload, count), .integer(Int64(count))])) { m throws(AnimrtError) in
        let n = try checkedCount(count, "count")
        if n > 0 && payload == nil { throw AnimrtError(.nullPointer, "payload is NULL but count is \(n)") }
        let o = try m.send(Handle(raw: machine), event: Int(event), count: n) { (i: Int) throws(AnimrtError) in
            try taggedValue(payload[i], "payload[\(i)]")
        }
        outcome?.pointee = animrt_send_outcome(rawValue: UInt32(o.rawValue))
    }
}

@c @implementation
public func animrt_machine_send_json(_ rt: OpaquePointer!, _ machine: animrt_id, _ event: UnsafePointer<CChar>!,
                                     _ payload: UnsafePointer<CChar>!, _ outcome: UnsafeMutablePointer<animrt_send_outcome>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_machine_send_json", [.handle(machine), Traced.text(event), Traced.text(payload)])) { m throws(AnimrtError) in
        let o = try m.send(Handle(raw: machine), event: try string(event, "event"), json: try optionalString(payload, "payload"))
        outcome?.pointee = animrt_send_outcome(rawValue: UInt32(o.rawValue))
    }
}

@c @implementation
public func animrt_machine_state(_ rt: OpaquePointer!, _ machine: animrt_id, _ out: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = Int32(try m.state(of: Handle(raw: machine)))
    }
}

@c @implementation
public func animrt_machine_in_state(_ rt: OpaquePointer!, _ machine: animrt_id, _ state: Int32, _ out: UnsafeMutablePointer<Int32>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.isActive(Int(state), in: Handle(raw: machine)) ? 1 : 0
    }
}

@c @implementation
public func animrt_machine_get(_ rt: OpaquePointer!, _ machine: animrt_id, _ field: Int32, _ out: UnsafeMutablePointer<animrt_value>!,
                               _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int, _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        var v = animrt_value(type: 0, boolean: 0, number: 0, integer: 0, string: nil, pointer: nil)
        switch try m.context(Int(field), of: Handle(raw: machine)) {
        case .number(let d): v.type = TaggedValue.Tag.number.rawValue; v.number = d
        case .bool(let b): v.type = TaggedValue.Tag.bool.rawValue; v.boolean = b ? 1 : 0
        case .string(let s):
            try copyString(s, buf, cap, needed, "the string")
            v.type = TaggedValue.Tag.string.rawValue; v.string = UnsafePointer(buf)
        case .vector(let x): v.type = TaggedValue.Tag.number.rawValue; v.number = x.scalar
        }
        out.pointee = v
    }
}

@c @implementation
public func animrt_machine_part(_ rt: OpaquePointer!, _ machine: animrt_id, _ name: UnsafePointer<CChar>!,
                                _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.part(try string(name, "name"), of: Handle(raw: machine)).raw
    }
}

@c @implementation
public func animrt_machine_snapshot(_ rt: OpaquePointer!, _ machine: animrt_id, _ buf: UnsafeMutablePointer<CChar>!, _ cap: Int,
                                    _ needed: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        try copyString(try m.snapshot(Handle(raw: machine)), buf, cap, needed, "the snapshot")
    }
}

@c @implementation
public func animrt_machine_restore(_ rt: OpaquePointer!, _ snapshot: UnsafePointer<CChar>!, _ parent: animrt_id,
                                   _ out: UnsafeMutablePointer<animrt_id>!) -> animrt_status {
    withMachines(rt, trace: TraceCall("animrt_machine_restore", [Traced.text(snapshot), .handle(parent)])) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.restore(try string(snapshot, "snapshot"), parent: optionalHandle(parent)).raw
    }
}

@c @implementation
public func animrt_machine_part_count(_ rt: OpaquePointer!, _ machine: animrt_id, _ name: UnsafePointer<CChar>!,
                                      _ out: UnsafeMutablePointer<Int>!) -> animrt_status {
    withMachines(rt) { m throws(AnimrtError) in
        let out = try required(out, "out")
        out.pointee = try m.partCount(try string(name, "name"), of: Handle(raw: machine))
    }
}
