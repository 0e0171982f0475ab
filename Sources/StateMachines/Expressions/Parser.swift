import AnimationCore

/// What an expression may name, resolved when the definition loads.
struct ExpressionScope {
    var config: [String: Field] = [:]
    var context: [String: Field] = [:]
    /// The payload fields of the event that triggers the transition, or nil
    /// where no single event is known (entry and exit actions, `after`,
    /// `done` and eventless transitions).
    var event: [String: Field]? = nil
    var eventName: String? = nil
    /// Why `event.` cannot be used here (for the message).
    var noEvent = "no event is known here"
    var states: [String: Int] = [:]
    var timers: [String: Int] = [:]
    var strings: [String: Int] = [:]
    var functions = FunctionRegistry()
    /// Whether `index` (the copy of a repeated part) may be read: in part
    /// properties, animation templates and the values of set and animate.
    var allowsIndex = false
    /// Whether the instance's context, states and timers exist when the
    /// expression runs: not for values computed as it is created (parts,
    /// copies, context initial values, throttles), where reading them is
    /// refused with `noEvent`'s reason rather than as unknown names.
    var readsMachine = true
    /// Why `now()` cannot be read here, or nil where it can (everywhere
    /// but a repeated part's count, which a restore must compute again
    /// with the same result).
    var noClock: String? = nil
}

/// A recursive-descent parser that type-checks as it goes (grammar in
/// docs/machines.md). Precedence, loosest first: `? :`, `or`/`||`,
/// `and`/`&&`, `not`/`!`, comparisons, `+ -`, `* / %`, unary `-`.
struct Parser {
    static let reserved: Set<String> = ["and", "or", "not", "true", "false", "pi", "inf", "index", "config", "context", "event"]

    static func isName(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first, f == "_" || (f >= "a" && f <= "z") || (f >= "A" && f <= "Z") else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") }
    }

    /// Parses and checks `text`; `expected` is the type the place needs (nil: any).
    static func parse(_ text: String, scope: ExpressionScope, expected: MachineType?) throws(ExpressionError) -> Expression {
        let tokens = try Lexer.tokens(text)
        guard nestingBound(tokens) <= LargeStack.inlineExpressionDepth else {
            return try LargeStack.run { () -> Result<Expression, ExpressionError> in
                Result { () throws(ExpressionError) in try parse(tokens, text, scope: scope, expected: expected) }
            }.get()
        }
        return try parse(tokens, text, scope: scope, expected: expected)
    }

    /// At least the levels of recursion parsing `tokens` takes: each '('
    /// opens one until its ')' (not that of `in`, `timerActive` or `text`,
    /// whose argument is a quoted name), each '?' one until its ':' (the
    /// branch after ':' is read in a loop), each '-' or 'not' in front of a
    /// value one that ends no later than the parenthesis around it.
    static func nestingBound(_ tokens: [Lexeme]) -> Int {
        var depth = 1, deepest = 1
        var outer: [(depth: Int, parenthesis: Bool)] = []
        var afterValue = false
        var previous: Token? = nil
        for t in tokens {
            switch t.token {
            case .symbol("("):
                let named = previous == .identifier("in") || previous == .identifier("timerActive") || previous == .identifier("text")
                outer.append((depth, true)); depth += named ? 0 : 1; afterValue = false
            case .symbol(")"):
                while let o = outer.popLast() { depth = o.depth; if o.parenthesis { break } }
                afterValue = true
            case .symbol("?"): outer.append((depth, false)); depth += 1; afterValue = false
            case .symbol(":"):
                if let o = outer.last, !o.parenthesis { depth = o.depth; outer.removeLast() }
                afterValue = false
            case .symbol("-") where !afterValue, .symbol("!"), .identifier("not"): depth += 1; afterValue = false
            case .number, .string: afterValue = true
            case .identifier(let s): afterValue = s != "and" && s != "or"
            default: afterValue = false
            }
            previous = t.token
            deepest = max(deepest, depth)
        }
        return deepest
    }

    private static func parse(_ tokens: [Lexeme], _ text: String, scope: ExpressionScope, expected: MachineType?) throws(ExpressionError) -> Expression {
        var p = Parser(tokens: tokens, scope: scope)
        // Defers run last first: the tree the parse made is let go of
        // (freeing its root at most), then the operations it holds.
        defer { p.letGoOfOperations() }
        var parsed = try p.conditional()
        defer { parsed.0 = .index }
        let (node, type, column) = parsed
        guard case .end = p.peek.token else {
            throw ExpressionError(column: p.peek.column, message: "unexpected \(p.describe(p.peek.token)) after the end of the expression")
        }
        if let expected, expected != type {
            throw ExpressionError(column: column, message: "the expression is a \(type) but a \(expected) is needed here", status: .kind)
        }
        return Expression(text: text, type: type, root: node)
    }

