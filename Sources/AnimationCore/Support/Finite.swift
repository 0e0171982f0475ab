/// Total conversions for the tick path: nothing computed while a frame is
/// evaluated may trap, and nothing it writes may be NaN or infinite.

/// `v` if finite; otherwise what is shown instead: `fallback` (the model
/// value underneath) for NaN, the largest finite double of its sign for ±∞.
@inline(__always) @usableFromInline
func presentable(_ v: Double, fallback: Double) -> Double {
    v.isFinite ? v : finiteReplacement(v, fallback: fallback)
}

@inline(never) @usableFromInline
func finiteReplacement(_ v: Double, fallback: Double) -> Double {
    if v.isNaN { return fallback.isFinite ? fallback : 0 }
    return v > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
}

/// `x` rounded down and clamped to `0 ... upperBound` as an index; NaN is 0.
/// Defined for every double, so it can stand where `Int(_:)` would trap.
@inline(__always)
func clampedIndex(_ x: Double, upperBound: Int) -> Int {
    guard x > 0 else { return 0 }  // also NaN
    guard x < Double(upperBound) else { return upperBound }
    return Int(x)
}
