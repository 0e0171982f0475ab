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
    @exclusivity(unchecked) private var storage = 0
    @exclusivity(unchecked) private var free: [Int32] = []
    @exclusivity(unchecked) public private(set) var count = 0

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
        if needed > storage { grow(to: slots == 0 ? needed : max(needed, storage + storage / 4)) }
    }

    private func grow(to newStorage: Int) {
        base = GrowingBlock.grow(base, count: slots, to: newStorage)
        meta = GrowingBlock.grow(meta, count: slots, to: newStorage)
        storage = newStorage
    }

    public func insert(_ e: consuming Element) throws(AnimrtError) -> Handle {
        let index: Int
        // `isEmpty` first: `popLast` would check the array's uniqueness even when empty.
        if !free.isEmpty { index = Int(free.removeLast()); base[index] = e }
        else {
            guard slots < slotLimit else { throw fullError }
            index = slots
            // Grow by a quarter, as the batch columns do (little slack per object).
            if slots == storage { grow(to: slots + slots / 4 + 16) }
            (base + index).initialize(to: e)
            meta[index] = 1
            slots += 1
        }
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
        if h.raw == 0 { return AnimrtError(.handle, "the \(kind.name) handle is 0 (no object)") }
        guard h.kindBits == kind.rawValue else {
            if kind == .animation && h.kindBits == HandleKind.instance.rawValue {
                return AnimrtError(.handle, "handle \(h.hex) names an attached animation (the copy a layer holds), not a description: it is not destroyed or changed, it is removed from its layer (animrt_layer_remove_animation)")
            }
            let other = HandleKind(rawValue: h.kindBits)?.name ?? "unknown kind"
            return AnimrtError(.handle, "handle \(h.hex) names \(article(other)) \(other), not \(article(kind.name)) \(kind.name)")
        }
        if h.runtimeTag != tag { return AnimrtError(.handle, "\(kind.name) handle \(h.hex) belongs to another runtime") }
        // An attached animation is never destroyed by the host: it ends.
        let gone = kind == .instance ? "it finished and was removed, or was removed or replaced" : "the \(kind.name) was destroyed"
        return AnimrtError(.handle, "\(kind.name) handle \(h.hex) is stale (\(gone))")
    }

    /// Loads slot `i`'s generation word and the first and last bytes of its
    /// element (which may span two cache lines), changing nothing; returns
    /// them summed, so that the loads are kept (see `Runtime.warm`).
    @inline(__always)
    func touch(_ i: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base + i)
        return UInt64(meta[i]) &+ UInt64(raw.load(as: UInt8.self))
            &+ UInt64(raw.load(fromByteOffset: MemoryLayout<Element>.size - 1, as: UInt8.self))
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
        base[i] = placeholder
        let generation = meta[i] & SlotTable.generationMask
        if generation < SlotTable.generationMask {
            meta[i] = generation + 1
            free.append(Int32(i))
        } else {
            meta[i] = generation  // dead for good: no live bit, not free
        }
        count -= 1
    }
}

/// "a" or "an" before `word`.
func article(_ word: String) -> String {
    guard let first = word.first else { return "a" }
    return "aeiou".contains(first) ? "an" : "a"
}
