import Testing
@testable import AnimationCore

/// Refusals write numbers as a host or a definition writes them: whole
/// numbers as their digits, the rest as the shortest double that reads back.
@Suite("R0.3 refusals write their numbers one way")
struct ErrorTextTests {
    @Test("Whole numbers lose the .0; -0, fractions, large numbers, NaN and infinities are written as given")
    func numbers() {
        #expect(NumberText.given(-1) == "-1")
        #expect(NumberText.given(0) == "0")
        #expect(NumberText.given(-0.0) == "-0")
        #expect(NumberText.format(-0.0) == "0")
        #expect(NumberText.given(2.5) == "2.5")
        #expect(NumberText.given(9_007_199_254_740_992) == "9007199254740992")  // 2^53, the last written as digits
        #expect(NumberText.given(18_014_398_509_481_984) == "1.8014398509481984e+16")  // 2^54
        #expect(NumberText.given(-.nan) == "nan")
        #expect(NumberText.given(.infinity) == "inf")
        #expect(NumberText.given(-.infinity) == "-inf")
    }

    @Test("A literal's doubles go through NumberText; its other values, and a message built already, are written as they are")
    func interpolation() {
        let d = -1.0, n = 3, f: Float = 1
        #expect(AnimrtError(.outOfRange, "d \(d), n \(n), f \(f), 'x'").message == "d -1, n 3, f 1.0, 'x'")
        let tail = "c \(d)"
        #expect(AnimrtError(.outOfRange, "a \(0.5); " + "b \(d); " + tail).message == "a 0.5; b -1; c -1.0")
        #expect(AnimrtError(.outOfRange, message: "built \(d)").message == "built -1.0")
    }

    @Test("A refusal through the runtime names the value as the host gave it")
    func throughTheRuntime() {
        let rt = Runtime()
        expectFailure(.outOfRange, exactly: "timer delay is -1; it must be 0 or more") { _ = try rt.startTimer(after: -1) {} }
        expectFailure(.outOfRange, exactly: "timer delay is -2.5; it must be 0 or more") { _ = try rt.startTimer(after: -2.5) {} }
    }

    @Test("How many were given: the verb and the noun agree with the count, 0 included")
    func givenAgrees() {
        #expect(given(0) == "0 were given")
        #expect(given(1) == "1 was given")
        #expect(given(2) == "2 were given")
        #expect(given(0, "value") == "0 values were given")
        #expect(given(1, "value") == "1 value was given")
        #expect(counted(0, "number") == "0 numbers" && counted(1, "number") == "1 number")
    }

    /// A name is suggested when it is at most a third of the typed word's
    /// length away (at least 1): "bownts" is two edits from "bounds" (6
    /// letters: 2 allowed), "bxwnts" three. Two neighbouring letters
    /// exchanged are one edit: "widht" is one from "width" (5 letters: 1).
    @Test("R0.3 suggestions: up to a third of the word's length in edits, an exchange counting as one")
    func suggestionDistance() {
        #expect(closestMatch(to: "bownts", in: ["bounds", "opacity"]) == "bounds")
        #expect(closestMatch(to: "bxwnts", in: ["bounds", "opacity"]) == nil)
        #expect(closestMatch(to: "widht", in: ["width", "height"]) == "width")
        #expect(closestMatch(to: "wdiht", in: ["width", "height"]) == nil)
    }

    /// A refusal from inside a list is given its place in front ("target
    /// 3: "), keeping its status and the suggestion computed when it is read.
    @Test("A prefixed refusal keeps its status and its suggestion, the context in front, and prints whole")
    func prefixedKeepsEverything() {
        let e = AnimrtError(.notFound, "key path 'opacty' is unknown", suggesting: "opacty", from: ["opacity", "bounds"])
        let p = e.prefixed("target 3: ")
        #expect(p.status == .notFound)
        #expect(p.message == "target 3: key path 'opacty' is unknown; did you mean 'opacity'?")
        #expect(p.prefixed("group child 1: ").message == "group child 1: target 3: key path 'opacty' is unknown; did you mean 'opacity'?")
        #expect(p.description == "ANIMRT_E_NOT_FOUND: target 3: key path 'opacty' is unknown; did you mean 'opacity'?")
        #expect(AnimrtError(.kind, message: "wrong").prefixed("").description == "ANIMRT_E_KIND: wrong")
        #expect(AnimrtError(.state, message: "busy").prefixed("a: ") == AnimrtError(.state, message: "a: busy"))
    }

