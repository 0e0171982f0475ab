/// Numbers as messages write them: whole numbers as their digits ("-1",
/// not "-1.0"), as a definition or a C host writes them, so that a refusal
/// names the value the way it was given.
public enum NumberText {
    /// `d` as a definition would write it: whole numbers up to 2^53 (where
    /// every whole number is a double) as their digits; beyond, the
    /// shortest form that reads back ("1e+16"). A NaN is "nan": its sign
    /// bit is whatever the arithmetic left (set for 0 / 0 on x86), "-nan"
    /// on one machine and "nan" on another.
    public static func format(_ d: Double) -> String {
        if d.isFinite && d == d.rounded() && Swift.abs(d) <= 0x1p53 { return String(Int64(d)) }
        if d.isNaN { return "nan" }
        return "\(d)"
    }

    /// `d` as a message reports a value it was handed: as `format` writes
    /// it, except that -0 keeps its sign (a refusal of -0 that said "is 0"
    /// would name a value the caller did not give).
    public static func given(_ d: Double) -> String {
        d == 0 && d.sign == .minus ? "-0" : format(d)
    }
}

/// The text of an error message: a string literal whose interpolated
/// doubles are written by `NumberText.given`, every other value as a
/// string interpolation writes it. `AnimrtError`'s message takes it, so
/// every refusal writes its numbers one way.
public struct ErrorText: ExpressibleByStringInterpolation, Sendable {
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// A message written in pieces: each piece writes its own numbers.
    public static func + (a: ErrorText, b: ErrorText) -> ErrorText { ErrorText(text: a.text + b.text) }
    public static func + (a: ErrorText, b: String) -> ErrorText { ErrorText(text: a.text + b) }

    private init(text: String) { self.text = text }

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 8 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation(_ d: Double) { text += NumberText.given(d) }
        public mutating func appendInterpolation<T>(_ value: T) { text += "\(value)" }
    }
}
