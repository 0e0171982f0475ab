import AnimationCore
import StateMachines

/// A C type a signature can name.
public enum CType: String, CaseIterable, Sendable {
    case void, bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, ptr, str

    /// What C calls it.
    public var cName: String {
        switch self {
        case .void: "void"; case .bool: "bool"
        case .i8: "int8_t"; case .i16: "int16_t"; case .i32: "int32_t"; case .i64: "int64_t"
        case .u8: "uint8_t"; case .u16: "uint16_t"; case .u32: "uint32_t"; case .u64: "uint64_t"
        case .f32: "float"; case .f64: "double"; case .ptr: "void *"; case .str: "const char *"
        }
    }

    var isInteger: Bool { integerBounds != nil }
    var isFloat: Bool { self == .f32 || self == .f64 }

    /// The smallest and largest value of an integer type (the largest as
    /// UInt64, so that u64's fits).
    var integerBounds: (minimum: Int64, maximum: UInt64)? {
        switch self {
        case .i8: (Int64(Int8.min), UInt64(Int8.max))
        case .i16: (Int64(Int16.min), UInt64(Int16.max))
        case .i32: (Int64(Int32.min), UInt64(Int32.max))
        case .i64: (Int64.min, UInt64(Int64.max))
        case .u8: (0, UInt64(UInt8.max))
        case .u16: (0, UInt64(UInt16.max))
        case .u32: (0, UInt64(UInt32.max))
        case .u64: (0, UInt64.max)
        default: nil
        }
    }

    /// The machine type a value of this type is in a definition: numbers
    /// for the numeric types, bool, string; none for void and pointers.
    public var machineType: MachineType? {
        switch self {
        case .void, .ptr: nil
        case .bool: .bool
        case .str: .string
        default: .number
        }
    }

    /// The tagged-value type it crosses the ABI as (`animrt_value_type`).
    public var tag: TaggedValue.Tag? {
        switch self {
        case .void: nil
        case .bool: .bool
        case .f32, .f64: .number
        case .ptr: .pointer
        case .str: .string
        default: .integer
        }
    }

    /// C spellings people write instead, and the type they mean. Only words
    /// for the very same type: a hint to write f32 for _Float16 (or f64 for
    /// __float128) would bind a function passed its values in another way,
    /// which then reads garbage, so "f16" and "f128" get no hint.
    static let spellings: [String: CType] = [
        "double": .f64, "float": .f32, "int": .i32, "long": .i64, "char": .i8, "short": .i16, "size_t": .u64,
        "int8_t": .i8, "int16_t": .i16, "int32_t": .i32, "int64_t": .i64, "uint8_t": .u8, "uint16_t": .u16,
        "uint32_t": .u32, "uint64_t": .u64, "_Bool": .bool, "unsigned": .u32, "pointer": .ptr, "string": .str,
        "char*": .str, "void*": .ptr,
    ]
}

/// The C signature of a function to bind or register, written
/// `result(param, …)`: "f64(f64)", "i32(f64, ptr, str)", "void()".
///
/// Grammar (spaces are allowed between tokens):
///
///     signature = type "(" [ type { "," type } ] ")"
///     type      = "void" | "bool" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16"
///               | "u32" | "u64" | "f32" | "f64" | "ptr" | "str"
///
/// `void` is only a result; `bool` is C's one-byte `bool`; `ptr` is any
/// pointer, passed through untouched; `str` is a NUL-terminated UTF-8
/// `const char *` (a `str` result is copied at once). At most
/// `maximumParameters` parameters.
public struct Signature: Hashable, Sendable, CustomStringConvertible {
    /// The most parameters a signature may have (`ANIMRT_FUNCTION_PARAMS_MAX`).
    public static let maximumParameters = 16

    public let result: CType
    public let parameters: [CType]

    public init(result: CType, parameters: [CType]) {
        self.result = result; self.parameters = parameters
    }

    /// The canonical text: "i32(f64, ptr, str)".
    public var description: String { "\(result.rawValue)(\(parameters.map(\.rawValue).joined(separator: ", ")))" }

    /// The longest signature text, in bytes, whichever call gives it.
    public static let maximumBytes = 255

