import Testing
@testable import AnimationCore

@Suite("R1.1 timing functions")
struct TimingFunctionTests {
    /// Reference solution: bisection on t in extended precision (64-bit
    /// mantissa), so the reference resolves t even where x'(t) = 0.
    static func exact(_ b: UnitBezier, _ x: Double) -> Double {
        let (x1, y1, x2, y2) = (Float80(b.x1), Float80(b.y1), Float80(b.x2), Float80(b.y2))
        func bez(_ t: Float80, _ p1: Float80, _ p2: Float80) -> Float80 {
            let u = 1 - t
            return 3 * p1 * t * u * u + 3 * p2 * t * t * u + t * t * t
        }
        var lo: Float80 = 0, hi: Float80 = 1
        let target = Float80(x)
        for _ in 0..<100 { let mid = (lo + hi) / 2; if bez(mid, x1, x2) < target { lo = mid } else { hi = mid } }
        return Double(bez((lo + hi) / 2, y1, y2))
    }

    @Test("Named curves match their published samples")
    func namedSamples() throws {
        let r = TimingFunctionRegistry()
        expectClose(try r.function(named: "easeInEaseOut").evaluate(0.25), 0.129162, 1e-6)
        expectClose(try r.function(named: "default").evaluate(0.5), 0.802403, 1e-6)
        expectClose(try r.function(named: "easeIn").evaluate(0.5), 0.315357, 1e-6)
        expectClose(try r.function(named: "easeOut").evaluate(0.5), 0.684643, 1e-6)
        #expect(try r.function(named: "linear").evaluate(0.3) == 0.3)
        #expect(try r.function(named: "ease") == r.function(named: "default"))
    }

    @Test("Solved to within 1e-6 of the exact curve everywhere",
          arguments: [(0.42, 0.0, 1.0, 1.0), (0.0, 0.0, 0.58, 1.0), (0.42, 0.0, 0.58, 1.0), (0.25, 0.1, 0.25, 1.0),
                      (0.0, 1.5, 1.0, 1.5), (0.0, 0.5, 0.5, 1.0), (1.0, 0.0, 0.0, 1.0), (0.5, -2.0, 0.5, 3.0), (0.0, 0.0, 0.0, 1.0)])
    func accuracy(_ p: (Double, Double, Double, Double)) {
        let b = UnitBezier(p.0, p.1, p.2, p.3)
        var worst = 0.0
        for i in 0...10_000 {
            let x = Double(i) / 10_000
            worst = max(worst, abs(b.solve(x) - Self.exact(b, x)))
        }
        #expect(worst < 1e-6, "worst error \(worst)")
    }

    @Test("The named curves are within 1e-11 of the exact curve everywhere",
          arguments: ["easeIn", "easeOut", "easeInEaseOut", "default"])
    func namedCurvesNearExact(_ name: String) throws {
        guard case .cubicBezier(let b) = try TimingFunctionRegistry().function(named: name) else {
            Issue.record("\(name) is not a cubic-bezier"); return
        }
        var worst = 0.0
        for i in 0...10_000 {
            let x = Double(i) / 10_000
            worst = max(worst, abs(b.solve(x) - Self.exact(b, x)))
        }
        #expect(worst < 1e-11, "worst error \(worst)")
    }

    /// x next to a flat end: a dense grid over the `endPieces` intervals at
    /// each end, and x a power of ten away from 0 and from 1.
    static let nearEnds: [Double] = {
        let zone = Double(UnitBezier.endPieces) / Double(GuessTable.intervals)
        var xs = (0...4_000).map { zone * Double($0) / 4_000 }
        xs += xs.map { 1 - $0 }
        var d = 1.0
        for _ in 1...15 { d /= 10; xs += [d, 1 - d] }
        return xs
    }()

    @Test("Next to a flat end (x' = 0 at 0 or 1) the curve is within 1e-9 of exact",
          arguments: [(0.42, 0.0, 1.0, 1.0), (0.0, 0.0, 0.58, 1.0), (0.42, 0.0, 1.0, 0.5), (0.0, 0.5, 0.58, 1.0),
                      (0.0, 0.3, 1.0, 0.7), (0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 1.0, 1.0), (0.001, 0.0, 0.999, 1.0)])
    func flatEnds(_ p: (Double, Double, Double, Double)) {
        let b = UnitBezier(p.0, p.1, p.2, p.3)
        var worst = 0.0, at = 0.0
        for x in Self.nearEnds {
            let e = abs(b.solve(x) - Self.exact(b, x))
            if e > worst { worst = e; at = x }
        }
        #expect(worst < 1e-9, "worst error \(worst) at x = \(at)")
    }

