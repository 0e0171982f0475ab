#if canImport(Glibc)
import Glibc
#endif

/// The memory behind the runtime's large tables (batch columns, slot
/// tables): one block per table, grown in place where the allocator can.
///
/// A table of 10^6 records that grows by a quarter at a time is copied
/// about twenty times while it is built, into fresh pages that the kernel
/// zeroes first: in a scene built one add at a time, that was a fifth of
/// each add. The C library's `realloc` grows a large block by remapping its
/// pages (no copy, and pages already written are not zeroed again), and a
/// small one in place when there is room after it. That needs records
/// that may be moved by copying their bytes (most Swift values; not one
/// holding a weak reference) and aligned no more than `malloc` guarantees
/// (two words); other records, and other systems, are moved the usual
/// way. Either way a grown block holds the same records.
///
/// A grown block asks for large pages (`LargePages`) over all of the
/// memory the C library gave it, which reaches the end of the block's
/// mapping: advice that stops short of it splits the mapping, and the
/// next `realloc` can no longer remap it.
enum GrowingBlock {
    /// Whether blocks of `T` come from the C allocator.
    @inline(__always)
    static func usesCAllocator<T>(_: T.Type) -> Bool {
        #if canImport(Glibc)
        return MemoryLayout<T>.alignment <= 2 * MemoryLayout<Int>.size && _isBitwiseTakable(T.self)
        #else
        return false
        #endif
    }

    /// The capacity a full block of `capacity` records of `T` grows to.
    ///
    /// By a quarter while the block is small, where copying it costs little
    /// and growing often would; by an eighth once it passes 256 KiB, where
    /// a quarter is megabytes of memory never used: at 10^6 animations added
    /// one at a time, 16 of the 102 bytes each were room the tables had not
    /// filled. Large blocks are remapped by `realloc` rather than copied
    /// (above), so the extra growths cost little there.
    @inline(__always)
    static func grownCapacity<T>(_: T.Type, from capacity: Int) -> Int {
        capacity * MemoryLayout<T>.stride >= fineGrowthBytes ? capacity + capacity / 8 : capacity + capacity / 4 + 16
    }

    /// The size from which blocks grow by an eighth.
    static let fineGrowthBytes = 256 << 10

    /// A block with room for `capacity` records (none initialised).
    static func allocate<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        #if canImport(Glibc)
        if usesCAllocator(T.self) {
            guard let p = malloc(bytes(T.self, capacity)) else { fatalError("out of memory") }
            return p.bindMemory(to: T.self, capacity: capacity)
        }
        #endif
        return .allocate(capacity: capacity)
    }

    /// `block`, whose first `count` records are initialised, grown to room
    /// for `capacity` records; the records keep their indices. `block` is
    /// no longer valid afterwards.
    static func grow<T>(_ block: UnsafeMutablePointer<T>, count: Int, to capacity: Int) -> UnsafeMutablePointer<T> {
        #if canImport(Glibc)
        if usesCAllocator(T.self) {
            guard let p = realloc(block, bytes(T.self, capacity)) else { fatalError("out of memory") }
            LargePages.advise(p, bytes: usableSize(p) ?? bytes(T.self, capacity))
            return p.bindMemory(to: T.self, capacity: capacity)
        }
        #endif
        let bigger = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        LargePages.advise(bigger, bytes: capacity * MemoryLayout<T>.stride)
        bigger.moveInitialize(from: block, count: count)
        block.deallocate()
        return bigger
    }

    #if canImport(Glibc)
    /// The C library's `malloc_usable_size`, looked up once (Swift's view of
    /// the C library does not declare it).
    private static let usableSizeFunction: (@convention(c) (UnsafeMutableRawPointer?) -> Int)? = {
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size") else { return nil }
        return unsafeBitCast(f, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
    }()

    /// All the memory the C library gave block `p`, which may exceed what was asked.
    private static func usableSize(_ p: UnsafeMutableRawPointer) -> Int? { usableSizeFunction.map { $0(p) } }
    #endif

    /// Frees a block (its records already deinitialised, if they need it).
    static func free<T>(_ block: UnsafeMutablePointer<T>) {
        #if canImport(Glibc)
        if usesCAllocator(T.self) { Glibc.free(block); return }
        #endif
        block.deallocate()
    }

    /// Bytes for `capacity` records; at least one, so that an empty block is
    /// a real allocation. Capacities are bounded by the runtime's limits
    /// (`Limits`, `Handle.maxIndex`), far below an overflow.
    @inline(__always)
    private static func bytes<T>(_: T.Type, _ capacity: Int) -> Int {
        Swift.max(1, capacity * MemoryLayout<T>.stride)
    }
}
