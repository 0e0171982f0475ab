/// The documented limits of a runtime (docs/limits.md; the header's
/// ANIMRT_*_MAX macros have the same values). Each is enforced with a
/// status where it is crossed, never by a trap later.
public enum Limits {
    /// Bytes in a name (key path, property name, animation key, timing
    /// function name), not counting a C string's NUL. Longer is `.outOfRange`.
    public static let nameBytes = 255
    /// Animations inside one group, counting those in nested groups.
    public static let groupSize = 1024
    /// Levels of groups: a group of plain animations has depth 1.
    public static let groupDepth = 16
    /// Runtimes alive at the same time in one process.
    public static let runtimes = 65_535
    /// Objects of one kind (layers, animations, …) alive in one runtime.
    public static let objects = (1 << 24) - 1
    /// Times one handle slot is reused before it is retired for good.
    public static let generations = (1 << 20) - 1
    /// Properties in one runtime, the built-in ones included.
    public static let properties = 65_536
    /// Distinct key paths one runtime resolves to ids (`Runtime.keyPathID`):
    /// the C ids hold the index in 15 bits beside the runtime's tag.
    public static let keyPaths = 1 << 15
    /// Transactions open at once on one thread.
    public static let transactionDepth = 256
    /// Notifications waiting on one barrier for its count to reach zero.
    public static let barrierNotifies = 1 << 20
    /// The largest event queue (`Runtime.Configuration.eventCapacity`).
    public static let eventCapacity = 1 << 24
    /// The most bytes of strings the events in a queue carry together (a
    /// machine's payloads): past it an event is counted as lost, as past
    /// the queue's capacity, so that a host that does not poll keeps a
    /// bounded amount of memory (65 536 events of 16 MiB would be a TiB).
    public static let queuedStringBytes = 64 << 20
    /// Doubles in the model (and in the presentation) value pool.
    public static let valuePool = Int(Int32.max)
    /// Cells of edit-distance work a "did you mean" suggestion may cost.
    public static let suggestionWork = 1 << 20
}
