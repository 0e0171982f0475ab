import Testing
@testable import AnimationCore

/// Keyframe evaluation finds its segment by a binary search over the key
/// times (and a cubic-paced animation's arc table), which must stop where
/// the scan it replaced stopped: on every key time, between duplicates, and
/// for progress outside [0, 1] or NaN.
@Suite("R1.4 keyframe segments searched, not scanned")
struct KeyframeSearchTests {
    @Test("partitionPoint stops where a scan stops, for every split of ranges up to 24 long")
    func partitionPointIsTheScan() {
        for lower in [0, 3] {
            for count in 0...24 {
                let range = lower..<(lower + count)
                for split in range.lowerBound...range.upperBound {
                    var calls = 0
                    let found = partitionPoint(range) { calls += 1; return $0 < split }
                    #expect(found == split, "range \(range), split \(split)")
                    #expect(calls <= 6)  // ⌈log2(25)⌉ + 1
                }
            }
        }
        #expect(partitionPoint(0..<100) { _ in false } == 0)
    }

    /// The scan the search replaced: the last key in 0 ... `last` whose
    /// time is at most `y`.
    static func scanned(_ keyTimes: [Double], _ y: Double, last: Int) -> Int {
        var i = 0
        while i < last && keyTimes[i + 1] <= y { i += 1 }
        return i
    }

    /// Key times with runs of duplicates (0.5 three times, the first and last
    /// twice) among uneven gaps, and progress on, between and past them.
    static let keyTimes: [Double] = [0, 0, 0.1, 0.25, 0.5, 0.5, 0.5, 0.6, 0.99, 1, 1]
    static let progress: [Double] = [-1, -0.0, 0, 0.05, 0.1, 0.2, 0.25, 0.4999, 0.5, 0.55, 0.6, 0.9, 0.99, 0.995, 1, 1.5, .nan]

    @Test("Linear and discrete keyframes take the segment the scan took, duplicates and all")
    func segmentsAsScanned() throws {
        let values = (0..<Self.keyTimes.count).map { AnimatableValue.scalar(Double($0 * $0)) }
        let linear = try ResolvedKeyframes(Keyframes(values: values, keyTimes: Self.keyTimes), path: "x")
        var discreteTimes = Self.keyTimes
        discreteTimes.insert(0.3, at: 4)
        let discrete = try ResolvedKeyframes(Keyframes(values: values, keyTimes: discreteTimes, calculationMode: .discrete), path: "x")
        let n = values.count
        for y in Self.progress {
            let i = Self.scanned(Self.keyTimes, y, last: n - 2)
            #expect(linear.keyIndex(at: y, last: n - 2) == i, "y \(y)")
            // The value the scan's segment gives, to the bit.
            if !y.isNaN {
                let span = Self.keyTimes[i + 1] - Self.keyTimes[i]
                let f = span > 0 ? (y - Self.keyTimes[i]) / span : 1
                let a = values[i].scalar, b = values[i + 1].scalar
                #expect(linear.value(at: y).scalar == a + (b - a) * f, "y \(y)")
            }
            let d = Self.scanned(discreteTimes, y, last: n - 1)
            #expect(discrete.keyIndex(at: y, last: n - 1) == d && discrete.value(at: y) == values[d], "y \(y)")
        }
    }

    @Test("A cubic-paced animation of many keyframes finds its arc as the scan did")
    func arcsAsScanned() throws {
        // Uneven distances, two keyframes repeated (zero-length arcs).
        var values: [AnimatableValue] = []
        var x = 0.0
        for k in 0..<400 { x += k % 7 == 0 ? 0 : Double(k % 5) + 0.25; values.append(.scalar(x)) }
        let paced = try ResolvedKeyframes(Keyframes(values: values, calculationMode: .cubicPaced), path: "x")
        let total = paced.arcTable.last!.length
        for y in Self.progress + (0...200).map({ Double($0) / 200 }) {
            let target = y * total
            var j = 1
            while j < paced.arcTable.count - 1 && paced.arcTable[j].length < target { j += 1 }
            #expect(paced.arcIndex(reaching: target) == j, "y \(y)")
        }
        // Exactly on each table entry's length, too.
        for entry in paced.arcTable {
            var j = 1
            while j < paced.arcTable.count - 1 && paced.arcTable[j].length < entry.length { j += 1 }
            #expect(paced.arcIndex(reaching: entry.length) == j)
        }
        expectClose(paced.value(at: 1).scalar, x, 1e-9 * x)
    }
}
