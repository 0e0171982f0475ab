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

    /// Every kind of object a description holds: a spring, a group, steps(),
    /// cubic-bezier(), keyframes with their curves and Kochanek–Bartels
    /// parameters, with `samples`' linear(), Web Animations timing, path
    /// elements of every kind and a decay.
    static var everyObject: [Animation] {
        var spring = Animation.spring("position.x", Spring(mass: 2, stiffness: 300, damping: 12, initialVelocity: 1),
                                      from: .scalar(0), to: .scalar(100))
        spring.usesSettlingDuration = true
        var keys = Keyframes(values: [.scalar(0), .scalar(1), .scalar(0.5)], keyTimes: [0, 0.3, 1],
                             timingFunctions: [.easeIn, try! .steps(3, .jumpStart)], calculationMode: .cubic)
        keys.tensionValues = [0, 0.5, 0]
        let group = Animation.group([.basic("opacity", by: .scalar(0.5), timingFunction: try! .steps(2, .jumpNone)),
                                     .basic("cornerRadius", from: .scalar(1), to: .scalar(3), timingFunction: try! .cubicBezier(0.25, 0.1, 0.25, 1)),
                                     .keyframe("opacity", keys)], timing: MediaTiming(duration: 3))
        return samples + [spring, group]
    }

    /// The decoder reads the members it knows and passed over any other: an
    /// edited snapshot's misspelt member was lost without a word (an
    /// animation's "sped" played at speed 1). Each object refuses one, by
    /// name and place; what the encoder writes still decodes, to the bit.
    @Test("R0.4 every object of a description refuses a member it does not have, naming it and its place")
    func unknownMembers() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var objects = 0
        for original in Self.everyObject {
            _ = try Self.roundTrip(original)
            let text = Array(String(decoding: try encoder.encode(original), as: UTF8.self))
            // Every object opens with "{" (no name or string in these holds one).
            for at in text.indices where text[at] == "{" {
                let member = text[at + 1] == "}" ? #""zz":1"# : #""zz":1,"#
                let edited = String(text[...at]) + member + String(text[(at + 1)...])
                do {
                    _ = try decoder.decode(Animation.self, from: Data(edited.utf8))
                    Issue.record("read past: \(edited)")
                } catch {
                    let message = DecodingError.plainMessage(of: error)
                    #expect(message.contains(#"zz: "#) && message.contains("has no member 'zz' (it has "), "\(message) in \(edited)")
                }
                objects += 1
            }
        }
        #expect(objects >= 50, "\(objects) objects")
        // Where it is and what it is, in the document's words.
        let spring = String(decoding: try encoder.encode(Self.everyObject[3]), as: UTF8.self)
        let stiff = spring.replacing(#""stiffness":300"#, with: #""stifness":300"#)
        #expect(stiff != spring)
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Animation.self, from: Data(stiff.utf8)) }
        do { _ = try decoder.decode(Animation.self, from: Data(stiff.utf8)) } catch {
            #expect(DecodingError.plainMessage(of: error)
                    == "content.spring._3.stifness: a spring has no member 'stifness' (it has mass, stiffness, damping, initialVelocity, allowsOverdamping)")
        }
    }

    /// A null where a document needs a value is named where it is and with
    /// the kind of JSON that goes there, not with a Swift type's name.
    @Test("R0.3 a null where an object, a list or a number goes says which it must be")
    func nullsNamed() throws {
        let decoder = JSONDecoder()
        for (json, type, message) in [
            (#"null"#, Animation.self as any Decodable.Type, "the document is null; it must be an object"),
            (#"{"steps":null}"#, TimingFunction.self, "steps is null; it must be an object"),
            (#"{"move":null}"#, PathElement.self, "move is null; it must be an object"),
            (#"{"cubicBezier":null}"#, TimingFunction.self, "cubicBezier is null; it must be a list"),
            (#"[{"line":{"_0":1,"_1":2}},null]"#, [PathElement].self, "[1] is null; it must be an object"),
            (#"{"steps":{"count":null,"position":1}}"#, TimingFunction.self, "steps.count is null; it must be a whole number"),
        ] {
            #expect(throws: DecodingError.self, "\(json)") { _ = try decoder.decode(type, from: Data(json.utf8)) }
            do { _ = try decoder.decode(type, from: Data(json.utf8)) } catch {
                #expect(DecodingError.plainMessage(of: error) == message, "\(json)")
            }
        }
    }

    /// A timing function, an animation's content and a path element are
    /// each one of several kinds, under the member that names it: one that
    /// says two is refused, not read as the first the decoder tries.
    @Test("R0.4 a timing function, a content or a path element that says two kinds is refused")
    func twoKinds() throws {
        let decoder = JSONDecoder()
        for (json, type, message) in [
            (#"{"cubicBezier":[0.4,0,1,1],"linear":true}"#, TimingFunction.self as any Decodable.Type,
             "a timing function has one member, linear, cubicBezier, steps, piecewiseLinear or custom; this one has cubicBezier and linear"),
            (#"{"steps":{"count":2,"position":1},"custom":"spin"}"#, TimingFunction.self, "this one has custom and steps"),
            (#"{"move":{"_0":1,"_1":2},"close":{}}"#, PathElement.self,
             "a path element has one member, move, line, quad, cubic or close; this one has close and move"),
            (#"{}"#, PathElement.self, "a path element has one member, move, line, quad, cubic or close; this one has none"),
            (#"{"basic":{},"decay":{"_2":{"decelerationRate":0.99,"restVelocity":1}}}"#, Animation.Content.self,
             "an animation's content has one member, basic, spring, keyframe, group or decay; this one has basic and decay"),
        ] {
            #expect(throws: DecodingError.self, "\(json)") { _ = try decoder.decode(type, from: Data(json.utf8)) }
            do { _ = try decoder.decode(type, from: Data(json.utf8)) } catch {
                #expect(DecodingError.plainMessage(of: error).contains(message), "\(DecodingError.plainMessage(of: error))")
            }
        }
        // linear is written true: another value, of another type or false,
        // is refused, not read as linear.
        for json in [#"{"linear":1}"#, #"{"linear":"x"}"#, #"{"linear":null}"#, #"{"linear":false}"#] {
            #expect(throws: DecodingError.self, "\(json)") { _ = try decoder.decode(TimingFunction.self, from: Data(json.utf8)) }
        }
        do { _ = try decoder.decode(TimingFunction.self, from: Data(#"{"linear":false}"#.utf8)) } catch {
            #expect(DecodingError.plainMessage(of: error) == "linear: linear is written true (or left out), not false")
        }
        #expect(try decoder.decode(TimingFunction.self, from: Data(#"{"linear":true}"#.utf8)) == .linear)
        // A cubicBezier is four numbers, a linear() point two, a value as
        // many components as its kind has: more are refused, not dropped
        // (17 would be written past a value's 16 lanes).
        for json in [#"{"cubicBezier":[0.42,0,1,1,0.5]}"#, #"{"cubicBezier":[0.42,0,1]}"#,
                     #"{"piecewiseLinear":[[0,0,7],[1,1]]}"#, #"{"piecewiseLinear":[[0],[1,1]]}"#] {
            #expect(throws: DecodingError.self, "\(json)") { _ = try decoder.decode(TimingFunction.self, from: Data(json.utf8)) }
        }
        for components in [[1.0, 2], Array(repeating: 1, count: 17), []] {
            let json = #"{"kind":0,"components":\#(components)}"#
            #expect(throws: DecodingError.self, "\(json)") { _ = try decoder.decode(AnimatableValue.self, from: Data(json.utf8)) }
        }
        #expect(try decoder.decode(AnimatableValue.self, from: Data(#"{"kind":0,"components":[2.5]}"#.utf8)) == .scalar(2.5))
        // None is linear, as it always was; one kind is that kind.
        #expect(try decoder.decode(TimingFunction.self, from: Data("{}".utf8)) == .linear)
        #expect(try decoder.decode(TimingFunction.self, from: Data(#"{"cubicBezier":[0.42,0,1,1]}"#.utf8)) == .easeIn)
        #expect(try decoder.decode(PathElement.self, from: Data(#"{"close":{}}"#.utf8)) == .close)
    }
}
