import AnimationCore
@testable import Plugins
import Testing

/// The signature grammar (R4.2, R4.4): what parses, and what each malformed
/// signature is told.
@Suite("R4.2 signatures")
struct SignatureTests {
    @Test("Well-formed signatures parse to their canonical text",
          arguments: [("f64(f64)", "f64(f64)"), ("i32(f64, ptr, str)", "i32(f64, ptr, str)"), ("void()", "void()"),
                      (" bool ( f64 ,f64 ) ", "bool(f64, f64)"), ("u64(str)", "u64(str)"), ("ptr(ptr)", "ptr(ptr)"),
                      ("f32(i8, i16, i32, i64, u8, u16, u32, u64)", "f32(i8, i16, i32, i64, u8, u16, u32, u64)"),
                      ("void(\t f32 )", "void(f32)")])
    func wellFormed(_ text: String, _ canonical: String) throws {
        let s = try Signature.parse(text)
        #expect(s.description == canonical)
        #expect(try Signature.parse(s.description) == s)
    }

    @Test("Malformed signatures name the column and the problem",
          arguments: [("", "column 1: expected a type but the signature ends"),
                      ("f64", "column 4: expected '(' but the signature ends"),
                      ("f64(f64", "column 8: expected ')' but the signature ends"),
                      ("f64(f64,)", "column 9: expected a type, found ')'"),
                      ("f64(f65)", "column 5: unknown type 'f65'"),
                      ("double(double)", "column 1: unknown type 'double'; write 'f64' for double"),
                      ("int(char*)", "unknown type 'int'; write 'i32' for int32_t"),
                      // Digits of another script: the whole word named, the ASCII spelling given.
                      ("f64(i\u{FF13}\u{FF12})", "column 5: unknown type 'i\u{FF13}\u{FF12}'; write 'i32' (its digits in ASCII)"),
                      ("f\u{0666}\u{0664}(f64)", "column 1: unknown type 'f\u{0666}\u{0664}'; write 'f64' (its digits in ASCII)"),
                      ("f64(i\u{FF19}\u{FF19})", "column 5: unknown type 'i\u{FF19}\u{FF19}' (types: "),
                      ("f64(void)", "column 5: void is only a result type"),
                      ("f64(f64) junk", "unexpected 'junk' after the parameter list"),
                      ("f64[f64]", "expected '(', found '['"),
                      ("f64(f64 f64)", "expected ')', found 'f'")])
    func malformed(_ text: String, _ fragment: String) {
        let error = #expect(throws: AnimrtError.self) { try Signature.parse(text) }
        #expect(error?.status == .invalidArgument)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("signature '\(text)'") == true)
    }

    /// A control character (a newline a file read left at the end, a tab
    /// is a space) is shown as its escape: the message stays on one line
    /// and says what is there.
    @Test("Control characters in a malformed signature are shown as escapes",
          arguments: [("f64(f64)\n", "signature 'f64(f64)\\n', column 9: unexpected '\\n' after the parameter list"),
                      ("f64(\r)", "signature 'f64(\\r)', column 5: expected a type, found '\\r'"),
                      ("f64\u{0}(f64)", "column 4: expected '(', found '\\0'")])
    func controlCharacters(_ text: String, _ fragment: String) {
        let error = #expect(throws: AnimrtError.self) { try Signature.parse(text) }
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(where: { $0.isNewline }) == false)
    }

    /// _Float16 and __float128 have calling conventions of their own: a
    /// hint to write f32 or f64 for them would bind a function that reads
    /// garbage. They are unknown types like any other, with no type meant.
    @Test("Float widths no type has are refused without a type meant", arguments: ["f16", "f128"])
    func unsupportedFloats(_ word: String) {
        let text = "f64(\(word))"
        let error = #expect(throws: AnimrtError.self) { try Signature.parse(text) }
        #expect(error?.status == .invalidArgument)
        let message = error?.message ?? ""
        #expect(message.contains("column 5: unknown type '\(word)' (types: void, bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, ptr, str)"), "\(message)")
        #expect(!message.contains("write '"), "\(message)")
    }

    @Test("At most 16 parameters")
    func limit() throws {
        let sixteen = "void(" + Array(repeating: "f64", count: 16).joined(separator: ", ") + ")"
        #expect(try Signature.parse(sixteen).parameters.count == 16)
        let seventeen = "void(" + Array(repeating: "f64", count: 17).joined(separator: ", ") + ")"
        let error = #expect(throws: AnimrtError.self) { try Signature.parse(seventeen) }
        #expect(error?.message.contains("more than 16 parameters") == true)
    }

    @Test("Types map to machine types and tagged-value types")
    func mappings() {
        #expect(CType.f64.machineType == .number && CType.u8.machineType == .number && CType.bool.machineType == .bool)
        #expect(CType.str.machineType == .string && CType.ptr.machineType == nil && CType.void.machineType == nil)
        #expect(CType.f32.tag == .number && CType.i64.tag == .integer && CType.ptr.tag == .pointer && CType.str.tag == .string)
    }
}

