import CBatchKernel
/// What a handle names. Raw values are part of the ABI (they show in the
/// handle bits and in messages).
public enum HandleKind: UInt8, Sendable {
    case layer = 1, animation, instance, barrier, transaction, timer, reader, definition, machine, plugin

    public var name: String {
        switch self {
        case .layer: "layer"; case .animation: "animation"; case .instance: "attached animation"
        case .barrier: "barrier"; case .transaction: "transaction"; case .timer: "timer"; case .reader: "reader"
        case .definition: "machine definition"; case .machine: "machine"; case .plugin: "plugin"
        }
    }
}

/// A generational handle (`animrt_id`): 24 bits of slot index, 20 bits of
/// generation, 4 bits of kind and 16 bits naming the runtime. 0 is never a
/// valid handle; a stale one fails the generation check instead of reaching
/// freed memory, and a slot whose generations are used up is retired rather
/// than wrapped, so a destroyed object's handle never becomes valid again.
public struct Handle: Hashable, Sendable, CustomStringConvertible {
    public let raw: UInt64
    public init(raw: UInt64) { self.raw = raw }

    @usableFromInline static let indexBits: UInt64 = 24, generationBits: UInt64 = 20
    public static let maxIndex = Int(1 << indexBits) - 1

    @inlinable
    init(runtime tag: UInt16, kind: HandleKind, generation: UInt32, index: Int) {
        raw = UInt64(tag) << 48 | UInt64(kind.rawValue) << 44
            | (UInt64(generation) & ((1 << Handle.generationBits) - 1)) << 24 | UInt64(index)
    }

    @inlinable public var index: Int { Int(raw & ((1 << Handle.indexBits) - 1)) }
    @inlinable public var generation: UInt32 { UInt32((raw >> 24) & ((1 << Handle.generationBits) - 1)) }
    @inlinable public var kindBits: UInt8 { UInt8((raw >> 44) & 0xF) }
    @inlinable public var runtimeTag: UInt16 { UInt16(raw >> 48) }
    /// The handle in hexadecimal ("0x1100001000000"), as messages and the
    /// Python binding's reprs print it.
    public var hex: String { "0x" + String(raw, radix: 16) }
    public var description: String { "\(HandleKind(rawValue: kindBits)?.name ?? "handle") \(hex)" }
}

