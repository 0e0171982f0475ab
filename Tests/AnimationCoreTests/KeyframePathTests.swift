import Foundation
import Testing
@testable import AnimationCore

/// Keyframe animations along a path (CAKeyframeAnimation's `path` and
/// `rotationMode`). CAAnimation.h: "Each point in the path except for
/// `moveto' points defines a single keyframe for the purpose of timing and
/// interpolation… For constant velocity animation along the path,
/// `calculationMode' should be set to `paced'."
@Suite("R1.4 keyframes along a path")
struct KeyframePathTests {
    func run(_ keyframes: Keyframes, at progress: [Double], duration: Double = 1,
             configure: (Runtime, Handle) throws -> Void = { _, _ in }) throws -> [AnimatableValue] {
        let rt = Runtime(); let l = try rt.createLayer()
        try configure(rt, l)
        var a = Animation.keyframe("position", keyframes, timing: MediaTiming(duration: duration, fillMode: .forwards))
        a.isRemovedOnCompletion = false
        try rt.add(a, to: l, forKey: "path")
        try rt.tick(0)
        var out: [AnimatableValue] = []
        for p in progress {
            try rt.tick(p * duration)
            out.append(try rt.presentationValue(forKeyPath: "position", of: l))
        }
        return out
    }

    func expectPoint(_ v: AnimatableValue, _ x: Double, _ y: Double, _ tol: Double = 1e-9,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(v.lanes[0] - x) <= tol && abs(v.lanes[1] - y) <= tol, "\(v) vs (\(x), \(y))", sourceLocation: sourceLocation)
    }

    /// M(0,0) L(30,0) L(30,40): three keyframes, two segments. Linear mode
    /// spreads them evenly (segment i over [i/2, (i+1)/2]); paced mode moves
    /// at constant speed over the total length 70, reaching the corner at
    /// 30/70 and (30, 5) at half way (35 along).
    @Test("A polyline: even key times, or paced by length")
    func polyline() throws {
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .line(30, 0), .line(30, 40)]
        let linear = try run(k, at: [0.25, 0.5, 0.75, 1])
        expectPoint(linear[0], 15, 0); expectPoint(linear[1], 30, 0); expectPoint(linear[2], 30, 20); expectPoint(linear[3], 30, 40)
        k.calculationMode = .paced
        let paced = try run(k, at: [3.0 / 7, 0.5, 1], duration: 7)
        expectPoint(paced[0], 30, 0); expectPoint(paced[1], 30, 5); expectPoint(paced[2], 30, 40)
    }

    /// M(0,0) L(1,0) M(5,5) L(6,5): a move makes no keyframe ("each point
    /// in the path except for moveto points defines a single keyframe"), so
    /// the keyframes are (0,0), (1,0) and (6,5), and discrete mode shows
    /// each for a third; the move's point (5,5) is never one of them.
    @Test("Discrete keyframes along a path with a move in the middle show the path's points, not the move's")
    func discreteAcrossAMove() throws {
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .line(1, 0), .move(5, 5), .line(6, 5)]
        k.calculationMode = .discrete
        let v = try run(k, at: [0.1, 0.4, 0.5, 0.6, 0.7, 0.9, 1])
        expectPoint(v[0], 0, 0)
        for i in 1...3 { expectPoint(v[i], 1, 0) }
        for i in 4...6 { expectPoint(v[i], 6, 5) }
        // Without the move the same points are the segments' starts, as before.
        k.path = [.move(0, 0), .line(1, 0), .line(6, 5)]
        let joined = try run(k, at: [0.1, 0.5, 0.9])
        expectPoint(joined[0], 0, 0); expectPoint(joined[1], 1, 0); expectPoint(joined[2], 6, 5)
    }

    /// A quadratic Bézier B(t) = (1−t)²P0 + 2(1−t)t·P1 + t²P2 from (0,0)
    /// over (50,100) to (100,0) is symmetric, so half its arc length is at
    /// t = ½: B(½) = (50, 50). A quarter of the length is where ∫|B′| dt
    /// reaches L/4, found here by Simpson's rule (20 000 intervals) and
    /// bisection. Linear mode follows the parameter instead: at progress ¼,
    /// B(¼) = (25, 37.5).
    @Test("A curve is paced by its arc length")
    func quadraticArcLength() throws {
        let p0 = SIMD2<Double>(0, 0), p1 = SIMD2<Double>(50, 100), p2 = SIMD2<Double>(100, 0)
        func b(_ t: Double) -> SIMD2<Double> { p0 * ((1 - t) * (1 - t)) + p1 * (2 * (1 - t) * t) + p2 * (t * t) }
        func speed(_ t: Double) -> Double {
            let d = (p1 - p0) * (2 * (1 - t)) + (p2 - p1) * (2 * t)
            return (d.x * d.x + d.y * d.y).squareRoot()
        }
        func length(_ to: Double) -> Double {
            let n = 20_000, h = to / Double(n)
            var s = speed(0) + speed(to)
            for i in 1..<n { s += speed(Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
            return s * h / 3
        }
        let total = length(1)
        var lo = 0.0, hi = 0.5
        for _ in 0..<60 { let m = (lo + hi) / 2; if length(m) < total / 4 { lo = m } else { hi = m } }
        let quarter = b((lo + hi) / 2)
        var k = Keyframes(values: [], calculationMode: .paced)
        k.path = [.move(0, 0), .quad(50, 100, 100, 0)]
        let paced = try run(k, at: [0.25, 0.5])
        expectPoint(paced[0], quarter.x, quarter.y, 1e-8)
        expectPoint(paced[1], 50, 50, 1e-9)
        k.calculationMode = .linear
        expectPoint(try run(k, at: [0.25])[0], 25, 37.5)
    }

    /// A move in the middle starts a new subpath: the layer jumps there (a
    /// move is not a keyframe). close draws the line back to the subpath's
    /// start. M(0,0) L(10,0) M(100,100) L(110,100) L(110,110) Z: four
    /// drawable segments, the last from (110,110) back to (100,100).
    @Test("move jumps, close returns to the subpath's start")
    func moveAndClose() throws {
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .line(10, 0), .move(100, 100), .line(110, 100), .line(110, 110), .close]
        let v = try run(k, at: [0.125, 0.25, 0.375, 0.875, 1])
        expectPoint(v[0], 5, 0); expectPoint(v[1], 100, 100); expectPoint(v[2], 105, 100)
        expectPoint(v[3], 105, 105); expectPoint(v[4], 100, 100)
    }

    /// Key times and per-segment timing functions work as for values: one
    /// key time per keyframe point (segments + 1); a cubic segment follows
    /// its own parameter: B(t) = (1−t)³P0 + 3(1−t)²t·C1 + 3(1−t)t²·C2 + t³P3.
    @Test("Key times, segment timing functions and cubic segments")
    func keyTimesAndCubic() throws {
        var k = Keyframes(values: [], keyTimes: [0, 0.2, 1], timingFunctions: [.linear, .easeIn])
        k.path = [.move(0, 0), .line(10, 0), .cubic(10, 20, 30, 20, 40, 0)]
        let t = TimingFunction.easeIn.evaluate(0.5)
        let u = 1 - t
        let x = 10 * u * u * u + 3 * u * u * t * 10 + 3 * u * t * t * 30 + t * t * t * 40
        let y = 3 * u * u * t * 20 + 3 * u * t * t * 20
        let v = try run(k, at: [0.1, 0.6])
        expectPoint(v[0], 5, 0); expectPoint(v[1], x, y)
        k.keyTimes = [0, 1]
        #expect(throws: AnimrtError.self) { try run(k, at: [0.5]) }
    }

    /// rotationMode auto turns the layer to the path's tangent: along
    /// (0,0) → (30,40) by atan2(40, 30); autoReverse adds π. The rotation
    /// applies before the layer's own transform (here a scale by 2): the
    /// matrix is Rz · S in Core Animation's row-vector layout, m11 = 2 cos θ,
    /// m12 = 2 sin θ.
    @Test("rotationMode auto and autoReverse follow the tangent")
    func rotation() throws {
        for (mode, extra) in [(RotationMode.auto, 0.0), (.autoReverse, Double.pi)] {
            let rt = Runtime(); let l = try rt.createLayer()
            try rt.setModelValue(.transform(.scale(2, 2)), forKeyPath: "transform", of: l)
            var k = Keyframes(values: [])
            k.path = [.move(0, 0), .line(30, 40), .quad(60, 80, 90, 40)]
            k.rotationMode = mode
            try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 2)), to: l, forKey: "path")
            try rt.tick(0); try rt.tick(0.5)
            var theta = atan2(40.0, 30.0) + extra
            var m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
            expectClose(m[0], 2 * cos(theta), 1e-12); expectClose(m[1], 2 * sin(theta), 1e-12)
            #expect(try rt.modelValue(forKeyPath: "transform", of: l) == .transform(.scale(2, 2)))
            // On the quadratic at t = ½ the tangent is P2 − P0 = (60, 0): angle 0.
            try rt.tick(1.5)
            theta = extra
            m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
            expectClose(m[0], 2 * cos(theta), 1e-12); expectClose(m[1], 2 * sin(theta), 1e-12)
            // Removed at the end: the model transform shows again.
            try rt.tick(2)
            #expect(try rt.presentationValue(forKeyPath: "transform", of: l) == .transform(.scale(2, 2)))
        }
    }

    /// Paced motion moves at constant speed: total length / duration along
    /// the tangent. The polyline above is 70 long; over 7 s that is 10 per
    /// second, first along x, then along y.
    @Test("Velocity along a paced path is the length over the duration, along the tangent")
    func pathVelocity() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: [], calculationMode: .paced)
        k.path = [.move(0, 0), .line(30, 0), .line(30, 40)]
        let h = try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 7)), to: l, forKey: "path")
        try rt.tick(0); try rt.tick(1)
        let v = try rt.velocity(of: h)
        expectClose(v.lanes[0], 10, 1e-12); expectClose(v.lanes[1], 0, 1e-12)
        try rt.tick(5)
        let w = try rt.velocity(of: h)
        expectClose(w.lanes[0], 0, 1e-12); expectClose(w.lanes[1], 10, 1e-12)
    }

    @Test("Paths are checked when added; the element limit holds at its edge")
    func pathChecks() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        func add(_ path: [PathElement], keyPath: String = "position", rotation: RotationMode = .none) throws(AnimrtError) {
            var k = Keyframes(values: [])
            k.path = path; k.rotationMode = rotation
            try rt.add(.keyframe(keyPath, k), to: l, forKey: "k")
        }
        for bad in [[PathElement](), [.line(1, 1)], [.move(0, 0), .line(.nan, 0)], [.move(0, 0), .cubic(0, 0, 0, .infinity, 1, 1)],
                    [.move(0, 0), .line(1e308, 0), .line(-1e308, 0)]] {
            #expect(throws: AnimrtError.self, "\(bad)") { try add(bad) }
        }
        do { try add([.move(0, 0), .line(1, 1)], keyPath: "opacity"); Issue.record("accepted") }
        catch { #expect(error.status == .kind) }
        do {
            var k = Keyframes(values: [.point(0, 0), .point(1, 1)])
            k.rotationMode = .auto
            try rt.add(.keyframe("position", k), to: l, forKey: "k"); Issue.record("accepted")
        } catch { #expect(error.status == .invalidArgument && error.message.contains("no path")) }
        let limit = ResolvedPath.maximumElements
        try add([.move(0, 0)] + (1..<limit).map { .line(Double($0), 0) })
        do { try add([.move(0, 0)] + (1...limit).map { .line(Double($0), 0) }); Issue.record("accepted") }
        catch { #expect(error.status == .outOfRange && error.message.contains("\(limit)")) }
        // A path that never moves: one point, no rotation to give.
        try add([.move(5, 5), .line(5, 5)], rotation: .auto)
        try rt.tick(0); try rt.tick(0.1)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(5, 5))
        #expect(try rt.presentationValue(forKeyPath: "transform", of: l) == .transform(.identity))
    }

    /// The C ABI's commands and their numbers (move and line take 2, quad 4,
    /// cubic 6, close none) become the path; a count that does not add up
    /// is refused with what was given and what was needed.
    @Test("R0.3 commands and their numbers: each takes its own count; too few or too many numbers are refused")
    func commandsAndNumbers() throws {
        let path = try PathElement.path(commands: [0, 1, 2, 3, 4], points: (0..<14).map(Double.init))
        #expect(path == [.move(0, 1), .line(2, 3), .quad(4, 5, 6, 7), .cubic(8, 9, 10, 11, 12, 13), .close])
        #expect(try PathElement.path(commands: [0, 3], points: [0, 0, 1, 2, 3, 4, 5, 6]) == [.move(0, 0), .cubic(1, 2, 3, 4, 5, 6)])
        expectFailure(.invalidArgument, exactly: "the path's commands take 2 numbers but 3 were given") {
            _ = try PathElement.path(commands: [0], points: [0, 0, 1])
        }
        expectFailure(.invalidArgument, exactly: "path command 1 needs 2 numbers but only 1 is left of the 3 given") {
            _ = try PathElement.path(commands: [0, 1], points: [0, 0, 5])
        }
        expectFailure(.invalidArgument, exactly: "path command 1 needs 6 numbers but only 0 are left of the 2 given") {
            _ = try PathElement.path(commands: [0, 3], points: [0, 0])
        }
        expectFailure(.unknownEnum, exactly: "path command 1 is 5, not a valid animrt_path_command") {
            _ = try PathElement.path(commands: [0, 5], points: [0, 0])
        }
    }

    /// A cubic from (0,0) with controls (0,10), (10,10) to (10,0), followed
    /// by its own parameter over 1 s (linear mode, one segment). At t = ¼,
    /// B′(t) = 3(1−t)²(C1−P0) + 6(1−t)t(C2−C1) + 3t²(P3−C2)
    ///       = 1.6875·(0,10) + 1.125·(10,0) + 0.1875·(0,−10) = (11.25, 15):
    /// the velocity, and auto-rotation turns to atan2(15, 11.25) = atan2(4, 3).
    @Test("On a cubic, auto-rotation and velocity follow B′(t) with its middle term")
    func cubicTangent() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .cubic(0, 10, 10, 10, 10, 0)]
        k.rotationMode = .auto
        let h = try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 1)), to: l, forKey: "path")
        try rt.tick(0); try rt.tick(0.25)
        let v = try rt.velocity(of: h)
        expectClose(v.lanes[0], 11.25, 1e-12); expectClose(v.lanes[1], 15, 1e-12)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
        expectClose(m[0], 0.6, 1e-12); expectClose(m[1], 0.8, 1e-12)
    }

    /// Where B′ vanishes, the direction is its limit: a cubic from (0,0)
    /// whose first control point is its start, C1 = P0, leaves along C2 − P0
    /// (B(t) ≈ 3t²·C2 for small t): up, π/2, not along the chord to (10,10)
    /// at π/4. Read at the animation's first frame, t = 0.
    @Test("Where a cubic's derivative vanishes, auto-rotation takes the curve's direction, not its chord")
    func vanishingDerivative() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .cubic(0, 0, 0, 10, 10, 10)]
        k.rotationMode = .auto
        try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 1)), to: l, forKey: "path")
        try rt.tick(0)
        let m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
        expectClose(m[0], 0, 1e-6); expectClose(m[1], 1, 1e-6)
    }

    /// A segment that goes nowhere (a line to where the layer is) keeps
    /// the heading it came with: M(0,0) L(10,0) L(10,0) L(10,10) over 3 s
    /// in linear mode spends [1, 2] on the middle segment, still facing
    /// along x (angle 0), then turns up (π/2) on the last.
    @Test("A segment that does not move keeps the previous segment's heading")
    func standingSegment() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        var k = Keyframes(values: [])
        k.path = [.move(0, 0), .line(10, 0), .line(10, 0), .line(10, 10)]
        k.rotationMode = .auto
        try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 3)), to: l, forKey: "path")
        try rt.tick(0); try rt.tick(1.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(10, 0))
        var m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
        expectClose(m[0], 1, 1e-12); expectClose(m[1], 0, 1e-12)
        try rt.tick(2.5)
        m = try rt.presentationValue(forKeyPath: "transform", of: l).lanes
        expectClose(m[0], 0, 1e-12); expectClose(m[1], 1, 1e-12)
    }

    /// A paced path that starts with a zero-length segment (a line to its
    /// own start) is at its start at progress 0, not at 0/0: the model
    /// value (99, 99) underneath must not show.
    @Test("A paced path starting with a segment of no length shows its start at progress 0")
    func pacedZeroLengthStart() throws {
        let rt = Runtime(); let l = try rt.createLayer()
        try rt.setModelValue(.point(99, 99), forKeyPath: "position", of: l)
        var k = Keyframes(values: [], calculationMode: .paced)
        k.path = [.move(0, 0), .line(0, 0), .line(10, 0)]
        try rt.add(.keyframe("position", k, timing: MediaTiming(duration: 1)), to: l, forKey: "path")
        try rt.tick(0)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(0, 0))
        try rt.tick(0.5)
        #expect(try rt.presentationValue(forKeyPath: "position", of: l) == .point(5, 0))
    }

    /// Lengths are taken scaled, so coordinates near 1e200 (whose squares
    /// overflow) still make a path of finite length: M(0,0) L(1e200,0)
    /// L(1e200,1e200) is 2e200 long, and paced at a quarter it is at
    /// (5e199, 0), at three quarters at (1e200, 5e199).
    @Test("R0.4 a path with coordinates near 1e200 is accepted and paced by its length")
    func hugeCoordinates() throws {
        var k = Keyframes(values: [], calculationMode: .paced)
        k.path = [.move(0, 0), .line(1e200, 0), .line(1e200, 1e200)]
        let v = try run(k, at: [0.25, 0.75])
        #expect(abs(v[0].lanes[0] - 5e199) <= 1e188 && v[0].lanes[1] == 0, "\(v[0])")
        #expect(v[1].lanes[0] == 1e200 && abs(v[1].lanes[1] - 5e199) <= 1e188, "\(v[1])")
    }
}
