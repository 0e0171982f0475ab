// The platform's libm, for the transcendental built-ins of the expression
// language (sin, cos). Everything else in the module is plain Swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Libm {
    @inline(__always) static func sin(_ x: Double) -> Double { sine(x) }
    @inline(__always) static func cos(_ x: Double) -> Double { cosine(x) }
}

@inline(__always) private func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) private func cosine(_ x: Double) -> Double { cos(x) }
