/// A running hash of the events a runtime reports, in order (64-bit FNV-1a
/// over every field, handles without their runtime tag). Two runtimes given
/// the same inputs have the same digest; a recorded trace keeps it after
/// each call, so a replay can say where it first diverges.
public struct EventDigest: Equatable, Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    @inline(__always)
    mutating func mix(_ x: UInt64) {
        var v = x
        for _ in 0..<8 {
            value = (value ^ (v & 0xff)) &* 0x0000_0100_0000_01b3
            v >>= 8
        }
    }

    /// A handle without the runtime's tag (handles of two runtimes differ only there).
    @inline(__always)
    mutating func mix(_ h: Handle) { mix(h.raw & 0x0000_ffff_ffff_ffff) }

    mutating func add(_ e: Event) {
        mix(UInt64(UInt32(bitPattern: e.type.rawValue)))
        mix(e.time.bitPattern)
        mix(e.layer); mix(e.object); mix(e.animation)
        mix(e.token)
        mix(UInt64(UInt32(bitPattern: e.reason.rawValue)))
        mix(UInt64(UInt32(bitPattern: e.name)) | UInt64(UInt32(bitPattern: e.fromState)) << 32)
        mix(UInt64(UInt32(bitPattern: e.toState)))
        for v in e.payload {
            switch v {
            case .number(let d): mix(1); mix(d.bitPattern)
            case .bool(let b): mix(2); mix(b ? 1 : 0)
            case .integer(let i): mix(3); mix(UInt64(bitPattern: i))
            case .pointer(let p): mix(4); mix(UInt64(p))
            case .string(let s): mix(5); for b in s.utf8 { mix(UInt64(b)) }
            }
        }
    }

    /// Mixes `values` (the presentation values of a runtime) into a fresh digest.
    public static func of(_ values: UnsafeBufferPointer<Double>) -> UInt64 {
        var d = EventDigest()
        for v in values { d.mix(v.bitPattern) }
        return d.value
    }
}
