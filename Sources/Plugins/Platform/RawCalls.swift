// The one file through which the Plugins module calls C: the dynamic loader
// (dlopen, dlsym, dlclose, dlerror, dladdr to tell which library holds a
// symbol, and access to say why a name was not
// found), libffi (ffi_prep_cif, ffi_call) and a
// thread-specific slot. Everything else in the module calls these wrappers.
@preconcurrency import CLibFFI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum RawCalls {
    // MARK: The dynamic loader

    /// dlopen(path, RTLD_NOW | RTLD_LOCAL); nil path: the process itself.
    /// On failure, dlerror's text.
    static func open(_ path: String?) -> Result<UnsafeMutableRawPointer, LoaderError> {
        let handle: UnsafeMutableRawPointer?
        if let path { handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) } else { handle = dlopen(nil, RTLD_NOW) }
        guard let handle else { return .failure(LoaderError(text: lastLoaderError())) }
        return .success(handle)
    }

    /// dlsym; on failure, dlerror's text. A symbol whose value is NULL is a failure too.
    static func symbol(_ handle: UnsafeMutableRawPointer, _ name: String) -> Result<UnsafeMutableRawPointer, LoaderError> {
        _ = dlerror()
        guard let p = dlsym(handle, name) else {
            return .failure(LoaderError(text: lastLoaderError() ?? "the symbol's value is NULL"))
        }
        return .success(p)
    }

    static func close(_ handle: UnsafeMutableRawPointer) { dlclose(handle) }

    /// The file of the loaded object that holds `address` (dladdr), or nil
    /// when that cannot be told.
    static func objectFile(of address: UnsafeRawPointer) -> String? {
        // Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr.
        var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        guard let dladdr = addressLookup, withUnsafeMutableBytes(of: &info, { dladdr(address, $0.baseAddress) }) != 0,
              let name = info.0 else { return nil }
        return String(cString: name)
    }

    /// Whether the loaded object that holds `address` is the one `handle`
    /// (opened by `open`) names; true when that cannot be told. dlsym on a
    /// handle searches the object's dependencies too, so a symbol it finds
    /// may be another library's: the file holding it is opened again
    /// without loading anything (RTLD_NOLOAD), which gives the handle of the
    /// object loaded from it.
    static func isIn(_ handle: UnsafeMutableRawPointer, _ address: UnsafeRawPointer) -> Bool {
        guard let file = objectFile(of: address) else { return true }
        guard let other = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) else { return false }
        dlclose(other)
        return other == handle
    }

    /// dladdr, which the C library has but its Swift module does not show
    /// (it is a GNU extension there): looked up in the process once.
    private typealias AddressLookup = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private static let addressLookup: AddressLookup? = {
        guard let process = dlopen(nil, RTLD_NOW), let f = dlsym(process, "dladdr") else { return nil }
        return unsafeBitCast(f, to: AddressLookup.self)
    }()

    private static func lastLoaderError() -> String? {
        guard let e = dlerror() else { return nil }
        return String(cString: e)
    }

    struct LoaderError: Error { let text: String? }

    // MARK: libffi

    /// The libffi type of one signature type; `str` and `ptr` are pointers.
    static func ffiType(_ t: CType) -> UnsafeMutablePointer<ffi_type> {
        switch t {
        case .void: return withUnsafeMutablePointer(to: &ffi_type_void) { $0 }
        case .bool, .u8: return withUnsafeMutablePointer(to: &ffi_type_uint8) { $0 }
        case .i8: return withUnsafeMutablePointer(to: &ffi_type_sint8) { $0 }
        case .i16: return withUnsafeMutablePointer(to: &ffi_type_sint16) { $0 }
        case .u16: return withUnsafeMutablePointer(to: &ffi_type_uint16) { $0 }
        case .i32: return withUnsafeMutablePointer(to: &ffi_type_sint32) { $0 }
        case .u32: return withUnsafeMutablePointer(to: &ffi_type_uint32) { $0 }
        case .i64: return withUnsafeMutablePointer(to: &ffi_type_sint64) { $0 }
        case .u64: return withUnsafeMutablePointer(to: &ffi_type_uint64) { $0 }
        case .f32: return withUnsafeMutablePointer(to: &ffi_type_float) { $0 }
        case .f64: return withUnsafeMutablePointer(to: &ffi_type_double) { $0 }
        case .ptr, .str: return withUnsafeMutablePointer(to: &ffi_type_pointer) { $0 }
        }
    }

    /// ffi_prep_cif with the platform's default calling convention. libffi
    /// keeps `argumentTypes`: it must live as long as `cif`.
    static func prepare(_ cif: UnsafeMutablePointer<ffi_cif>, result: UnsafeMutablePointer<ffi_type>,
                        argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>, count: Int) -> Bool {
        ffi_prep_cif(cif, FFI_DEFAULT_ABI, UInt32(count), result, argumentTypes) == FFI_OK
    }

    /// ffi_call: `result` must hold at least 8 bytes (libffi widens small
    /// integer results to a full register).
    static func call(_ cif: UnsafeMutablePointer<ffi_cif>, _ function: UnsafeMutableRawPointer,
                     _ result: UnsafeMutableRawPointer, _ arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        ffi_call(cif, unsafeBitCast(function, to: (@convention(c) () -> Void).self), result, arguments)
    }

    // MARK: C strings

    /// strnlen: the length of `p`, reading at most `limit` bytes.
    static func length(_ p: UnsafePointer<CChar>, limit: Int) -> Int { strnlen(p, limit) }

    /// A copy of `s` in C memory (free with `freeString`).
    static func duplicate(_ s: String) -> UnsafeMutablePointer<CChar> { strdup(s)! }

    static func freeString(_ p: UnsafeMutablePointer<CChar>) { free(p) }

    /// The current directory (getcwd), or nil when it cannot be read (it
    /// was removed, or its path is longer than the system takes).
    static func currentDirectory() -> String? {
        guard let p = getcwd(nil, 0) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether a file exists at `path` (relative to the current directory).
    static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    // MARK: Thread-specific state

    /// A per-thread object, created on first use and released with its thread.
    static func threadObject<T: AnyObject>(_ key: pthread_key_t, _ make: () -> T) -> T {
        if let p = pthread_getspecific(key) { return Unmanaged<T>.fromOpaque(p).takeUnretainedValue() }
        let object = make()
        pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
        return object
    }

    /// A key whose values are C strings this module copied, freed when their thread ends.
    static func makeStringKey() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }

    /// Keeps a copy of `s` as this thread's value of `key` (a string key), freeing the old one.
    static func setThreadString(_ key: pthread_key_t, _ s: String) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, strdup(s))
        free(old)
    }

    /// This thread's value of string key `key`, if any.
    static func threadString(_ key: pthread_key_t) -> UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }

    /// A key whose values are released (as retained objects) when their thread ends.
    static func makeThreadKey() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key) { p in if let p { Unmanaged<AnyObject>.fromOpaque(p).release() } }
        return key
    }
}