    @Test("A flat end that is nearly straight, with a steep y there, is within 1e-10 of exact wherever x resolves t")
    func nearlyStraightFlatEnd() {
        // x'(t) near 1 is close to the smallest slope Newton accepts: a residual
        // rounded in plain doubles would leave t off by ~1e-10, y by ~2e-9.
        let b = UnitBezier(0.9998565976420004, 0, 1, -1)
        var worst = 0.0, at = 0.0
        // x from 1 − 1e-12 to 1 − 1e-3 (closer, a double x no longer pins t down).
        for i in 0...900 {
            var d = 1e-12
            for _ in 0..<(i / 100) { d *= 10 }
            let x = 1 - d * (1 + Double(i % 100) / 11)
            let e = abs(b.solve(x) - Self.exact(b, x))
            if e > worst { worst = e; at = x }
        }
        #expect(worst < 1e-10, "worst error \(worst) at x = \(at)")
    }

    @Test("A flat end's expansion is the second guess only next to a flat end that bends the right way")
    func flatEndPieces() {
        let last = GuessTable.intervals - 1, inner = UnitBezier.endPieces
        func flat(_ b: UnitBezier, _ k: Int) -> Bool? { UnitBezier.flatEnd(k, ax: b.ax, bx: b.bx, cx: b.cx) }
        let easeIn = UnitBezier(0.42, 0, 1, 1), easeOut = UnitBezier(0, 0, 0.58, 1), both = UnitBezier(0, 0.3, 1, 0.7)
        #expect(flat(easeIn, last) == false && flat(easeIn, last - inner + 1) == false)
        #expect(flat(easeIn, 0) == nil && flat(easeIn, last - inner) == nil)
        #expect(flat(easeOut, 0) == true && flat(easeOut, inner - 1) == true)
        #expect(flat(easeOut, inner) == nil && flat(easeOut, last) == nil)
        #expect(flat(both, 0) == true && flat(both, last) == false && flat(both, 128) == nil)
        // Steep ends have none, nor flat ends without curvature, where the
        // expansion has no root: x = t³ (x1 = x2 = 0) at 0, x = 1 − (1 − t)³ (x1 = x2 = 1) at 1.
        for b in [UnitBezier(0.42, 0, 0.58, 1), UnitBezier(0.25, 0.1, 0.25, 1), UnitBezier(0, 0, 0, 1), UnitBezier(1, 0, 1, 1)] {
            #expect(flat(b, 0) == nil && flat(b, last) == nil)
        }
    }

    @Test("In the piece touching a flat end, Newton from the piece fails and t comes from the end's expansion")
    func flatEndRestart() {
        let n = GuessTable.intervals
        for (b, atStart) in [(UnitBezier(0.42, 0, 1, 1), false), (UnitBezier(0, 0, 0.58, 1), true)] {
            let k = atStart ? 0 : n - 1
            var restarted = 0
            for i in 1..<200 {
                let x = (Double(k) + Double(i) / 200) / Double(n)
                let s = x * Double(n), u = s - Double(k)
                let p = b.table.pieces + k * GuessTable.stride
                let guess = ((p[0] * u + p[1]) * u + p[2]) * u + p[3]
                guard UnitBezier.newton(x, ax: b.ax, bx: b.bx, cx: b.cx, from: guess,
                                        steps: UnitBezier.maxNewtonIterations) == nil else { continue }
                let start = UnitBezier.endGuess(x, ax: b.ax, bx: b.bx, cx: b.cx, atStart: atStart)
                let fromEnd = UnitBezier.newton(x, ax: b.ax, bx: b.bx, cx: b.cx, from: start, steps: UnitBezier.maxNewtonIterations,
                                                compensated: true)
                #expect(fromEnd != nil && b.solveT(x) == fromEnd!, "x = \(x)")
                restarted += 1
            }
            // About half the piece (the half next to the end) needs it: there Newton from the piece would bisect.
            #expect(restarted > 60, "\(restarted) of 199 points")
        }
    }