    private var tokens: [Lexeme]
    private var position = 0
    /// Levels of nesting open (`DefinitionLimits.maxExpressionDepth`).
    private var depth = 0
    private let scope: ExpressionScope
    /// Every operation made so far, operands before what uses them. A
    /// chain of operators makes a tree thousands of nodes deep, and
    /// releasing its root would release the rest inside that release, one
    /// level of recursion a node: held here, no node goes while it holds
    /// the last reference to another, until `letGoOfOperations` lets go of
    /// them one at a time, last made first (on success and on error alike).
    private var operations: [Node] = []

    private mutating func letGoOfOperations() {
        while operations.popLast() != nil {}
    }

    private init(tokens: [Lexeme], scope: ExpressionScope) { self.tokens = tokens; self.scope = scope }

    private var peek: Lexeme { tokens[position] }

    private mutating func advance() -> Lexeme {
        let t = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return t
    }

    private mutating func accept(_ symbol: String) -> Bool {
        if case .symbol(let s) = peek.token, s == symbol { position += 1; return true }
        if case .identifier(let s) = peek.token, s == symbol { position += 1; return true }
        return false
    }

    private mutating func expect(_ symbol: String) throws(ExpressionError) {
        guard accept(symbol) else {
            throw ExpressionError(column: peek.column, message: "expected '\(symbol)' but found \(describe(peek.token))")
        }
    }

    private func describe(_ t: Token) -> String {
        switch t {
        case .number(let d): return "the number \(NumberText.format(d))"
        case .string(let s): return "the string '\(s)'"
        case .identifier(let s): return "'\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "the end of the expression"
        }
    }

    typealias Typed = (Node, MachineType, Int)

    private func require(_ t: Typed, _ type: MachineType, _ role: String) throws(ExpressionError) {
        guard t.1 == type else { throw ExpressionError(column: t.2, message: "\(role) must be a \(type), not a \(t.1)", status: .kind) }
    }

    /// Opens one level of nesting; the caller closes it (`depth -= 1`).
    private mutating func descend() throws(ExpressionError) {
        depth += 1
        guard depth <= DefinitionLimits.maxExpressionDepth else {
            throw ExpressionError(column: peek.column, message: "the expression nests more than \(DefinitionLimits.maxExpressionDepth) levels deep (parentheses, calls, '? :', '-' and 'not' inside one another)", status: .outOfRange)
        }
    }

    /// `c ? a : b`. The branch after ':' may be another `? :` (a chain
    /// "c1 ? a1 : c2 ? a2 : b" nests one level a '?'): the chain is read
    /// in a loop and built from its end, not by recursion, with the levels
    /// counted and the checks made in the order recursion would make them.
    private mutating func conditional() throws(ExpressionError) -> Typed {
        let outer = depth
        defer { depth = outer }
        var arms: [(condition: Typed, then: Typed)] = []
        var last: Typed
        while true {
            try descend()
            let c = try or()
            guard accept("?") else { last = c; break }
            try require(c, .bool, "the condition of '? :'")
            let a = try conditional()
            try expect(":")
            arms.append((c, a))
        }
        while let (c, a) = arms.popLast() {
            guard a.1 == last.1 else {
                throw ExpressionError(column: last.2, message: "both branches of '? :' must have one type; they are \(a.1) and \(last.1)", status: .kind)
            }
            last = (fold(.conditional(c.0, a.0, last.0)), a.1, c.2)
        }
        return last
    }

    private mutating func or() throws(ExpressionError) -> Typed {
        var l = try and()
        while accept("or") || accept("||") {
            let r = try and()
            try require(l, .bool, "the left side of 'or'"); try require(r, .bool, "the right side of 'or'")
            l = (fold(.or(l.0, r.0)), .bool, l.2)
        }
        return l
    }

    private mutating func and() throws(ExpressionError) -> Typed {
        var l = try not()
        while accept("and") || accept("&&") {
            let r = try not()
            try require(l, .bool, "the left side of 'and'"); try require(r, .bool, "the right side of 'and'")
            l = (fold(.and(l.0, r.0)), .bool, l.2)
        }
        return l
    }

