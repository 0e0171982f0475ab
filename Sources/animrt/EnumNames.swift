import AnimationCore

/// The C names of the header's enumerations, for messages: a value that is
/// not a member is answered with the members the header declares, so a C
/// caller learns the valid values from the error alone.
enum EnumNames {
    /// Header enumeration → the prefix of its constants (the rest is the
    /// Swift case name in constant case: `alternateReverse` → `ALTERNATE_REVERSE`).
    static let prefixes: [String: String] = [
        "animrt_value_kind": "ANIMRT_VALUE_", "animrt_animation_kind": "ANIMRT_ANIMATION_",
        "animrt_timing_param": "ANIMRT_TIMING_", "animrt_flag": "ANIMRT_FLAG_", "animrt_fill_mode": "ANIMRT_FILL_",
        "animrt_direction": "ANIMRT_DIRECTION_", "animrt_value_slot": "ANIMRT_",
        "animrt_calculation_mode": "ANIMRT_CALC_", "animrt_spring_param": "ANIMRT_SPRING_",
        "animrt_rotation_mode": "ANIMRT_ROTATE_", "animrt_name_kind": "ANIMRT_NAME_",
        "animrt_export_format": "ANIMRT_EXPORT_", "animrt_value_type": "ANIMRT_TYPE_",
        "animrt_path_command": "ANIMRT_PATH_",
    ]

    /// `alternateReverse` → `ALTERNATE_REVERSE`.
    static func constantCase(_ name: String) -> String {
        var out = ""
        for c in name {
            if c.isUppercase { out += "_" }
            out += c.uppercased()
        }
        return out
    }

    /// The constants of `animrt_column_field`: the timing parameters'
    /// numbers, then ANIMRT_COLUMN_FROM (16) and the other value slots.
    static var columnFields: String {
        (TimingParameter.allCases.map { ("\($0)", BulkField.timing($0).rawValue) }
            + ValueSlot.allCases.map { ("\($0)", BulkField.value($0).rawValue) })
            .map { "ANIMRT_COLUMN_\(constantCase($0.0)) (\($0.1))" }.joined(separator: ", ")
    }

    /// "ANIMRT_FILL_REMOVED (0), ANIMRT_FILL_FORWARDS (1), …" for `type`,
    /// the Swift enum that numbers header enumeration `cName`.
    static func members<E: CaseIterable & RawRepresentable>(_ type: E.Type, _ cName: String) -> String
    where E.RawValue: BinaryInteger {
        let prefix = prefixes[cName] ?? ""
        return type.allCases.map { "\(prefix)\(constantCase("\($0)")) (\($0.rawValue))" }.joined(separator: ", ")
    }
}

/// An enum argument from C, checked; an unknown value is refused with the
/// valid ones listed.
func enumValue<E: CaseIterable & RawRepresentable>(_ raw: E.RawValue, _ type: E.Type, _ name: String) throws(AnimrtError) -> E
where E.RawValue: BinaryInteger {
    guard let e = E(rawValue: raw) else {
        throw AnimrtError(.unknownEnum, "\(raw) is not a valid \(name); it is one of \(EnumNames.members(type, name))")
    }
    return e
}
