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
}
