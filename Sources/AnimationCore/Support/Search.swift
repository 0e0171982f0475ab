/// The first index of `range` at which `isBefore` is false, or
/// `range.upperBound` if it holds throughout, for a predicate that holds on
/// a prefix of the range and on nothing after it (a sorted table asked
/// where a value goes). The index a scan from `range.lowerBound` stops at,
/// found in about log2(count) steps: a keyframe animation of 10^5 keyframes
/// looks its segment up in 17 steps, not up to 10^5. A predicate false
/// everywhere (a NaN compared) gives `range.lowerBound`, as the scan does.
@inline(__always)
func partitionPoint(_ range: Range<Int>, _ isBefore: (Int) -> Bool) -> Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi {
        let mid = lo &+ (hi &- lo) / 2
        if isBefore(mid) { lo = mid &+ 1 } else { hi = mid }
    }
    return lo
}
