#if canImport(Glibc)
import Glibc
#endif

// With Math.swift, the only file of the core that calls the C library.

/// Large tables ask the kernel for 2 MiB pages.
///
/// A scene of 10^6 animations keeps its batch columns and attached
/// animations in blocks of megabytes. In 4 KiB pages, every page is a fault
/// the first time it is written: a bulk add of 10^6 animations takes tens of
/// thousands of them, a quarter of its time. Transparent huge pages serve
/// such a block from a few 2 MiB pages; where the system gives them on
/// request (Linux's "madvise" setting, a common default), this requests them.
/// Only the whole 2 MiB pages inside a block are advised, so nothing is
/// allocated that the block did not hold already. Elsewhere, or when the
/// kernel declines, nothing changes: it is a hint.
enum LargePages {
    static let size = 2 << 20

    /// The addresses of the whole 2 MiB pages inside `bytes` bytes at
    /// `address`; nil for a block under two such pages (left alone: its
    /// pages would mostly be shared with other allocations).
    static func advisable(address: UInt, bytes: Int) -> Range<UInt>? {
        guard bytes >= 2 * size else { return nil }
        let mask = UInt(size - 1)
        let (start, o1) = address.addingReportingOverflow(mask)
        let (end, o2) = address.addingReportingOverflow(UInt(bytes))
        guard !o1 && !o2, start & ~mask < end & ~mask else { return nil }
        return (start & ~mask)..<(end & ~mask)
    }

    /// Advises the whole 2 MiB pages of a block just allocated.
    static func advise(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if canImport(Glibc)
        guard let r = advisable(address: UInt(bitPattern: base), bytes: bytes),
              let p = UnsafeMutableRawPointer(bitPattern: r.lowerBound) else { return }
        _ = madvise(p, Int(r.upperBound - r.lowerBound), MADV_HUGEPAGE)
        #endif
    }
}
