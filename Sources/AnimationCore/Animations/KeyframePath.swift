/// One element of a keyframe animation's path (Core Animation's `path`, a
/// CGPath): move, line, quadratic and cubic Bézier curves, close.
public enum PathElement: Hashable, Sendable, Codable {
    case move(Double, Double)
    case line(Double, Double)
    /// Control point, then end point.
    case quad(Double, Double, Double, Double)
    /// Two control points, then end point.
    case cubic(Double, Double, Double, Double, Double, Double)
    /// A line back to the start of the subpath.
    case close

    /// The numbers the element carries (the C ABI's points per command).
    public var coordinates: [Double] {
        switch self {
        case .move(let x, let y), .line(let x, let y): [x, y]
        case .quad(let a, let b, let x, let y): [a, b, x, y]
        case .cubic(let a, let b, let c, let d, let x, let y): [a, b, c, d, x, y]
        case .close: []
        }
    }
}

extension PathElement {
    /// The C ABI's numbering of path commands (`animrt_path_command`).
    public enum Command: Int32, Sendable, CaseIterable {
        case move = 0, line, quad, cubic, close

        /// How many numbers the command takes.
        public var arity: Int {
            switch self { case .move, .line: 2; case .quad: 4; case .cubic: 6; case .close: 0 }
        }
    }

    public var command: Command {
        switch self { case .move: .move; case .line: .line; case .quad: .quad; case .cubic: .cubic; case .close: .close }
    }

    /// Checks a path as adding an animation would: not empty, a move first,
    /// at most `maximumElements`, coordinates and length finite.
    public static func validate(_ path: [PathElement], keyPath: String) throws(AnimrtError) {
        _ = try ResolvedPath(path, keyPath: keyPath)
    }

    /// The most elements a path may have.
    public static var maximumElements: Int { ResolvedPath.maximumElements }

    /// A path from commands and the flat list of their numbers, which must
    /// be exactly as many as the commands take.
    public static func path(commands: [Int32], points: [Double]) throws(AnimrtError) -> [PathElement] {
        var out: [PathElement] = [], k = 0
        out.reserveCapacity(commands.count)
        for (i, raw) in commands.enumerated() {
            guard let c = Command(rawValue: raw) else {
                throw AnimrtError(.unknownEnum, "path command \(i) is \(raw), not a valid animrt_path_command")
            }
            guard k + c.arity <= points.count else {
                throw AnimrtError(.invalidArgument, "path command \(i) needs \(c.arity) numbers but only \(points.count - k == 1 ? "1 is" : "\(points.count - k) are") left of the \(points.count) given")
            }
            let p = points[k..<(k + c.arity)].map { $0 }
            k += c.arity
            switch c {
            case .move: out.append(.move(p[0], p[1]))
            case .line: out.append(.line(p[0], p[1]))
            case .quad: out.append(.quad(p[0], p[1], p[2], p[3]))
            case .cubic: out.append(.cubic(p[0], p[1], p[2], p[3], p[4], p[5]))
            case .close: out.append(.close)
            }
        }
        guard k == points.count else {
            throw AnimrtError(.invalidArgument, "the path's commands take \(counted(k, "number")) but \(given(points.count))")
        }
        return out
    }
}

/// Core Animation's `rotationMode` (raw values are the C ABI's
/// `animrt_rotation_mode`).
public enum RotationMode: Int32, Sendable, CaseIterable {
    /// No rotation.
    case none = 0
    /// Rotate the layer to match the path's tangent.
    case auto
    /// The tangent plus 180 degrees.
    case autoReverse
}

/// A path made ready for evaluation: its drawable segments in order, with
/// arc-length tables for pacing.
struct ResolvedPath {
    /// A segment from `p0` along a line, a quadratic or a cubic Bézier.
    struct Segment {
        /// Points as SIMD2: start, controls (unused ones repeat), end.
        var p0: SIMD2<Double>, c1: SIMD2<Double>, c2: SIMD2<Double>, p1: SIMD2<Double>
        /// 1 line, 2 quadratic, 3 cubic.
        var degree: Int

