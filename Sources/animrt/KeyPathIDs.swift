// Key path ids as C sees them: the runtime's index of the key path, with the
// runtime's tag above it, so that an id from another runtime is refused
// instead of naming whatever key path has that index here.
import AnimationCore
import CAnimrt

enum KeyPathIDs {
    /// Bits of the index; the tag takes the 16 above (bit 31 stays 0: ids are never negative).
    private static let indexBits: Int32 = 15
    private static let indexMask: Int32 = (1 << 15) - 1

    /// The C id of index `index` (below `Limits.keyPaths`) in runtime `r`.
    static func id(_ index: Int32, in r: Runtime) -> animrt_keypath { id(index, tag: r.tag) }

    /// The C id of index `index` in the runtime tagged `tag` (the bits above the index are dropped).
    static func id(_ index: Int32, tag: UInt16) -> animrt_keypath { Int32(tag) << indexBits | index & indexMask }

    /// The index of C id `id` in runtime `r`; an id this runtime did not give is refused.
    @inline(__always)
    static func index(_ id: animrt_keypath, in r: Runtime) throws(AnimrtError) -> Int32 {
        guard id >= 0, id >> indexBits == Int32(r.tag) else { throw refused(id) }
        return id & indexMask
    }

    @inline(never)
    private static func refused(_ id: animrt_keypath) -> AnimrtError {
        AnimrtError(.notFound, "key path id \(id) is not one this runtime gave (ids come from animrt_keypath_id on the same runtime, and an id from another runtime names nothing here)")
    }

    /// The key path of C id `id` in runtime `r`.
    static func keyPath(_ id: animrt_keypath, in r: Runtime) throws(AnimrtError) -> KeyPath {
        try r.keyPath(id: try index(id, in: r))
    }

    /// What a trace records for a C id that a successful call accepted: its index
    /// (the replay gives it the replaying runtime's tag).
    static func traced(_ id: animrt_keypath) -> Int64 { Int64(id & indexMask) }
}
