import AnimationCore

/// An expression compiled to a flat list of stack instructions: what runs
/// on every event. The tree (`Node`) is kept as the reference the compiled
/// form is tested against; evaluating the compiled form touches no
/// reference counts for numbers and booleans.
final class Program: Sendable {
    enum Instruction: Sendable {
        case constant(Int32)
        case config(Int32)
        case context(Int32)
        case event(Int32)
        case computed(Int32)
        case index
        case negate, not
        case add, subtract, multiply, divide, remainder, concatenate
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        /// Pops a boolean; jumps when it is false.
        case branchIfFalse(Int32)
        /// Jumps, keeping the top, when it is false; else pops it (`and`).
        case branchIfFalseOrPop(Int32)
        /// Jumps, keeping the top, when it is true; else pops it (`or`).
        case branchIfTrueOrPop(Int32)
        case jump(Int32)
        case isActive(Int32)
        case timerActive(Int32)
        case text(Int32)
        case builtin(Builtin, Int32)
        case external(Int32, Int32)
    }

    let code: [Instruction]
    let constants: [MachineValue]
    let functions: [MachineFunction]
    let maxStack: Int

    init(_ root: Node) {
        var b = Builder()
        b.emit(root)
        code = b.code; constants = b.constants; functions = b.functions; maxStack = max(b.maxDepth, 1)
    }

    private struct Builder {
        var code: [Instruction] = []
        var constants: [MachineValue] = []
        var functions: [MachineFunction] = []
        var depth = 0, maxDepth = 0

        mutating func push(_ i: Instruction, _ delta: Int) {
            code.append(i)
            depth += delta
            maxDepth = max(maxDepth, depth)
        }

        mutating func patch(_ at: Int, to target: Int) {
            switch code[at] {
            case .branchIfFalse: code[at] = .branchIfFalse(Int32(target))
            case .branchIfFalseOrPop: code[at] = .branchIfFalseOrPop(Int32(target))
            case .branchIfTrueOrPop: code[at] = .branchIfTrueOrPop(Int32(target))
            case .jump: code[at] = .jump(Int32(target))
            default: break
            }
        }

        /// What is left to do, last first: a node to compile, an
        /// instruction to add once its operands are compiled, a branch to
        /// add or to aim at the end of the code so far (by label).
        enum Step {
            case node(Node)
            case op(Instruction, Int)
            case external(MachineFunction, Int)
            case branch(Instruction, label: Int)
            case land(label: Int)
        }

        /// Compiles `root` in post-order with a stack of steps, not by
        /// recursion: a chain of 2043 '+' is a tree 2044 deep, and the
        /// caller's thread may be small.
        mutating func emit(_ root: Node) {
            var steps: [Step] = [.node(root)]
            var labels: [Int] = []
            func label() -> Int { labels.append(0); return labels.count - 1 }
            while let step = steps.popLast() {
                switch step {
                case .op(let i, let delta): push(i, delta)
                case .external(let f, let argc):
                    functions.append(f)
                    push(.external(Int32(functions.count - 1), Int32(argc)), 1 - argc)
                case .branch(let i, let l): labels[l] = code.count; push(i, -1)
                case .land(let l): patch(labels[l], to: code.count)
                case .node(let n):
                    // Pushed in reverse: the first operand is compiled first.
                    switch n {
                    case .constant(let v): constants.append(v); push(.constant(Int32(constants.count - 1)), 1)
                    case .config(let i): push(.config(Int32(i)), 1)
                    case .context(let i): push(.context(Int32(i)), 1)
                    case .event(let i): push(.event(Int32(i)), 1)
                    case .computed(let i): push(.computed(Int32(i)), 1)
                    case .index: push(.index, 1)
                    case .negate(let a): steps += [.op(.negate, 0), .node(a)]
                    case .not(let a): steps += [.op(.not, 0), .node(a)]
                    case .arithmetic(let op, let a, let b):
                        let i: Instruction
                        switch op {
                        case .add: i = .add
                        case .subtract: i = .subtract
                        case .multiply: i = .multiply
                        case .divide: i = .divide
                        case .remainder: i = .remainder
                        }
                        steps += [.op(i, -1), .node(b), .node(a)]
                    case .concatenate(let a, let b): steps += [.op(.concatenate, -1), .node(b), .node(a)]
                    case .compare(let op, let a, let b):
                        let i: Instruction
                        switch op {
                        case .equal: i = .equal
                        case .notEqual: i = .notEqual
                        case .less: i = .less
                        case .lessOrEqual: i = .lessOrEqual
                        case .greater: i = .greater
                        case .greaterOrEqual: i = .greaterOrEqual
                        }
                        steps += [.op(i, -1), .node(b), .node(a)]
                    case .and(let a, let b):
                        let l = label()
                        steps += [.land(label: l), .node(b), .branch(.branchIfFalseOrPop(0), label: l), .node(a)]
                    case .or(let a, let b):
                        let l = label()
                        steps += [.land(label: l), .node(b), .branch(.branchIfTrueOrPop(0), label: l), .node(a)]
                    case .conditional(let c, let a, let b):
                        let toElse = label(), toEnd = label()
                        steps += [.land(label: toEnd), .node(b), .land(label: toElse), .branch(.jump(0), label: toEnd),
                                  .node(a), .branch(.branchIfFalse(0), label: toElse), .node(c)]
                    case .isActive(let s): push(.isActive(Int32(s)), 1)
                    case .timerActive(let t): push(.timerActive(Int32(t)), 1)
                    case .text(let k): push(.text(Int32(k)), 1)
                    case .builtin(let f, let args):
                        steps.append(.op(.builtin(f, Int32(args.count)), 1 - args.count))
                        steps += args.reversed().map { .node($0) }
                    case .external(let f, let args):
                        steps.append(.external(f, args.count))
                        steps += args.reversed().map { .node($0) }
                    }
                }
            }
        }
    }