    @Test("Next to a flat end, the expansion's guess is off by at most half the square of the distance to the end")
    func endGuessAccuracy() {
        for (b, atStart) in [(UnitBezier(0.42, 0, 1, 1), false), (UnitBezier(0, 0, 0.58, 1), true),
                             (UnitBezier(0.42, 0, 1, 0.5), false), (UnitBezier(0, 0.3, 1, 0.7), true),
                             (UnitBezier(0, 0.3, 1, 0.7), false)] {
            for i in 1...100 {
                let distance = Double(i) / 100 * Double(UnitBezier.endPieces) / Double(GuessTable.intervals)
                let x = atStart ? distance : 1 - distance
                let t = b.solveT(x), guess = UnitBezier.endGuess(x, ax: b.ax, bx: b.bx, cx: b.cx, atStart: atStart)
                let fromEnd = atStart ? t : 1 - t
                #expect(abs(guess - t) <= 0.5 * fromEnd * fromEnd, "x = \(x): guess \(guess), t \(t)")
            }
        }
    }

    @Test("x control points outside [0, 1] and non-finite points are rejected")
    func invalidBezier() throws {
        #expect(throws: AnimrtError.self) { try TimingFunction.cubicBezier(1.2, 0, 0.5, 1) }
        #expect(throws: AnimrtError.self) { try TimingFunction.cubicBezier(0.2, .nan, 0.5, 1) }
        expectFailure(.outOfRange, containing: "x1 = -0.1") { _ = try TimingFunction.cubicBezier(-0.1, 0, 0.5, 1) }
        expectFailure(.outOfRange, containing: "x2 = 1.5") { _ = try TimingFunction.cubicBezier(0.3, 0, 1.5, 1) }
        expectFailure(.outOfRange, containing: "x2 = -0.5") { _ = try TimingFunction.cubicBezier(0.3, 0, -0.5, 1) }
        expectFailure(.invalidArgument, containing: "y2") { _ = try TimingFunction.cubicBezier(0.3, 0, 0.5, .infinity) }
        // The edges are accepted: x1 and x2 may be exactly 0 or 1.
        #expect(try TimingFunction.cubicBezier(0, 0.3, 1, 0.7) != .linear)
    }

    @Test("A cubic-bezier ends exactly at (1, 1) and starts at (0, 0), whatever rounding leaves in its coefficients")
    func endsExactly() throws {
        // Horner's sum ay + by + cy is an ulp off 1 for about one curve in
        // six (this one: 1.0000000000000009), and loses the 1 entirely for
        // y past 2^53 (the second: 0).
        let offByAnUlp = try TimingFunction.cubicBezier(0.5209384176131452, -0.06183887722645043, 0.39325509496422606,
                                                        -2.8225502161985574)
        let huge = try TimingFunction.cubicBezier(0.5, 1e20, 0.5, 1)
        for f in [offByAnUlp, huge] {
            #expect(f.evaluate(1) == 1)
            #expect(f.evaluate(0) == 0)
        }
        var g = SystemRandomNumberGenerator()
        var offBefore = 0
        for _ in 0..<5000 {
            let (x1, x2) = (Double.random(in: 0...1, using: &g), Double.random(in: 0...1, using: &g))
            let (y1, y2) = (Double.random(in: -3...3, using: &g), Double.random(in: -3...3, using: &g))
            let f = try TimingFunction.cubicBezier(x1, y1, x2, y2)
            #expect(f.evaluate(1) == 1, "cubic-bezier(\(x1), \(y1), \(x2), \(y2)) ends at \(f.evaluate(1))")
            #expect(f.evaluate(0) == 0)
            // The case the end guards against is common, not an oddity.
            let cy = 3 * y1, by = 3 * (y2 - y1) - cy
            if ((1 - cy - by) + by) + cy != 1 { offBefore += 1 }
        }
        #expect(offBefore > 100)
        // Just inside the ends the curve is the polynomial, continuous with them.
        #expect(abs(offByAnUlp.evaluate(1 - 0x1p-40) - 1) < 1e-9)
    }

