import AnimationCore

/// A parsed and type-checked expression of a definition: a guard, a value
/// assigned to context, a payload field, an animation parameter.
///
/// Expressions are parsed once, when the definition loads; evaluating one
/// cannot trap: arithmetic follows IEEE 754 (a division by zero gives ±inf,
/// which the places that need a finite number reject). It fails, as an
/// action does, only when a registered function throws or a joined string
/// would pass `DefinitionLimits.maxStringBytes`.
public final class Expression: Sendable, CustomStringConvertible {
    /// The text as written in the definition.
    public let text: String
    /// The type of the result.
    public let type: MachineType
    /// The checked tree: the reference semantics.
    var root: Node { tree }
    /// Set once in `init`; `deinit` takes it apart (see `Node.dismantle`).
    nonisolated(unsafe) private var tree: Node
    /// The same, compiled: what runs.
    let program: Program

    public var description: String { text }

    /// A constant expression (for defaults and literals in the definition).
    convenience init(constant: MachineValue, text: String) {
        self.init(text: text, type: constant.type, root: .constant(constant))
    }

    init(text: String, type: MachineType, root: Node) {
        self.text = text; self.type = type; self.tree = root
        self.program = Program(root)
    }

    deinit { Node.dismantle(&tree) }

    /// The value, when the expression does not depend on anything that
    /// changes (a literal, or arithmetic on literals and config).
    var constantValue: MachineValue? { if case .constant(let v) = root { return v }; return nil }
}

/// A field an expression can name: its slot and its type. A computed
/// context field is read by evaluating its expression.
struct Field: Sendable {
    let index: Int
    let type: MachineType
    var isComputed = false
}

/// Arithmetic on numbers.
enum ArithmeticOperator: Sendable { case add, subtract, multiply, divide, remainder }

/// Comparisons; `<` and friends take numbers, `==` and `!=` any equal types.
enum ComparisonOperator: Sendable { case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual }

/// Functions every definition can call.
enum Builtin: String, Sendable, CaseIterable {
    case abs, floor, ceil, round, sqrt, sin, cos, min, max, clamp, now, `in`, timerActive, text, fixed, str, len
    case rgba, point, size, rect
}

/// The tree of a checked expression. Names are resolved to slots.
indirect enum Node: Sendable {
    case constant(MachineValue)
    case config(Int)
    case context(Int)
    case event(Int)
    /// A computed context field: its expression, evaluated when read.
    case computed(Int)
    /// `index`: the copy of a repeated part being built or animated.
    case index
    case negate(Node)
    case not(Node)
    case arithmetic(ArithmeticOperator, Node, Node)
    case concatenate(Node, Node)
    case compare(ComparisonOperator, Node, Node)
    case and(Node, Node)
    case or(Node, Node)
    case conditional(Node, Node, Node)
    /// `in('state')`: the state's id.
    case isActive(Int)
    /// `timerActive('name')`: the timer's index.
    case timerActive(Int)
    /// `text('key')`: the key's index in the copy table.
    case text(Int)
    case builtin(Builtin, [Node])
    /// A function from the runtime's registry.
    case external(MachineFunction, [Node])
}

extension Node {
    /// The operands of an operation, first to last (none for a leaf).
    var operands: [Node] {
        switch self {
        case .negate(let a), .not(let a): [a]
        case .arithmetic(_, let a, let b), .concatenate(let a, let b), .compare(_, let a, let b), .and(let a, let b), .or(let a, let b):
            [a, b]
        case .conditional(let c, let a, let b): [c, a, b]
        case .builtin(_, let args), .external(_, let args): args
        case .constant, .config, .context, .event, .computed, .index, .isActive, .timerActive, .text: []
        }
    }

    /// The computed context fields the expression reads (directly), in
    /// the order a walk left to right meets them. The walk keeps its own
    /// stack: a chain of operators makes a tree thousands of nodes deep.
    var computedFields: [Int] {
        var out: [Int] = []
        var pending = [self]
        while let n = pending.popLast() {
            if case .computed(let i) = n { out.append(i) }
            pending += n.operands.reversed()
        }
        return out
    }

    /// Whether the value follows from constants and config alone: the
    /// expression reads no context, event, copy (`index`), machine state,
    /// clock, string table or registered function. The walk keeps its own
    /// stack, as `computedFields` does.
    var readsOnlyConfig: Bool {
        var pending = [self]
        while let n = pending.popLast() {
            switch n {
            case .context, .event, .computed, .index, .isActive, .timerActive, .text, .external, .builtin(.now, _): return false
            default: pending += n.operands
            }
        }
        return true
    }

    /// Lets go of a tree one node at a time. Releasing the last reference
    /// to a node releases its operands inside that release, so dropping a
    /// tree thousands of nodes deep the ordinary way recurses as deep (about
    /// 100 bytes of stack a node). Here each node's operands are held on a
    /// list before the node goes, so no release reaches further than one
    /// node. `root` is left a leaf.
    static func dismantle(_ root: inout Node) {
        var pending = [root]
        root = .index
        while let n = pending.popLast() { pending += n.operands }
    }
}
