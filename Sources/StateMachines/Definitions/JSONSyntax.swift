import FoundationEssentials

/// Where JSON text first breaks the grammar, for the message of a decode
/// that failed: the decoder says only that the data is not valid JSON, and
/// a hand-written definition needs the line and column.
///
/// It checks the syntax alone (RFC 8259: objects, arrays, strings with
/// their escapes, numbers, true, false, null), in one pass without
/// recursion (nesting has no depth to run out of). The grammar is the
/// decoder's to judge: the scan runs after the decoder refused the text,
/// and when it finds nothing the message stays the decoder's. One thing the
/// decoder lets pass is refused after it (`firstRefusal`): a member
/// name given twice in one object, of which the decoder would keep one
/// value without a word (RFC 8259 leaves it to the reader; a definition
/// with two states of one name is a mistake to report, not to guess at),
/// and a `\u0000` in a string, which no C string can carry: every string
/// of a definition, payload or snapshot may reach the host as one, and
/// what follows the NUL would be lost there.
public enum JSONSyntax {
    public struct Problem: Equatable, Sendable {
        public let line: Int, column: Int
        public let what: String
        var kind: Kind = .syntax
        public var description: String { "line \(line), column \(column): \(what)" }
    }

    enum Kind: Equatable, Sendable {
        /// Not JSON (RFC 8259), or a lone surrogate escape (not text).
        case syntax
        /// A member name given twice in one object.
        case duplicate
        /// A NUL character, which C strings cannot carry.
        case nul
    }