        func point(_ t: Double) -> SIMD2<Double> {
            let u = 1 - t
            switch degree {
            case 1: return p0 + (p1 - p0) * t
            case 2: return p0 * (u * u) + c1 * (2 * u * t) + p1 * (t * t)
            default: return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p1 * (t * t * t)
            }
        }

        /// B′(t).
        func derivative(_ t: Double) -> SIMD2<Double> {
            let u = 1 - t
            switch degree {
            case 1: return p1 - p0
            case 2: return (c1 - p0) * (2 * u) + (p1 - c1) * (2 * t)
            default: return (c1 - p0) * (3 * u * u) + (c2 - c1) * (6 * u * t) + (p1 - c2) * (3 * t * t)
            }
        }
    }

    /// The most elements a path may have.
    static let maximumElements = 16_384
    /// Arc-length table pieces per curved segment (Gauss–Legendre on each).
    static let arcPieces = 16

    let segments: [Segment]
    /// The keyframe points: the start, then each segment's end.
    let points: [SIMD2<Double>]
    /// Per segment: cumulative arc length at the end of each of its pieces
    /// (one entry for a line), from the start of the path.
    let arcs: [[Double]]
    let totalLength: Double

    init(_ elements: [PathElement], keyPath: String) throws(AnimrtError) {
        guard !elements.isEmpty else { throw AnimrtError(.invalidArgument, "the path for '\(keyPath)' is empty; start it with a move") }
        guard elements.count <= ResolvedPath.maximumElements else {
            throw AnimrtError(.outOfRange, "the path for '\(keyPath)' has \(elements.count) elements; at most \(ResolvedPath.maximumElements) are accepted")
        }
        guard case .move = elements[0] else {
            throw AnimrtError(.invalidArgument, "the path for '\(keyPath)' starts with \(elements[0]); a path starts with a move")
        }
        var segs: [Segment] = []
        var current = SIMD2<Double>(0, 0), subpathStart = current
        var start = current
        for (i, e) in elements.enumerated() {
            for c in e.coordinates where !c.isFinite {
                throw AnimrtError(.invalidArgument, "path element \(i) of '\(keyPath)' has the coordinate \(c); coordinates must be finite")
            }
            let c = e.coordinates
            switch e {
            case .move(let x, let y):
                current = SIMD2(x, y); subpathStart = current
                if i == 0 { start = current }
            case .line(let x, let y):
                let end = SIMD2(x, y)
                segs.append(Segment(p0: current, c1: current, c2: end, p1: end, degree: 1)); current = end
            case .quad:
                let end = SIMD2(c[2], c[3])
                segs.append(Segment(p0: current, c1: SIMD2(c[0], c[1]), c2: SIMD2(c[0], c[1]), p1: end, degree: 2)); current = end
            case .cubic:
                let end = SIMD2(c[4], c[5])
                segs.append(Segment(p0: current, c1: SIMD2(c[0], c[1]), c2: SIMD2(c[2], c[3]), p1: end, degree: 3)); current = end
            case .close:
                segs.append(Segment(p0: current, c1: current, c2: subpathStart, p1: subpathStart, degree: 1)); current = subpathStart
            }
        }
        segments = segs
        points = [segs.first?.p0 ?? start] + segs.map(\.p1)
        var arcs: [[Double]] = [], total = 0.0
        for s in segs {
            if s.degree == 1 {
                total += ResolvedPath.length(s.p1 - s.p0)
                arcs.append([total])
            } else {
                var row: [Double] = []
                let n = ResolvedPath.arcPieces
                for j in 0..<n {
                    total += ResolvedPath.arcLength(s, from: Double(j) / Double(n), to: Double(j + 1) / Double(n))
                    row.append(total)
                }
                arcs.append(row)
            }
        }
        guard total.isFinite else {
            throw AnimrtError(.outOfRange, "the path for '\(keyPath)' is longer than a double can hold")
        }
        self.arcs = arcs
        totalLength = total
    }

