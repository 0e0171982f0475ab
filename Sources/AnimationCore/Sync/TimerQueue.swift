/// The running timers by due time, earliest first, as a binary heap: a tick
/// with nothing due looks at the top only, and starting or cancelling a
/// timer costs O(log n) whatever the number of timers (10^4 machines each
/// waiting on a timer cost a tick nothing). Cancelled timers stay in the
/// heap until they reach the top, where they are dropped; the heap is
/// rebuilt when they outnumber the live ones.
struct TimerQueue {
    struct Entry {
        var time: Double
        /// Start order: timers due at the same time fire in the order they started.
        var sequence: UInt64
        var timer: Handle

        @inline(__always)
        func precedes(_ o: Entry) -> Bool { time < o.time || (time == o.time && sequence < o.sequence) }
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var top: Entry? { heap.first }

    mutating func push(_ e: Entry) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard heap[i].precedes(heap[p]) else { break }
            heap.swapAt(i, p)
            i = p
        }
    }

    mutating func popTop() {
        guard !heap.isEmpty else { return }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        let n = heap.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n && heap[l].precedes(heap[m]) { m = l }
            if r < n && heap[r].precedes(heap[m]) { m = r }
            guard m != i else { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    /// `time + t`, kept finite.
    static func shifted(_ time: Double, by t: Double) -> Double {
        Swift.min(Swift.max(time + t, -.greatestFiniteMagnitude), .greatestFiniteMagnitude)
    }

    /// Moves every entry `t` later, the order kept (the heap is rebuilt, as
    /// rounding may make two due times equal whose start order differs).
    mutating func shift(by t: Double) {
        for i in heap.indices { heap[i].time = TimerQueue.shifted(heap[i].time, by: t) }
        compact { _ in true }
    }

    /// Keeps only the entries `isLive` accepts (cancelled timers go).
    mutating func compact(_ isLive: (Handle) -> Bool) {
        heap.removeAll { !isLive($0.timer) }
        var i = heap.count / 2 - 1
        while i >= 0 { siftDown(i); i -= 1 }
    }
}