    @Test("A flat end tangent stays at its end at any x, infinite too: 0 · ∞ is not taken for the tangent's value")
    func flatTangentAtInfinity() throws {
        let flat = try TimingFunction.cubicBezier(0.42, 0, 0.58, 1)   // easeInEaseOut: flat at both ends
        #expect(flat.evaluate(.infinity) == 1)
        #expect(flat.evaluate(-.infinity) == 0)
        #expect(flat.evaluate(1e308) == 1 && flat.evaluate(-1e308) == 0)
        // A sloped tangent goes on to infinity, as the export refuses.
        let easeIn = try TimingFunction.cubicBezier(0.42, 0, 1, 1)
        #expect(easeIn.evaluate(.infinity) == .infinity)
        #expect(easeIn.evaluate(-.infinity) == 0)
    }

    @Test("Diagonal control points are exactly linear")
    func diagonalIsLinear() throws {
        #expect(try TimingFunction.cubicBezier(0.2, 0.2, 0.7, 0.7) == .linear)
    }

    @Test("Functional names parse; unknown names suggest the closest")
    func registryNames() throws {
        let r = TimingFunctionRegistry()
        #expect(try r.function(named: "steps(4, jump-none)") == .steps(StepsFunction(count: 4, position: .jumpNone)))
        #expect(try r.function(named: "steps(2)") == .steps(StepsFunction(count: 2, position: .jumpEnd)))
        #expect(try r.function(named: "cubic-bezier(0.1, 0.2, 0.3, 0.4)") == .cubicBezier(UnitBezier(0.1, 0.2, 0.3, 0.4)))
        #expect(throws: AnimrtError.self) { try r.function(named: "steps(0)") }
        #expect(throws: AnimrtError.self) { try r.function(named: "steps(1, jump-none)") }
        expectFailure(.notFound, containing: "did you mean 'easeInEaseOut'?") { _ = try r.function(named: "easeInOut") }
        // Nothing close: the names it knows, after a semicolon.
        expectFailure(.notFound, containing: "no timing function named 'bouncy'; known: linear, easeIn") {
            _ = try r.function(named: "bouncy")
        }
    }

    /// Each malformed functional name is refused with the words that say
    /// what is wrong with it, the name quoted first (R1.2).
    @Test("Malformed steps(), cubic-bezier() and linear() say what is wrong", arguments: [
        ("steps(x)", "'steps(x)': steps takes a count and an optional position"),
        ("steps(1.5)", "'steps(1.5)': steps takes a count and an optional position"),
        ("steps(2, end, 3)", "'steps(2, end, 3)': steps takes a count and an optional position"),
        ("steps(2, middle)",
         "'steps(2, middle)': unknown step position 'middle' (jump-start, jump-end, jump-none, jump-both, start, end)"),
        ("cubic-bezier(0.1, 0.2, 0.3)", "'cubic-bezier(0.1, 0.2, 0.3)': cubic-bezier takes four numbers"),
        ("cubic-bezier(0.1, 0.2, 0.3, y)", "'cubic-bezier(0.1, 0.2, 0.3, y)': cubic-bezier takes four numbers"),
        ("linear(0, 10%)", "'linear(0, 10%)': stop 1 ('10%') has no output number"),
        ("linear(0, 10% 20%, 1)", "'linear(0, 10% 20%, 1)': stop 1 ('10% 20%') has no output number"),
        ("linear(0, 50% 1 60%)", "'linear(0, 50% 1 60%)': stop 1 splits its positions around the number"),
        ("linear(0, 1 2)", "'linear(0, 1 2)': stop 1 ('1 2') must be a number and up to two percentages"),
        ("linear(0, x)", "'linear(0, x)': stop 1 ('x') must be a number and up to two percentages"),
        // A fifth argument that is not a number is not dropped (compactMap leaves four numbers).
        ("cubic-bezier(0.1, 0.2, 0.3, 0.4, x)", "'cubic-bezier(0.1, 0.2, 0.3, 0.4, x)': cubic-bezier takes four numbers"),
        // What linear() itself refuses is prefixed with the text, as the parser's own refusals are.
        ("linear()", "'linear()': linear() needs at least two stops, got 0"),
        ("linear(0)", "'linear(0)': linear() needs at least two stops, got 1"),
        ("linear(0, 1 10% 20% 30%)", "'linear(0, 1 10% 20% 30%)': linear() stop 1 has 3 positions; at most two"),
    ])
    func functionalRefusals(_ pair: (String, String)) {
        let error = expectFailure(.invalidArgument) { _ = try TimingFunctionRegistry().function(named: pair.0) }
        #expect(error?.message == pair.1)
    }