/// Arguments checked against their types before a call.
@Suite("R4.2 argument conversion")
struct ConversionTests {
    @Test("Numbers and integers convert where they fit, and are refused where they do not",
          arguments: [(TaggedValue.integer(-128), CType.i8, CValue.signed(-128)),
                      (.number(255), .u8, .unsigned(255)),
                      (.number(-2), .i64, .signed(-2)),
                      (.integer(7), .f64, .float(7)),
                      (.number(1.5), .f32, .float(1.5)),
                      (.number(18_446_744_073_709_549_568), .u64, .unsigned(18_446_744_073_709_549_568)),
                      (.bool(true), .bool, .bool(true)),
                      (.pointer(0xdead), .ptr, .pointer(0xdead)),
                      (.string("hé"), .str, .string("hé"))])
    func fits(_ v: TaggedValue, _ t: CType, _ expected: CValue) throws {
        #expect(try CValue(v, as: t, "x") == expected)
    }

    @Test("Values that do not fit their type",
          arguments: [(TaggedValue.integer(128), CType.i8, Status.outOfRange), (.integer(-1), .u32, .outOfRange),
                      (.number(256), .u8, .outOfRange), (.number(0.5), .i32, .invalidArgument),
                      (.number(.nan), .i32, .invalidArgument), (.number(1e300), .i64, .outOfRange),
                      (.number(1e39), .f32, .outOfRange),
                      (.string("1"), .f64, .kind), (.bool(true), .i32, .kind), (.number(1), .bool, .kind),
                      (.integer(1), .ptr, .kind), (.string("a\u{0}b"), .str, .invalidArgument)])
    func refused(_ v: TaggedValue, _ t: CType, _ status: Status) {
        let error = #expect(throws: AnimrtError.self) { try CValue(v, as: t, "argument 1 of 'f'") }
        #expect(error?.status == status)
        #expect(error?.message.hasPrefix("argument 1 of 'f'") == true)
    }

    /// Every integer type of the grammar at both ends of its C type's range,
    /// and one past each: the ends pass as integers and as numbers, one past
    /// is refused with E_RANGE (never wrapped). The ranges are the C types'
    /// own (Swift's fixed-width integers), not read back from the code under
    /// test. Exact as numbers: every bound here is within 2^53.
    @Test("Every integer type takes its whole range and refuses one past either end",
          arguments: [(CType.i8, Int64(Int8.min), Int64(Int8.max)), (.i16, Int64(Int16.min), Int64(Int16.max)),
                      (.i32, Int64(Int32.min), Int64(Int32.max)), (.u8, 0, Int64(UInt8.max)),
                      (.u16, 0, Int64(UInt16.max)), (.u32, 0, Int64(UInt32.max))])
    func integerEdges(_ t: CType, _ lo: Int64, _ hi: Int64) throws {
        let expected: (Int64) -> CValue = { t.isSigned ? .signed($0) : .unsigned(UInt64($0)) }
        for v in [lo, hi] {
            #expect(try CValue(TaggedValue.integer(v), as: t, "x") == expected(v))
            #expect(try CValue(TaggedValue.number(Double(v)), as: t, "x") == expected(v))
        }
        for v in [lo - 1, hi + 1] {
            let asInteger = #expect(throws: AnimrtError.self) { try CValue(TaggedValue.integer(v), as: t, "x") }
            #expect(asInteger?.status == .outOfRange, "\(t) \(v)")
            #expect(asInteger?.message.contains("\(t.rawValue) holds \(lo) to \(hi)") == true, "\(asInteger?.message ?? "")")
            let asNumber = #expect(throws: AnimrtError.self) { try CValue(TaggedValue.number(Double(v)), as: t, "x") }
            #expect(asNumber?.status == .outOfRange, "\(t) \(v)")
        }
    }

    @Test("Every integer type of the grammar is in the table above, with its signedness")
    func integerTypesCounted() {
        let integers = CType.allCases.filter(\.isInteger)
        #expect(integers == [.i8, .i16, .i32, .i64, .u8, .u16, .u32, .u64])
        #expect(integers.filter(\.isSigned) == [.i8, .i16, .i32, .i64])
    }

    @Test("i64 takes Int64's range as integers; u64 refuses -1 and 2^64")
    func wideEdges() throws {
        #expect(try CValue(TaggedValue.integer(.min), as: .i64, "x") == .signed(.min))
        #expect(try CValue(TaggedValue.integer(.max), as: .i64, "x") == .signed(.max))
        #expect(try CValue(TaggedValue.integer(.max), as: .u64, "x") == .unsigned(UInt64(Int64.max)))
        #expect(throws: AnimrtError.self) { try CValue(TaggedValue.integer(-1), as: .u64, "x") }
        #expect(throws: AnimrtError.self) { try CValue(TaggedValue.number(18_446_744_073_709_551_616), as: .u64, "x") }
        #expect(throws: AnimrtError.self) { try CValue(TaggedValue.number(9_223_372_036_854_775_808), as: .i64, "x") }
    }

    @Test("Results an animrt_value cannot carry are refused")
    func results() throws {
        #expect(try CValue.unsigned(UInt64(Int64.max)).tagged("r") == .integer(Int64.max))
        #expect(throws: AnimrtError.self) { try CValue.unsigned(UInt64(Int64.max) + 1).tagged("r") }
        #expect(try CValue.pointer(1).machineValue("r") == nil)
        #expect(try CValue.signed(-3).machineValue("r") == .number(-3))
    }
}
