/// The slot indices a bulk call has met so far, so that it can refuse one
/// given twice: a bit per slot of the table for a large call (no hashing
/// per item), a small set for a call of a few items (no allocation the
/// size of the table).
struct SeenIndices {
    private var bits: [UInt64] = []
    private var small = Set<Int>()
    private let usesBits: Bool

    /// For a table of `capacity` slots and a call of about `expected` items.
    init(capacity: Int, expected: Int) {
        usesBits = expected > 64
        if usesBits { bits = [UInt64](repeating: 0, count: (capacity + 63) >> 6) }
    }

    /// Records index `i` (a slot of the table: below its capacity); false if
    /// it was recorded already.
    mutating func insert(_ i: Int) -> Bool {
        guard usesBits else { return small.insert(i).inserted }
        let word = i >> 6, bit = UInt64(1) << UInt64(i & 63)
        if bits[word] & bit != 0 { return false }
        bits[word] |= bit
        return true
    }
}