    private mutating func not() throws(ExpressionError) -> Typed {
        let column = peek.column
        if accept("not") || accept("!") {
            try descend()
            defer { depth -= 1 }
            let v = try not()
            try require(v, .bool, "the operand of 'not'")
            return (fold(.not(v.0)), .bool, column)
        }
        return try comparison()
    }

    private mutating func comparison() throws(ExpressionError) -> Typed {
        let l = try sum()
        let ops: [(String, ComparisonOperator)] = [("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual),
                                                  (">=", .greaterOrEqual), ("<", .less), (">", .greater)]
        for (symbol, op) in ops where accept(symbol) {
            let r = try sum()
            if op == .equal || op == .notEqual {
                guard l.1 == r.1 else {
                    throw ExpressionError(column: r.2, message: "'\(symbol)' compares values of one type; these are \(l.1) and \(r.1)", status: .kind)
                }
            } else {
                try require(l, .number, "the left side of '\(symbol)'"); try require(r, .number, "the right side of '\(symbol)'")
            }
            for (s2, _) in ops where accept(s2) {
                throw ExpressionError(column: tokens[position - 1].column, message: "comparisons do not chain; use 'and' ('\(s2)' after '\(symbol)')")
            }
            return (fold(.compare(op, l.0, r.0)), .bool, l.2)
        }
        return l
    }

    private mutating func sum() throws(ExpressionError) -> Typed {
        var l = try product()
        while true {
            if accept("+") {
                let r = try product()
                if l.1 == .string && r.1 == .string { l = (fold(.concatenate(l.0, r.0)), .string, l.2); continue }
                guard l.1 == .number && r.1 == .number else {
                    throw ExpressionError(column: r.2, message: "'+' adds two numbers or joins two strings; these are \(l.1) and \(r.1) (str(x) makes a string)", status: .kind)
                }
                l = (fold(.arithmetic(.add, l.0, r.0)), .number, l.2)
            } else if accept("-") {
                let r = try product()
                try require(l, .number, "the left side of '-'"); try require(r, .number, "the right side of '-'")
                l = (fold(.arithmetic(.subtract, l.0, r.0)), .number, l.2)
            } else { return l }
        }
    }

    private mutating func product() throws(ExpressionError) -> Typed {
        var l = try unary()
        while true {
            let op: ArithmeticOperator
            let symbol: String
            if accept("*") { op = .multiply; symbol = "*" }
            else if accept("/") { op = .divide; symbol = "/" }
            else if accept("%") { op = .remainder; symbol = "%" }
            else { return l }
            let r = try unary()
            try require(l, .number, "the left side of '\(symbol)'"); try require(r, .number, "the right side of '\(symbol)'")
            l = (fold(.arithmetic(op, l.0, r.0)), .number, l.2)
        }
    }

    private mutating func unary() throws(ExpressionError) -> Typed {
        let column = peek.column
        if accept("-") {
            try descend()
            defer { depth -= 1 }
            let v = try unary()
            try require(v, .number, "the operand of '-'")
            return (fold(.negate(v.0)), .number, column)
        }
        return try primary()
    }

    private mutating func primary() throws(ExpressionError) -> Typed {
        let t = advance()
        switch t.token {
        case .number(let d): return (.constant(.number(d)), .number, t.column)
        case .string(let s): return (.constant(.string(s)), .string, t.column)
        case .symbol("("):
            let inner = try conditional()
            try expect(")")
            return (inner.0, inner.1, t.column)
        case .identifier(let name):
            switch name {
            case "true": return (.constant(.bool(true)), .bool, t.column)
            case "false": return (.constant(.bool(false)), .bool, t.column)
            case "pi": return (.constant(.number(Double.pi)), .number, t.column)
            case "inf": return (.constant(.number(Double.infinity)), .number, t.column)
            case "index":
                guard scope.allowsIndex else {
                    throw ExpressionError(column: t.column, message: "'index' is the copy number of a repeated part; it can be read in part properties, animation templates and the values of set and animate actions, not here")
                }
                return (.index, .number, t.column)
            case "config", "context", "event": return try field(name, column: t.column)
            default:
                if accept("(") { return try call(name, column: t.column) }
                // A function or an operator where a value goes: saying it is
                // unknown, and suggesting itself, would not help.
                if Builtin(rawValue: name) != nil {
                    throw ExpressionError(column: t.column, message: "'\(name)' is a function: call it with its arguments in parentheses, \(name)(…)")
                }
                if ["and", "or", "not"].contains(name) {
                    throw ExpressionError(column: t.column, message: "expected a value but found the operator '\(name)'")
                }
                var message = "unknown name '\(name)'"
                // A field read without its namespace ("n + 1" for "context.n + 1"):
                // name the field, not the nearest keyword or function ("in").
                let fields = [("event", scope.event ?? [:]), ("context", scope.context), ("config", scope.config)]
                    .filter { $0.1[name] != nil }.map { "'\($0.0).\(name)'" }
                if !fields.isEmpty {
                    message += "; did you mean \(fields.joined(separator: " or "))? (fields are read with their namespace)"
                } else if let near = closestMatch(to: name, in: Array(Parser.reserved) + Builtin.allCases.map(\.rawValue)) {
                    message += "; did you mean '\(near)'?"
                } else {
                    message += " (names are config.x, context.x, event.x, true, false, pi, inf, index, or a function call)"
                }
                throw ExpressionError(column: t.column, message: message, status: .notFound)
            }
        default:
            throw ExpressionError(column: t.column, message: "expected a value but found \(describe(t.token))")
        }
    }

    private mutating func field(_ namespace: String, column: Int) throws(ExpressionError) -> Typed {
        try expect(".")
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.token else {
            throw ExpressionError(column: nameToken.column, message: "expected a field name after '\(namespace).'")
        }
        let table: [String: Field]
        let what: String
        switch namespace {
        case "config": table = scope.config; what = "config parameter"
        case "context":
            guard scope.readsMachine else {
                throw ExpressionError(column: column, message: "'context.\(name)' cannot be read here: \(scope.noEvent), before the context exists (config can be read)")
            }
            table = scope.context; what = "context field"
        default:
            guard let fields = scope.event else {
                throw ExpressionError(column: column, message: "'event.\(name)' cannot be read here: \(scope.noEvent)")
            }
            table = fields; what = "field of event '\(scope.eventName ?? "")'"
        }
        guard let f = table[name] else {
            var message = "no \(what) named '\(name)'"
            if let near = closestMatch(to: name, in: Array(table.keys)) { message += "; did you mean '\(near)'?" }
            else if table.isEmpty { message += " (there are none)" }
            else { message += " (known: \(table.keys.sorted().joined(separator: ", ")))" }
            throw ExpressionError(column: nameToken.column, message: message, status: .notFound)
        }
        switch namespace {
        case "config": return (.config(f.index), f.type, column)
        case "context": return (f.isComputed ? .computed(f.index) : .context(f.index), f.type, column)
        default: return (.event(f.index), f.type, column)
        }
    }

    /// A name argument of in(), timerActive() or text(): a string literal
    /// resolved now.
    private mutating func nameArgument(_ function: String, _ table: [String: Int], _ what: String) throws(ExpressionError) -> Int {
        let t = advance()
        guard case .string(let name) = t.token else {
            throw ExpressionError(column: t.column, message: "\(function)() takes the \(what) name as a quoted string")
        }
        try expect(")")
        guard let id = table[name] else {
            var message = "\(function)('\(name)'): no \(what) named '\(name)'"
            if let near = closestMatch(to: name, in: Array(table.keys)) { message += "; did you mean '\(near)'?" }
            throw ExpressionError(column: t.column, message: message, status: .notFound)
        }
        return id
    }

    private mutating func call(_ name: String, column: Int) throws(ExpressionError) -> Typed {
        if let b = Builtin(rawValue: name) {
            switch b {
            case .in, .timerActive:
                guard scope.readsMachine else {
                    throw ExpressionError(column: column, message: "\(name)() cannot be read here: \(scope.noEvent), before the machine enters a state or starts a timer")
                }
                if b == .in { return (.isActive(try nameArgument("in", scope.states, "state")), .bool, column) }
                return (.timerActive(try nameArgument("timerActive", scope.timers, "timer")), .bool, column)
            case .text: return (.text(try nameArgument("text", scope.strings, "string")), .string, column)
            default: break
            }
        }
        var args: [Typed] = []
        if !accept(")") {
            repeat { args.append(try conditional()) } while accept(",")
            try expect(")")
        }
        if let b = Builtin(rawValue: name) { return try builtin(b, args, column: column) }
        guard let f = scope.functions[name] else {
            var message = "unknown function '\(name)'"
            let known = Builtin.allCases.map(\.rawValue) + Array(scope.functions.functions.keys)
            if let near = closestMatch(to: name, in: known) { message += "; did you mean '\(near)'?" }
            else { message += " (register it with the runtime before loading the definition)" }
            throw ExpressionError(column: column, message: message, status: .notFound)
        }
        guard let result = f.result else {
            throw ExpressionError(column: column, message: "'\(name)' is an action (it returns nothing); call it with a \"call\" action, not in an expression")
        }
        guard args.count == f.parameters.count else {
            throw ExpressionError(column: column, message: "\(f.signature) takes \(counted(f.parameters.count, "argument")), not \(args.count)")
        }
        for (i, (a, p)) in zip(args, f.parameters).enumerated() where a.1 != p {
            throw ExpressionError(column: a.2, message: "argument \(i + 1) of \(f.signature) must be a \(p), not a \(a.1)", status: .kind)
        }
        let node = Node.external(f, args.map(\.0))
        operations.append(node)
        return (node, result, column)
    }

    private mutating func builtin(_ b: Builtin, _ args: [Typed], column: Int) throws(ExpressionError) -> Typed {
        func arity(_ n: ClosedRange<Int>) throws(ExpressionError) {
            guard n.contains(args.count) else {
                let want = n.lowerBound == n.upperBound ? counted(n.lowerBound, "argument")
                    : n.upperBound == Int.max ? "at least \(counted(n.lowerBound, "argument"))"
                    : "\(n.lowerBound) to \(counted(n.upperBound, "argument"))"
                throw ExpressionError(column: column, message: "\(b.rawValue)() takes \(want), not \(args.count)")
            }
        }
        func numbers() throws(ExpressionError) {
            for (i, a) in args.enumerated() where a.1 != .number {
                throw ExpressionError(column: a.2, message: "argument \(i + 1) of \(b.rawValue)() must be a number, not a \(a.1)", status: .kind)
            }
        }
        let nodes = args.map(\.0)
        switch b {
        case .abs, .floor, .ceil, .round, .sqrt, .sin, .cos:
            try arity(1...1); try numbers()
            return (fold(.builtin(b, nodes)), .number, column)
        case .min, .max:
            try arity(2...Int.max); try numbers()
            return (fold(.builtin(b, nodes)), .number, column)
        case .clamp:
            try arity(3...3); try numbers()
            return (fold(.builtin(b, nodes)), .number, column)
        case .now:
            if let why = scope.noClock { throw ExpressionError(column: column, message: "now() cannot be read here: \(why)") }
            try arity(0...0)
            return (.builtin(.now, []), .number, column)
        case .fixed:
            try arity(2...2); try numbers()
            return (fold(.builtin(b, nodes)), .string, column)
        case .str:
            try arity(1...1)
            if case .vector = args[0].1 { throw ExpressionError(column: args[0].2, message: "str() takes a number, bool or string") }
            return (fold(.builtin(b, nodes)), .string, column)
        case .len:
            try arity(1...1)
            try require(args[0], .string, "the argument of len()")
            return (fold(.builtin(b, nodes)), .number, column)
        case .rgba, .rect:
            try arity(4...4); try numbers()
            return (fold(.builtin(b, nodes)), .vector(b == .rgba ? .color : .rect), column)
        case .point, .size:
            try arity(2...2); try numbers()
            return (fold(.builtin(b, nodes)), .vector(b == .point ? .point : .size), column)
        case .in, .timerActive, .text:
            // Parsed by `call` before the argument list (their argument is a name).
            throw ExpressionError(column: column, message: "\(b.rawValue)() takes a quoted name")
        }
    }

    /// An operation just made: computed now when its operands are all
    /// constants (`constantFolded`), else kept on `operations`.
    private mutating func fold(_ node: Node) -> Node {
        let folded = constantFolded(node)
        if case .constant = folded {} else { operations.append(folded) }
        return folded
    }

    /// Computes nodes whose operands are all constants (no config, context,
    /// event, clock or function is involved).
    private func constantFolded(_ node: Node) -> Node {
        func constant(_ n: Node) -> Bool { if case .constant = n { return true }; return false }
        let operands: [Node]
        switch node {
        case .negate(let a), .not(let a): operands = [a]
        case .arithmetic(_, let a, let b), .concatenate(let a, let b), .compare(_, let a, let b), .and(let a, let b), .or(let a, let b):
            operands = [a, b]
        case .conditional(let c, let a, let b): operands = [c, a, b]
        case .builtin(let f, let args) where f != .now: operands = args
        default: return node
        }
        guard operands.allSatisfy(constant) else { return node }
        var context = EvaluationContext.empty
        guard let v = try? Evaluator.evaluate(node, &context) else { return node }
        return .constant(v)
    }
}
