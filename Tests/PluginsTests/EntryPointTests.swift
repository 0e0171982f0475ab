import AnimationCore
import CAnimrt
#if canImport(Glibc)
import Glibc
#endif
@testable import Plugins
import StateMachines
import Testing

/// A plugin's entry point is read field by field (R4.1): the version, then
/// the size, then the rest, each only once the fields before it allow it.
/// Each entry here ends where readable memory ends (the next page cannot be
/// read), so a loader that read one byte further would fault.
@Suite("R4.1 plugin entry points")
struct EntryPointTests {
    /// Runs `body` with `bytes` placed at the very end of a readable page.
    func atPageEnd<R>(_ bytes: [UInt8], _ body: (UnsafeRawPointer) throws -> R) throws -> R {
        let page = sysconf(Int32(_SC_PAGESIZE))
        let base = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(base != MAP_FAILED)
        defer { munmap(base, 2 * page) }
        #expect(mprotect(base + page, page, PROT_NONE) == 0)
        let start = base + page - bytes.count
        bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return try body(UnsafeRawPointer(start))
    }

    func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    @Test("An entry point of 8 bytes is refused by its size, read no further")
    func shortEntry() throws {
        let error = try atPageEnd(le32(PluginHost.abiVersion) + le32(8)) { entry in
            #expect(throws: AnimrtError.self) { try PluginHost.readEntry(entry, path: "short.so") }
        }
        #expect(error?.status == .version)
        #expect(error?.message == "'short.so': its entry point is 8 bytes, smaller than an animrt_plugin of ABI version 1 (40); rebuild the plugin against this animrt.h")
    }

    @Test("An entry point one byte short of an animrt_plugin is refused; a whole one is read whole")
    func sizeEdge() throws {
        let whole = MemoryLayout<animrt_plugin>.size
        #expect(whole == 40)
        let oneShort = try atPageEnd(le32(PluginHost.abiVersion) + le32(UInt32(whole - 1)) + [UInt8](repeating: 0, count: whole - 9)) { entry in
            #expect(throws: AnimrtError.self) { try PluginHost.readEntry(entry, path: "p.so") }
        }
        #expect(oneShort?.message.contains("its entry point is 39 bytes, smaller than an animrt_plugin") == true)
        // A whole entry point, its last byte the page's last: every field as written.
        var fields = le32(PluginHost.abiVersion) + le32(UInt32(whole))
        for pointer in [0x1000, 0x2000, 0x3000, 0x4000] as [UInt64] { fields += withUnsafeBytes(of: pointer.littleEndian) { Array($0) } }
        let plugin = try atPageEnd(fields) { try PluginHost.readEntry($0, path: "p.so") }
        #expect(plugin.abi_version == PluginHost.abiVersion && plugin.size == 40)
        #expect(UInt(bitPattern: plugin.name) == 0x1000 && UInt(bitPattern: plugin.version) == 0x2000)
        #expect(unsafeBitCast(plugin.`init`, to: UInt.self) == 0x3000)
        #expect(unsafeBitCast(plugin.fini, to: UInt.self) == 0x4000)
    }

    @Test("An entry point of another version is refused by its first four bytes alone")
    func versionOnly() throws {
        let error = try atPageEnd(le32(PluginHost.abiVersion + 1)) { entry in
            #expect(throws: AnimrtError.self) { try PluginHost.readEntry(entry, path: "new.so") }
        }
        #expect(error?.status == .version)
        #expect(error?.message.contains("'new.so' is too new: it was built for plugin ABI version 2") == true)
    }

    @Test("65535 is the last first field read as an ABI version; 65536 is no version at all")
    func versionBound() throws {
        let last = try atPageEnd(le32(0xFFFF)) { entry in
            #expect(throws: AnimrtError.self) { try PluginHost.readEntry(entry, path: "last.so") }
        }
        #expect(last?.status == .version)
        #expect(last?.message == "'last.so' is too new: it was built for plugin ABI version 65535, and this animrt (\(ANIMRT_VERSION_MAJOR).\(ANIMRT_VERSION_MINOR).\(ANIMRT_VERSION_PATCH)) loads version 1; rebuild the plugin against this animrt.h")
        let past = try atPageEnd(le32(0x1_0000)) { entry in
            #expect(throws: AnimrtError.self) { try PluginHost.readEntry(entry, path: "past.so") }
        }
        #expect(past?.status == .version)
        #expect(past?.message.hasPrefix("'past.so': animrt_plugin_entry does not hold an animrt_plugin (its first field reads as ABI version 65536, which no animrt has had; is it a function?)") == true, "\(past?.message ?? "")")
    }

    @Test("A host shut down (its runtime being destroyed) loads no plugin, whatever the path")
    func noLoadAfterShutdown() {
        let host = PluginHost(machines: MachineHost(runtime: Runtime()))
        host.shutdown()
        for path in ["libm.so.6", "libnowhere.so.9", ""] {
            let error = #expect(throws: AnimrtError.self) { try host.load(path: path) }
            #expect(error?.status == .state)
            #expect(error?.message == "the runtime is being destroyed")
        }
        #expect(host.pluginCount == 0 && host.firstUse == nil)
    }
}
