import Testing
@testable import AnimationCore

/// The batch's curve table gives equal timing functions one id, counted by
/// use, and recent curves are found by plain keys (`CurveTable.QuickKey`)
/// instead of comparing whole functions: the keys must agree with the
/// functions' own equality, or two curves would share a solver.
@Suite("Curve table: equal curves share an id, others never do")
struct CurveTableTests {
    /// The functions compared: linear, Béziers that differ in one control
    /// point each (a signed zero included), the same Bézier made twice, and
    /// functions without a key.
    static let functions: [TimingFunction] = [
        .linear,
        .cubicBezier(UnitBezier(0, 0, 1, 1)),       // the identity curve, but not `linear`
        .cubicBezier(UnitBezier(0.42, 0, 1, 1)),
        .cubicBezier(UnitBezier(0.42, 0, 1, 1)),    // equal to the one before, made apart
        .cubicBezier(UnitBezier(0.42, -0.0, 1, 1)), // equal too: -0 == 0
        .cubicBezier(UnitBezier(0.43, 0, 1, 1)),
        .cubicBezier(UnitBezier(0.42, 0.1, 1, 1)),
        .cubicBezier(UnitBezier(0.42, 0, 0.9, 1)),
        .cubicBezier(UnitBezier(0.42, 0, 1, 0.9)),
        .steps(StepsFunction(count: 4, position: .jumpEnd)),
        .steps(StepsFunction(count: 4, position: .jumpEnd)),
        .steps(StepsFunction(count: 5, position: .jumpEnd)),
    ]

    @Test("two functions get the same id exactly when they are equal, however often and in whatever order")
    func idsFollowEquality() {
        var curves = CurveTable()
        var ids: [Int32] = []
        // Twice over, forwards then backwards: the second pass finds every
        // curve among the recent ones, the first mostly by hashing.
        let order = Array(Self.functions.indices) + Array(Self.functions.indices.reversed())
        var idOf = [Int: Int32]()
        for i in order {
            let id = curves.retain(Self.functions[i])
            if let first = idOf[i] { #expect(id == first, "function \(i) changed id") } else { idOf[i] = id }
            ids.append(id)
        }
        for a in Self.functions.indices {
            for b in Self.functions.indices {
                #expect((idOf[a] == idOf[b]) == (Self.functions[a] == Self.functions[b]), "functions \(a) and \(b)")
            }
        }
        // Distinct functions: 12 listed, 3 equal to another.
        #expect(curves.liveCount == 9)
        #expect(curves.functions[Int(idOf[2]!)] == Self.functions[2])
        for id in ids { curves.release(id) }
        #expect(curves.liveCount == 0)
    }

    @Test("a freed id given to another curve is not found under its old curve")
    func reusedIds() {
        var curves = CurveTable()
        let a = curves.retain(.cubicBezier(UnitBezier(0.25, 0.1, 0.25, 1)))
        curves.release(a)
        // The freed id goes to a different curve; the old one must not find it.
        let b = curves.retain(.cubicBezier(UnitBezier(0.5, 0, 0.5, 1)))
        let c = curves.retain(.cubicBezier(UnitBezier(0.25, 0.1, 0.25, 1)))
        #expect(b != c)
        #expect(curves.functions[Int(b)] == .cubicBezier(UnitBezier(0.5, 0, 0.5, 1)))
        #expect(curves.functions[Int(c)] == .cubicBezier(UnitBezier(0.25, 0.1, 0.25, 1)))
        #expect(curves.kinds[Int(c)] == CurveTable.bezier)
        let d = curves.retain(.linear)
        #expect(curves.kinds[Int(d)] == CurveTable.linear && d != b && d != c)
    }

    /// Past the eight recent ids a curve is found by hashing: that find is
    /// counted like any other, so the id lasts until its last user goes and
    /// no new curve overwrites the solver its entries still use.
    @Test("a curve found again by hashing, past the recent ones, is counted: its id lasts until its last use goes")
    func hashedFindCounted() {
        var curves = CurveTable()
        let curve = TimingFunction.cubicBezier(UnitBezier(0.3, 0.1, 0.7, 0.9))
        let first = curves.retain(curve)
        let others = (1...8).map { curves.retain(.cubicBezier(UnitBezier(0.05 * Double($0), 0, 1, 1))) }  // push it out of the recent ones
        let second = curves.retain(curve)
        #expect(second == first)
        curves.release(first)
        #expect(curves.isUsed(first))
        let next = curves.retain(.cubicBezier(UnitBezier(0.6, 0, 0.4, 1)))
        #expect(next != first)
        #expect(curves.functions[Int(first)] == curve && curves.kinds[Int(first)] == CurveTable.bezier)
        curves.release(second)
        #expect(!curves.isUsed(first))
        for id in others + [next] { curves.release(id) }
        #expect(curves.liveCount == 0)
    }

    /// A host that sets a new cubic-bezier on every animation holds memory
    /// for the curves in use: each freed id is taken by the next new curve.
    @Test("a freed id is taken by the next new curve: a hundred curves used one after the other take one id")
    func freedIdsTakenAgain() {
        var curves = CurveTable()
        let kept = curves.retain(.cubicBezier(UnitBezier(0.42, 0, 0.58, 1)))
        var seen = Set<Int32>()
        for k in 0..<100 {
            let id = curves.retain(.cubicBezier(UnitBezier(0.001 * Double(k), 0.5, 0.5, 1)))
            seen.insert(id)
            curves.release(id)
        }
        #expect(seen == [kept + 1])
        #expect(curves.functions.count == 2 && curves.liveCount == 1)
    }
}
