import AnimationCore
@testable import StateMachines
import Testing

/// A config range, a request and its result, a named timer that sends a
/// payload, an `after` timer that counts, and an animation under a key.
private let saved = """
{"name": "saved",
 "config": {"k": {"type": "number", "default": 1, "min": 0, "max": 5}},
 "requests": {"load": {}},
 "events": {"go": {}, "done": {"resultOf": "load"}, "ping": {"payload": [{"name": "v", "type": "number", "max": 10, "integer": true}]}},
 "context": {"n": {"type": "number", "initial": 0}},
 "parts": [{"name": "box", "properties": {"opacity": 1}}],
 "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 0, "duration": 10}},
 "initial": "a",
 "states": {"a": {"entry": [{"startTimer": "t1", "delay": 3, "event": "ping", "payload": {"v": 1}}, {"animate": "fade", "part": "box", "key": "k"}],
                  "after": [{"delay": 5, "actions": [{"assign": {"n": "context.n + 1"}}]}],
                  "on": {"go": {"actions": [{"request": "load"}]}, "done": "end",
                         "ping": {"actions": [{"assign": {"n": "context.n + event.v"}}]}}},
            "end": {"type": "final"}}}
"""

/// The snapshot of `saved` at time 0, after one `go` (request 1 awaited).
private func savedSnapshot() throws -> String {
    let h = Harness()
    h.tick(0)
    let m = try h.machine(saved)
    try h.send(m, "go")
    return try h.host.snapshot(m)
}

/// `snapshot` with `old` (which it holds once) replaced by `new`.
private func edited(_ snapshot: String, _ old: String, _ new: String) -> String {
    #expect(snapshot.ranges(of: old).count == 1, "\(old) is not in the snapshot once")
    return snapshot.replacing(old, with: new)
}

@Suite("R0.4, R3.0.3 an edited snapshot that a machine could not have written is refused; nothing is made")
struct SnapshotRefusalTests {
    /// Expects the restore of `text` into a fresh runtime at time 0 to be
    /// refused with `fragments`, leaving no instance and no layer.
    private func refused(_ text: String, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let h = Harness()
        h.tick(0)
        expectError(.invalidArgument, ["the snapshot does not fit 'saved'"] + fragments, sourceLocation: sourceLocation) { () throws(AnimrtError) in
            _ = try h.host.restore(text)
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0, sourceLocation: sourceLocation)
    }

