import AnimationCore
@testable import StateMachines
import Testing

/// Counts of things (days, items) are whole numbers: a payload field with
/// `"integer": true` refuses any other, before anything happens.
@Suite("R3.0.1 whole-number payload fields")
struct WholeNumberPayloadTests {
    /// `set` takes any whole n; `bounded` a whole n in [-3, 10], clamped;
    /// `pair` two whole counts of 0 or more; `half` a whole number of at least
    /// 0.5 (so 1 or more); `plain` any finite n. `share` emits n / 2 as a
    /// whole count.
    static let json = """
    {"name": "days",
     "context": {"n": {"type": "number", "initial": 0}, "m": {"type": "number", "initial": 0}},
     "events": {"set": {"payload": [{"name": "n", "type": "number", "integer": true}]},
                "bounded": {"payload": [{"name": "n", "type": "number", "min": -3, "max": 10, "clamp": true, "integer": true}]},
                "pair": {"payload": [{"name": "a", "type": "number", "min": 0, "integer": true},
                                     {"name": "b", "type": "number", "min": 0, "integer": true}]},
                "half": {"payload": [{"name": "n", "type": "number", "min": 0.5, "integer": true}]},
                "plain": {"payload": [{"name": "n", "type": "number"}]},
                "share": {}},
     "emits": {"counted": {"payload": [{"name": "n", "type": "number", "integer": true}]}},
     "initial": "a",
     "states": {"a": {"on": {"set": {"target": "b", "actions": [{"assign": {"n": "event.n"}}]},
                             "bounded": {"target": "b", "actions": [{"assign": {"n": "event.n"}}]},
                             "pair": {"target": "b", "actions": [{"assign": {"n": "event.a", "m": "event.b"}}]},
                             "half": {"target": "b", "actions": [{"assign": {"n": "event.n"}}]},
                             "plain": {"target": "b", "actions": [{"assign": {"n": "event.n"}}]},
                             "share": {"actions": [{"emit": "counted", "payload": {"n": "context.n / 2"}}, {"assign": {"m": 1}}]}}},
                "b": {"on": {"share": "a"}}}}
    """

    /// A fresh instance, in `a` with n = 0 and its creation's events drained.
    func fresh(_ h: Harness) throws -> Handle {
        let m = try h.machine(Self.json)
        _ = h.events()
        return m
    }

    @Test("whole numbers are taken, at and past the edges: 0, -0, -3 (the min), 1e15, 2^53, -2^63, 2^63 - 1024, and a C integer")
    func wholeTaken() throws {
        let h = Harness()
        for (event, x) in [("set", 0.0), ("set", -0.0), ("bounded", -3), ("bounded", 10), ("set", 1e15), ("set", 9_007_199_254_740_992),
                           ("set", -0x1p63), ("set", 0x1p63 - 1024), ("set", -7), ("half", 1)] {
            let m = try fresh(h)
            #expect(try h.send(m, event, [.number(x)]) == .taken)
            #expect(h.state(m) == "b")
            #expect(h.context(m, "n") == .number(x), "\(event)(\(x))")
        }
        // C integers: exact ones taken; one no double holds is refused, not rounded to its neighbour.
        let m = try fresh(h)
        try h.send(m, "set", [.integer(-9_007_199_254_740_992)])
        #expect(h.context(m, "n") == .number(-9_007_199_254_740_992))
        for x: Int64 in [9_007_199_254_740_993, -9_007_199_254_740_993, .max - 1] {
            let r = try fresh(h)
            let refused = #expect(throws: AnimrtError.self) { try h.send(r, "set", [.integer(x)]) }
            #expect(refused?.status == .outOfRange)
            #expect(refused?.message == "field 'n' of 'set' is \(x), which no double holds exactly (whole numbers are exact up to 2^53); a machine's numbers are doubles")
            #expect(h.state(r) == "a" && h.context(r, "n") == .number(0))
        }
        let lowest = try fresh(h)
        try h.send(lowest, "set", [.integer(.min)])  // -2^63 is a double exactly
        #expect(h.context(lowest, "n") == .number(-9_223_372_036_854_775_808))
        let c = try fresh(h)
        try h.send(c, "bounded", [.number(12)])                  // whole and past max: clamped, as before
        #expect(h.context(c, "n") == .number(10))
    }