    /// Parses and checks `text`; an error names the column and what was expected.
    public static func parse(_ text: String) throws(AnimrtError) -> Signature {
        guard text.utf8.count <= maximumBytes else {
            throw AnimrtError(.outOfRange, "signature is longer than \(maximumBytes) bytes")
        }
        var scanner = Scanner(Array(text.unicodeScalars), text: text)
        let result = try scanner.type(allowVoid: true)
        try scanner.expect("(")
        var parameters: [CType] = []
        if !scanner.accept(")") {
            repeat {
                guard parameters.count < maximumParameters else {
                    throw scanner.error("more than \(maximumParameters) parameters")
                }
                parameters.append(try scanner.type(allowVoid: false))
            } while scanner.accept(",")
            try scanner.expect(")")
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { throw scanner.error("unexpected '\(Scanner.visible(scanner.rest))' after the parameter list") }
        return Signature(result: result, parameters: parameters)
    }

    /// A timing function's signature: x in, eased progress out.
    public static let curve = Signature(result: .f64, parameters: [.f64])

    private struct Scanner {
        let chars: [Unicode.Scalar]
        let text: String
        var i = 0

        init(_ chars: [Unicode.Scalar], text: String) { self.chars = chars; self.text = text }

        var atEnd: Bool { i >= chars.count }
        var rest: String { String(String.UnicodeScalarView(chars[i...])) }

        mutating func skipSpaces() { while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 } }

        func error(_ what: String) -> AnimrtError {
            AnimrtError(.invalidArgument, "signature '\(Scanner.visible(text))', column \(i + 1): \(what); a signature is result(param, …) as in \"f64(f64)\" or \"i32(f64, ptr, str)\"")
        }

        /// `s` with its control characters written as escapes (a newline as
        /// \n), so that a message quoting it stays on one line and shows them.
        static func visible(_ s: String) -> String {
            s.unicodeScalars.contains { $0.properties.generalCategory == .control }
                ? String(s.debugDescription.dropFirst().dropLast()) : s
        }

        mutating func accept(_ c: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }

        mutating func expect(_ c: Unicode.Scalar) throws(AnimrtError) {
            guard accept(c) else { throw error(atEnd ? "expected '\(c)' but the signature ends" : "expected '\(c)', found '\(Scanner.visible(String(chars[i])))'") }
        }

        /// `word` with each decimal digit of another script (fullwidth "３",
        /// Arabic-Indic "٣", …) written as its ASCII digit.
        static func asciiDigits(_ word: String) -> String {
            String(String.UnicodeScalarView(word.unicodeScalars.map { c in
                // A decimal digit's value is a whole number from 0 to 9.
                guard !c.isASCII, c.properties.numericType == .decimal, let v = c.properties.numericValue else { return c }
                return Unicode.Scalar(UInt8(48 + Int(v)))
            }))
        }

        mutating func type(allowVoid: Bool) throws(AnimrtError) -> CType {
            skipSpaces()
            let start = i
            // Digits of any script belong to the word, so that "i３２" is one
            // unknown type, named whole, rather than "i" followed by junk.
            while i < chars.count, chars[i].properties.isAlphabetic || chars[i].properties.numericType == .decimal
                    || chars[i] == "_" || chars[i] == "*" {
                i += 1
            }
            let word = String(String.UnicodeScalarView(chars[start..<i]))
            guard !word.isEmpty else {
                i = start
                throw error(atEnd ? "expected a type but the signature ends" : "expected a type, found '\(Scanner.visible(String(chars[i])))'")
            }
            guard let t = CType(rawValue: word) else {
                i = start
                var message = "unknown type '\(word)'"
                if let meant = CType.spellings[word] { message += "; write '\(meant.rawValue)' for \(meant.cName)" }
                else if let meant = CType(rawValue: Scanner.asciiDigits(word)) { message += "; write '\(meant.rawValue)' (its digits in ASCII)" }
                message += " (types: " + CType.allCases.map(\.rawValue).joined(separator: ", ") + ")"
                throw error(message)
            }
            if t == .void && !allowVoid {
                i = start
                throw error("void is only a result type; write () for a function without parameters")
            }
            return t
        }
    }
}