    /// Runs the program. `c` supplies the fields; the result has the
    /// expression's type.
    func run(_ c: inout EvaluationContext) throws(AnimrtError) -> MachineValue {
        // The stack lives in temporary (stack) memory: no allocation per run.
        try withUnsafeTemporaryAllocation(of: MachineValue.self, capacity: maxStack) { (stack) throws(AnimrtError) -> MachineValue in
            var sp = 0
            defer { if sp > 0 { stack.baseAddress!.deinitialize(count: sp) } }
            try code.withUnsafeBufferPointer { (ops) throws(AnimrtError) in
                try constants.withUnsafeBufferPointer { (k) throws(AnimrtError) in
                    try execute(ops, k, &c, stack.baseAddress!, &sp)
                }
            }
            return (stack.baseAddress! + sp).move()
        }
    }

    /// The loop; on success the result is the only value left, at sp − 1
    /// (the caller moves it out and sp is decremented past it).
    private func execute(_ code: UnsafeBufferPointer<Instruction>, _ constants: UnsafeBufferPointer<MachineValue>,
                         _ c: inout EvaluationContext, _ s: UnsafeMutablePointer<MachineValue>, _ sp: inout Int) throws(AnimrtError) {
        var pc = 0
        let n = code.count
        @inline(__always) func number(_ v: MachineValue) -> Double { if case .number(let d) = v { return d }; return .nan }
        @inline(__always) func bool(_ v: MachineValue) -> Bool { if case .bool(let b) = v { return b }; return false }
        @inline(__always) func push(_ v: MachineValue) { (s + sp).initialize(to: v); sp += 1 }
        @inline(__always) func pop() -> MachineValue { sp -= 1; return (s + sp).move() }
        while pc < n {
            switch code[pc] {
            case .constant(let i): push(constants[Int(i)])
            case .config(let i): push(c.config[Int(i)])
            case .context(let i): push(c.context[Int(i)])
            case .event(let i): push(c.event[Int(i)])
            case .computed(let i): push(try c.host?.computed(Int(i)) ?? .number(0))
            case .index: push(.number(c.index))
            case .negate: s[sp - 1] = .number(-number(s[sp - 1]))
            case .not: s[sp - 1] = .bool(!bool(s[sp - 1]))
            case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater, .greaterOrEqual:
                let y = number(pop()), x = number(s[sp - 1])
                let r: MachineValue
                switch code[pc] {
                case .add: r = .number(x + y)
                case .subtract: r = .number(x - y)
                case .multiply: r = .number(x * y)
                case .divide: r = .number(x / y)
                case .remainder: r = .number(x.truncatingRemainder(dividingBy: y))
                case .less: r = .bool(x < y)
                case .lessOrEqual: r = .bool(x <= y)
                case .greater: r = .bool(x > y)
                default: r = .bool(x >= y)
                }
                s[sp - 1] = r
            case .concatenate:
                let y = pop(), x = pop()
                push(.string(try Evaluator.join(x.string ?? "", y.string ?? "")))
            case .equal, .notEqual:
                let y = pop(), x = pop()
                let same = x == y
                if case .equal = code[pc] { push(.bool(same)) } else { push(.bool(!same)) }
            case .branchIfFalse(let t):
                if !bool(pop()) { pc = Int(t); continue }
            case .branchIfFalseOrPop(let t):
                if !bool(s[sp - 1]) { pc = Int(t); continue }
                _ = pop()
            case .branchIfTrueOrPop(let t):
                if bool(s[sp - 1]) { pc = Int(t); continue }
                _ = pop()
            case .jump(let t): pc = Int(t); continue
            case .isActive(let st): push(.bool(c.host?.isActive(Int(st)) ?? false))
            case .timerActive(let t): push(.bool(c.host?.isTimerActive(Int(t)) ?? false))
            case .text(let k): push(.string(c.host?.text(Int(k)) ?? ""))
            case .builtin(let f, let argc):
                var args: [Node] = []
                for i in (sp - Int(argc))..<sp { args.append(.constant(s[i])) }
                for _ in 0..<argc { _ = pop() }
                push(try Evaluator.evaluate(.builtin(f, args), &c))
            case .external(let f, let argc):
                var args: [MachineValue] = []
                for i in (sp - Int(argc))..<sp { args.append(s[i]) }
                for _ in 0..<argc { _ = pop() }
                push(try functions[Int(f)].call(args) ?? .number(0))
            }
            pc += 1
        }
        if sp == 0 { push(.number(0)) }
        sp -= 1
    }
}
