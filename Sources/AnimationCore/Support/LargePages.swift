#if canImport(Glibc)
import Glibc
#endif

/// Large tables ask the kernel for 2 MiB pages.
///
/// A scene of 10^6 animations keeps its batch columns and attached
/// animations in blocks of megabytes (`GrowingBlock`). In 4 KiB pages, every
/// page is a fault the first time it is written: a bulk add of 10^6
/// animations takes tens of thousands of them, a quarter of its time.
/// Transparent huge pages serve such a block from a few 2 MiB pages; where
/// the system gives them on request (Linux's "madvise" setting, a common
/// default), this requests them. The advice covers the pages the block
/// spans, whole: given all of a block the C library maps on its own (its
/// usable size, see `GrowingBlock`), the mapping stays uniform, and
/// `realloc` can move it without copying (advice on part of it splits the
/// mapping, and the move fails). The kernel backs a large page only where
/// one lies wholly inside the advised pages, so nothing is allocated
/// beyond the block and the two pages at its ends. Elsewhere, or when the
/// kernel declines, nothing changes: it is a hint.
enum LargePages {
    /// Blocks under two of these are left alone. It is x86-64's large page,
    /// and aarch64's with 4 KiB pages (larger with larger pages, where the
    /// advice is as harmless and likelier to go unused).
    static let size = 2 << 20

    /// The system's page size (4 KiB on x86-64; 4, 16 or 64 KiB on aarch64).
    static let pageSize: Int = {
        #if canImport(Glibc)
        let p = sysconf(Int32(_SC_PAGESIZE))
        if p > 0 && p & (p - 1) == 0 { return p }
        #endif
        return 4096
    }()

    /// The pages (of `page` bytes, a power of two) that `bytes` bytes at
    /// `address` span; nil for a block under two 2 MiB pages (left alone:
    /// no 2 MiB page fits it with room to spare) or one that reaches the top
    /// of the address space.
    static func advisable(address: UInt, bytes: Int, page: Int = LargePages.pageSize) -> Range<UInt>? {
        guard bytes >= 2 * size else { return nil }
        let mask = UInt(page - 1)
        let (end, o) = address.addingReportingOverflow(UInt(bytes) &+ mask)
        guard !o else { return nil }
        return (address & ~mask)..<(end & ~mask)
    }

    /// Advises the pages of a block just allocated or grown.
    static func advise(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if canImport(Glibc)
        guard let r = advisable(address: UInt(bitPattern: base), bytes: bytes),
              let p = UnsafeMutableRawPointer(bitPattern: r.lowerBound) else { return }
        _ = madvise(p, Int(r.upperBound - r.lowerBound), MADV_HUGEPAGE)
        #endif
    }
}
