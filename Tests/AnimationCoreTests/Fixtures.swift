import Foundation
import Testing
@testable import AnimationCore

/// A fixture that is missing, unreadable or empty: the tests that use it
/// fail (a vector section must never be skipped silently).
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// Loads a vector file from the test bundle's Fixtures folder (copied from
/// the project's published vectors; each file names its sources).
func fixture(_ name: String) throws -> [String: Any] {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
        throw FixtureError(description: "fixture \(name).json is missing from Tests/AnimationCoreTests/Fixtures")
    }
    let data = try Data(contentsOf: url)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw FixtureError(description: "fixture \(name).json is not a JSON object")
    }
    return object
}

/// The cases of one section of a vector file; a missing, malformed or empty
/// section throws.
func cases(_ name: String, _ key: String = "cases") throws -> [[String: Any]] {
    guard let section = try fixture(name)[key] else {
        throw FixtureError(description: "fixture \(name).json has no section '\(key)'")
    }
    guard let list = section as? [[String: Any]] else {
        throw FixtureError(description: "section '\(key)' of \(name).json is not a list of cases")
    }
    guard !list.isEmpty else { throw FixtureError(description: "section '\(key)' of \(name).json is empty") }
    return list
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

/// The cases of a section as test arguments (`@Test(arguments: try load(…))`):
/// a loading error fails the test instead of leaving it without cases.
func load(_ name: String, _ key: String = "cases") throws -> [Case] {
    try cases(name, key).enumerated().map { Case(fields: $0.element, index: $0.offset) }
}

func expectClose(_ actual: Double, _ expected: Double, _ tolerance: Double, _ comment: Comment? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    if expected.isInfinite { #expect(actual == expected, comment, sourceLocation: sourceLocation); return }
    #expect(abs(actual - expected) <= tolerance, "\(actual) vs \(expected) (tol \(tolerance)) \(comment.map { "\($0)" } ?? "")",
            sourceLocation: sourceLocation)
}