    @Test("A count names an irregular plural as given")
    func irregularPlural() {
        #expect(counted(3, "copy", plural: "copies") == "3 copies")
        #expect(counted(0, "child", plural: "children") == "0 children")
        #expect(counted(1, "copy", plural: "copies") == "1 copy")
    }

    @Test("R0.4 NaN and the infinities are refused as invalid, the largest finite doubles accepted")
    func finiteRequired() {
        for (v, written) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            expectFailure(.invalidArgument, exactly: "the duration is \(written); it must be a finite number") {
                try requireFinite(v, "the duration")
            }
        }
        #expect(throws: Never.self) { try requireFinite(.greatestFiniteMagnitude, "x") }
        #expect(throws: Never.self) { try requireFinite(-.greatestFiniteMagnitude, "x") }
        #expect(throws: Never.self) { try requireFinite(.leastNonzeroMagnitude, "x") }
    }

    /// docs/limits.md: a name is at most 255 bytes, counted in UTF-8 bytes,
    /// not in characters.
    @Test("R0.4 a name of 255 bytes is accepted, one of 256 refused, counted in bytes")
    func nameLengthEdge() {
        #expect(throws: Never.self) { try requireNameLength(String(repeating: "a", count: 255), "the name") }
        #expect(throws: Never.self) { try requireNameLength(String(repeating: "é", count: 127) + "a", "the name") }
        expectFailure(.outOfRange, exactly: "the name is 256 bytes long; names are at most 255 bytes") {
            try requireNameLength(String(repeating: "a", count: 256), "the name")
        }
        expectFailure(.outOfRange, exactly: "the name is 256 bytes long; names are at most 255 bytes") {
            try requireNameLength(String(repeating: "é", count: 128), "the name")
        }
    }

    /// The band of the edit distance is as wide as the bound on both
    /// sides: letters missing at the start or the end, as many as the bound,
    /// are still suggested.
    @Test("R0.3 suggestions reach the edges of the band: letters missing first or last, up to the bound")
    func suggestionBandEdges() {
        #expect(closestMatch(to: "idth", in: ["width", "height"]) == "width")    // 4 letters: 1 edit
        #expect(closestMatch(to: "widt", in: ["width", "height"]) == "width")
        #expect(closestMatch(to: "width", in: ["idth"]) == "idth")
        #expect(closestMatch(to: "width", in: ["widt"]) == "widt")
        #expect(closestMatch(to: "acityxx", in: ["opacityxx"]) == "opacityxx")  // 7 letters: 2 edits
        #expect(closestMatch(to: "opacity", in: ["opaci"]) == "opaci")
        #expect(closestMatch(to: "dth", in: ["width"]) == nil)                   // 3 letters: 1 edit, 2 missing
    }

    @Test("Two refusals are equal when their status and their message are")
    func equality() {
        #expect(AnimrtError(.kind, message: "a") == AnimrtError(.kind, message: "a"))
        #expect(AnimrtError(.kind, message: "a") != AnimrtError(.kind, message: "b"))
        #expect(AnimrtError(.kind, message: "a") != AnimrtError(.state, message: "a"))
    }

    /// The names include/animrt.h gives each status, by raw value.
    @Test("R5.1 each status is named as the header names its value")
    func statusNames() {
        let header = ["ANIMRT_OK", "ANIMRT_E_NULL", "ANIMRT_E_INVALID", "ANIMRT_E_RANGE", "ANIMRT_E_HANDLE",
                      "ANIMRT_E_NOT_FOUND", "ANIMRT_E_KIND", "ANIMRT_E_BUFFER", "ANIMRT_E_STATE", "ANIMRT_E_EXISTS",
                      "ANIMRT_E_NOMEM", "ANIMRT_E_TIME", "ANIMRT_E_ENUM", "ANIMRT_E_VERSION", "ANIMRT_E_CALLBACK"]
        #expect(Status.allCases.count == header.count)
        for s in Status.allCases { #expect("\(s.name)" == header[Int(s.rawValue)], "\(s)") }
    }
}
