#if canImport(Glibc)
import Glibc
#endif
import AnimationCore
@testable import StateMachines
import Testing

/// Parses and evaluates `text` with context a = 2, b = -3.5, s = 'hi',
/// flag = true, step2 = 7 and config k = 10.
func eval(_ text: String) throws(ExpressionError) -> MachineValue {
    var scope = ExpressionScope()
    scope.context = ["a": Field(index: 0, type: .number), "b": Field(index: 1, type: .number),
                     "s": Field(index: 2, type: .string), "flag": Field(index: 3, type: .bool),
                     "step2": Field(index: 4, type: .number)]
    scope.config = ["k": Field(index: 0, type: .number)]
    let e = try Parser.parse(text, scope: scope, expected: nil)
    var c = EvaluationContext(config: [.number(10)], context: [.number(2), .number(-3.5), .string("hi"), .bool(true), .number(7)], event: [], host: nil)
    return try! Evaluator.evaluate(e, &c)
}

struct ExpressionCase: CustomTestStringConvertible, Sendable {
    let text: String
    let value: MachineValue
    var testDescription: String { text }
}

let expressionCases: [ExpressionCase] = [
    .init(text: "1 + 2 * 3", value: .number(7)),
    .init(text: "(1 + 2) * 3", value: .number(9)),
    .init(text: "10 - 4 - 3", value: .number(3)),           // left-associative
    .init(text: "10 - context.a - 3", value: .number(5)),   // the same, compiled (not folded)
    .init(text: "context.a - context.b", value: .number(5.5)),
    .init(text: "2 * 3 % 4", value: .number(2)),
    .init(text: "-7 % 3", value: .number(-1)),              // remainder takes the dividend's sign, like C's fmod
    .init(text: "-context.a * 2", value: .number(-4)),
    .init(text: "1 / 0", value: .number(.infinity)),
    .init(text: "context.a + context.b", value: .number(-1.5)),
    .init(text: "config.k / 4", value: .number(2.5)),
    .init(text: "context.s + ' there'", value: .string("hi there")),
    .init(text: "context.a > 1 and context.b < 0", value: .bool(true)),
    .init(text: "context.a > 1 && not context.flag", value: .bool(false)),
    .init(text: "context.a < 1 and context.flag", value: .bool(false)),     // a false left side decides 'and'
    .init(text: "context.a < 1 or context.flag", value: .bool(true)),
    .init(text: "context.a <= 2 and context.a >= 2", value: .bool(true)),   // two-character operators
    .init(text: "context.a < 2 or context.a > 2", value: .bool(false)),
    .init(text: "false or !false", value: .bool(true)),
    .init(text: "not context.flag or context.a == 2", value: .bool(true)),  // not binds tighter than or
    .init(text: "context.s == 'hi'", value: .bool(true)),
    .init(text: "context.s != 'hi'", value: .bool(false)),
    .init(text: "context.a >= 2 ? 'big' : 'small'", value: .string("big")),
    .init(text: "context.a < 2 ? 1 : context.a < 3 ? 2 : 3", value: .number(2)),  // right-associative
    .init(text: "abs(context.b)", value: .number(3.5)),
    .init(text: "min(3, context.a, 5)", value: .number(2)),
    .init(text: "max(3, context.a, 5)", value: .number(5)),
    .init(text: "clamp(1.7, 0, 1)", value: .number(1)),
    .init(text: "clamp(-0.2, 0, 1)", value: .number(0)),
    .init(text: "floor(-2.5)", value: .number(-3)),
    .init(text: "ceil(2.1)", value: .number(3)),
    .init(text: "round(2.5)", value: .number(3)),
    .init(text: "round(-2.5)", value: .number(-3)),
    .init(text: "sqrt(16)", value: .number(4)),
    .init(text: "fixed(35.5, 0)", value: .string("36")),  // ties to even: 35.5 → 36, as printf's %.0f
    .init(text: "fixed(36.5, 0)", value: .string("36")),
    .init(text: "fixed(0.125, 2)", value: .string("0.12")),
    .init(text: "fixed(-0.4, 0)", value: .string("-0")),
    .init(text: "fixed(-0, 1)", value: .string("-0.0")),          // -0 keeps its sign, as printf's "%.1f" gives it
    .init(text: "fixed(0, 1)", value: .string("0.0")),
    .init(text: "fixed(3, 3)", value: .string("3.000")),
    .init(text: "fixed(1/0, 1)", value: .string("inf")),
    .init(text: "fixed(53.85, 1)", value: .string("53.9")),  // 53.850000000000001 in binary: up, as printf
    .init(text: "fixed(45.815, 2)", value: .string("45.81")),  // 45.814999999999998: down
    .init(text: "fixed(7.665, 2)", value: .string("7.67")),
    .init(text: "str(context.a) + '%'", value: .string("2%")),
    .init(text: "str(0.5)", value: .string("0.5")),
    .init(text: "str(9007199254740992)", value: .string("9007199254740992")),  // whole, up to 2^53: its digits
    .init(text: "str(9007199254740994)", value: .string("9.007199254740994e+15")),  // past 2^53: the shortest form
    .init(text: "str(0.1 + 0.2)", value: .string("0.30000000000000004")),    // reads back as the same double
    .init(text: "str(-0)", value: .string("0")),
    .init(text: "str(context.flag)", value: .string("true")),
    .init(text: "str(0 / 0)", value: .string("nan")),  // folded when it loads; not "-nan", the sign bit x86 gives it
    .init(text: "str(context.a / 0 - context.a / 0)", value: .string("nan")),  // computed when it runs
    .init(text: "len('héllo')", value: .number(5)),
    .init(text: "2 * pi", value: .number(2 * Double.pi)),
    .init(text: "inf > 1e308", value: .bool(true)),
    .init(text: "rgba(1, 0.5, 0, 1)", value: .vector(.color(1, 0.5, 0, 1))),
    .init(text: "rect(0, 0, config.k * 1.2, 44)", value: .vector(.rect(0, 0, 12, 44))),
    .init(text: "point(1, 2) == point(1, 2)", value: .bool(true)),
    .init(text: "'it\\'s'", value: .string("it's")),
    .init(text: "1.5e2 + .5", value: .number(150.5)),
    .init(text: "2.5e-1 * 4", value: .number(1)),                // an exponent's sign
    .init(text: "'a\\nb\\tc'", value: .string("a\nb\tc")),       // escapes: a line break and a tab
    .init(text: #"'\\ \" \''"#, value: .string(#"\ " '"#)),      // escapes: a backslash and both quotes
    .init(text: "1 +\n2", value: .number(3)),                     // a line break is space
    .init(text: "true or false and false", value: .bool(true)),  // and binds tighter than or
    .init(text: "!!context.flag", value: .bool(true)),
    .init(text: "not not context.flag", value: .bool(true)),
    .init(text: "- -context.a", value: .number(2)),
    .init(text: "context.a * 3 % 4", value: .number(2)),         // 6 % 4, compiled: C's fmod, not IEEE remainder (-2)
    .init(text: "str(min(1, 0 / 0))", value: .string("nan")),    // NaN propagates, whichever side
    .init(text: "str(max(1, 0 / 0))", value: .string("nan")),
    .init(text: "str(clamp(0.5, 0 / 0, 1))", value: .string("nan")),
    .init(text: "fixed(1, 20)", value: .string("1.000000000000")),  // digits past 12 are 12
    .init(text: "fixed(2.5, 0 / 0)", value: .string("2")),      // NaN digits are 0 (ties to even)
    .init(text: "fixed(1e16, 0)", value: .string("1e+16")),      // 9e15 or more: as str() prints it
    .init(text: "fixed(-1 / 0, 1)", value: .string("-inf")),
    .init(text: "fixed(5e15, 0)", value: .string("5000000000000000")),          // whole, 2^52 to 9e15: its digits
    .init(text: "fixed(4503599627370497, 0)", value: .string("4503599627370497")),  // 2^52 + 1
    .init(text: "fixed(1, 1 / 0)", value: .string("1.000000000000")),  // infinite digits are 12, as 20 are
    .init(text: "fixed(1, -1 / 0)", value: .string("1")),
    .init(text: "context.step2 * 2", value: .number(14)),        // a name holds digits after its first letter
    .init(text: "'say \"hi\"' + \"it's\"", value: .string("say \"hi\"it's")),  // the other quote is a letter
    .init(text: "len('🇫🇷e\u{301}')", value: .number(2)),        // letters as a reader counts them, not code points
]

@Suite("The expression language: values, precedence, functions")
struct ExpressionTests {
    @Test("each expression evaluates to its value", arguments: expressionCases)
    func evaluates(_ c: ExpressionCase) throws {
        #expect(try eval(c.text) == c.value)
    }

    @Test("63 'not' or '-' in front of a value are 64 levels: the most an expression nests")
    func deepestUnary() throws {
        #expect(try eval(String(repeating: "not ", count: 63) + "true") == .bool(false))
        #expect(try eval(String(repeating: "- ", count: 63) + "1") == .number(-1))
    }

    /// Nesting is depth, not count: a closed parenthesis or call gives its
    /// level back, so terms or arguments side by side do not add up.
    @Test("100 parenthesised terms side by side, or a call of 100 arguments, nest 2 levels, not 100")
    func siblingsAreNotDepth() throws {
        #expect(try eval(Array(repeating: "(1)", count: 100).joined(separator: " + ")) == .number(100))
        #expect(try eval("max(" + (1...100).map { "(\($0) - context.a)" }.joined(separator: ", ") + ")") == .number(98))
    }

    @Test("the table holds every case") func count() { #expect(expressionCases.count == 85) }

    @Test("fixed() prints what C's %.*f prints, for 0 to 12 decimals")
    func fixedIsPrintf() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 11 }
        var mismatches: [String] = []
        for i in 0..<20_000 {
            let digits = i % 13
            // Values with one decimal more than printed sit next to a half, where rounding twice goes wrong.
            var x = Double(next() % 2_000_000) / 1000 - 1000
            if i % 3 == 0 { x = Double(next() % 100_000) / pow(10, Double(digits + 1)) }
            if i % 7 == 0 { x = Double(bitPattern: next() % 0x3FF0_0000_0000_0000) }  // anything from 0 to 1
            guard abs(x) * pow(10, Double(digits)) < 9e15 else { continue }
            var buf = [CChar](repeating: 0, count: 64)
            _ = withVaList([Int32(digits), x]) { vsnprintf(&buf, 64, "%.*f", $0) }
            let c = String(decoding: buf.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self), ours = Evaluator.formatFixed(x, digits: Double(digits))
            if c != ours && !(x == 0 && c == "-" + ours) { mismatches.append("\(x) with \(digits): \(ours), printf \(c)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("the compiled program gives what the checked tree gives, bit for bit", arguments: expressionCases)
    func compiledMatchesTree(_ c: ExpressionCase) throws {
        var scope = ExpressionScope()
        scope.context = ["a": Field(index: 0, type: .number), "b": Field(index: 1, type: .number),
                         "s": Field(index: 2, type: .string), "flag": Field(index: 3, type: .bool),
                     "step2": Field(index: 4, type: .number)]
        scope.config = ["k": Field(index: 0, type: .number)]
        // Folding would make most cases constants: compile the unfolded tree too.
        let e = try Parser.parse(c.text, scope: scope, expected: nil)
        var ctx = EvaluationContext(config: [.number(10)], context: [.number(2), .number(-3.5), .string("hi"), .bool(true), .number(7)], event: [], host: nil)
        let tree = try Evaluator.evaluate(e.root, &ctx)
        let compiled = try e.program.run(&ctx)
        switch (tree, compiled) {
        case (.number(let x), .number(let y)): #expect(x.bitPattern == y.bitPattern)
        default: #expect(tree == compiled)
        }
    }

    @Test("constant sub-expressions are computed once, when the definition loads")
    func folding() throws {
        var scope = ExpressionScope()
        scope.context = ["a": Field(index: 0, type: .number)]
        #expect(try Parser.parse("2 * pi + 1", scope: scope, expected: .number).constantValue == .number(2 * Double.pi + 1))
        #expect(try Parser.parse("context.a * 2", scope: scope, expected: .number).constantValue == nil)
        #expect(try Parser.parse("now() + 1", scope: scope, expected: .number).constantValue == nil)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let text: String; let column: Int; let fragment: String
        /// The status the refusal carries, where a test checks it.
        var status: Status = .invalidArgument
        var testDescription: String { text }
    }

    /// A scope with context a = 2 and two registered functions:
    /// `minus(number, number) -> number` (its first argument less its
    /// second) and `note(string) -> action`.
    func functionScope() -> ExpressionScope {
        var scope = ExpressionScope()
        scope.context = ["a": Field(index: 0, type: .number)]
        try! scope.functions.register(MachineFunction(name: "minus", parameters: [.number, .number], result: .number) { args in
            guard case .number(let x) = args[0], case .number(let y) = args[1] else { return nil }
            return .number(x - y)
        })
        try! scope.functions.register(MachineFunction(name: "note", parameters: [.string], result: nil) { _ in nil })
        return scope
    }

    func run(_ text: String, _ scope: ExpressionScope) throws -> MachineValue {
        let e = try Parser.parse(text, scope: scope, expected: nil)
        var c = EvaluationContext(config: [], context: [.number(2)], event: [], host: nil)
        return try Evaluator.evaluate(e, &c)
    }

    @Test("a registered function gets its arguments in order, and returns a finite value of its declared type or fails")
    func registeredFunctions() throws {
        let scope = functionScope()
        #expect(try run("minus(context.a, 0.5)", scope) == .number(1.5))
        #expect(try run("minus(10, context.a) * 2", scope) == .number(16))
        // inf - inf is NaN: the call fails (the machine's error.execution) rather than hand it on.
        #expect(throws: AnimrtError(.kind, "function 'minus' returned nan where a finite number was declared")) {
            _ = try run("minus(inf, context.a * inf)", scope)
        }
    }

    @Test("a registered function is refused when the definition loads: too few or too many arguments, one of another type, an action as a value", arguments: [
        Bad(text: "minus(1)", column: 1, fragment: "minus(number, number) -> number takes 2 arguments, not 1"),
        Bad(text: "minus(1, 2, 3)", column: 1, fragment: "minus(number, number) -> number takes 2 arguments, not 3"),
        Bad(text: "minus(1, 'x')", column: 10, fragment: "argument 2 of minus(number, number) -> number must be a number, not a string"),
        Bad(text: "note('x') == 0", column: 1, fragment: "'note' is an action (it returns nothing); call it with a \"call\" action, not in an expression"),
    ])
    func registeredFunctionRefusals(_ b: Bad) {
        do throws(ExpressionError) {
            _ = try Parser.parse(b.text, scope: functionScope(), expected: nil)
            Issue.record("\(b.text) parsed")
        } catch {
            #expect(error.column == b.column, "\(error.message)")
            #expect(error.message.contains(b.fragment), "\(error.message)")
        }
    }

    @Test("a function's name is registered once, and never as a built-in or a word of the language")
    func registryNames() {
        var registry = functionScope().functions
        let other = MachineFunction(name: "minus", parameters: [], result: .number) { _ in .number(0) }
        #expect(throws: AnimrtError(.exists, "a machine function named 'minus' is already registered")) { try registry.register(other) }
        #expect(registry["minus"]?.parameters == [.number, .number])  // the first one stays
        for word in ["not", "index", "true", "context", "max"] {
            let f = MachineFunction(name: word, parameters: [], result: .number) { _ in .number(0) }
            #expect(throws: AnimrtError(.exists, "'\(word)' is a built-in of the expression language; register or bind the function under another name")) {
                try registry.register(f)
            }
        }
        #expect(registry.functions.count == 2)
    }

    @Test("rgba, rect, point and size make values of their own kinds")
    func vectorTypes() throws {
        let scope = ExpressionScope()
        #expect(try Parser.parse("rgba(1, 0, 0, 1)", scope: scope, expected: nil).type == .vector(.color))
        #expect(try Parser.parse("rect(0, 0, 1, 1)", scope: scope, expected: nil).type == .vector(.rect))
        #expect(try Parser.parse("point(1, 2)", scope: scope, expected: nil).type == .vector(.point))
        #expect(try Parser.parse("size(1, 2)", scope: scope, expected: nil).type == .vector(.size))
        #expect(throws: ExpressionError.self) { try Parser.parse("rect(0, 0, 1, 1)", scope: scope, expected: .vector(.color)) }
    }

    @Test("errors name the column", arguments: [
        Bad(text: "1 +", column: 4, fragment: "expected a value"),
        Bad(text: "context.a + 'x'", column: 13, fragment: "adds two numbers or joins two strings"),
        Bad(text: "'open", column: 1, fragment: "not closed"),
        Bad(text: "1 # 2", column: 3, fragment: "unexpected character '#'"),
        Bad(text: "context.a context.a", column: 11, fragment: "after the end of the expression"),
        Bad(text: "true ? 1 : 'x'", column: 12, fragment: "both branches"),
        Bad(text: "1e999", column: 1, fragment: "not a finite number"),
        Bad(text: "nott true", column: 1, fragment: "did you mean 'not'"),
        Bad(text: "fixed('a', 1)", column: 7, fragment: "must be a number"),
        Bad(text: "now(1)", column: 1, fragment: "now() takes 0 arguments, not 1"),
        Bad(text: "in(context)", column: 4, fragment: "quoted string"),
        Bad(text: "min(1)", column: 1, fragment: "min() takes at least 2 arguments, not 1"),
        Bad(text: "abs(1, 2)", column: 1, fragment: "abs() takes 1 argument, not 2"),
        Bad(text: "clamp(1, 2)", column: 1, fragment: "clamp() takes 3 arguments, not 2"),
        Bad(text: "fixed(1)", column: 1, fragment: "fixed() takes 2 arguments, not 1"),
        Bad(text: "rgba(1, 0, 0)", column: 1, fragment: "rgba() takes 4 arguments, not 3"),
        Bad(text: "context.s / 2", column: 1, fragment: "the left side of '/' must be a number, not a string"),
        // A difference starts at its left operand: that is where it is placed as the left side of 'and'.
        Bad(text: "context.a - 1 and true", column: 1, fragment: "the left side of 'and' must be a bool, not a number"),
        Bad(text: "context.a == 'x'", column: 14, fragment: "'==' compares values of one type; these are number and string"),
        Bad(text: "1 < 2 < 3", column: 7, fragment: "comparisons do not chain; use 'and' ('<' after '<')"),
        Bad(text: "'abc\\", column: 1, fragment: "the string is not closed (missing ')"),  // the backslash has nothing to escape
        Bad(text: "'C:\\path'", column: 4, fragment: "'\\p' is not an escape; a string knows \\', \\\", \\\\, \\n and \\t (\\\\ for a backslash)"),
        Bad(text: "1 + \"a\\é\"", column: 7, fragment: "'\\é' is not an escape"),
        // Columns count code points, as the JSON errors do: a decomposed é (e and U+0301) is two.
        Bad(text: "'e\u{301}' + 1", column: 8, fragment: "adds two numbers or joins two strings"),
        Bad(text: "str(point(1, 2))", column: 5, fragment: "str() takes a number, bool or string"),
        Bad(text: "len(5)", column: 5, fragment: "the argument of len() must be a string, not a number"),
        Bad(text: "1 ? 2 : 3", column: 1, fragment: "the condition of '? :' must be a bool, not a number"),
        // 64 levels at most: the expression and 63 'not' or '-' in front of its value; a 64th is refused where the value starts.
        Bad(text: String(repeating: "not ", count: 64) + "true", column: 257, fragment: "nests more than 64 levels deep"),
        Bad(text: String(repeating: "- ", count: 64) + "1", column: 129, fragment: "nests more than 64 levels deep"),
    ])
    func errors(_ b: Bad) {
        do throws(ExpressionError) {
            _ = try eval(b.text)
            Issue.record("\(b.text) parsed")
        } catch {
            #expect(error.column == b.column, "\(error.message)")
            #expect(error.message.contains(b.fragment), "\(error.message)")
        }
    }

    /// The names in(), timerActive() and text() take are resolved when the
    /// expression is checked: an unknown one is refused with the whole
    /// message (a suggestion only when one is near), at the name's column.
    /// A function or an operator where a value goes is not "unknown".
    @Test("unknown state, timer and string names; a function or operator as a value", arguments: [
        Bad(text: "in('lodaing')", column: 4, fragment: "in('lodaing'): no state named 'lodaing'; did you mean 'loading'?", status: .notFound),
        Bad(text: "in('zzz')", column: 4, fragment: "in('zzz'): no state named 'zzz'", status: .notFound),
        Bad(text: "timerActive('retyr')", column: 13, fragment: "timerActive('retyr'): no timer named 'retyr'; did you mean 'retry'?", status: .notFound),
        Bad(text: "text('titel') == ''", column: 6, fragment: "text('titel'): no string named 'titel'; did you mean 'title'?", status: .notFound),
        Bad(text: "context.", column: 9, fragment: "expected a field name after 'context.'"),
        Bad(text: "in", column: 1, fragment: "'in' is a function: call it with its arguments in parentheses, in(…)"),
        Bad(text: "len + 1", column: 1, fragment: "'len' is a function: call it with its arguments in parentheses, len(…)"),
        Bad(text: "1 + and", column: 5, fragment: "expected a value but found the operator 'and'"),
        Bad(text: "or", column: 1, fragment: "expected a value but found the operator 'or'"),
    ])
    func unknownNames(_ b: Bad) {
        var scope = ExpressionScope()
        scope.states = ["loading": 0, "ready": 1]
        scope.timers = ["retry": 0]
        scope.strings = ["title": 0]
        do throws(ExpressionError) {
            _ = try Parser.parse(b.text, scope: scope, expected: nil)
            Issue.record("\(b.text) parsed")
        } catch {
            #expect(error.column == b.column, "\(error.message)")
            #expect(error.message == b.fragment, "\(error.message)")
            #expect(error.status == b.status, "\(error.message)")
        }
    }
}