    /// The first place `bytes` is not JSON, or nil if none is found.
    package static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }

    /// The first member name that appears twice in one object, or NUL in a
    /// string, in text the decoder accepted (it keeps one of two members
    /// silently, and the NUL would cut the string short in C).
    static func firstRefusal(in bytes: [UInt8]) -> Problem? {
        var scanner = Scanner(bytes: bytes)
        scanner.afterDecode = true
        return scanner.run()
    }

    /// The first member name that appears twice in one object, in text the
    /// decoder accepted (`firstRefusal` without the NUL check: for a reader
    /// that says in its own words where a NUL would reach C).
    package static func firstDuplicate(in bytes: [UInt8]) -> Problem? {
        var scanner = Scanner(bytes: bytes)
        scanner.afterDecode = true
        scanner.refusesNUL = false
        return scanner.run()
    }

    /// Where `bytes` first opens an object or array more than `limit`
    /// levels deep, or nil. One pass without recursion, run before the
    /// decoder (which recurses once per level) sees the text.
    public static func firstTooDeep(in bytes: [UInt8], limit: Int) -> Problem? {
        var depth = 0, i = 0, inString = false
        while i < bytes.count {
            let c = bytes[i]
            if inString {
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                depth += 1
                if depth > limit {
                    var scanner = Scanner(bytes: bytes)
                    scanner.i = i
                    return scanner.problem("objects and arrays nest more than \(limit) levels deep here")
                }
            } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                depth -= 1
            }
            i += 1
        }
        return nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        /// What encloses the current value: `{` or `[`.
        var open: [UInt8] = []
        /// Set for text the decoder took (`firstRefusal`): member names given
        /// twice and NUL characters are refused too.
        var afterDecode = false
        /// With `afterDecode`: the member names seen in each open object.
        var keys: [Set<String>] = []
        /// With `afterDecode`: whether a NUL character is refused too.
        var refusesNUL = true

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() -> Problem? {
            // A UTF-8 byte order mark (Windows editors write one) is skipped, as
            // the decoder skips it (RFC 8259 allows a reader to ignore it).
            if i == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            var needValue = true
            while true {
                skipSpace()
                if needValue {
                    if let p = value(&needValue) { return p }
                    continue
                }
                guard let top = open.last else { break }
                let object = top == UInt8(ascii: "{")
                guard i < bytes.count else { return problem("the text ends inside \(object ? "an object" : "an array")") }
                let c = bytes[i]
                if c == UInt8(ascii: ",") {
                    i += 1; skipSpace()
                    // A comma before the closer is taken, as the decoder takes it.
                    if i < bytes.count && bytes[i] == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) { continue }
                    if object, let p = memberHead() { return p }
                    needValue = true
                } else if c == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1; open.removeLast()
                    if object && afterDecode { keys.removeLast() }
                } else {
                    return problem("expected ',' or '\(object ? "}" : "]")', found \(shown(c))")
                }
            }
            return i < bytes.count ? problem("more after the end of the JSON value: \(shown(bytes[i]))") : nil
        }

        /// A member name as the decoder reads it (`"a"` and `"\u0061"` are
        /// one name): the quoted text, unescaped by the decoder when it has escapes.
        private func memberName(_ quoted: ArraySlice<UInt8>) -> String {
            let inner = quoted.dropFirst().dropLast()
            guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
            return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
        }

        /// A value: a scalar whole, or an object or array opened (pushed on
        /// `open`, with its first member's name read); `needValue` says
        /// whether a value comes next (an opened array's first element, an
        /// opened object's first member's value).
        mutating func value(_ needValue: inout Bool) -> Problem? {
            guard i < bytes.count else { return problem("the text ends where a value was expected") }
            needValue = false
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1; skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return nil }
                open.append(UInt8(ascii: "{"))
                if afterDecode { keys.append([]) }
                needValue = true
                return memberHead()
            case UInt8(ascii: "["):
                i += 1; skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return nil }
                open.append(UInt8(ascii: "["))
                needValue = true
                return nil
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return problem("expected a value, found \(shown(bytes[i]))\(bareWordHint())")
            }
        }

        /// `"name":` of an object's member (its value comes next).
        mutating func memberHead() -> Problem? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                return i < bytes.count ? problem("expected a member name in double quotes, found \(shown(bytes[i]))")
                    : problem("the text ends inside an object")
            }
            let start = i
            if let p = string() { return p }
            if afterDecode {
                let name = memberName(bytes[start..<i])
                guard keys[keys.count - 1].insert(name).inserted else {
                    i = start
                    return problem("the member \"\(name)\" appears twice in this object", .duplicate)
                }
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                return i < bytes.count ? problem("expected ':' after the member name, found \(shown(bytes[i]))")
                    : problem("the text ends after a member name")
            }
            i += 1
            return nil
        }

        mutating func string() -> Problem? {
            let start = i
            i += 1
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; return nil }
                if c < 0x20 { return problem("a control character in a string (write it as an escape, such as \\n)") }
                if c >= 0x80 {
                    guard let n = utf8Length(at: i) else { return problem("bytes that are not UTF-8 in a string") }
                    i += n
                    continue
                }
                if c == UInt8(ascii: "\\") {
                    let backslash = i
                    i += 1
                    guard i < bytes.count else { break }
                    let e = bytes[i]
                    if e == UInt8(ascii: "u") {
                        guard let unit = hex4(at: i + 1) else {
                            i = backslash
                            return problem("\\u takes four hexadecimal digits")
                        }
                        if let p = unitProblem(unit, at: backslash) { return p }
                        i += 4
                    } else if !"\"\\/bfnrt".utf8.contains(e) {
                        i = backslash
                        return problem("an unknown escape \\\(shown(e, quoted: false))")
                    }
                }
                i += 1
            }
            i = start
            return problem("a string that is never closed")
        }

        /// The code unit written by the four hexadecimal digits at `k`.
        func hex4(at k: Int) -> UInt16? {
            guard k + 4 <= bytes.count else { return nil }
            var unit: UInt16 = 0
            for c in bytes[k..<k + 4] {
                guard isHex(c) else { return nil }
                unit = unit << 4 | UInt16(isDigit(c) ? c - UInt8(ascii: "0") : (c | 0x20) - UInt8(ascii: "a") + 10)
            }
            return unit
        }

        /// A `\u` escape's unit that is not a character to keep: NUL, or half
        /// a surrogate pair without its other half. A high half takes the
        /// escape of its low half with it (the scan goes on after both).
        mutating func unitProblem(_ unit: UInt16, at backslash: Int) -> Problem? {
            let next = backslash + 6
            switch unit {
            case 0 where afterDecode && refusesNUL:
                i = backslash
                return problem("\\u0000 in a string: a NUL ends a C string, so what follows it would be lost", .nul)
            case 0xD800...0xDBFF:
                let low = next + 6 <= bytes.count && bytes[next] == UInt8(ascii: "\\") && bytes[next + 1] == UInt8(ascii: "u")
                    ? hex4(at: next + 2) : nil
                guard let low, (0xDC00...0xDFFF).contains(low) else {
                    i = backslash
                    return problem("a lone surrogate \\u\(String(unit, radix: 16)) in a string: it must be followed by the \\u escape of its second half (\\udc00 to \\udfff)")
                }
                i = next + 1  // as if this escape were the low half's: its end is the pair's
                return nil
            case 0xDC00...0xDFFF:
                i = backslash
                return problem("a lone surrogate \\u\(String(unit, radix: 16)) in a string: the second half of a pair without its first")
            default:
                return nil
            }
        }

        mutating func number() -> Problem? {
            let start = i
            if let p = numberSyntax() { return p }
            // Good syntax that no double holds: the decoder refuses it with a
            // type it did not find, at another place ("expected a dictionary,
            // found an array" for a delay of 1e400). Say what is wrong here.
            guard !afterDecode else { return nil }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            let value = Double(text) ?? .infinity
            if !value.isFinite || (value == 0 && mantissa.contains { ("1"..."9").contains($0) }) {
                let end = i
                i = start
                defer { i = end }
                return problem(value == 0 ? "the number \(text) is too small for a double (the smallest is about 5e-324): write 0"
                                          : "the number \(text) is too large for a double (the largest is about 1.8e308)")
            }
            return nil
        }

        mutating func numberSyntax() -> Problem? {
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { return problem("a number needs a digit after '-'") }
            if bytes[i] == UInt8(ascii: "0") { i += 1 } else { while i < bytes.count && isDigit(bytes[i]) { i += 1 } }
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, isDigit(bytes[i]) else { return problem("a number needs a digit after '.'") }
                while i < bytes.count && isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                i += 1
                if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard i < bytes.count, isDigit(bytes[i]) else { return problem("a number needs a digit in its exponent") }
                while i < bytes.count && isDigit(bytes[i]) { i += 1 }
            }
            return nil
        }

        mutating func literal(_ word: String) -> Problem? {
            for (k, c) in word.utf8.enumerated() {
                guard i + k < bytes.count, bytes[i + k] == c else {
                    return problem("expected a value, found \(shown(bytes[i]))\(bareWordHint())")
                }
            }
            i += word.utf8.count
            return nil
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        /// " (strings are in double quotes)" when a bare word starts here.
        func bareWordHint() -> String {
            guard i < bytes.count, isLetter(bytes[i]) else { return "" }
            return " (a string is written in double quotes)"
        }

        func problem(_ what: String, _ kind: Kind = .syntax) -> Problem {
            var line = 1, column = 1
            for c in bytes[0..<min(i, bytes.count)] {
                if c == 0x0A { line += 1; column = 1 } else if c & 0xC0 != 0x80 { column += 1 }
            }
            return Problem(line: line, column: column, what: what, kind: kind)
        }

        func shown(_ c: UInt8, quoted: Bool = true) -> String {
            let s = c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "byte 0x" + String(c, radix: 16)
            return quoted && c >= 0x20 && c < 0x7F ? "'\(s)'" : s
        }

        /// The length of the well-formed UTF-8 sequence at `k` (RFC 3629), or nil.
        func utf8Length(at k: Int) -> Int? {
            let c = bytes[k]
            let (n, low, high): (Int, UInt8, UInt8)
            switch c {
            case 0xC2...0xDF: (n, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (n, low, high) = (3, 0xA0, 0xBF)
            case 0xED: (n, low, high) = (3, 0x80, 0x9F)
            case 0xE1...0xEF: (n, low, high) = (3, 0x80, 0xBF)
            case 0xF0: (n, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (n, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (n, low, high) = (4, 0x80, 0x8F)
            default: return nil
            }
            guard k + n <= bytes.count, bytes[k + 1] >= low, bytes[k + 1] <= high else { return nil }
            for j in 2..<n where bytes[k + j] & 0xC0 != 0x80 { return nil }
            return n
        }

        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f")) }
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    }
}
