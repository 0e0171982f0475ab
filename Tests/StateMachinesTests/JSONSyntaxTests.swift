import FoundationEssentials
@testable import StateMachines
import Testing

/// Where malformed JSON breaks (the decoder says only that it is not
/// valid), and that the scan never finds a problem in JSON the decoder takes.
@Suite("Malformed JSON is reported with its line and column")
struct JSONSyntaxTests {
    @Test("the first problem, its line and column", arguments: [
        ("{\"name\": \"x\",\n \"initial\": a}", 2, 13, "expected a value, found 'a' (a string is written in double quotes)"),
        ("{\"name\": ", 1, 10, "the text ends where a value was expected"),
        ("{\"a\": 1,, \"b\": 2}", 1, 9, "expected a member name in double quotes, found ','"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}', found '\"'"),
        ("[1, 2", 1, 6, "the text ends inside an array"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the member name, found '1'"),
        ("{\"é\": \"ü\", \"b\": tru}", 1, 17, "expected a value, found 't' (a string is written in double quotes)"),
        ("{\"e\u{301}\": tru}", 1, 8, "expected a value, found 't' (a string is written in double quotes)"),  // code points: e and U+0301 are two
        ("{\"a\": \"x\\qy\"}", 1, 9, "an unknown escape \\q"),
        ("{\"a\": \"\\u12g4\"}", 1, 8, "\\u takes four hexadecimal digits"),
        ("{\"a\": \"open}", 1, 7, "a string that is never closed"),
        ("{\"a\": -}", 1, 8, "a number needs a digit after '-'"),
        ("{\"a\": 1.}", 1, 9, "a number needs a digit after '.'"),
        ("{\"a\": 1e+}", 1, 10, "a number needs a digit in its exponent"),
        ("{} []", 1, 4, "more after the end of the JSON value: '['"),
        ("[[[{\"a\": [1, 2,, 3]}]]]", 1, 16, "expected a value, found ','"),
        ("{\"a\": \"\u{00}\"}", 1, 8, "a control character in a string (write it as an escape, such as \\n)"),
        ("{\"a\": 01}", 1, 8, "expected ',' or '}', found '1'"),  // a number has no leading zero: 0, then a 1 out of place
        ("[\u{7f}]", 1, 2, "expected a value, found byte 0x7f"),  // DEL is not printable: shown by its number
    ])
    func problems(text: String, line: Int, column: Int, what: String) {
        #expect(JSONSyntax.firstProblem(in: Array(text.utf8)) == JSONSyntax.Problem(line: line, column: column, what: what))
        // And the message a load gives names the place.
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(Array(text.utf8)) }
        #expect(error?.message == "the JSON is malformed at line \(line), column \(column): \(what)")
    }

    /// A number no double holds is good syntax, so the scan found nothing and
    /// the message was the decoder's: "expected a dictionary, found an array",
    /// at the list around it. The scan now places the number and says why.
    @Test("a number no double holds is placed; the largest and smallest doubles pass", arguments: [
        ("{\"a\": [{\"delay\": 1e400}]}", 1, 18, "the number 1e400 is too large for a double (the largest is about 1.8e308)"),
        ("{\"k\": 1,\n \"v\": -1.8e308}", 2, 7, "the number -1.8e308 is too large for a double (the largest is about 1.8e308)"),
        ("[0, 2e-324]", 1, 5, "the number 2e-324 is too small for a double (the smallest is about 5e-324): write 0"),
    ])
    func numbersOutOfRange(text: String, line: Int, column: Int, what: String) throws {
        #expect(JSONSyntax.firstProblem(in: Array(text.utf8)) == JSONSyntax.Problem(line: line, column: column, what: what))
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(Array(text.utf8)) }
        #expect(error?.message == "the JSON is malformed at line \(line), column \(column): \(what)")
        let edge = "[1.7976931348623157e308, -1.7976931348623157e308, 5e-324, 4e-324, 0e999, 0.000e-500, -0.0]"
        #expect(JSONSyntax.firstProblem(in: Array(edge.utf8)) == nil)
        guard case .array(let numbers) = try JSONValue.parse(Array(edge.utf8)) else { Issue.record("not an array"); return }
        #expect(numbers.count == 7)
    }

    /// The decoder skips a UTF-8 byte order mark; the scan for what it lets
    /// pass refused the text it had decoded ("expected a value, found byte
    /// 0xef"), so a definition saved by an editor that writes one never loaded.
    @Test("a UTF-8 byte order mark before the text is skipped, as the decoder skips it")
    func byteOrderMark() throws {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": [1, "b"]}"#.utf8)
        #expect(JSONSyntax.firstRefusal(in: text) == nil)
        guard case .object(let o) = try JSONValue.parse(text) else { Issue.record("not an object"); return }
        #expect(o["a"] == .array([.number(1), .string("b")]))
        let h = Harness()
        let d = try h.host.definition(try h.host.load(String(decoding: [0xEF, 0xBB, 0xBF] + Array(minimal().utf8), as: UTF8.self)))
        #expect(d.name == "m")
        // Only before the text: one inside it is a stray character, placed.
        let inside: [UInt8] = Array(#"{"a": "#.utf8) + [0xEF, 0xBB, 0xBF] + Array("1}".utf8)
        #expect(JSONSyntax.firstProblem(in: inside)?.what == "expected a value, found byte 0xef")
    }

    /// docs/machines.md says a comma before a closing bracket or brace is
    /// accepted (the decoder takes it); a comma with nothing before it is not.
    @Test("a comma before a closer loads, as docs/machines.md says; a leading or doubled one is placed")
    func trailingComma() throws {
        let h = Harness()
        let text = #"{"name": "m", "events": {"go": {},}, "initial": "a", "states": {"a": {"on": {"go": "b",}}, "b": {},},}"#
        let d = try h.host.definition(try h.host.load(text))
        #expect(d.names(.state).contains("b"))
        #expect(JSONSyntax.firstProblem(in: Array(#"{"a": [,1]}"#.utf8)) != nil)
        #expect(JSONSyntax.firstProblem(in: Array(#"{"a": [1,,]}"#.utf8)) != nil)
    }

    /// The decoder refuses half a surrogate pair without saying where (its
    /// message named a type it did not find); the scan places it.
    @Test("a lone surrogate escape is placed; a whole pair passes", arguments: [
        ("{\"a\": \"x\\ud800\"}", 1, 9, "a lone surrogate \\ud800 in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)"),
        ("{\"a\": \"\\uD83D\\u0041\"}", 1, 8, "a lone surrogate \\ud83d in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)"),
        ("[\"\\ud83d\\ude00\", \"\\udc00\"]", 1, 19, "a lone surrogate \\udc00 in a string: the second half of a pair without its first"),
        ("[\"\\ud83d\\ue000\"]", 1, 3, "a lone surrogate \\ud83d in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)"),
        ("{\"a\": \"\\udbff\\\"}", 1, 8, "a lone surrogate \\udbff in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)"),
        // Followed by another escape and four hex digits: \n then "de00" is no low half.
        ("[\"\\ud83d\\nde00\"]", 1, 3, "a lone surrogate \\ud83d in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)"),
        ("[\"\\udfff\"]", 1, 3, "a lone surrogate \\udfff in a string: the second half of a pair without its first"),  // the last low half
    ])
    func loneSurrogates(text: String, line: Int, column: Int, what: String) throws {
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) == nil)  // the decoder refuses it too
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(Array(text.utf8)) }
        #expect(error?.message == "the JSON is malformed at line \(line), column \(column): \(what)")
        let pair = "[\"\\ud83d\\ude00\", \"\\uDBFF\\uDFFF\"]"
        #expect(try JSONValue.parse(Array(pair.utf8)) == .array([.string("\u{1F600}"), .string("\u{10FFFF}")]))
    }

    /// `\u0000` is JSON, but no C string can carry it: every string may
    /// reach the host as one, where what follows the NUL would be lost.
    @Test("R0.4 a NUL escape in a string is refused with its place; the text around it decodes")
    func nulEscape() throws {
        for (text, column) in [("{\"a\": \"nul\\u0000in\"}", 11), ("[\"\\u0000\"]", 3), ("{\"a\\u0000\": 1}", 4)] {
            #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil)  // the decoder takes it
            #expect(JSONSyntax.firstProblem(in: Array(text.utf8)) == nil)  // valid JSON
            let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(Array(text.utf8)) }
            #expect(error?.message == "the JSON is refused at line 1, column \(column): \\u0000 in a string: a NUL ends a C string, so what follows it would be lost")
        }
        #expect(try JSONValue.parse(Array("[\"\\u0001\\u0030\"]".utf8)) == .array([.string("\u{01}0")]))  // other escapes pass
    }

    @Test("JSON the decoder takes has no problem, nested deep or shipped, and single-byte damage to it is placed")
    func agreesWithTheDecoder() throws {
        var texts = ["{}", "[]", "0", "-0.5e-3", "\"\\u00e9\\n\"", "[true, false, null, {\"a\": [{}]}]"]
        // A string whose bytes are not UTF-8: {"a":"\xC3"} (the lead byte of a sequence cut short).
        #expect(JSONSyntax.firstProblem(in: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D])
                == JSONSyntax.Problem(line: 1, column: 7, what: "bytes that are not UTF-8 in a string"))
        // Nesting deeper than the decoder goes: the scan has no recursion to run out of.
        #expect(JSONSyntax.firstProblem(in: Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)) == nil)
        for name in ["network_button", "progress_card", "streak_card", "indicator_bar"] {
            let path = repositoryRoot + "/Sources/StateMachines/Library/\(name).json"
            texts.append(String(decoding: try Data(contentsOf: URL(filePath: path)), as: UTF8.self))
        }
        for t in texts {
            #expect(throws: Never.self) { _ = try JSONValue.parse(Array(t.utf8)) }
            #expect(JSONSyntax.firstProblem(in: Array(t.utf8)) == nil)
        }
        // Delete or change one byte here and there in a shipped definition:
        // what the decoder still takes, the scan takes too; what it refuses,
        // the scan places.
        let base = Array(texts[texts.count - 1].utf8)
        var refused = 0, placed = 0
        for k in stride(from: 0, to: base.count, by: 7) {
            for variant in [Array(base[..<k] + base[(k + 1)...]), base.enumerated().map { $0.offset == k ? UInt8(ascii: "}") : $0.element }] {
                let decoded = (try? JSONDecoder().decode(JSONValue.self, from: Data(variant))) != nil
                let problem = JSONSyntax.firstProblem(in: variant)
                if decoded { #expect(problem == nil, "a problem in text the decoder takes: \(String(describing: problem))") }
                else { refused += 1; if problem != nil { placed += 1 } }
            }
        }
        #expect(refused > 100 && placed == refused, "\(placed) of \(refused) refusals placed")
    }

    /// The decoder keeps one of two members with the same name: the text is
    /// refused instead, at the second name, whether it is spelled the same
    /// or with escapes. The same name in different objects is no conflict.
    @Test("a member name given twice in one object is refused where it repeats", arguments: [
        ("{\"a\": 1, \"b\": 2, \"a\": 3}", 1, 18, "a"),
        ("{\"states\": {\"a\": {},\n  \"b\": {\"on\": {\"go\": \"a\"}},\n  \"a\": {\"on\": {}}}}", 3, 3, "a"),
        ("[{\"x\": 1}, {\"x\": 2, \"y\": {\"x\": 3}, \"x\": 4}]", 1, 36, "x"),
        ("{\"a\": 1, \"\\u0061\": 2}", 1, 10, "a"),
        ("{\"é\": 1, \"\\u00e9\": 2}", 1, 10, "é"),
    ])
    func duplicateNames(text: String, line: Int, column: Int, name: String) {
        let bytes = Array(text.utf8)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))) != nil)  // the decoder lets it pass
        let what = "the member \"\(name)\" appears twice in this object"
        #expect(JSONSyntax.firstRefusal(in: bytes) == JSONSyntax.Problem(line: line, column: column, what: what, kind: .duplicate))
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(bytes) }
        #expect(error?.message == "the JSON is ambiguous at line \(line), column \(column): \(what)")
    }

    @Test("names repeated only across objects, or differing in escapes of other characters, pass")
    func distinctNames() throws {
        for text in ["{\"a\": {\"a\": {\"a\": 1}}, \"b\": [{\"a\": 1}, {\"a\": 2}]}", "{\"a\": 1, \"A\": 2, \"\\u0062\": 3, \"a \": 4}", "{}"] {
            #expect(JSONSyntax.firstRefusal(in: Array(text.utf8)) == nil, "\(text)")
            #expect(throws: Never.self) { _ = try JSONValue.parse(Array(text.utf8)) }
        }
    }

    /// The depth check skips strings: an escaped backslash closing one
    /// ("\\") ends it, and an escaped quote inside one does not. Were the
    /// escape misread, nesting after the string would reach the decoder,
    /// which recurses once per level, or brackets inside it would count.
    @Test("R0.4 nesting after a string ending in an escaped backslash is measured; brackets inside a string are not")
    func depthAfterEscapes() throws {
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        let text = Array((#"{"a": "\\", "b": "# + deep + "}").utf8)
        let what = "objects and arrays nest more than 128 levels deep here"
        #expect(JSONSyntax.firstTooDeep(in: text, limit: DefinitionLimits.maxJSONDepth) == JSONSyntax.Problem(line: 1, column: 145, what: what))
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(text) }
        #expect(error?.message == "the JSON is too deep at line 1, column 145: \(what)" && error?.status == .outOfRange)
        let quoted = Array((#"{"a": "\""# + String(repeating: "[", count: 200) + #"", "b": [[1]]}"#).utf8)
        #expect(JSONSyntax.firstTooDeep(in: quoted, limit: DefinitionLimits.maxJSONDepth) == nil)
        #expect(try JSONValue.parse(quoted) == .object(["a": .string("\"" + String(repeating: "[", count: 200)), "b": .array([.array([.number(1)])])]))
    }

    /// The scan that runs after the decoder took the text (`firstRefusal`)
    /// must take all the JSON the decoder takes: a definition written with
    /// tabs, Windows line ends or an escaped slash (as some encoders write
    /// URLs) would otherwise be refused for a problem it does not have.
    @Test("R3.0.1 tabs, CR LF line ends and an escaped slash, which the decoder takes, pass the scan after it: such a definition loads")
    func whitespaceAndEscapesTheDecoderTakes() throws {
        let text = "{\r\n\t\"name\": \"m\",\r\n\t\"description\": \"see a\\/b\",\r\n\t\"initial\": \"a\",\r\n\t\"states\": {\"a\": {}}\r\n}\r\n"
        #expect(JSONSyntax.firstRefusal(in: Array(text.utf8)) == nil)
        #expect(JSONSyntax.firstProblem(in: Array(text.utf8)) == nil)
        let h = Harness()
        let d = try h.host.definition(try h.host.load(text))
        #expect(d.name == "m" && d.summary == "see a/b")
        // A tab on a line counts one column, as any other byte of one character.
        #expect(JSONSyntax.firstProblem(in: Array("{\r\n\t\"a\": x}".utf8))
                == JSONSyntax.Problem(line: 2, column: 7, what: "expected a value, found 'x' (a string is written in double quotes)"))
    }

    /// RFC 3629: overlong forms, surrogates written as bytes, code points past
    /// U+10FFFF and a sequence cut by a byte that is not a continuation are
    /// not UTF-8. The decoder refuses them without a place; the scan names
    /// the string's first bad byte. Raw control characters (to 0x1f) are
    /// placed too; the edges on the good side pass.
    @Test("bytes that are not UTF-8, and raw control characters, in a string are placed", arguments: [
        ([0xE0, 0x80, 0x80], "bytes that are not UTF-8 in a string"),          // U+0000, overlong
        ([0xE0, 0x9F, 0xBF], "bytes that are not UTF-8 in a string"),          // U+07FF, overlong
        ([0xC1, 0xBF], "bytes that are not UTF-8 in a string"),                // U+007F, overlong
        ([0xED, 0xA0, 0x80], "bytes that are not UTF-8 in a string"),          // U+D800, a surrogate
        ([0xED, 0xBF, 0xBF], "bytes that are not UTF-8 in a string"),          // U+DFFF
        ([0xF4, 0x90, 0x80, 0x80], "bytes that are not UTF-8 in a string"),    // U+110000
        ([0xF0, 0x8F, 0xBF, 0xBF], "bytes that are not UTF-8 in a string"),    // U+FFFF, overlong
        ([0xE1, 0x80, 0x41], "bytes that are not UTF-8 in a string"),          // a third byte that is 'A'
        ([0xF1, 0x80, 0x80, 0x41], "bytes that are not UTF-8 in a string"),    // a fourth byte that is 'A'
        ([0x1F], "a control character in a string (write it as an escape, such as \\n)"),
        ([0x09], "a control character in a string (write it as an escape, such as \\n)"),
    ] as [([UInt8], String)])
    func notUTF8(bytes: [UInt8], what: String) {
        let text: [UInt8] = Array("[\"ok\", \"".utf8) + bytes + Array("\"]".utf8)
        #expect(JSONSyntax.firstProblem(in: text) == JSONSyntax.Problem(line: 1, column: 9, what: what))
        let error = #expect(throws: AnimrtErrorBox.self) { _ = try JSONValue.parse(text) }
        #expect(error?.message == "the JSON is malformed at line 1, column 9: \(what)")
    }

    @Test("the UTF-8 edges on the good side pass the scan and decode")
    func utf8Edges() throws {
        for (bytes, scalar) in [([0xE0, 0xA0, 0x80], 0x800), ([0xED, 0x9F, 0xBF], 0xD7FF), ([0xEE, 0x80, 0x80], 0xE000),
                                ([0xF4, 0x8F, 0xBF, 0xBF], 0x10FFFF), ([0xC2, 0x80], 0x80), ([0x7F], 0x7F),
                                ([0xEF, 0xBF, 0xBD], 0xFFFD), ([0xF0, 0x90, 0x80, 0x80], 0x10000)] as [([UInt8], UInt32)] {
            let text: [UInt8] = [0x5B, 0x22] + bytes + [0x22, 0x5D]
            #expect(JSONSyntax.firstProblem(in: text) == nil, "\(bytes)")
            #expect(try JSONValue.parse(text) == .array([.string(String(Character(Unicode.Scalar(scalar)!)))]))
        }
    }

    /// Depth is nesting, not count: closing an object or array returns a level.
    @Test("R0.4 siblings do not add depth: 1000 arrays side by side are 2 levels deep")
    func siblingsAreNotDepth() throws {
        let wide = "[" + Array(repeating: "[{}]", count: 1000).joined(separator: ",") + "]"
        #expect(JSONSyntax.firstTooDeep(in: Array(wide.utf8), limit: 3) == nil)
        #expect(JSONSyntax.firstTooDeep(in: Array(wide.utf8), limit: 2)
                == JSONSyntax.Problem(line: 1, column: 3, what: "objects and arrays nest more than 2 levels deep here"))
        guard case .array(let items) = try JSONValue.parse(Array(wide.utf8)) else { Issue.record("not an array"); return }
        #expect(items.count == 1000)
    }
}
