// The one file through which the core reaches the platform's libm.
//
// FoundationEssentials does not re-export the math functions, and the core
// avoids full Foundation, so the few transcendental functions it needs are
// wrapped here. Everything else in the core is plain Swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) @usableFromInline func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) @usableFromInline func _log(_ x: Double) -> Double { log(x) }
@inline(__always) @usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@inline(__always) @usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) @usableFromInline func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) @usableFromInline func _asin(_ x: Double) -> Double { asin(x) }
@inline(__always) @usableFromInline func _acos(_ x: Double) -> Double { acos(x) }

/// Floor division remainder in [0, m) for positive m (`fmod` keeps the sign).
@inline(__always) @usableFromInline
func positiveRemainder(_ x: Double, _ m: Double) -> Double {
    let r = x.truncatingRemainder(dividingBy: m)
    return r < 0 ? r + m : r
}
