import AnimationCore
import CLibFFI

/// A C function bound by address and signature, with its libffi call
/// descriptor prepared once. The `ffi_cif` and the array of `ffi_type`
/// pointers it refers to (libffi keeps the pointer, not a copy) are owned
/// here and live exactly as long as the binding.
final class CallDescriptor: @unchecked Sendable {
    let signature: Signature
    let function: UnsafeMutableRawPointer
    /// What keeps the function's code mapped (its library).
    let library: SharedLibrary?
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    /// Prepares the call. Fails (`.invalidArgument`) only if libffi refuses
    /// the signature, which the grammar's types never make it do: each is
    /// one of libffi's own scalar types, with the default ABI.
    init(_ signature: Signature, function: UnsafeMutableRawPointer, library: SharedLibrary?) throws(AnimrtError) {
        self.signature = signature
        self.function = function
        self.library = library
        // Prepared before `self` is whole: a throw after the last stored
        // property is set would run deinit, which frees both again.
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        let n = signature.parameters.count
        let argumentTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: max(1, n))
        for (i, t) in signature.parameters.enumerated() { argumentTypes[i] = RawCalls.ffiType(t) }
        guard RawCalls.prepare(cif, result: RawCalls.ffiType(signature.result), argumentTypes: argumentTypes, count: n) else {
            cif.deallocate(); argumentTypes.deallocate()
            throw AnimrtError(.invalidArgument, "libffi cannot prepare a call with the signature \(signature)")
        }
        self.cif = cif
        self.argumentTypes = argumentTypes
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
    }

    /// The function as a typed pointer when the signature is exactly
    /// f64(f64): the call the prepared descriptor describes, made without
    /// going through ffi_call (the batch evaluates curves with it).
    var unaryCurve: UnaryCurveFunction? {
        signature == .curve ? unsafeBitCast(function, to: UnaryCurveFunction.self) : nil
    }

    /// Calls the function with `arguments` (already checked against the
    /// parameter types) through ffi_call; returns the result, nil for void.
    func call(_ arguments: [CValue]) throws(AnimrtError) -> CValue? {
        let n = arguments.count
        precondition(n == signature.parameters.count)
        // One 8-byte slot per argument, pointers to them, and the result.
        let slots = UnsafeMutableRawPointer.allocate(byteCount: max(1, n) * 8, alignment: 8)
        let values = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(1, n))
        let result = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer {
            for s in strings { RawCalls.freeString(s) }
            slots.deallocate(); values.deallocate(); result.deallocate()
        }
        for (i, (a, t)) in zip(arguments, signature.parameters).enumerated() {
            let slot = slots + i * 8
            values[i] = slot
            switch (a, t) {
            case (.float(let d), .f32): slot.storeBytes(of: Float(d), as: Float.self)
            case (.float(let d), _): slot.storeBytes(of: d, as: Double.self)
            case (.signed(let v), .i8): slot.storeBytes(of: Int8(truncatingIfNeeded: v), as: Int8.self)
            case (.signed(let v), .i16): slot.storeBytes(of: Int16(truncatingIfNeeded: v), as: Int16.self)
            case (.signed(let v), .i32): slot.storeBytes(of: Int32(truncatingIfNeeded: v), as: Int32.self)
            case (.signed(let v), _): slot.storeBytes(of: v, as: Int64.self)
            case (.unsigned(let v), .u8): slot.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
            case (.unsigned(let v), .u16): slot.storeBytes(of: UInt16(truncatingIfNeeded: v), as: UInt16.self)
            case (.unsigned(let v), .u32): slot.storeBytes(of: UInt32(truncatingIfNeeded: v), as: UInt32.self)
            case (.unsigned(let v), _): slot.storeBytes(of: v, as: UInt64.self)
            case (.bool(let b), _): slot.storeBytes(of: b ? 1 : 0, as: UInt8.self)
            case (.pointer(let p), _): slot.storeBytes(of: p, as: UInt.self)
            case (.string(let s), _):
                let c = RawCalls.duplicate(s)
                strings.append(c)
                slot.storeBytes(of: UInt(bitPattern: c), as: UInt.self)
            }
        }
        result.storeBytes(of: 0, as: UInt64.self)
        RawCalls.call(cif, function, result, values)
        // libffi widens integer results narrower than a register to a full one.
        let word = result.load(as: UInt64.self)
        switch signature.result {
        case .void: return nil
        case .f64: return .float(result.load(as: Double.self))
        case .f32: return .float(Double(result.load(as: Float.self)))
        case .i8: return .signed(Int64(Int8(truncatingIfNeeded: word)))
        case .i16: return .signed(Int64(Int16(truncatingIfNeeded: word)))
        case .i32: return .signed(Int64(Int32(truncatingIfNeeded: word)))
        case .i64: return .signed(Int64(bitPattern: word))
        case .u8: return .unsigned(UInt64(UInt8(truncatingIfNeeded: word)))
        case .u16: return .unsigned(UInt64(UInt16(truncatingIfNeeded: word)))
        case .u32: return .unsigned(UInt64(UInt32(truncatingIfNeeded: word)))
        case .u64: return .unsigned(word)
        case .bool: return .bool(UInt8(truncatingIfNeeded: word) != 0)
        case .ptr: return .pointer(UInt(word))
        case .str:
            guard let p = UnsafePointer<CChar>(bitPattern: UInt(word)) else {
                throw AnimrtError(.callback, "returned NULL where a string (str) was declared")
            }
            guard let s = String(validatingCString: p) else {
                throw AnimrtError(.callback, "returned a string that is not valid UTF-8")
            }
            return .string(s)
        }
    }
}