    @Test("Suggestions prefer Core Animation's names; hyphenated words get the CSS name", arguments: [
        ("easeInOut", "easeInEaseOut"), ("easeinout", "easeInEaseOut"), ("easeOutt", "easeOut"),
        ("ease-in-ot", "ease-in-out"), ("linar", "linear"), ("defalt", "default"),
    ])
    func suggestions(typo: String, expected: String) {
        let r = TimingFunctionRegistry()
        #expect(r.suggestion(for: typo) == expected)
        expectFailure(.notFound, containing: "did you mean '\(expected)'?",
                      "Known: linear, easeIn, easeOut, easeInEaseOut, default (CSS: ease, ease-in") {
            _ = try r.function(named: typo)
        }
    }

    @Test("Plugins register named functions; a name is registered once")
    func registerCustom() throws {
        var r = TimingFunctionRegistry()
        let square = CustomTimingFunction(name: "square") { $0 * $0 }
        try r.register(.custom(square), as: "square")
        #expect(try r.function(named: "square").evaluate(0.5) == 0.25)
        #expect(throws: AnimrtError.self) { try r.register(.linear, as: "square") }
        let bad = CustomTimingFunction(name: "nan") { _ in .nan }
        #expect(TimingFunction.custom(bad).evaluate(0.5) == 0)
    }

    /// A plugin's curve is promised 0 ≤ x ≤ 1. Evaluation past the ends and
    /// the slope's difference at them (it read f(1 + h) before) stay inside:
    /// this curve is linear in [0, 1] and NaN (so 0) outside.
    @Test("A plugin curve is asked for x in [0, 1] only, by evaluate and by slope")
    func customCurveStaysInItsDomain() {
        let inside = TimingFunction.custom(CustomTimingFunction(name: "inside") { x in (0...1).contains(x) ? x : .nan })
        #expect(inside.evaluate(-1) == 0)
        #expect(inside.evaluate(2) == 1)
        #expect(inside.evaluate(.infinity) == 1)
        #expect(inside.evaluate(.nan) == 0)
        for x in [0.0, 0.5, 1, -0.5, 1.5] {
            #expect(abs(inside.slope(x) - 1) < 1e-9, "slope at \(x)")
        }
    }

    /// dy/dx, which velocities use. A cubic-bezier inside [0, 1] is
    /// y'(t)/x'(t): easeInEaseOut at t = ½ (x = ½) has x' = 3·¼·0.42 +
    /// 6·¼·0.16 + 3·¼·0.42 = 0.87 and y' = 6·¼·1 = 1.5. Outside, the end
    /// tangents (CSS Easing 1): default (0.25, 0.1, 0.25, 1) starts at
    /// 0.1/0.25 = 0.4 and ends flat; easeIn ends along P1–P3, (1 − 0)/(1 −
    /// 0.42). linear(0, 0.25 75%, 1): 1/3 before 75% (and before 0), 3 from
    /// it on. A plugin curve y = x² by differences kept inside [0, 1]: 2x,
    /// h and 2 − h at the ends.
    @Test("R1.2 slopes: Bézier tangents inside and past the ends, linear() segments, a plugin curve's one-sided ends")
    func slopes() throws {
        expectClose(TimingFunction.easeInEaseOut.slope(0.5), 1.5 / 0.87, 1e-9)
        #expect(TimingFunction.default.slope(-1) == 0.4 && TimingFunction.default.slope(2) == 0)
        #expect(TimingFunction.easeIn.slope(-1) == 0)
        expectClose(TimingFunction.easeIn.slope(2), 1 / 0.58, 1e-15)
        let l = try TimingFunctionRegistry().function(named: "linear(0, 0.25 75%, 1)")
        expectClose(l.slope(0.5), 1.0 / 3, 1e-15)
        expectClose(l.slope(-1), 1.0 / 3, 1e-15)
        expectClose(l.slope(0.75), 3, 1e-15)
        expectClose(l.slope(2), 3, 1e-15)
        #expect(try TimingFunction.steps(4).slope(0.3) == 0 && TimingFunction.linear.slope(7) == 1)
        let square = TimingFunction.custom(CustomTimingFunction(name: "square") { x in x * x })
        expectClose(square.slope(0.5), 1, 1e-9)
        expectClose(square.slope(0), 0, 2e-6)
        expectClose(square.slope(1), 2, 2e-6)
    }

