import AnimationCore
import Foundation
import StateMachines
import Testing
@testable import animrt

/// A value of an enumeration that is not a member is refused with the members
/// listed as the header spells them (EnumNames): the list is compared here
/// with include/animrt.h, both ways, for every enumeration a message lists.
@Suite("R0.3 the members an unknown enum value's message lists are the header's")
struct EnumNameTests {
    /// The header's enumerations: type name → [constant: value].
    static let headerEnums: [String: [String: Int64]] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("include/animrt.h")
        let text = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").replacing(/\/\*[\s\S]*?\*\//, with: "")
        var out: [String: [String: Int64]] = [:]
        for m in text.matches(of: /typedef\s+enum\s+(\w+)\s*\{([^}]*)\}/) {
            var members: [String: Int64] = [:]
            for item in m.output.2.split(separator: ",") {
                let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                if parts.count == 2, let v = Int64(parts[1]) { members[parts[0]] = v }
            }
            out[String(m.output.1)] = members
        }
        return out
    }()

    /// "ANIMRT_A (0), ANIMRT_B (1)" → [ANIMRT_A: 0, ANIMRT_B: 1].
    static func listed(_ text: String) -> [String: Int64] {
        var out: [String: Int64] = [:]
        for m in text.matches(of: /(\w+) \((-?\d+)\)/) { out[String(m.output.1)] = Int64(m.output.2)! }
        return out
    }

    static func members<E: CaseIterable & RawRepresentable>(_ type: E.Type, _ cName: String) -> (String, [String: Int64])
    where E.RawValue: BinaryInteger {
        (cName, listed(EnumNames.members(type, cName)))
    }

    /// Every enumeration EnumNames names, by the Swift enum that numbers it.
    static let lists: [(String, [String: Int64])] = [
        members(ValueKind.self, "animrt_value_kind"), members(AnimationKind.self, "animrt_animation_kind"),
        members(TimingParameter.self, "animrt_timing_param"), members(AnimationFlag.self, "animrt_flag"),
        members(FillMode.self, "animrt_fill_mode"), members(PlaybackDirection.self, "animrt_direction"),
        members(ValueSlot.self, "animrt_value_slot"), members(CalculationMode.self, "animrt_calculation_mode"),
        members(SpringParameter.self, "animrt_spring_param"), members(RotationMode.self, "animrt_rotation_mode"),
        members(NameKind.self, "animrt_name_kind"), members(ExportFormat.self, "animrt_export_format"),
        members(TaggedValue.Tag.self, "animrt_value_type"), members(PathElement.Command.self, "animrt_path_command"),
        ("animrt_column_field", listed(EnumNames.columnFields)),
    ]

    @Test("every enumeration with a prefix is checked here", arguments: EnumNames.prefixes.keys.sorted())
    func everyPrefixChecked(cName: String) {
        #expect(Self.lists.contains { $0.0 == cName }, "\(cName) has a prefix but no list compared with the header")
    }

    @Test("the message lists every constant of the header's enumeration, with its value, and nothing else",
          arguments: lists.map(\.0))
    func listMatchesHeader(cName: String) throws {
        let header = try #require(Self.headerEnums[cName], "include/animrt.h declares no typedef enum \(cName)")
        let listed = try #require(Self.lists.first { $0.0 == cName }?.1)
        #expect(!listed.isEmpty)
        for (name, value) in listed.sorted(by: { $0.value < $1.value }) {
            #expect(header[name] == value, "\(cName): the message lists \(name) (\(value)); the header has \(header[name].map(String.init) ?? "no such constant")")
        }
        for (name, value) in header.sorted(by: { $0.value < $1.value }) {
            #expect(listed[name] == value, "\(cName): the header's \(name) (\(value)) is not listed as such")
        }
    }
}
