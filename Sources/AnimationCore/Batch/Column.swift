/// A growable column of plain values in manually managed memory, so that
/// the batch can hand raw pointers to several threads at once.
final class Column<T: BitwiseCopyable> {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<T>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity: Int

    /// Empty, allocating nothing until the first append (a runtime that
    /// never batches pays nothing for its lanes).
    init() {
        capacity = 0
        base = GrowingBlock.allocate(T.self, capacity: 0)
    }

    deinit { GrowingBlock.free(base) }

    @inline(__always)
    func append(_ v: T) {
        // Little slack per animation (`GrowingBlock.grownCapacity`; a bulk
        // add reserves exactly), for a little more copying while a scene is built.
        if count == capacity { resize(GrowingBlock.grownCapacity(T.self, from: capacity)) }
        (base + count).initialize(to: v)
        count += 1
    }

    /// Makes room for `n` more values at once: exactly, for a first bulk
    /// add (no slack); by at least what an append grows it by when it grows
    /// again, so that repeated bulk adds copy the column a bounded number of times.
    func reserve(_ n: Int) {
        if count + n > capacity { resize(count == 0 ? n : max(count + n, GrowingBlock.grownCapacity(T.self, from: capacity))) }
    }

    /// How many times the column was moved to a block of another size (a
    /// growth copies it; tests count them).
    private(set) var resizes = 0

    @inline(never)
    private func resize(_ newCapacity: Int) {
        base = GrowingBlock.grow(base, count: count, to: newCapacity)
        capacity = newCapacity
        resizes += 1
    }

    /// Gives back the room past `count` values and `floor` (a bulk add
    /// reserves room for all its entries left in the lane that takes one,
    /// and most may go to other lanes; `floor` is what appends would have
    /// grown the column to, so that many small adds still grow it by steps).
    func trim(keeping floor: Int) {
        let fit = Swift.max(count, floor)
        if capacity > fit { resize(fit) }
    }

    func removeLast() { count -= 1 }

    subscript(i: Int) -> T {
        get { base[i] }
        set { base[i] = newValue }
    }
}