/// Objects of one kind, stored densely and named by generational handles.
///
/// Elements are stored without an optional wrapper (a dead slot holds
/// `placeholder`), so reading a field of a live element borrows it in place;
/// and the table is a class, so calling it from the runtime copies nothing:
/// no reference counting on the hot path.
public final class SlotTable<Element> {
    public let kind: HandleKind
    public let tag: UInt16
    private let placeholder: Element
    /// The slots, in memory the table manages itself (no copy-on-write
    /// check on each access, as an array would make): `slots` of them are
    /// initialised, `storage` allocated.
    @exclusivity(unchecked) @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
    /// Per slot: the generation (low 20 bits) and, in the top bit, whether
    /// the slot is live — one word, so a check touches one cache line.
    @exclusivity(unchecked) @usableFromInline private(set) var meta: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) @usableFromInline private(set) var slots = 0
    @exclusivity(unchecked) private(set) var storage = 0
    @exclusivity(unchecked) private var free: [Int32] = []
    @exclusivity(unchecked) public private(set) var count = 0
    /// While an operation that may be undone runs (`beginJournal`): each
    /// slot handed out or freed since, with its word before, so that
    /// `rewindJournal` can put the table back as it was. nil otherwise.
    @exclusivity(unchecked) private var journal: [JournalEntry]? = nil

    @usableFromInline static var liveBit: UInt32 { 1 << 31 }
    @usableFromInline static var generationMask: UInt32 { (1 << 20) - 1 }

    /// The most slots (`Handle.maxIndex`; smaller in tests of the limit,
    /// set at creation or lowered with `lowerLimit`).
    @exclusivity(unchecked) public private(set) var slotLimit: Int

    public init(kind: HandleKind, tag: UInt16, placeholder: Element, slotLimit: Int = Handle.maxIndex) {
        self.kind = kind; self.tag = tag; self.placeholder = placeholder
        self.slotLimit = min(slotLimit, Handle.maxIndex)
        base = GrowingBlock.allocate(Element.self, capacity: 0)
        meta = GrowingBlock.allocate(UInt32.self, capacity: 0)
    }

    deinit {
        base.deinitialize(count: slots)
        GrowingBlock.free(base)
        GrowingBlock.free(meta)
    }

    /// `Runtime.limitTable`: at most `n` slots, and never fewer than exist.
    func lowerLimit(to n: Int) { slotLimit = max(min(n, slotLimit), slots) }

    /// How many slots exist (live, free or retired).
    public var capacity: Int { slots }

    /// Whether `insert` would succeed.
    public var hasRoom: Bool { !free.isEmpty || slots < slotLimit }

    /// The error `insert` throws when there is no room.
    public var fullError: AnimrtError {
        AnimrtError(.noMemory, "too many \(kind.name)s: a runtime holds at most \(slotLimit) at once, and each slot is reused \(Limits.generations) times at most")
    }

    /// Whether `n` more objects fit.
    public func hasRoom(for n: Int) -> Bool { free.count + (slotLimit - slots) >= n }

    /// Makes room for `n` more objects without growing in between (a bulk
    /// add sizes the table once, with no slack).
    public func reserve(_ n: Int) {
        let needed = slots + max(0, n - free.count)
        if needed > storage { grow(to: slots == 0 ? needed : max(needed, GrowingBlock.grownCapacity(Element.self, from: storage))) }
    }

    private func grow(to newStorage: Int) {
        base = GrowingBlock.grow(base, count: slots, to: newStorage)
        meta = GrowingBlock.grow(meta, count: slots, to: newStorage)
        storage = newStorage
    }

    public func insert(_ e: consuming Element) throws(AnimrtError) -> Handle {
        let index: Int
        let tookNew = free.isEmpty
        // `isEmpty` first: `popLast` would check the array's uniqueness even when empty.
        if !tookNew { index = Int(free.removeLast()); base[index] = e }
        else {
            guard slots < slotLimit else { throw fullError }
            index = slots
            // Little slack per object, as in the batch columns.
            if slots == storage { grow(to: GrowingBlock.grownCapacity(Element.self, from: storage)) }
            (base + index).initialize(to: e)
            meta[index] = 1
            slots += 1
        }
        if journal != nil { journal!.append(JournalEntry(index: Int32(index), word: meta[index], step: tookNew ? .tookNew : .tookFree)) }
        meta[index] |= SlotTable.liveBit
        count += 1
        return handle(at: index)
    }

    @inlinable @inline(__always)
    public func handle(at index: Int) -> Handle {
        Handle(runtime: tag, kind: kind, generation: meta[index] & SlotTable.generationMask, index: index)
    }

    /// The slot index of a live handle, or a `.handle` error saying why not.
    @inlinable @inline(__always)
    public func index(of h: Handle) throws(AnimrtError) -> Int {
        let i = h.index
        if h.raw != 0 && h.kindBits == kind.rawValue && h.runtimeTag == tag && i < slots
            && meta[i] == SlotTable.liveBit | h.generation {
            return i
        }
        throw explain(h)
    }

    @inline(never) @usableFromInline
    func explain(_ h: Handle) -> AnimrtError {
        // 0 is never given out: most often the variable a failed create was
        // to set (a failed call leaves its out-parameters as they were).
        if h.raw == 0 {
            return AnimrtError(.handle, "the \(kind.name) handle is 0, which names no object (was it to be set by a call that failed? a failed call leaves its out-parameter as it was)")
        }
        guard h.kindBits == kind.rawValue else {
            if kind == .animation && h.kindBits == HandleKind.instance.rawValue {
                return AnimrtError(.handle, "handle \(h.hex) names an attached animation (the copy a layer holds), not a description: it is not destroyed or changed, it is removed from its layer (animrt_layer_remove_animation)")
            }
            if kind == .instance && h.kindBits == HandleKind.animation.rawValue {
                return AnimrtError(.handle, "handle \(h.hex) names an animation description, not an attached animation: use the handle animrt_layer_add_animation gave for the copy it attached")
            }
            guard let other = HandleKind(rawValue: h.kindBits)?.name else {
                // A number animrt never gives out: most often an uninitialised
                // variable, or an index or id passed where a handle goes.
                return AnimrtError(.handle, "handle \(h.hex) is not one animrt gave out: it names no kind of object (an uninitialised animrt_id, or a number that is not a handle?); \(article(kind.name)) \(kind.name) handle is needed here")
            }
            return AnimrtError(.handle, "handle \(h.hex) names \(article(other)) \(other), not \(article(kind.name)) \(kind.name)")
        }
        if h.runtimeTag != tag { return AnimrtError(.handle, "\(kind.name) handle \(h.hex) belongs to another runtime") }
        if !wasGiven(h) {
            return AnimrtError(.handle, "\(kind.name) handle \(h.hex) was never given out by this runtime: no \(kind.name) had its slot and generation (a number that is not a handle, or one altered?)")
        }
        // An attached animation is never destroyed by the host: it ends. Nor is a timer: it fires or is
        // cancelled. Nor is a plugin: it is unloaded.
        let gone = kind == .instance ? "it finished and was removed, or was removed or replaced"
            : kind == .timer ? "the timer fired or was cancelled"
            : kind == .plugin ? "the plugin was unloaded" : "the \(kind.name) was destroyed"
        return AnimrtError(.handle, "\(kind.name) handle \(h.hex) is stale (\(gone))")
    }

    /// Whether the table ever handed out `h` (of its kind and runtime).
    /// Generations start at 1 and a slot's word holds the generation of
    /// its live object, or once freed the next one, not yet given; a slot
    /// freed on its last generation is retired and keeps that one (a slot
    /// not live on its last generation counts as having given it).
    func wasGiven(_ h: Handle) -> Bool {
        guard h.index < slots, h.generation != 0 else { return false }
        let word = meta[h.index], current = word & SlotTable.generationMask
        if h.generation < current { return true }
        let live = word & SlotTable.liveBit != 0
        return h.generation == current && (live || current == SlotTable.generationMask)
    }

    /// Asks for slot `i`'s generation word and the first and last bytes of
    /// its element (which may span two cache lines), without waiting for
    /// them; changes nothing (see `Runtime.warm`).
    @inline(__always)
    func prefetch(_ i: Int) {
        let raw = UnsafeRawPointer(base + i)
        animrt_prefetch(meta + i); animrt_prefetch(raw); animrt_prefetch(raw + (MemoryLayout<Element>.size - 1))
    }

    /// Asks for what `handle(at:)` reads of slot `i` (its generation word).
    @inline(__always)
    func prefetchHandle(_ i: Int) { animrt_prefetch(meta + i) }

    /// The slots that the next `n` inserts will take, in the order they
    /// take them (the free list's top; when fewer are free, the inserts
    /// after them take new slots at the end).
    func nextFree(_ n: Int) -> ReversedCollection<ArraySlice<Int32>> {
        free[Swift.max(0, free.count - Swift.max(0, n))...].reversed()
    }

    /// Asks for the slots that the next `n` inserts will take (freed at
    /// scattered places), as `prefetch` does.
    func prefetchNextFree(_ n: Int) {
        for i in nextFree(n) { prefetch(Int(i)) }
    }

    /// Whether `h`, a handle of this table, still names its object (false
    /// once it was destroyed, fired or removed); a `.handle` error for a
    /// handle the table never gave out (0, another kind, another runtime,
    /// a slot or a generation it never gave).
    public func isLive(_ h: Handle) throws(AnimrtError) -> Bool {
        guard h.raw != 0 && h.kindBits == kind.rawValue && h.runtimeTag == tag && wasGiven(h) else { throw explain(h) }
        return meta[h.index] == SlotTable.liveBit | h.generation
    }

    @inlinable @inline(__always)
    public func isLive(_ i: Int) -> Bool { i >= 0 && i < slots && meta[i] & SlotTable.liveBit != 0 }

    /// Slot `i`, which must exist (`i < capacity`): callers pass indices
    /// from `index(of:)`, `handle.index` of a checked handle, or links
    /// between live objects.
    @inlinable
    public subscript(i: Int) -> Element {
        @inline(__always) _read { yield base[i] }
        @inline(__always) _modify { yield &base[i] }
    }

    /// Frees slot `i`. Its next object gets the next generation; a slot
    /// whose last generation was just used is retired (never handed out
    /// again), so no handle it ever gave out can become valid again.
    @discardableResult
    public func remove(at i: Int) -> Element {
        let e = base[i]
        release(at: i)
        return e
    }

    /// `remove(at:)` without handing the element back (no copy of it).
    public func release(at i: Int) {
        // A slot freed twice would be handed out twice, to two objects: a
        // fault of the caller, which leaves the table as it is.
        guard meta[i] & SlotTable.liveBit != 0 else { return }
        base[i] = placeholder
        let generation = meta[i] & SlotTable.generationMask
        if journal != nil { journal!.append(JournalEntry(index: Int32(i), word: meta[i], step: .freed)) }
        if generation < SlotTable.generationMask {
            meta[i] = generation + 1
            free.append(Int32(i))
        } else {
            meta[i] = generation  // dead for good: no live bit, not free
        }
        count -= 1
    }

    // MARK: Undoing what an operation made

    struct JournalEntry {
        enum Step: UInt8 { case tookFree, tookNew, freed }
        let index: Int32
        /// The slot's word before the step.
        let word: UInt32
        let step: Step
    }

    /// Starts recording the slots handed out and freed; returns false (and
    /// records nothing new) if a journal is open already.
    public func beginJournal() -> Bool {
        guard journal == nil else { return false }
        journal = []
        return true
    }

    /// Stops recording, keeping the table as it is.
    public func endJournal() { journal = nil }

    /// Stops recording and, if every object made since `beginJournal` was
    /// freed again and nothing older was, puts the table back exactly as it
    /// was then: the same free slots in the same order, their generations
    /// unspent, no slot added or retired; the next object gets the handle
    /// it would have had. Sound only when none of those handles was seen
    /// outside (the caller's undone operation reported none). Otherwise it
    /// leaves the table as it is (the objects freed have used their
    /// generations, as any destroyed object does) and returns false.
    @discardableResult
    public func rewindJournal() -> Bool {
        guard let steps = journal else { return false }
        journal = nil
        var made = Set<Int32>()
        for step in steps {
            switch step.step {
            case .tookFree, .tookNew: made.insert(step.index)
            case .freed: guard made.remove(step.index) != nil else { return false }
            }
        }
        guard made.isEmpty else { return false }
        // Backwards, each step undone: the free list is a stack, so each
        // push and pop is undone in the order it can be.
        for step in steps.reversed() {
            let i = Int(step.index)
            switch step.step {
            case .freed:
                if step.word & SlotTable.generationMask < SlotTable.generationMask { free.removeLast() }
                meta[i] = step.word
                count += 1
            case .tookFree:
                meta[i] = step.word
                free.append(step.index)
                count -= 1
            case .tookNew:
                (base + i).deinitialize(count: 1)
                slots -= 1
                count -= 1
            }
        }
        return true
    }
}

/// "a" or "an" before `word`.
func article(_ word: String) -> String {
    guard let first = word.first else { return "a" }
    return "aeiou".contains(first) ? "an" : "a"
}