    /// A plugin's value that is not a finite number is taken as 0 (it must
    /// not reach a presentation value), NaN and both infinities alike.
    @Test("R0.4 a plugin curve's NaN or infinite value is 0")
    func customCurveNonFinite() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let f = TimingFunction.custom(CustomTimingFunction(name: "bad") { x in x < 0.5 ? x : bad })
            #expect(f.evaluate(0.25) == 0.25 && f.evaluate(0.75) == 0, "\(bad)")
        }
    }

    /// CSS Easing 1: steps()'s count must be at least 1, and at least 2
    /// for jump-none (which has count − 1 jumps). The refusal says which.
    @Test("R0.3 steps() with too few steps names the minimum of its position")
    func stepsMinimum() {
        expectFailure(.outOfRange, exactly: "steps(1, jump-none): the count must be at least 2") { _ = try TimingFunction.steps(1, .jumpNone) }
        expectFailure(.outOfRange, exactly: "steps(0, jump-end): the count must be at least 1") { _ = try TimingFunction.steps(0) }
        expectFailure(.outOfRange, exactly: "steps(-3, jump-both): the count must be at least 1") {
            _ = try TimingFunctionRegistry().function(named: "steps(-3, jump-both)")
        }
    }

    /// CSS Easing 1: `start` and `end` are the older names of jump-start
    /// and jump-end. steps(2, start) at 0.25 is (⌊0.25·2⌋ + 1)/2 = 1/2;
    /// steps(2, end) there is 0.
    @Test("steps() takes start and end for jump-start and jump-end")
    func stepsAliases() throws {
        let r = TimingFunctionRegistry()
        let start = try r.function(named: "steps(2, start)"), end = try r.function(named: "steps(2, end)")
        #expect(start == .steps(StepsFunction(count: 2, position: .jumpStart)))
        #expect(end == .steps(StepsFunction(count: 2, position: .jumpEnd)))
        #expect(start.evaluate(0.25) == 0.5 && end.evaluate(0.25) == 0)
        // Written back in CSS Easing 1's current words.
        #expect(start.name == "steps(2, jump-start)")
    }

    /// CSS Easing 1 defines the keywords by their control points: ease is
    /// cubic-bezier(0.25, 0.1, 0.25, 1), ease-in (0.42, 0, 1, 1), ease-out
    /// (0, 0, 0.58, 1), ease-in-out (0.42, 0, 0.58, 1): Core Animation's
    /// default, easeIn, easeOut and easeInEaseOut.
    @Test("The CSS keywords are CSS Easing 1's curves, Core Animation's named ones")
    func cssKeywords() throws {
        let r = TimingFunctionRegistry()
        for (css, p, named) in [("ease", (0.25, 0.1, 0.25, 1.0), "default"), ("ease-in", (0.42, 0, 1, 1), "easeIn"),
                                ("ease-out", (0, 0, 0.58, 1), "easeOut"), ("ease-in-out", (0.42, 0, 0.58, 1), "easeInEaseOut")] {
            let f = try r.function(named: css)
            #expect(f == .cubicBezier(UnitBezier(p.0, p.1, p.2, p.3)), "\(css)")
            #expect(f.name == named, "\(css)")
        }
    }

    /// An unknown name with nothing close lists every name there is: Core
    /// Animation's, the CSS keywords (the aliases sorted, then step-start
    /// and step-end), and the functional forms.
    @Test("R0.3 an unknown timing function's message lists every name, the CSS keywords with step-start and step-end")
    func unknownNameLists() {
        expectFailure(.notFound, exactly: "no timing function named 'bouncy'; known: linear, easeIn, easeOut, easeInEaseOut, default "
                      + "(CSS: ease, ease-in, ease-in-out, ease-out, step-start, step-end), cubic-bezier(x1, y1, x2, y2), "
                      + "steps(n[, jump-start|jump-end|jump-none|jump-both]), linear(stop, …)") {
            _ = try TimingFunctionRegistry().function(named: "bouncy")
        }
    }

    @Test("R0.3 a timing function cannot be registered under the empty name; nothing is registered")
    func emptyName() {
        var r = TimingFunctionRegistry()
        let (names, count) = (r.names, r.functions.count)
        let square = TimingFunction.custom(CustomTimingFunction(name: "square") { $0 * $0 })
        expectFailure(.invalidArgument, exactly: "a timing function name cannot be empty") { _ = try r.register(square, as: "") }
        #expect(r.names == names && r.functions.count == count)
    }

    /// A plugin curve that jumps from −10^308 to 10^308 at ½: the
    /// difference across the jump passes the largest double. A slope that
    /// is not a finite number is taken as 0, as a value that is not finite
    /// is (R0.4): a velocity is never infinite. Away from the jump the
    /// curve is flat.
    @Test("R0.4 a plugin curve's slope that overflows is 0, not infinite")
    func customSlopeOverflow() {
        let jump = TimingFunction.custom(CustomTimingFunction(name: "jump") { x in x < 0.5 ? -1e308 : 1e308 })
        #expect(jump.slope(0.5) == 0)
        #expect(jump.slope(0.25) == 0 && jump.slope(1) == 0)
    }

    /// NaN progress never reaches the C functions (the export refuses it),
    /// but the Swift API takes it: each curve gives its start, as the
    /// cubic-bezier gives 0 and a plugin curve its value at 0. linear()'s
    /// start is its first output.
    @Test("linear() at NaN progress gives its first output, as other curves give their start")
    func linearNaN() throws {
        let r = TimingFunctionRegistry()
        #expect(try r.function(named: "linear(0.2, 1)").evaluate(.nan) == 0.2)
        #expect(try r.function(named: "linear(0.3 20%, 0.9)").evaluate(.nan) == 0.3)
        #expect(TimingFunction.easeIn.evaluate(.nan) == 0)
    }

    /// steps() at NaN shows what it shows at 0: 0 with a jump at the end,
    /// the first step with a jump at the start (CSS Easing 1: steps(2,
    /// jump-start) at 0 is 1/2, steps(3, jump-both) 1/4).
    @Test("steps() at NaN progress gives its value at 0, as other curves give their start")
    func stepsNaN() throws {
        let r = TimingFunctionRegistry()
        #expect(try r.function(named: "steps(4)").evaluate(.nan) == 0)
        #expect(try r.function(named: "steps(2, jump-start)").evaluate(.nan) == 0.5)
        #expect(try r.function(named: "steps(3, jump-both)").evaluate(.nan) == 0.25)
        // With the before flag, 0 pulls the jump at 0 back, and so does NaN.
        #expect(try r.function(named: "steps(2, jump-start)").evaluate(.nan, beforeFlag: true) == 0)
    }

    /// cubic-bezier(0, 0, 0, 0) and cubic-bezier(1, 1, 1, 1) have x(t) = y(t)
    /// (the same control points for both), so they are y = x, and their end
    /// tangents have slope 1: before 0 and past 1 they go on along y = x.
    @Test("Curves that are y = x with their control points on an end extrapolate along y = x")
    func degenerateDiagonals() {
        let atStart = UnitBezier(0, 0, 0, 0), atEnd = UnitBezier(1, 1, 1, 1)
        for b in [atStart, atEnd] {
            #expect(b.solve(-0.5) == -0.5 && b.solve(1.5) == 1.5, "\(b)")
            expectClose(b.solve(0.3), 0.3, 1e-12)
        }
    }

    @Test("R0.4 NaN progress solves to t = 0, never reaching an integer conversion")
    func nanProgress() {
        let b = UnitBezier(0.42, 0, 0.58, 1)
        #expect(b.solveT(.nan) == 0 && b.solveT(-.nan) == 0)
        #expect(b.solve(.nan) == 0)
    }
}
