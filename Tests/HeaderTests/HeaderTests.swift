import Foundation
import Testing
@testable import AnimationCore
@testable import StateMachines

struct HeaderError: Error, CustomStringConvertible {
    let description: String
}

/// include/animrt.h is the contract: every enumeration it declares is parsed
/// here and compared with the Swift enum that carries its raw values, in
/// both directions. An enumeration added to the header without a Swift
/// counterpart fails `everyHeaderEnumIsMapped`.
@Suite("R5.1 the header's enumerations and the core's raw values")
struct HeaderTests {
    /// The header, found from this file (Tests/HeaderTests/ → include/).
    static let header: String = {
        let here = URL(fileURLWithPath: #filePath)
        let url = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("include/animrt.h")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// Every enumeration of the header: type name → [constant: value]. The
    /// anonymous enum of status codes is named after its typedef,
    /// `animrt_status`.
    static func headerEnums() throws -> [String: [String: Int32]] {
        let text = header.replacing(/\/\*[\s\S]*?\*\//, with: "")
        var out: [String: [String: Int32]] = [:]
        for m in text.matches(of: /(typedef\s+)?enum\s*(\w*)\s*\{([^}]*)\}\s*(\w*)\s*;/) {
            let name = !String(m.output.2).isEmpty ? String(m.output.2) : !String(m.output.4).isEmpty ? String(m.output.4)
                : "animrt_status"
            var members: [String: Int32] = [:]
            for item in m.output.3.split(separator: ",") {
                let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard parts.count == 2, let v = Int32(parts[1]) else {
                    throw HeaderError(description: "\(name): cannot read '\(item)' (every enumerator needs an explicit value)")
                }
                members[parts[0]] = v
            }
            out[name] = members
        }
        return out
    }

    /// `layerDestroyed` → `LAYER_DESTROYED`.
    static func constantCase(_ name: String) -> String {
        var out = ""
        for c in name {
            if c.isUppercase { out += "_" }
            out += c.uppercased()
        }
        return out
    }

    /// A Swift enum's cases as header constants: `prefix` + the case name in
    /// constant case, or the name in `renamed` where the two differ.
    static func swiftSide<E: CaseIterable & RawRepresentable>(_: E.Type, _ prefix: String,
                                                              renamed: [String: String] = [:]) -> [String: Int32]
    where E.RawValue: BinaryInteger {
        Dictionary(uniqueKeysWithValues: E.allCases.map {
            (prefix + (renamed["\($0)"] ?? constantCase("\($0)")), Int32($0.rawValue))
        })
    }

    /// Header enumeration → its constants as the core defines them.
    static let swiftEnums: [String: [String: Int32]] = [
        "animrt_status": Dictionary(uniqueKeysWithValues: Status.allCases.map { ("\($0.name)", $0.rawValue) }),
        "animrt_value_kind": swiftSide(ValueKind.self, "ANIMRT_VALUE_"),
        "animrt_animation_kind": swiftSide(AnimationKind.self, "ANIMRT_ANIMATION_"),
        "animrt_timing_param": swiftSide(TimingParameter.self, "ANIMRT_TIMING_"),
        "animrt_flag": swiftSide(AnimationFlag.self, "ANIMRT_FLAG_"),
        "animrt_fill_mode": swiftSide(FillMode.self, "ANIMRT_FILL_"),
        "animrt_direction": swiftSide(PlaybackDirection.self, "ANIMRT_DIRECTION_"),
        "animrt_value_slot": swiftSide(ValueSlot.self, "ANIMRT_"),
        "animrt_calculation_mode": swiftSide(CalculationMode.self, "ANIMRT_CALC_"),
        "animrt_event_type": swiftSide(EventType.self, "ANIMRT_EVENT_",
                                       renamed: ["machineStateChanged": "MACHINE_STATE", "machineStaleResult": "MACHINE_STALE"]),
        "animrt_stop_reason": swiftSide(StopReason.self, "ANIMRT_STOP_"),
        "animrt_value_type": swiftSide(TaggedValue.Tag.self, "ANIMRT_TYPE_"),
        "animrt_name_kind": swiftSide(NameKind.self, "ANIMRT_NAME_"),
        "animrt_export_format": swiftSide(ExportFormat.self, "ANIMRT_EXPORT_"),
        "animrt_send_outcome": swiftSide(SendOutcome.self, "ANIMRT_SEND_"),
        "animrt_spring_param": swiftSide(SpringParameter.self, "ANIMRT_SPRING_"),
        "animrt_path_command": swiftSide(PathElement.Command.self, "ANIMRT_PATH_"),
        "animrt_rotation_mode": swiftSide(RotationMode.self, "ANIMRT_ROTATE_"),
        "animrt_phase": swiftSide(Phase.self, "ANIMRT_PHASE_"),
        "animrt_lifecycle": swiftSide(LifeState.self, "ANIMRT_LIFECYCLE_",
                                      renamed: ["running": "STARTED", "ended": "FINISHED"]),
        // A bulk add's column: a timing parameter's number, or 16 + a value slot's.
        "animrt_column_field": swiftSide(TimingParameter.self, "ANIMRT_COLUMN_").mapValues { BulkField.timing(TimingParameter(rawValue: $0)!).rawValue }
            .merging(swiftSide(ValueSlot.self, "ANIMRT_COLUMN_").mapValues { BulkField.value(ValueSlot(rawValue: $0)!).rawValue }) { a, _ in a },
    ]

    @Test("The header parses into its enumerations")
    func headerParses() throws {
        #expect(!Self.header.isEmpty, "include/animrt.h was not found")
        let enums = try Self.headerEnums()
        #expect(enums.count >= 19)
        #expect(enums["animrt_fill_mode"]?["ANIMRT_FILL_FORWARDS"] == 1)
        #expect(enums["animrt_status"]?["ANIMRT_E_ENUM"] == 12)
    }

    @Test("Every enumeration of the header has a Swift counterpart, and no Swift table has more")
    func everyHeaderEnumIsMapped() throws {
        let header = Set(try Self.headerEnums().keys)
        #expect(header.subtracting(Self.swiftEnums.keys).isEmpty,
                "enumerations in include/animrt.h without a Swift enum: \(header.subtracting(Self.swiftEnums.keys).sorted())")
        #expect(Set(Self.swiftEnums.keys).subtracting(header).isEmpty)
    }

    @Test("Each enumeration has the same constants and values in the header and in Swift",
          arguments: swiftEnums.keys.sorted())
    func sameConstants(_ name: String) throws {
        let header = try #require(try Self.headerEnums()[name], "\(name) is not in the header")
        let swift = try #require(Self.swiftEnums[name])
        for (constant, value) in header.sorted(by: { $0.key < $1.key }) {
            #expect(swift[constant] == value, "\(constant) = \(value) in the header, \(swift[constant].map { "\($0)" } ?? "missing") in Swift")
        }
        for (constant, value) in swift.sorted(by: { $0.key < $1.key }) where header[constant] == nil {
            Issue.record("\(constant) = \(value) exists in Swift but not in the header")
        }
    }

    @Test("Timing parameters reach the fields they name")
    func parametersReachTheirFields() throws {
        for p in TimingParameter.allCases {
            var t = MediaTiming()
            let v = 10 + Double(p.rawValue)
            try t.set(p, v)
            #expect(t[p] == v)
            // The parameter is the field of that name: ANIMRT_TIMING_TIME_OFFSET is timeOffset.
            #expect(Self.constantCase(p.name) == Self.constantCase("\(p)"))
        }
        var t = MediaTiming()
        try t.set(.timeOffset, 0.5); try t.set(.repeatDuration, 3); try t.set(.speed, -2)
        #expect(t.timeOffset == 0.5 && t.repeatDuration == 3 && t.speed == -2)
        #expect(throws: AnimrtError.self) { try t.set(.duration, -1) }
        #expect(t.duration == 0)  // refused: nothing changed
        #expect(ValueSlot.allCases.map(\.name).prefix(3) == ["fromValue", "toValue", "byValue"])
    }

    @Test("Status names are the header's constant names")
    func statusNames() throws {
        let header = try #require(try Self.headerEnums()["animrt_status"])
        for s in Status.allCases { #expect(header["\(s.name)"] == s.rawValue, "\(s)") }
    }

    /// Limits.swift says the header's ANIMRT_*_MAX macros have its values;
    /// a host sizes its buffers and loops by the macros, the core refuses
    /// by Limits: one changed without the other is a limit the host cannot see.
    @Test("R0.4 the header's limits are the core's Limits")
    func limitsMatch() throws {
        var macros: [String: Int] = [:]
        for m in Self.header.matches(of: /#define (ANIMRT_\w+_MAX) (\d+)/) { macros[String(m.1)] = Int(m.2) }
        let core: [String: Int] = [
            "ANIMRT_NAME_MAX": Limits.nameBytes, "ANIMRT_RUNTIMES_MAX": Limits.runtimes, "ANIMRT_OBJECTS_MAX": Limits.objects,
            "ANIMRT_GENERATIONS_MAX": Limits.generations, "ANIMRT_PROPERTIES_MAX": Limits.properties,
            "ANIMRT_KEYPATHS_MAX": Limits.keyPaths, "ANIMRT_GROUP_SIZE_MAX": Limits.groupSize,
            "ANIMRT_GROUP_DEPTH_MAX": Limits.groupDepth, "ANIMRT_TRANSACTION_DEPTH_MAX": Limits.transactionDepth,
            "ANIMRT_BARRIER_NOTIFIES_MAX": Limits.barrierNotifies, "ANIMRT_EVENT_CAPACITY_MAX": Limits.eventCapacity,
        ]
        for (name, value) in core { #expect(macros[name] == value, "\(name)") }
        #expect(macros["ANIMRT_GROUP_DEPTH_MAX"] == 16 && macros["ANIMRT_NAME_MAX"] == 255)
    }
}
