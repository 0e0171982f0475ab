import Foundation
import Testing
@testable import AnimationCore

/// Descriptions encode to JSON and back (machine snapshots carry them): the
/// timing features survive the round trip and animate the same, to the bit.
@Suite("R3.0.3 timing features in snapshots")
struct TimingCodableTests {
    static func roundTrip(_ a: Animation) throws -> Animation {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(a)
        let back = try decoder.decode(Animation.self, from: data)
        #expect(try encoder.encode(back) == data)
        return back
    }

    static var samples: [Animation] {
        var wa = Animation.basic("opacity", from: .scalar(0), to: .scalar(1),
                                 timing: .webAnimations(duration: 0.5, iterations: .infinity, direction: .alternate, delay: 0.2),
                                 timingFunction: try! TimingFunctionRegistry().function(named: "linear(0, 0.25 75%, 1)"))
        wa.timing.endDelay = -0.1
        var path = Keyframes(values: [], calculationMode: .paced)
        path.path = [.move(0, 0), .quad(50, 100, 100, 0), .cubic(120, 0, 130, 40, 100, 60), .close]
        path.rotationMode = .autoReverse
        return [wa, .keyframe("position", path, timing: MediaTiming(duration: 2)),
                .decay("position", velocity: .point(300, -400), from: .point(5, 5), Decay(decelerationRate: 0.99, restVelocity: 0.1))]
    }

    @Test("Web Animations timing, linear(), paths and decays encode and animate the same")
    func roundTrips() throws {
        for original in Self.samples {
            let copy = try Self.roundTrip(original)
            let rt = Runtime(); let a = try rt.createLayer(), b = try rt.createLayer()
            try rt.add(original, to: a, forKey: "k")
            try rt.add(copy, to: b, forKey: "k")
            for t in [0.0, 0.3, 0.9, 1.7] {
                try rt.tick(t)
                for path in ["opacity", "position", "transform"] {
                    #expect(try rt.presentationValue(forKeyPath: path, of: a) == rt.presentationValue(forKeyPath: path, of: b),
                            "\(original.kindName) \(path) at \(t)")
                }
            }
        }
    }

    /// steps(0) by name is refused; an edited snapshot carrying it was
    /// restored, and its progress was NaN while in effect.
    @Test("R0.4 a decoded steps() is checked as steps(n) by name is: too few steps are refused, at and past the edge")
    func decodedSteps() throws {
        // A valid steps() as a snapshot holds it, its count then edited.
        func decode(_ count: Int, _ position: StepPosition) throws -> TimingFunction {
            let valid = String(decoding: try JSONEncoder().encode(try TimingFunction.steps(2, position)), as: UTF8.self)
            #expect(valid.contains(#""count":2"#), "\(valid)")
            let edited = valid.replacingOccurrences(of: #""count":2"#, with: #""count":\#(count)"#)
            return try JSONDecoder().decode(TimingFunction.self, from: Data(edited.utf8))
        }
        #expect(try decode(1, .jumpEnd) == TimingFunction.steps(1, .jumpEnd))
        #expect(try decode(2, .jumpNone) == TimingFunction.steps(2, .jumpNone))
        #expect(try decode(7, .jumpBoth) == TimingFunction.steps(7, .jumpBoth))
        for (count, position) in [(0, StepPosition.jumpEnd), (-5, .jumpStart), (1, .jumpNone), (Int.min, .jumpBoth)] {
            #expect(throws: DecodingError.self, "steps(\(count), \(position.name))") { try decode(count, position) }
        }
    }

    /// An edited snapshot may carry NaN or an infinity where a value is: the
    /// setters refuse them, and so does decoding (else the value reached
    /// the tick, which would show the model value instead of a refusal).
    @Test("R0.4 a decoded value whose components are not finite is refused; repeatCount inf still decodes")
    func nonFiniteValues() throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let point = String(decoding: try JSONEncoder().encode(AnimatableValue.point(1.5, -1e308)), as: UTF8.self)
        #expect(try decoder.decode(AnimatableValue.self, from: Data(point.utf8)) == .point(1.5, -1e308))
        for bad in [#"["nan",1]"#, #"[1,"inf"]"#, #"["-inf",0]"#] {
            let json = point.replacing(#/\[[^\]]*\]/#, with: bad)
            #expect(json != point)
            #expect(throws: DecodingError.self) { _ = try decoder.decode(AnimatableValue.self, from: Data(json.utf8)) }
        }
        var forever = Animation.basic("opacity", from: .scalar(0), to: .scalar(1), timing: MediaTiming(duration: 1))
        forever.timing.repeatCount = .infinity
        #expect(try Self.roundTrip(forever).timing.repeatCount == .infinity)
    }
}
