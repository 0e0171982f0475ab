import AnimationCore
import CAnimrt
import StateMachines

/// A function from outside the library: a C function bound by signature
/// through libffi, or a callback the host or a plugin registered
/// (`animrt_function_fn`). Machines call it through its `machineFunction`;
/// the host calls it directly with tagged values.
public final class ExternalFunction: @unchecked Sendable {
    enum Implementation {
        case bound(CallDescriptor)
        /// The callback, its user data, and what keeps its code mapped (a plugin's library).
        case callback(animrt_function_fn, UnsafeMutableRawPointer?, SharedLibrary?)
    }

    public let name: String
    public let signature: Signature
    let implementation: Implementation
    /// The runtime whose calls are refused while this runs (re-entrance).
    let runtimeTag: UInt16

    init(name: String, signature: Signature, implementation: Implementation, runtimeTag: UInt16) {
        self.name = name; self.signature = signature; self.implementation = implementation; self.runtimeTag = runtimeTag
    }

    /// "clamp(f64, f64, f64) -> f64", for messages.
    public var summary: String { "'\(name)' (\(signature))" }

    /// The function as machines see it, or nil when a type has no machine
    /// form (a pointer parameter or result): the host alone can call it.
    public func machineFunction() -> MachineFunction? {
        var parameters: [MachineType] = []
        for t in signature.parameters {
            guard let m = t.machineType else { return nil }
            parameters.append(m)
        }
        let result: MachineType?
        if signature.result == .void { result = nil }
        else {
            guard let r = signature.result.machineType else { return nil }
            result = r
        }
        return MachineFunction(name: name, parameters: parameters, result: result) { [self] (args: [MachineValue]) throws(AnimrtError) -> MachineValue? in
            var values: [CValue] = []
            values.reserveCapacity(args.count)
            for (i, (a, t)) in zip(args, signature.parameters).enumerated() {
                values.append(try CValue(a, as: t, "argument \(i + 1) of \(summary)"))
            }
            return try invoke(values)?.machineValue("the result of \(summary)")
        }
    }

    /// Refuses a call with other than the function's number of arguments.
    public func checkArgumentCount(_ n: Int) throws(AnimrtError) {
        guard n == signature.parameters.count else {
            throw AnimrtError(.invalidArgument, "\(summary) takes \(counted(signature.parameters.count, "argument")); \(given(n))")
        }
    }

    /// Calls the function as the host does (`animrt_function_call`).
    public func call(_ arguments: [TaggedValue]) throws(AnimrtError) -> TaggedValue? {
        try checkArgumentCount(arguments.count)
        var values: [CValue] = []
        values.reserveCapacity(arguments.count)
        for (i, (a, t)) in zip(arguments, signature.parameters).enumerated() {
            values.append(try CValue(a, as: t, "argument \(i + 1) of \(summary)"))
        }
        return try invoke(values)?.tagged("the result of \(summary)")
    }

    /// Calls the function with checked arguments, the runtime marked busy on
    /// this thread. A failure is `.callback` with what the function said.
    func invoke(_ arguments: [CValue]) throws(AnimrtError) -> CValue? {
        let result = try Callout.within(runtimeTag) { () throws(AnimrtError) -> CValue? in
            switch implementation {
            case .bound(let d):
                do throws(AnimrtError) { return try d.call(arguments) }
                catch { throw AnimrtError(error.status, "function \(summary) \(error.message)") }
            case .callback(let fn, let user, _):
                return try callBack(fn, user, arguments)
            }
        }
        if case .string(let s)? = result, s.utf8.count > ExternalFunction.maximumStringBytes {
            throw AnimrtError(.callback, "function \(summary) returned a string of \(s.utf8.count) bytes; a string result is at most \(ExternalFunction.maximumStringBytes) (ANIMRT_STRING_MAX)")
        }
        return result
    }

    /// The longest string result, in bytes without the NUL
    /// (`ANIMRT_STRING_MAX`): a buffer one byte longer holds any result, so
    /// a host never loses one to a buffer too small after the function has
    /// run. It is the longest string a machine's expressions make.
    public static let maximumStringBytes = Int(ANIMRT_STRING_MAX)

    private func callBack(_ fn: animrt_function_fn, _ user: UnsafeMutableRawPointer?, _ arguments: [CValue]) throws(AnimrtError) -> CValue? {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for s in strings { RawCalls.freeString(s) } }
        var args: [animrt_value] = []
        args.reserveCapacity(arguments.count)
        for (i, a) in arguments.enumerated() {
            let t: TaggedValue
            switch a {
            case .float(let d): t = .number(d)
            case .signed(let i): t = .integer(i)
            case .unsigned(let u):
                // The callback reads an int64_t: a u64 past its range would
                // arrive negative, so it is refused as a u64 result past it is.
                guard let n = Int64(exactly: u) else {
                    throw AnimrtError(.outOfRange, "argument \(i + 1) of \(summary) is \(u), more than an animrt_value integer holds (2^63 - 1)")
                }
                t = .integer(n)
            case .bool(let b): t = .bool(b)
            case .pointer(let p): t = .pointer(p)
            case .string(let s): t = .string(s)
            }
            args.append(cValue(t) { (s: String) -> UnsafePointer<CChar> in
                let c = RawCalls.duplicate(s)
                strings.append(c)
                return UnsafePointer(c)
            })
        }
        let declared = signature.result
        var result = animrt_value(type: declared.tag?.rawValue ?? 0, boolean: 0, number: 0, integer: 0, string: nil, pointer: nil)
        _ = Callout.takeMessage()
        let status = args.withUnsafeMutableBufferPointer { a in fn(user, UnsafePointer(a.baseAddress), a.count, &result) }
        guard status == 0 else {
            let said = Callout.takeMessage() ?? "no message (use animrt_error_set)"
            let name = Status(rawValue: status).map { "\($0.name)" } ?? "status \(status)"
            throw AnimrtError(.callback, "function \(summary) failed (\(name)): \(said)")
        }
        guard let tag = declared.tag else { return nil }
        guard result.type == tag.rawValue else {
            let set = TaggedValue.Tag(rawValue: result.type).map { "\($0.name) (\(result.type))" } ?? "\(result.type), which is no animrt_value type,"
            throw AnimrtError(.callback, "function \(summary) set a result of type \(set) where \(tag.name) (\(tag.rawValue)) was declared; result->type holds the declared type when the function is called: leave it")
        }
        switch declared {
        // A bound function's float result is a float's value; a registered
        // one's double is rounded to one, so f32 means the same either way.
        case .f32, .f64:
            do throws(AnimrtError) { return try CValue.float(result.number, as: declared, "the result") }
            catch { throw AnimrtError(.callback, "function \(summary): \(error.message)") }
        case .bool: return .bool(result.boolean != 0)
        case .ptr: return .pointer(UInt(bitPattern: result.pointer))
        case .str:
            guard let p = result.string else { throw AnimrtError(.callback, "function \(summary) returned a NULL string") }
            guard let s = String(validatingCString: p) else {
                throw AnimrtError(.callback, "function \(summary) returned a string that is not valid UTF-8")
            }
            return .string(s)
        default:
            do throws(AnimrtError) { return try CValue(.integer(result.integer), as: declared, "the result") }
            catch { throw AnimrtError(.callback, "function \(summary): \(error.message)") }
        }
    }
}