    static func length(_ v: SIMD2<Double>) -> Double {
        // Scaled, so that coordinates near the double range do not overflow.
        let m = max(abs(v.x), abs(v.y))
        guard m > 0 && m.isFinite else { return m }
        let s = v / m
        return m * (s.x * s.x + s.y * s.y).squareRoot()
    }

    /// ∫ |B′(t)| dt over [a, b] by 5-point Gauss–Legendre.
    static func arcLength(_ s: Segment, from a: Double, to b: Double) -> Double {
        let nodes = [0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640]
        let weights = [0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891]
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for k in 0..<5 { sum += weights[k] * length(s.derivative(mid + half * nodes[k])) }
        return sum * half
    }

    /// Arc length from the path's start to parameter t of segment i.
    func arcLength(segment i: Int, t: Double) -> Double {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)  // also keeps Int(_:) below total
        let s = segments[i]
        let before = i > 0 ? arcs[i - 1].last! : 0
        if s.degree == 1 { return before + (arcs[i][0] - before) * t }
        let n = ResolvedPath.arcPieces
        let j = min(Int(t * Double(n)), n - 1)
        let pieceStart = j > 0 ? arcs[i][j - 1] : before
        return pieceStart + ResolvedPath.arcLength(s, from: Double(j) / Double(n), to: t)
    }

    /// The segment and parameter at arc length `target` from the start
    /// (clamped to the path): Newton on the arc length from a table guess.
    func locate(arcLength target: Double) -> (segment: Int, t: Double) {
        guard !segments.isEmpty else { return (0, 0) }
        let goal = min(max(target, 0), totalLength)
        // The first segment whose end is at or past the goal (a zero-length
        // segment, such as a jump, is skipped over).
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if arcs[mid].last! < goal { lo = mid + 1 } else { hi = mid }
        }
        let i = lo, s = segments[i]
        let before = i > 0 ? arcs[i - 1].last! : 0
        let length = arcs[i].last! - before
        guard length > 0 else { return (i, 0) }
        if s.degree == 1 { return (i, min(max((goal - before) / length, 0), 1)) }
        let n = ResolvedPath.arcPieces
        var j = 0
        while j < n - 1 && arcs[i][j] < goal { j += 1 }
        let a = j > 0 ? arcs[i][j - 1] : before, b = arcs[i][j]
        let t0 = Double(j) / Double(n), t1 = Double(j + 1) / Double(n)
        var t = b > a ? t0 + (t1 - t0) * (goal - a) / (b - a) : t0
        for _ in 0..<4 {
            let speed = ResolvedPath.length(s.derivative(t))
            guard speed > 1e-12 else { break }
            let next = t - (arcLength(segment: i, t: t) - goal) / speed
            t = min(max(next, t0), t1)
        }
        return (i, t)
    }

    /// The direction of travel at parameter t of segment i, falling back
    /// (where B′ vanishes) to a nearby chord, the segment's chord, then the
    /// neighbouring segments; nil for a path that never moves.
    func tangent(segment i: Int, t: Double) -> SIMD2<Double>? {
        guard !segments.isEmpty else { return nil }
        let s = segments[i]
        let d = s.derivative(t)
        if ResolvedPath.length(d) > 1e-12 { return d }
        let near = s.point(min(t + 1e-6, 1)) - s.point(max(t - 1e-6, 0))
        if ResolvedPath.length(near) > 0 { return near }
        if ResolvedPath.length(s.p1 - s.p0) > 0 { return s.p1 - s.p0 }
        for k in stride(from: i - 1, through: 0, by: -1) {
            let o = segments[k]
            if ResolvedPath.length(o.p1 - o.p0) > 0 { return o.p1 - o.p0 }
        }
        for k in (i + 1)..<segments.count {
            let o = segments[k]
            if ResolvedPath.length(o.p1 - o.p0) > 0 { return o.p1 - o.p0 }
        }
        return nil
    }
}