    /// JSON carries a whole number's digits, which the parse into doubles
    /// rounds past 2^53: a whole-number field takes them as the C integer
    /// form does, refusing one no double holds rather than its neighbour.
    @Test("whole numbers sent as JSON are read exactly: 2^53 + 1 is refused, 2^53 + 2 taken")
    func wholeFromJSON() throws {
        let h = Harness()
        for x: Int64 in [9_007_199_254_740_993, -9_007_199_254_740_993, 9_223_372_036_854_775_807] {
            let m = try fresh(h)
            let message = "field 'n' of 'set' is \(x), which no double holds exactly (whole numbers are exact up to 2^53); a machine's numbers are doubles"
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in
                try h.host.send(m, event: "set", json: "{\"n\": \(x)}")
            }
            #expect(text == message)
            #expect(h.state(m) == "a" && h.context(m, "n") == .number(0))
        }
        for (json, n) in [("9007199254740994", 9_007_199_254_740_994.0), ("-9223372036854775808", -0x1p63),
                          ("9223372036854774784", 0x1p63 - 1024)] {
            let m = try fresh(h)
            #expect(try h.host.send(m, event: "set", json: "{\"n\": \(json)}") == .taken)
            #expect(h.context(m, "n") == .number(n), "\(json)")
        }
        // From 2^52 a number that is not whole parses into a whole double
        // (ties to even); its text is read, and it is refused.
        for (json, shown) in [("9007199254740994.5", "9007199254740994.5"), ("4503599627370496.5", "4503599627370496.5"),
                              ("-4503599627370497.5", "-4503599627370497.5"), ("9.2233720368547758085e18", "9223372036854775808.5")] {
            let m = try fresh(h)
            let message = "field 'n' of 'set' is \(shown); it must be a whole number"
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in
                try h.host.send(m, event: "set", json: "{\"n\": \(json)}")
            }
            #expect(text == message, "\(json)")
            #expect(h.state(m) == "a" && h.context(m, "n") == .number(0))
        }
        // Written with a fraction of zeros or an exponent, a whole number is the same number.
        for (json, refused) in [("9007199254740993.0", "9007199254740993"), ("9.007199254740993e15", "9007199254740993")] {
            let m = try fresh(h)
            let message = "field 'n' of 'set' is \(refused), which no double holds exactly (whole numbers are exact up to 2^53); a machine's numbers are doubles"
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in
                try h.host.send(m, event: "set", json: "{\"n\": \(json)}")
            }
            #expect(text == message, "\(json)")
        }
        // Past the int64_t the host reads the field as, whether a double holds
        // the number or not: refused, named by the digits sent.
        for (json, refused) in [("9223372036854775808", "9223372036854775808"), ("-9223372036854775809", "-9223372036854775809"),
                                ("9223372036854777856", "9223372036854777856"), ("-9223372036854777856", "-9223372036854777856"),
                                ("10000000000000000001", "10000000000000000001"), ("1e19", "10000000000000000000"),
                                ("-18446744073709551617", "-18446744073709551617"), ("18446744073709551616", "18446744073709551616"),
                                ("1.2676506002282294e30", "1267650600228229400000000000000"), ("1e300", "1e+300")] {
            let m = try fresh(h)
            let message = "field 'n' of 'set' is \(refused); a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in
                try h.host.send(m, event: "set", json: "{\"n\": \(json)}")
            }
            #expect(text == message, "\(json)")
            #expect(h.state(m) == "a" && h.context(m, "n") == .number(0))
        }
        for (json, n) in [("9007199254740994.000", 9_007_199_254_740_994.0), ("4503599627370497.0", 4_503_599_627_370_497),
                          ("9.223372036854774784e18", 0x1p63 - 1024), ("-9.223372036854775808e18", -0x1p63)] {
            let m = try fresh(h)
            #expect(try h.host.send(m, event: "set", json: "{\"n\": \(json)}") == .taken, "\(json)")
            #expect(h.context(m, "n") == .number(n), "\(json)")
        }
        // A field that is not whole takes the nearest double, as from C.
        let plain = try fresh(h)
        #expect(try h.host.send(plain, event: "plain", json: #"{"n": 9007199254740993}"#) == .taken)
        #expect(h.context(plain, "n") == .number(0x1p53))
    }

    @Test("a number that is not whole is refused with .outOfRange naming the field and the event; nothing changes")
    func notWholeRefused() throws {
        let h = Harness()
        let m = try fresh(h)
        let cases: [(String, [TaggedValue], String)] = [
            ("set", [.number(2.5)], "field 'n' of 'set' is 2.5; it must be a whole number"),
            ("set", [.number(-0.5)], "field 'n' of 'set' is -0.5; it must be a whole number"),
            ("set", [.number(1e-300)], "field 'n' of 'set' is 1e-300; it must be a whole number"),
            ("set", [.number(.leastNonzeroMagnitude)], "field 'n' of 'set' is 5e-324; it must be a whole number"),   // the least subnormal
            ("set", [.number(4_503_599_627_370_495.5)], "field 'n' of 'set' is 4503599627370495.5; it must be a whole number"),
            // A field that clamps still refuses: clamping bounds the range, it does not round.
            ("bounded", [.number(0.5)], "field 'n' of 'bounded' is 0.5; it must be a whole number"),
            ("bounded", [.number(10.5)], "field 'n' of 'bounded' is 10.5; it must be a whole number"),
            ("bounded", [.number(-3.5)], "field 'n' of 'bounded' is -3.5; it must be a whole number"),
            // The whole send is checked first: a good first field does not get through.
            ("pair", [.number(3), .number(1.25)], "field 'b' of 'pair' is 1.25; it must be a whole number"),
        ]
        for (event, payload, message) in cases {
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in try h.send(m, event, payload) }
            #expect(text == message)
        }
        expectError(.outOfRange, ["field 'n' of 'set' is 2.5; it must be a whole number"]) { () throws(AnimrtError) in
            try h.host.send(m, event: "set", json: #"{"n": 2.5}"#)
        }
        // A bound that is not whole still bounds: 0 is below 0.5.
        expectError(.outOfRange, ["field 'n' of 'half' is 0; the minimum is 0.5"]) { () throws(AnimrtError) in try h.send(m, "half", [.number(0)]) }
        // -0 is named as given, not as 0 (str(-0) is "0"; a message says what the host passed), as a number and in JSON.
        #expect(expectError(.outOfRange, []) { () throws(AnimrtError) in try h.send(m, "half", [.number(-0.0)]) } == "field 'n' of 'half' is -0; the minimum is 0.5")
        #expect(expectError(.outOfRange, []) { () throws(AnimrtError) in try h.host.send(m, event: "half", json: #"{"n": -0}"#) } == "field 'n' of 'half' is -0; the minimum is 0.5")
        #expect(expectError(.outOfRange, []) { () throws(AnimrtError) in try h.send(m, "half", [.number(0.0)]) } == "field 'n' of 'half' is 0; the minimum is 0.5")
        #expect(h.state(m) == "a")
        #expect(h.context(m, "n") == .number(0) && h.context(m, "m") == .number(0))
        #expect(h.events().isEmpty)
        // A field without "integer" takes the same value.
        #expect(try h.send(m, "plain", [.number(2.5)]) == .taken)
        #expect(h.context(m, "n") == .number(2.5))
    }

    @Test("NaN and the infinities are refused as before, as not finite (.invalidArgument)")
    func notFinite() throws {
        let h = Harness()
        let m = try fresh(h)
        for x in [Double.nan, .infinity, -.infinity] {
            expectError(.invalidArgument, ["field 'n' of 'set' is", "it must be a finite number"]) { () throws(AnimrtError) in
                try h.send(m, "set", [.number(x)])
            }
            expectError(.invalidArgument, ["it must be a finite number"]) { () throws(AnimrtError) in try h.send(m, "bounded", [.number(x)]) }
        }
        #expect(h.state(m) == "a" && h.context(m, "n") == .number(0))
    }

    @Test("an emitted count that is not whole fails its action, as one out of range does: an error, no emit")
    func emitted() throws {
        let h = Harness()
        let m = try fresh(h)
        try h.send(m, "set", [.number(4)])
        try h.send(m, "share")
        #expect(h.machineEvents(m) == ["state a -> b", "state b -> a"])
        try h.send(m, "share")
        #expect(h.machineEvents(m) == ["emit counted [2]"])
        #expect(h.context(m, "m") == .number(1))
        let odd = try fresh(h)
        try h.send(odd, "pair", [.number(3), .number(0)])
        try h.send(odd, "share")
        _ = h.events()
        try h.send(odd, "share")
        let events = h.machineEvents(odd)
        #expect(events.count == 1 && events[0].contains("field 'n' of 'counted' is 1.5; it must be a whole number"), "\(events)")
        #expect(h.context(odd, "m") == .number(0))   // the actions after the failed emit did not run
    }

    @Test("a whole default loads and is what a send that leaves the field out delivers")
    func wholeDefault() throws {
        let h = Harness()
        let json = minimal(a: #""on": {"go": {"actions": [{"assign": {"n": "event.x"}}]}}"#)
            .replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "min": 0, "integer": true, "default": 3}"#)
        let m = try h.machine(json)
        try h.send(m, "go")
        #expect(h.context(m, "n") == .number(3))
        expectError(.outOfRange, ["field 'x' of 'go' is 3.5; it must be a whole number"]) { () throws(AnimrtError) in try h.send(m, "go", [.number(3.5)]) }
    }

    @Test("a whole number past the int64_t the host reads it as is refused, from C and from an emit: 2^63, below -2^63, 1e300")
    func pastInt64Refused() throws {
        let h = Harness()
        let range = "a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"
        // 2^63 - 1024 is the greatest double below 2^63, -2^63 - 2048 the next below -2^63 (both whole).
        for (x, shown) in [(0x1p63, "9.223372036854776e+18"), (-0x1p63 - 2048, "-9.223372036854778e+18"), (1e19, "1e+19"),
                           (1e300, "1e+300"), (-1e300, "-1e+300"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308")] {
            let m = try fresh(h)
            let text = expectError(.outOfRange, []) { () throws(AnimrtError) in try h.send(m, "set", [.number(x)]) }
            #expect(text == "field 'n' of 'set' is \(shown); \(range)", "\(x)")
            #expect(h.state(m) == "a" && h.context(m, "n") == .number(0))
        }
        // A field that clamps within the range clamps a value past it, as any other.
        let c = try fresh(h)
        #expect(try h.send(c, "bounded", [.number(1e300)]) == .taken)
        #expect(h.context(c, "n") == .number(10))
        // An emit whose expression makes such a number fails its action: an error, no emit.
        let json = minimal(a: #""on": {"go": {"actions": [{"emit": "big", "payload": {"n": "event.x * 2"}}, {"assign": {"n": 1}}]}}"#,
                           top: #""emits": {"big": {"payload": [{"name": "n", "type": "number", "integer": true}]}}"#)
        let e = try h.machine(json)
        _ = h.events()
        try h.send(e, "go", [.number(-0x1p62)])
        #expect(h.machineEvents(e) == ["emit big [\(Int64.min)]"])
        try h.send(e, "go", [.number(0x1p62)])
        let failed = h.machineEvents(e)
        #expect(failed == ["error 'states.a.on.go.actions[0]: field 'n' of 'big' is 9.223372036854776e+18; \(range)'"], "\(failed)")
        #expect(h.context(e, "n") == .number(1))   // the first go's assign; the second's did not run
        let twice = try fresh(h)
        try h.send(twice, "pair", [.number(0x1p63 - 1024), .number(0)])   // n = 2^63 - 1024; share emits n / 2
        try h.send(twice, "share")
        _ = h.events()
        try h.send(twice, "share")
        #expect(h.machineEvents(twice) == ["emit counted [4611686018427387392]"])
    }

    @Test("a definition whose whole-number field clamps to, or defaults to, a number past an int64_t does not load")
    func pastInt64Definition() throws {
        let h = Harness()
        let field = #"{"name": "x", "type": "number"}"#
        let cases: [(String, String)] = [
            (#"{"name": "x", "type": "number", "max": 1e19, "clamp": true, "integer": true}"#,
             "'x' clamps to 1e+19; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"),
            (#"{"name": "x", "type": "number", "min": -9223372036854777856, "max": 0, "clamp": true, "integer": true}"#,
             "'x' clamps to -9.223372036854778e+18; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"),
            (#"{"name": "x", "type": "number", "max": 9223372036854775808, "clamp": true, "integer": true}"#,
             "'x' clamps to 9.223372036854776e+18; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"),
            (#"{"name": "x", "type": "number", "integer": true, "default": 9223372036854775808}"#,
             "the default of 'x' is 9.223372036854776e+18; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"),
            (#"{"name": "x", "type": "number", "integer": true, "default": -1e300}"#,
             "the default of 'x' is -1e+300; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it"),
            // A range that holds no int64_t: no send could give the field a value.
            (#"{"name": "x", "type": "number", "min": 1e19, "integer": true}"#,
             "'x' is a whole number with min 1e+19: no int64_t is in that range, so no send could give it a value"),
            (#"{"name": "x", "type": "number", "min": 9223372036854775808, "max": 1e300, "integer": true}"#,
             "'x' is a whole number with min 9.223372036854776e+18 and max 1e+300: no int64_t is in that range, so no send could give it a value"),
            (#"{"name": "x", "type": "number", "max": -9223372036854777856, "integer": true}"#,
             "'x' is a whole number with max -9.223372036854778e+18: no int64_t is in that range, so no send could give it a value"),
            (#"{"name": "x", "type": "number", "min": 0.25, "max": 0.75, "integer": true}"#,
             "'x' is a whole number with min 0.25 and max 0.75: no int64_t is in that range, so no send could give it a value"),
        ]
        for (declared, message) in cases {
            let json = minimal().replacing(field, with: declared)
            let text = expectError(.outOfRange, [message]) { () throws(AnimrtError) in _ = try h.load(json) }
            #expect(text.hasSuffix(message), "\(declared)")
        }
        // At the edges, and a bound past them that does not clamp (a send past it is refused by the range).
        for declared in [#"{"name": "x", "type": "number", "min": -9223372036854775808, "max": 9223372036854774784, "clamp": true, "integer": true, "default": -9223372036854775808}"#,
                         #"{"name": "x", "type": "number", "max": 1e19, "integer": true, "default": 9223372036854774784}"#,
                         #"{"name": "x", "type": "number", "min": 9223372036854774784, "integer": true, "default": 9223372036854774784}"#,
                         #"{"name": "x", "type": "number", "min": 0.25, "max": 1, "integer": true, "default": 1}"#] {
            let m = try h.machine(minimal(a: #""on": {"go": {"actions": [{"assign": {"n": "event.x"}}]}}"#).replacing(field, with: declared))
            try h.send(m, "go")
            #expect(h.context(m, "n") == .number(declared.contains("clamp") ? -0x1p63 : declared.contains("0.25") ? 1 : 0x1p63 - 1024))
        }
    }

    /// Emits, requests and stale results: every event that hands the host a
    /// payload.
    static let reported = """
    {"name": "counts",
     "context": {"n": {"type": "number", "initial": 0}},
     "events": {"set": {"payload": [{"name": "n", "type": "number", "integer": true}]},
                "got": {"resultOf": "fetch", "payload": [{"name": "items", "type": "number", "integer": true},
                                                         {"name": "share", "type": "number"}]}},
     "emits": {"counted": {"payload": [{"name": "n", "type": "number", "integer": true}, {"name": "half", "type": "number"},
                                       {"name": "label", "type": "string"}, {"name": "odd", "type": "bool"}]}},
     "requests": {"fetch": {"payload": [{"name": "page", "type": "number", "integer": true}, {"name": "weight", "type": "number"}]}},
     "initial": "a",
     "states": {"a": {"values": ["n"],
                      "on": {"set": {"target": "b", "actions": [{"assign": {"n": "event.n"}},
                                     {"emit": "counted", "payload": {"n": "event.n", "half": "event.n / 2", "label": "'c'", "odd": "event.n > 0"}},
                                     {"request": "fetch", "payload": {"page": "event.n", "weight": "event.n"}}]}}},
                "b": {"values": ["n"], "on": {"got": "a", "set": "a"}}}}
    """

    @Test("a whole-number field reaches the host as an integer (ANIMRT_TYPE_INTEGER), in emits, requests and stale results; other numbers stay numbers")
    func reportedAsIntegers() throws {
        let h = Harness()
        let m = try h.machine(Self.reported)
        _ = h.events()
        try h.send(m, "set", [.number(-0x1p63)])
        var events = h.events()
        // The state's values are context fields, which are numbers (no context field is declared whole).
        #expect(events.map(\.type) == [.machineEmitted, .machineRequest, .machineStateChanged])
        #expect(events[0].payload == [.integer(.min), .number(-0x1p62), .string("c"), .bool(false)])
        #expect(events[1].payload == [.integer(.min), .number(-0x1p63)])
        #expect(events[2].payload == [.number(-0x1p63)])
        try h.send(m, "set", [.number(7)])  // back to a; the request is answered below with an old number
        _ = h.events()
        try h.send(m, "set", [.number(0x1p63 - 1024)])
        events = h.events()
        #expect(events[0].payload == [.integer(9_223_372_036_854_774_784), .number(0x1p62 - 512), .string("c"), .bool(true)])
        #expect(events[1].payload == [.integer(9_223_372_036_854_774_784), .number(0x1p63 - 1024)])
        // A stale result: what was sent, each field as its declaration says (the request number a whole number too).
        try h.send(m, "got", [.number(1), .integer(-5), .number(0.25)])
        let stale = h.events()
        #expect(stale.map(\.type) == [.machineStaleResult])
        #expect(stale.first?.payload == [.integer(1), .integer(-5), .number(0.25)])
        // A whole field sent as a number is reported as the same integer.
        try h.send(m, "got", [.number(1), .number(12), .number(3)])
        #expect(h.events().first?.payload == [.integer(1), .integer(12), .number(3)])
    }

    @Test("the exported page says which payload fields take whole numbers")
    func documented() throws {
        let h = Harness()
        let page = try h.load(Self.json).markdown()
        #expect(page.contains("| `set` | `n`: number (integer) |"))
        #expect(page.contains("| `bounded` | `n`: number in [-3, 10] (integer, clamped) |"))
        #expect(page.contains("| `plain` | `n`: number |"))
        #expect(page.contains("| `counted` | `n`: number (integer) |"))
    }
}