    @Test("the unedited snapshot restores (so each refusal below is for its edit)")
    func unedited() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(try savedSnapshot())
        h.tick(5)
        #expect(h.context(m, "n") == .number(2))
    }

    @Test("a snapshot that does not decode says what is wrong where, in the document's words, not the decoder's")
    func undecodable() throws {
        let s = try savedSnapshot()
        let h = Harness()
        h.tick(0)
        for (text, message) in [
            ("{}", "the member 'format' is missing"),
            (edited(s, #""time":0,"#, #""time":"0","#), "time is not a number"),
            (edited(s, #""leaf":"a""#, #""leaf":null"#), "leaf is null; it must be a string"),
            (edited(s, #""texts":[]"#, #""texts":{}"#), "texts is not a list"),
            (edited(s, #""lastRequestID":1"#, #""lastRequestID":true"#), "lastRequestID is not a whole number"),
            (edited(s, #"{"name":"box","shown":false,"values""#, #"{"name":"box","shown":false,"vals""#),
             "parts[0].vals: a part has no member 'vals' (it has name, values, shown, timing, retimed)"),
            (edited(s, #""shown":false"#, #""shown":"false""#), "parts[0].shown is not true or false"),
            (edited(s, #""requests":{"load":"#, #""requests":{"load":7,"x":"#), "requests.load is not an object"),
            (edited(s, #""context":{"n":"#, #""context":{"7":[1],"n":"#), "context.7 is not an object"),
            (edited(s, #""context":{"n":{"number":0}}"#, #""context":{"n":{"bool":true,"number":0}}"#),
             "context.n: a value has one member, number, bool, string or vector; this one has bool and number"),
        ] {
            expectError(.invalidArgument, ["not a machine snapshot: " + message]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
    }

    /// The decoder reads the members it knows and passed over any other: a
    /// misspelt one was lost without a word, and what was restored differed
    /// from what was handed over (a started animation's "begintime" begun
    /// again at the next tick, an animation's "sped" played at speed 1).
    @Test("a member that an object of the snapshot does not have is refused by name and place, at every level, not read past")
    func unknownMember() throws {
        let s = try savedSnapshot()
        let h = Harness()
        h.tick(0)
        for (text, message) in [
            (edited(s, #""time":0,"#, #""time":0,"tme":1,"#),
             "tme: a machine snapshot has no member 'tme' (it has format, definition, time, config, locale, texts, context, leaf, "
                + "finished, lastRequestID, requests, waitingForDone, timers, parts, animations)"),
            (edited(s, #""duration":10,"evaluated":false"#, #""begintime":0,"duration":10,"evaluated":false"#),
             "animations[0].begintime: a started animation has no member 'begintime' (it has part, key, joined, animation, beginTime, "),
            (edited(s, #""isAdditive":false"#, #""isAdditiv":true,"isAdditive":false"#),
             "animations[0].animation.isAdditiv: an animation has no member 'isAdditiv' (it has keyPath, timing, timingFunction, "),
            (edited(s, #""speed":1,"#, #""sped":0.5,"speed":1,"#),
             "animations[0].animation.timing.sped: an animation's timing has no member 'sped' (it has beginTime, duration, speed, "),
            (edited(s, #""content":{"basic":{"to":"#, #""content":{"basic":{"form":{"components":[0.5],"kind":0},"to":"#),
             "animations[0].animation.content.basic.form: a basic animation's content has no member 'form' (it has from, to, by)"),
            (edited(s, #""content":{"basic":"#, #""content":{"basci":{},"basic":"#),
             "animations[0].animation.content.basci: an animation's content has no member 'basci' (it has basic, spring, keyframe, group, decay)"),
            (edited(s, #""isRemovedOnCompletion":true"#, #""isRemovedOnCompletion":true,"timingFunction":{"cubicbezier":[0.4,0,1,1]}"#),
             "animations[0].animation.timingFunction.cubicbezier: a timing function has no member 'cubicbezier' (it has linear, cubicBezier, "),
            (edited(s, #""captured":{"components":[1],"kind":0}"#, #""captured":{"components":[1],"kind":0,"knd":4}"#),
             "animations[0].captured.knd: an animatable value has no member 'knd' (it has kind, components)"),
            (edited(s, #""state":"a","time":5}"#, #""state":"a","time":5,"tiem":9}"#),
             "timers[1].tiem: a timer has no member 'tiem' (it has time, sequence, state, index, name, event, payload, throttle)"),
            (edited(s, #"{"name":"box","shown":false,"#, #"{"name":"box","retimd":true,"shown":false,"#),
             "parts[0].retimd: a part has no member 'retimd' (it has name, values, shown, timing, retimed)"),
            (edited(s, #""property":"opacity""#, #""property":"opacity","propery":"cornerRadius""#),
             "parts[0].values[0].propery: a part's value has no member 'propery' (it has property, model, presentation)"),
            (edited(s, #"{"latest":1,"open":true}"#, #"{"latest":1,"open":true,"opn":false}"#),
             "requests.load.opn: a request has no member 'opn' (it has latest, open)"),
            (edited(s, #""context":{"n":{"number":0}}"#, #""context":{"n":{"numbr":7,"number":0}}"#),
             "context.n.numbr: a value has no member 'numbr' (it has number, bool, string, vector)"),
            // Two members it does not have: the first in name order is named.
            (edited(s, #""time":0,"#, #""time":0,"zz":1,"aa":2,"#), "aa: a machine snapshot has no member 'aa'"),
        ] {
            expectError(.invalidArgument, ["not a machine snapshot: " + message]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
        // A timing function that says two kinds is not read as the first the decoder tries.
        expectError(.invalidArgument, ["not a machine snapshot: animations[0].animation.timingFunction: a timing function has one member, "
                                       + "linear, cubicBezier, steps, piecewiseLinear or custom; this one has cubicBezier and linear"]) {
            () throws(AnimrtError) in
            _ = try h.host.restore(edited(s, #""isRemovedOnCompletion":true"#,
                                          #""isRemovedOnCompletion":true,"timingFunction":{"cubicBezier":[0.4,0,1,1],"linear":true}"#))
        }
        // Each member spelt as written restores.
        let m = try h.host.restore(edited(s, #""isRemovedOnCompletion":true"#, #""isRemovedOnCompletion":true,"timingFunction":{"cubicBezier":[0.4,0,1,1]}"#))
        #expect(try h.host.snapshot(m).contains(#""timingFunction":{"cubicBezier":[0.4,0,1,1]}"#))
    }

    /// Members are checked against this library's format: one of another
    /// format may have members this one does not know, and is refused for
    /// its format, not for them.
    @Test("a snapshot of another format is refused for its format, before its members are read")
    func otherFormat() throws {
        let s = try savedSnapshot()
        let h = Harness()
        h.tick(0)
        expectError(.invalidArgument, ["the snapshot's format is 'animrt machine snapshot 2'; this library reads 'animrt machine snapshot 1'"]) {
            () throws(AnimrtError) in
            _ = try h.host.restore(edited(edited(s, #""time":0,"#, #""time":0,"later":[1],"#), #"snapshot 1""#, #"snapshot 2""#))
        }
        // And one whose members are all this library's, refused all the same.
        expectError(.invalidArgument, ["the snapshot's format is 'animrt machine snapshot 2'; this library reads 'animrt machine snapshot 1'"]) {
            () throws(AnimrtError) in _ = try h.host.restore(edited(s, #"snapshot 1""#, #"snapshot 2""#))
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
    }

    @Test("a context field the definition does not have is refused, not dropped")
    func extraContextField() throws {
        let s = try savedSnapshot()
        refused(edited(s, #""context":{"n":{"number":0}}"#, #""context":{"m":{"number":7},"n":{"number":0}}"#),
                ["context field 'm' is not one of its fields (n)"])
        // A misspelt field is missing under its own name: refused as before.
        refused(edited(s, #""context":{"n":{"number":0}}"#, #""context":{"nn":{"number":0}}"#), ["context field 'n'"])
    }

    @Test("config is checked as at creation: its range and finiteness")
    func config() throws {
        let s = try savedSnapshot()
        refused(edited(s, #""config":{"k":{"number":1}}"#, #""config":{"k":{"number":5.5}}"#), ["config 'k' is 5.5; the maximum is 5"])
        refused(edited(s, #""config":{"k":{"number":1}}"#, #""config":{"k":{"number":"nan"}}"#), ["config 'k' must be finite"])
        let h = Harness()
        h.tick(0)
        _ = try h.host.restore(edited(s, #""config":{"k":{"number":1}}"#, #""config":{"k":{"number":5}}"#))  // the edge
    }

    @Test("a payload waiting in a timer passes the checks a send makes: type, finite, whole where declared, range")
    func timerPayload() throws {
        let s = try savedSnapshot()
        let payload = #""payload":[{"number":1}]"#
        for wrong in [#""payload":[{"number":11}]"#, #""payload":[{"string":"x"}]"#, #""payload":[{"number":"inf"}]"#, #""payload":[{"number":1.5}]"#, #""payload":[]"#] {
            refused(edited(s, payload, wrong), ["timer 't1'"])
        }
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(edited(s, payload, #""payload":[{"number":10}]"#))  // the edge
        h.tick(3)
        #expect(h.context(m, "n") == .number(10))
    }

    @Test("a timer pending twice is refused (each copy would fire)")
    func timerTwice() throws {
        let s = try savedSnapshot()
        let after = #"{"index":0,"sequence":1,"state":"a","time":5}"#
        refused(edited(s, after, after + "," + after), ["the timer of state 'a' (after 0) is pending twice"])
        let named = #"{"event":"ping","name":"t1","payload":[{"number":1}],"sequence":0,"time":3}"#
        refused(edited(s, named, named + "," + named.replacing(#""time":3"#, with: #""time":4"#)), ["timer 't1' is pending twice"])
    }

    /// A timer is of the kind its naming member says: read as the first kind
    /// the restore tried, a timer that said two dropped the other without a
    /// word, and what another kind carries (an after timer's payload, a
    /// started timer's index) was never used.
    @Test("a timer that says two kinds, or carries what its kind does not, is refused, not read as one of them")
    func timerOfTwoKinds() throws {
        let s = try savedSnapshot()
        let after = #"{"index":0,"sequence":1,"state":"a","time":5}"#
        let named = #"{"event":"ping","name":"t1","payload":[{"number":1}],"sequence":0,"time":3}"#
        let kinds = "a timer is an after timer (state, index), a started timer (name, event, payload) or a throttle's window (throttle, payload); "
        let h = Harness()
        h.tick(0)
        for (text, message) in [
            (edited(s, after, #"{"index":0,"sequence":1,"state":"a","throttle":"ping","time":5}"#), "timers[1]: " + kinds + "this one has state and throttle"),
            (edited(s, after, #"{"index":0,"name":"t1","sequence":1,"state":"a","time":5}"#), "timers[1]: " + kinds + "this one has state and name"),
            (edited(s, named, #"{"event":"ping","name":"t1","payload":[],"sequence":0,"throttle":"ping","time":3}"#),
             "timers[0]: " + kinds + "this one has name and throttle"),
            (edited(s, after, #"{"event":"ping","index":0,"sequence":1,"state":"a","time":5}"#),
             "timers[1]: an after timer has no event (it has time, sequence, state, index)"),
            (edited(s, after, #"{"index":0,"payload":[{"number":1}],"sequence":1,"state":"a","time":5}"#),
             "timers[1]: an after timer has no payload (it has time, sequence, state, index)"),
            (edited(s, named, #"{"event":"ping","index":0,"name":"t1","payload":[{"number":1}],"sequence":0,"time":3}"#),
             "timers[0]: a started timer has no index (it has time, sequence, name, event, payload)"),
            (edited(s, after, #"{"event":"ping","sequence":1,"throttle":"ping","time":5}"#),
             "timers[1]: a throttle's window has no event (it has time, sequence, throttle, payload)"),
            (edited(s, named, #"{"name":"t1","payload":[{"number":1}],"sequence":0,"time":3}"#),
             "timers[0]: a started timer that sends no event has no payload to send; this one has 1 value"),
        ] {
            expectError(.invalidArgument, ["not a machine snapshot: " + message]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
        // One that sends no event, its payload empty as written, measures time: restored.
        let m = try h.host.restore(edited(s, named, #"{"name":"t1","payload":[],"sequence":0,"time":3}"#))
        h.tick(3)
        #expect(h.context(m, "n") == .number(0))
    }

    /// A layer has one value of each property: given twice, the second was
    /// written over the first, whichever was meant.
    @Test("a part that gives a property twice is refused, and nothing is made")
    func partValueTwice() throws {
        let s = try savedSnapshot()
        let value = #"{"model":{"components":[1],"kind":0},"presentation":{"components":[1],"kind":0},"property":"opacity"}"#
        let h = Harness()
        h.tick(0)
        expectError(.invalidArgument, ["the snapshot could not be restored: 'opacity' is given twice; a layer has one value of each property",
                                       "nothing was made"]) { () throws(AnimrtError) in
            _ = try h.host.restore(edited(s, value, value + "," + value.replacing("[1]", with: "[0.25]")))
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
    }

    /// One with no begin time yet begins at the next tick: it has neither
    /// started nor ended. Said to have, its started (or stopped) was never
    /// reported, and the instance waited on what it had already been told.
    @Test("an animation whose phase its begin time rules out is refused: one with no begin time is waiting")
    func phaseWithoutBeginTime() throws {
        let s = try savedSnapshot()
        #expect(s.contains(#""duration":10,"evaluated":false,"key":"k","part":"box","phase":0"#))
        refused(edited(s, #""phase":0"#, #""phase":1"#),
                ["an animation of part 'box': its phase is 1 (running) but it has no begin time: one that begins at the next tick has not started"])
        refused(edited(s, #""phase":0"#, #""phase":2"#), ["an animation of part 'box': its phase is 2 (ended) but it has no begin time"])
        // With a begin time it has started, and goes on from there.
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(edited(s, #""duration":10,"evaluated":false,"key":"k","part":"box","phase":0"#,
                                          #""beginTime":-5,"duration":10,"evaluated":true,"key":"k","part":"box","phase":1"#))
        h.tick(1)
        let opacity = try h.runtime.presentationValue(forKeyPath: "opacity", of: h.host.part("box", of: m)).components[0]
        #expect(abs(opacity - 0.4) < 1e-12, "\(opacity)")  // from 1 to 0, 6 s of 10 in
    }

    /// A started timer and an `after` never share a name (the loader
    /// refuses it). Restored under the name of an `after` that is pending
    /// too, the started timer was overwritten by it and, when due, dropped
    /// without a word: its event never sent.
    @Test("a started timer under the name of an after timer is refused, not restored to be dropped when it fires")
    func startedTimerUnderAnAfterName() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "named", "events": {"ping": {}}, "context": {"pings": {"type": "number", "initial": 0}},
         "initial": "a",
         "states": {"a": {"entry": [{"startTimer": "t1", "delay": 3, "event": "ping"}],
                          "after": [{"delay": 5, "name": "late", "target": "b"}],
                          "on": {"ping": {"actions": [{"assign": {"pings": "context.pings + 1"}}]}}},
                    "b": {"on": {"ping": {"actions": [{"assign": {"pings": "context.pings + 1"}}]}}}}}
        """)
        let s = try h.host.snapshot(m)
        let h2 = Harness()
        h2.tick(0)
        expectError(.invalidArgument, ["the snapshot does not fit 'named'", "timer 'late' is an 'after' timer, not a started one (it is restored with its state)"]) {
            () throws(AnimrtError) in _ = try h2.host.restore(edited(s, #""name":"t1""#, #""name":"late""#))
        }
        #expect(h2.host.instanceCount == 0 && h2.runtime.layerCount == 0)
        let restored = try h2.host.restore(s)
        h2.tick(3)
        #expect(h2.context(restored, "pings") == .number(1))
        h2.tick(5)
        #expect(h2.state(restored) == "b")
    }

    @Test("an animation key longer than the runtime takes is refused, not dropped")
    func animationKey() throws {
        let s = try savedSnapshot()
        refused(edited(s, #""key":"k""#, #""key":""# + String(repeating: "k", count: 256) + #"""#),
                ["an animation of part 'box' has a key of 256 bytes; keys are at most 255"])
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(edited(s, #""key":"k""#, #""key":""# + String(repeating: "k", count: 255) + #"""#))
        #expect(try h.host.snapshot(m).contains(String(repeating: "k", count: 255)))
    }

    /// Adding under a key replaces what the key held, so a machine's
    /// snapshot holds each key of a part once; a copy would replace the
    /// first when restored, one of the two lost without a word.
    @Test("an animation under a key its part holds already is refused, not restored over the first")
    func animationKeyTwice() throws {
        var s = try savedSnapshot()
        let list = try #require(s.firstRange(of: #""animations":["#)).upperBound ..< (try #require(s.firstRange(of: #"],"config""#)).lowerBound)
        let one = String(s[list])
        s.replaceSubrange(list, with: one + "," + one)
        refused(s, ["the animations of part 'box' hold the key 'k' twice"])
        // Under another key, both are restored and run.
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(s.replacing(#""key":"k""#, with: #""key":"k2""#, maxReplacements: 1))
        #expect(h.runtime.attachedCounts.total == 2)
        #expect(try h.host.snapshot(m).contains(#""key":"k2""#))
    }

    @Test("a state said to wait for its done with no animation joined to it is refused: its done would never come")
    func waitingWithNothingJoined() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "waits", "parts": [{"name": "p", "properties": {"opacity": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 5}},
         "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f"}], "done": "b"}, "b": {}}}
        """)
        h.tick(1)
        let s = try h.host.snapshot(m)
        #expect(s.contains(#""waitingForDone":["a"]"#) && s.contains(#""joined":"a""#))
        let h2 = Harness()
        h2.tick(1)
        expectError(.invalidArgument, ["the snapshot does not fit 'waits'", "the state 'a' waits for its done, but no animation joined it"]) {
            () throws(AnimrtError) in _ = try h2.host.restore(edited(s, #""joined":"a","#, ""))
        }
        #expect(h2.host.instanceCount == 0 && h2.runtime.layerCount == 0)
        let restored = try h2.host.restore(s)
        h2.tick(6)
        #expect(h2.state(restored) == "b")
    }

    /// A state waits on one barrier: listed twice, a restore made a second
    /// barrier (the first left behind in the runtime, for ever) and asked
    /// twice for its notification, so one drain took the `done` twice.
    @Test("a state said twice to wait for its done is refused: its done would be taken twice")
    func waitingTwice() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "twice", "emits": {"over": {}}, "parts": [{"name": "p", "properties": {"opacity": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 1}},
         "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f"}], "done": {"actions": [{"emit": "over"}]}}}}
        """)
        let s = try h.host.snapshot(m)
        let h2 = Harness()
        h2.tick(0)
        expectError(.invalidArgument, ["the snapshot does not fit 'twice'", "the state 'a' is said twice to wait for its done"]) {
            () throws(AnimrtError) in _ = try h2.host.restore(edited(s, #""waitingForDone":["a"]"#, #""waitingForDone":["a","a"]"#))
        }
        #expect(h2.host.instanceCount == 0 && h2.runtime.layerCount == 0)
        let restored = try h2.host.restore(s)
        h2.tick(1)
        h2.tick(3)
        #expect(h2.machineEvents(restored) == ["emit over"])
    }

    @Test("an ended animation said to be joined to a waiting state is refused: it has left the barrier, and the done would never come")
    func endedButJoined() throws {
        let h = Harness()
        h.tick(0)
        let m = try h.machine("""
        {"name": "kept3", "parts": [{"name": "p", "properties": {"opacity": 0, "cornerRadius": 0}}],
         "animations": {"fade": {"type": "basic", "keyPath": "opacity", "to": 1, "duration": 0.5, "fillMode": "forwards", "removedOnCompletion": false},
                        "round": {"type": "basic", "keyPath": "cornerRadius", "to": 8, "duration": 2}},
         "initial": "a", "states": {"a": {"entry": [{"animate": "fade", "part": "p", "key": "f"}, {"animate": "round", "part": "p", "key": "r"}], "done": "b"}, "b": {}}}
        """)
        h.tick(1)
        h.tick(2)  // fade has ended (kept); round runs to 3
        let s = try h.host.snapshot(m)
        #expect(s.contains(#""evaluated":true,"key":"f","part":"p","phase":2"#) && s.contains(#""joined":"a","key":"r""#))
        let h2 = Harness()
        h2.tick(2)
        expectError(.invalidArgument, ["the snapshot does not fit 'kept3'", "an animation of part 'p' has ended but is joined to 'a'"]) {
            () throws(AnimrtError) in _ = try h2.host.restore(edited(s, #""evaluated":true,"key":"f""#, #""evaluated":true,"joined":"a","key":"f""#))
        }
        #expect(h2.host.instanceCount == 0 && h2.runtime.layerCount == 0)
        let restored = try h2.host.restore(s)
        h2.tick(3)
        #expect(h2.state(restored) == "b")
    }

    @Test("a snapshot asked for from inside the machine's own macrostep is refused: its state is half changed and events wait")
    func insideMacrostep() throws {
        let h = Harness()
        h.tick(0)
        final class Box: @unchecked Sendable { var machine = Handle(raw: 0); var outcome = "" }
        let box = Box()
        try h.host.functions.register(MachineFunction(name: "snap", parameters: [], result: nil) { [unowned h] _ in
            do throws(AnimrtError) { box.outcome = try h.host.snapshot(box.machine) } catch { box.outcome = "\(error.status.name): \(error.message)" }
            return nil
        })
        box.machine = try h.machine("""
        {"name": "mid", "events": {"go": {}, "ping": {}}, "initial": "a",
         "states": {"a": {"on": {"go": {"target": "b", "actions": [{"raise": "ping"}, {"call": "snap"}]}}},
                    "b": {"on": {"ping": "c"}}, "c": {}}}
        """)
        try h.send(box.machine, "go")
        #expect(h.state(box.machine) == "c")
        #expect(box.outcome.hasPrefix("ANIMRT_E_STATE: "), "\(box.outcome)")
        #expect(box.outcome.contains("is running a macrostep"))
        #expect(try h.host.snapshot(box.machine).contains(#""leaf":"c""#))
    }

    /// The captured value (what the animation started from) is written as
    /// a value of its key path's kind: another kind ran past the property's
    /// slots (a trap in the next tick) or fell short of them.
    @Test("an animation's captured value is of its key path's kind")
    func capturedKind() throws {
        let s = try savedSnapshot()
        let captured = #""captured":{"components":[1],"kind":0}"#
        refused(edited(s, captured, #""captured":{"components":[1,2,3,4],"kind":4}"#),
                ["an animation of part 'box': the captured value is a color but 'opacity' takes a scalar"])
        refused(edited(s, captured, #""captured":{"components":[1,2],"kind":1}"#), ["the captured value is a point"])
        let h = Harness()
        h.tick(0)
        _ = try h.host.restore(edited(s, captured, #""captured":{"components":[0.25],"kind":0}"#))  // a scalar: restored
    }

    @Test("the locale is one the definition has, as at creation")
    func locale() throws {
        let s = try savedSnapshot()
        refused(edited(s, #""locale":"en""#, #""locale":"xx""#), ["locale 'xx' (it has no strings)"])
    }

    @Test("finished says whether the leaf is a top-level final state")
    func finished() throws {
        refused(edited(try savedSnapshot(), #""finished":false"#, #""finished":true"#),
                ["it says finished, but 'a' is not a top-level final state"])
        let h = Harness()
        h.tick(0)
        let m = try h.machine(saved)
        try h.send(m, "go")
        try h.send(m, "done", [.number(1)])
        let ended = try h.host.snapshot(m)
        refused(edited(ended, #""finished":true"#, #""finished":false"#), ["in the top-level final state 'end' but does not say finished"])
    }

    @Test("a request is awaited only with the number it was issued under (past 2^53 and past the last are SnapshotTests' cases)")
    func requestNumbers() throws {
        let s = try savedSnapshot()
        refused(edited(edited(s, #""latest":1"#, #""latest":0"#), #""lastRequestID":1"#, #""lastRequestID":0"#),
                ["request 'load' is awaited but was never issued"])
        refused(edited(s, #""lastRequestID":1"#, #""lastRequestID":18446744073709551615"#), ["the last request number 18446744073709551615"])
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(edited(s, #""open":true"#, #""open":false"#))
        #expect(try h.send(m, "done", [.number(1)]) == .stale)  // answered already: nothing awaits it
    }

    /// `savedSnapshot()` with `timing` (JSON) as the part's layer timing.
    private func timed(_ timing: String) throws -> String {
        edited(try savedSnapshot(), #"{"name":"box","shown":false,"values""#, #"{"name":"box","shown":false,"timing":"# + timing + #","values""#)
    }

    /// What animrt_layer_set_timing and the layer timing setters refuse, a
    /// part's timing in a snapshot is refused for, in their words and
    /// naming the part; nothing is made.
    @Test("a part's timing is checked as the layer timing setters check it: each field finite, in range, a fill mode and direction there are")
    func partTiming() throws {
        for (timing, message) in [
            (#"{"speed":"nan"}"#, "layer speed is nan; it must be a finite number"),
            (#"{"speed":"inf"}"#, "layer speed is inf"),
            (#"{"beginTime":"-inf"}"#, "layer beginTime is -inf"),
            (#"{"timeOffset":"nan"}"#, "layer timeOffset is nan"),
            (#"{"duration":-1}"#, "layer duration is -1; it must be 0 (unbounded, the default) or more"),
            (#"{"duration":"inf"}"#, "layer duration is inf"),
            (#"{"repeatCount":-2}"#, "layer repeatCount is -2; it must be 0 or more"),
            (#"{"repeatCount":"nan"}"#, "layer repeatCount is NaN"),
            (#"{"repeatDuration":-1}"#, "layer repeatDuration is -1"),
            (#"{"repeatCount":2,"repeatDuration":3}"#, "layer repeatCount (2) and repeatDuration (3) are both set"),
            (#"{"iterationStart":-0.5}"#, "layer iterationStart is -0.5; it must be 0 or more"),
            (#"{"endDelay":"inf"}"#, "layer endDelay is inf"),
            (#"{"delay":"nan"}"#, "layer delay is nan"),
            (#"{"iterations":-1}"#, "layer iterations is -1; it must be 0 or more"),
            (#"{"iterationDuration":-1}"#, "layer iterationDuration is -1; it must be 0 or more"),
            (#"{"fillMode":4}"#, "fillMode is 4; it must be an animrt_fill_mode"),
            (#"{"fillMode":1.5}"#, "fillMode is 1.5; it must be an animrt_fill_mode"),
            (#"{"direction":-1}"#, "direction is -1; it must be an animrt_direction"),
            (#"{"direction":"inf"}"#, "direction is inf; it must be an animrt_direction"),
        ] {
            refused(try timed(timing), ["the timing of part 'box': " + message])
        }
        // The edges are taken, and restored as they were.
        let edges = #"{"direction":3,"duration":0,"fillMode":3,"iterationStart":0,"iterations":"inf","repeatCount":"inf","speed":0}"#
        let h = Harness()
        h.tick(0)
        let m = try h.host.restore(try timed(edges))
        // Fields at their default (duration 0, iterationStart 0) are not written again.
        #expect(try h.host.snapshot(m).contains(#""timing":{"direction":3,"fillMode":3,"iterations":"inf","repeatCount":"inf","speed":0}"#))
        var expected = MediaTiming(speed: 0, repeatCount: .infinity, fillMode: .both)
        expected.direction = .alternateReverse; expected.iterations = .infinity
        #expect(try h.runtime.mediaTiming(of: h.host.part("box", of: m)) == expected)
    }

    @Test("a part's timing that does not decode says what is wrong where: a field of another kind, or one a layer's timing does not have")
    func partTimingUndecodable() throws {
        let h = Harness()
        h.tick(0)
        for (timing, message) in [
            (#"{"speed":"fast"}"#, "parts[0].timing.speed is not a number"),
            (#"{"autoreverses":1}"#, "parts[0].timing.autoreverses is not true or false"),
            (#"{"fillMode":"both"}"#, "parts[0].timing.fillMode is not a number"),
            (#"[0.5]"#, "parts[0].timing is not an object"),
            (#"{"sped":0.5}"#, "parts[0].timing.sped: a layer's timing has no member 'sped' (it has beginTime, duration, speed, timeOffset"),
        ] {
            let text = try timed(timing)
            expectError(.invalidArgument, ["not a machine snapshot: " + message]) { () throws(AnimrtError) in
                _ = try h.host.restore(text)
            }
        }
        let retimed = edited(try savedSnapshot(), #""shown":false,"values""#, #""shown":false,"retimed":"yes","values""#)
        expectError(.invalidArgument, ["not a machine snapshot: parts[0].retimed is not true or false"]) { () throws(AnimrtError) in
            _ = try h.host.restore(retimed)
        }
        #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
    }

    @Test("a snapshot's strings are held to 1 MiB, as a create's and a send's are: copy, config, context and a waiting payload, each refused one byte past it, naming the member")
    func stringLength() throws {
        let n = DefinitionLimits.maxStringBytes
        let (a, b, c, w) = (String(repeating: "a", count: n), String(repeating: "b", count: n),
                            String(repeating: "c", count: n), String(repeating: "w", count: n))
        let h = Harness()
        h.tick(0)
        let d = try h.host.load(#"""
            {"name": "worded", "locale": "en", "strings": {"en": {"title": "T"}},
             "config": {"label": {"type": "string", "default": "L"}, "word": {"type": "string", "default": "W"}},
             "events": {"say": {"payload": [{"name": "w", "type": "string"}]}},
             "context": {"t": {"type": "string", "initial": "''"}}, "initial": "a",
             "states": {"a": {"entry": [{"startTimer": "later", "delay": 3, "event": "say", "payload": {"w": "config.word + 'w'"}}],
                              "on": {"say": {"actions": [{"assign": {"t": "event.w"}}]}}}}}
            """#)
        let m = try h.host.create(d, options: .init(config: ["label": .string(b), "word": .string(String(w.dropFirst()))], strings: ["title": a]))
        try h.send(m, "say", [.string(c)])
        let s = try h.host.snapshot(m)
        // Exactly at the limit, each restores (the payload is the config's word and one more letter).
        let h2 = Harness()
        h2.tick(0)
        let r = try h2.host.restore(s)
        #expect(h2.context(r, "t") == .string(c))
        h2.tick(3)
        #expect(h2.context(r, "t") == .string(w))
        for (long, member, what) in [(a, "texts[0] (strings.title)", "a per-instance string"), (b, "config.label", "a config string"),
                                     (c, "context.t", "a context string"), (w, "timers[0].payload[0]", "a payload string")] {
            let h = Harness()
            h.tick(0)
            let refused = #expect(throws: AnimrtError.self) { try h.host.restore(edited(s, "\"\(long)\"", "\"\(long)x\"")) }
            #expect(refused?.status == .outOfRange)
            #expect(refused?.message == "the snapshot's \(member) is 1048577 bytes; \(what) is at most 1048576 bytes, as a string an expression makes is")
            #expect(h.host.instanceCount == 0 && h.runtime.layerCount == 0)
        }
    }
}
