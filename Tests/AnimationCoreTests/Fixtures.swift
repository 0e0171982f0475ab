import Foundation
import Testing
@testable import AnimationCore

/// Loads a vector file from the test bundle's Fixtures folder (copied from
/// the project's published vectors; each file names its sources).
func fixture(_ name: String) throws -> [String: Any] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
    let data = try Data(contentsOf: url)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

func cases(_ name: String, _ key: String = "cases") -> [[String: Any]] {
    ((try? fixture(name))?[key] as? [[String: Any]]) ?? []
}

/// A JSON number, or the strings "Infinity" / "-Infinity".
func number(_ v: Any?) -> Double? {
    if let d = v as? Double { return d }
    if let i = v as? Int { return Double(i) }
    if let n = v as? NSNumber { return n.doubleValue }
    if let s = v as? String { return s == "Infinity" ? .infinity : s == "-Infinity" ? -.infinity : Double(s) }
    return nil
}

func isNull(_ v: Any?) -> Bool { v == nil || v is NSNull }

/// A readable label for a parameterised case.
struct Case: CustomTestStringConvertible, @unchecked Sendable {
    let fields: [String: Any]
    let index: Int
    var testDescription: String { "#\(index) \(fields["description"] ?? fields["curve"] ?? fields["origin"] ?? "")" }
    subscript(_ k: String) -> Any? { fields[k] }
    func d(_ k: String) -> Double { number(fields[k]) ?? .nan }
}

func load(_ name: String, _ key: String = "cases") -> [Case] {
    cases(name, key).enumerated().map { Case(fields: $0.element, index: $0.offset) }
}

func expectClose(_ actual: Double, _ expected: Double, _ tolerance: Double, _ comment: Comment? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    if expected.isInfinite { #expect(actual == expected, comment, sourceLocation: sourceLocation); return }
    #expect(abs(actual - expected) <= tolerance, "\(actual) vs \(expected) (tol \(tolerance)) \(comment.map { "\($0)" } ?? "")",
            sourceLocation: sourceLocation)
}
