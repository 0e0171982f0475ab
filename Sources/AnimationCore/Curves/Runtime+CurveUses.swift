/// What uses a family of timing functions from outside the core: an
/// extension (a plugin) asked to go while its curves are in use names the
/// descriptions and attached animations that hold them.
extension TimingFunction {
    /// The family of a function from outside the core; nil for the others
    /// (and for a function made from a closure alone).
    public var family: TimingFunctionFamily? {
        if case .custom(let f) = self { return f.family }
        return nil
    }
}

/// How many descriptions and attached animations use one family.
public struct CurveUses: Sendable, Equatable {
    /// Stored descriptions (handles not destroyed) whose timing function,
    /// a keyframe segment's or a child's is a member of the family.
    public var descriptions = 0
    /// Animations attached to layers that ease with a member of it.
    public var attached = 0
    public init(descriptions: Int = 0, attached: Int = 0) { self.descriptions = descriptions; self.attached = attached }
}

extension Runtime {
    /// For each of `families`, how many stored descriptions and attached
    /// animations use a member of it (each counted once, however many of
    /// its segments or children do). One pass over both tables; nested
    /// groups are walked without recursion.
    public func curveUses(of families: [TimingFunctionFamily]) -> [CurveUses] {
        var uses = [CurveUses](repeating: CurveUses(), count: families.count)
        guard !families.isEmpty else { return uses }
        var index: [ObjectIdentifier: Int] = [:]
        for (k, f) in families.enumerated() { index[ObjectIdentifier(f)] = k }
        // The families one holder uses, each once.
        var seen = Set<Int>()
        func note(_ f: TimingFunction?) {
            if let family = f?.family, let k = index[ObjectIdentifier(family)] { seen.insert(k) }
        }
        for i in 0..<definitions.capacity where definitions.isLive(i) {
            seen.removeAll(keepingCapacity: true)
            var pending = [definitions[i].animation]
            while let a = pending.popLast() {
                note(a.timingFunction)
                switch a.content {
                case .keyframe(let k): for f in k.timingFunctions { note(f) }
                case .group(let children): pending += children
                default: break
                }
            }
            for k in seen { uses[k].descriptions += 1 }
        }
        let lanes = batches.lanes
        for i in 0..<instances.capacity where instances.isLive(i) {
            seen.removeAll(keepingCapacity: true)
            let inst = instances[i]
            if inst.inBatch {
                // A batch entry's curve is in the curve table, by id.
                guard Int(inst.lane) < lanes.count, inst.tierIndex >= 0, Int(inst.tierIndex) < lanes[Int(inst.lane)].count else { continue }
                let id = Int(lanes[Int(inst.lane)].curve[Int(inst.tierIndex)])
                if id >= 0 && id < curves.functions.count { note(curves.functions[id]) }
            } else {
                guard inst.tierIndex >= 0, Int(inst.tierIndex) < general.count else { continue }
                var pending = [general[Int(inst.tierIndex)].animation]
                while let r = pending.popLast() {
                    note(r.curve); note(r.easing)
                    switch r.body {
                    case .keyframe(let k):
                        for f in k.functions { note(f) }
                        for f in k.source.timingFunctions { note(f) }
                    case .group(let children): pending += children
                    default: break
                    }
                }
            }
            for k in seen { uses[k].attached += 1 }
        }
        return uses
    }
}
