/// A growable column of plain values in manually managed memory, so that
/// the batch can hand raw pointers to several threads at once.
final class Column<T: BitwiseCopyable> {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<T>
    @exclusivity(unchecked) private(set) var count = 0
    private var capacity: Int

    /// Empty, allocating nothing until the first append (a runtime that
    /// never batches pays nothing for its lanes).
    init() {
        capacity = 0
        base = .allocate(capacity: 0)
    }

    deinit { base.deallocate() }

    func append(_ v: T) {
        if count == capacity {
            // Grow by half: less slack per animation than doubling, for a
            // little more copying while a scene is built.
            let newCapacity = max(16, capacity + capacity / 2)
            let bigger = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            bigger.initialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = newCapacity
        }
        (base + count).initialize(to: v)
        count += 1
    }

    func removeLast() { count -= 1 }

    subscript(i: Int) -> T {
        get { base[i] }
        set { base[i] = newValue }
    }
}
