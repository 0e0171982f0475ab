import AnimationCore

/// A function that definitions can call by name: in a guard or any other
/// expression when it returns a value, or as a `call` action. Functions come
/// from the host (Swift, C or Python) and from plugins; a definition that
/// names a function not registered when it loads is refused.
public final class MachineFunction: Sendable {
    public let name: String
    public let parameters: [MachineType]
    /// The type of the result; nil for a function that only acts.
    public let result: MachineType?
    private let body: @Sendable ([MachineValue]) throws(AnimrtError) -> MachineValue?

    /// `body` runs on the thread that sends the event or ticks the runtime,
    /// with arguments of the declared types. A thrown error becomes the
    /// machine's `error.execution` (the rest of that action block is skipped).
    public init(name: String, parameters: [MachineType], result: MachineType?,
                _ body: @escaping @Sendable ([MachineValue]) throws(AnimrtError) -> MachineValue?) {
        self.name = name; self.parameters = parameters; self.result = result; self.body = body
    }

    /// Calls the function and checks what it returned.
    func call(_ arguments: [MachineValue]) throws(AnimrtError) -> MachineValue? {
        let value = try body(arguments)
        guard let result else { return nil }
        guard let value, value.type == result, value.isFinite else {
            throw AnimrtError(.kind, "function '\(name)' returned \(value.map { "\($0)" } ?? "nothing") where a finite \(result) was declared")
        }
        return value
    }

    public var signature: String {
        "\(name)(\(parameters.map(\.description).joined(separator: ", "))) -> \(result?.description ?? "action")"
    }
}

/// The functions a runtime's machines may name (built-ins are not here:
/// they are part of the language).
public struct FunctionRegistry: Sendable {
    public private(set) var functions: [String: MachineFunction] = [:]

    public init() {}

    /// Adds `function`; a name is registered once and may not shadow a built-in.
    public mutating func register(_ function: MachineFunction) throws(AnimrtError) {
        try Self.checkName(function.name)
        guard functions[function.name] == nil else {
            throw AnimrtError(.exists, "a machine function named '\(function.name)' is already registered")
        }
        functions[function.name] = function
    }

    /// Checks that `name` can name a function: letters, digits and '_', not
    /// starting with a digit, and not a built-in of the expression language.
    public static func checkName(_ name: String) throws(AnimrtError) {
        guard Parser.isName(name) else {
            throw AnimrtError(.invalidArgument, "function name '\(name)' must be letters, digits and '_', not starting with a digit")
        }
        guard Builtin(rawValue: name) == nil, !Parser.reserved.contains(name) else {
            throw AnimrtError(.exists, "'\(name)' is a built-in of the expression language; register or bind the function under another name")
        }
    }

    /// Removes a function; definitions already loaded keep the one they resolved.
    @discardableResult
    public mutating func unregister(_ name: String) -> Bool { functions.removeValue(forKey: name) != nil }

    public subscript(name: String) -> MachineFunction? { functions[name] }
}
