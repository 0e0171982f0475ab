import AnimationCore

/// Tokens of the expression language (docs/machines.md, "Expressions").
enum Token: Equatable {
    case number(Double)
    case string(String)
    case identifier(String)
    case symbol(String)
    case end
}

/// A token with the 1-based column (in Unicode scalars, as the JSON errors count) where it starts.
struct Lexeme {
    let token: Token
    let column: Int
}

/// An error at a column of an expression's text.
struct ExpressionError: Error {
    let column: Int
    let message: String
    /// `.notFound` for unknown names, `.kind` for type errors.
    var status: Status = .invalidArgument
}

/// Splits an expression into tokens. Strings take single or double quotes
/// with backslash escapes; numbers are decimal with an optional exponent.
enum Lexer {
    static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",",
                          ".", "?", ":", "!"]

    static func tokens(_ text: String) throws(ExpressionError) -> [Lexeme] {
        let chars = Array(text.unicodeScalars)
        var out: [Lexeme] = []
        var i = 0
        func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { c == "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
            if isDigit(c) || (c == "." && i + 1 < chars.count && isDigit(chars[i + 1])) {
                var j = i
                while j < chars.count && isDigit(chars[j]) { j += 1 }
                if j < chars.count && chars[j] == "." { j += 1; while j < chars.count && isDigit(chars[j]) { j += 1 } }
                if j < chars.count && (chars[j] == "e" || chars[j] == "E") {
                    var k = j + 1
                    if k < chars.count && (chars[k] == "+" || chars[k] == "-") { k += 1 }
                    if k < chars.count && isDigit(chars[k]) {
                        while k < chars.count && isDigit(chars[k]) { k += 1 }
                        j = k
                    }
                }
                let literal = String(String.UnicodeScalarView(chars[i..<j]))
                guard let value = Double(literal), value.isFinite else {
                    throw ExpressionError(column: column, message: "the number '\(literal)' is not a finite number")
                }
                out.append(Lexeme(token: .number(value), column: column))
                i = j
                continue
            }
            if isIdentifierStart(c) {
                var j = i
                while j < chars.count && (isIdentifierStart(chars[j]) || isDigit(chars[j])) { j += 1 }
                out.append(Lexeme(token: .identifier(String(String.UnicodeScalarView(chars[i..<j]))), column: column))
                i = j
                continue
            }
            if c == "'" || c == "\"" {
                var j = i + 1
                var s = String.UnicodeScalarView()
                var closed = false
                while j < chars.count {
                    let d = chars[j]
                    if d == c { closed = true; j += 1; break }
                    if d == "\\" && j + 1 < chars.count {
                        let e = chars[j + 1]
                        switch e {
                        case "n": s.append("\n")
                        case "t": s.append("\t")
                        case "\\", "'", "\"": s.append(e)
                        default:
                            // Dropping the backslash would change the text without a word ('C:\path').
                            throw ExpressionError(column: j + 1, message: "'\\\(Character(e))' is not an escape; a string knows \\', \\\", \\\\, \\n and \\t (\\\\ for a backslash)")
                        }
                        j += 2
                        continue
                    }
                    s.append(d)
                    j += 1
                }
                guard closed else { throw ExpressionError(column: column, message: "the string is not closed (missing \(c))") }
                out.append(Lexeme(token: .string(String(s)), column: column))
                i = j
                continue
            }
            if let sym = symbols.first(where: { s in
                let u = Array(s.unicodeScalars)
                return i + u.count <= chars.count && Array(chars[i..<(i + u.count)]) == u
            }) {
                out.append(Lexeme(token: .symbol(sym), column: column))
                i += sym.unicodeScalars.count
                continue
            }
            throw ExpressionError(column: column, message: "unexpected character '\(c)'")
        }
        out.append(Lexeme(token: .end, column: chars.count + 1))
        return out
    }
}
