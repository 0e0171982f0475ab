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
    let root: Node
    /// The same, compiled: what runs.
    let program: Program

    public var description: String { text }

    /// A constant expression (for defaults and literals in the definition).
    convenience init(constant: MachineValue, text: String) {
        self.init(text: text, type: constant.type, root: .constant(constant))
    }

    init(text: String, type: MachineType, root: Node) {
        self.text = text; self.type = type; self.root = root
        self.program = Program(root)
    }

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
    /// The computed context fields the expression reads (directly).
    var computedFields: [Int] {
        var out: [Int] = []
        func walk(_ n: Node) {
            switch n {
            case .computed(let i): out.append(i)
            case .negate(let a), .not(let a): walk(a)
            case .arithmetic(_, let a, let b), .concatenate(let a, let b), .compare(_, let a, let b), .and(let a, let b), .or(let a, let b):
                walk(a); walk(b)
            case .conditional(let c, let a, let b): walk(c); walk(a); walk(b)
            case .builtin(_, let args), .external(_, let args): args.forEach(walk)
            case .constant, .config, .context, .event, .index, .isActive, .timerActive, .text: break
            }
        }
        walk(self)
        return out
    }
}
