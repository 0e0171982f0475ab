/// The 16-bit tags that name runtimes inside their handles.
///
/// Live runtimes always have distinct tags, so a handle of one live runtime
/// is never taken for a handle of another. Tags are handed out in a cycle,
/// skipping those in use: a tag freed by a destroyed runtime comes back only
/// after every other free tag has been handed out since. Tag 0 is never
/// handed out (it is left to untagged runtimes, see `Runtime.init`).
final class RuntimeTags: @unchecked Sendable {
    static let shared = RuntimeTags(capacity: Limits.runtimes)

    private let lock = Lock()
    /// Usable tags are 1 ... capacity.
    let capacity: Int
    private var inUse: [Bool]
    private var cursor = 0
    private var live = 0

    init(capacity: Int) {
        precondition((1...Limits.runtimes).contains(capacity))
        self.capacity = capacity
        inUse = [Bool](repeating: false, count: capacity + 1)
    }

    /// How many tags are held.
    var count: Int { lock.withLock { live } }

    /// The next free tag after the last one handed out, or nil if all are held.
    func acquire() -> UInt16? {
        lock.withLock { () -> UInt16? in
            guard live < capacity else { return nil }
            var t = cursor
            repeat { t = t == capacity ? 1 : t + 1 } while inUse[t]
            inUse[t] = true
            cursor = t
            live += 1
            return UInt16(t)
        }
    }

    /// Gives a tag back.
    func release(_ tag: UInt16) {
        lock.withLock {
            let t = Int(tag)
            guard t >= 1 && t <= capacity && inUse[t] else { return }
            inUse[t] = false
            live -= 1
        }
    }
}
