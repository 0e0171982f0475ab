import AnimationCore
@testable import StateMachines
import Testing

/// A definition with one state `a` (and `b`), events `go` and `tick`,
/// context `n` (number) and `s` (string), config `k`, part `p`; `extra`
/// replaces the body of state `a`, `top` adds top-level keys.
func minimal(a: String = "", top: String = "") -> String {
    """
    {"name": "m", "config": {"k": {"type": "number", "default": 1}},
     "context": {"n": {"type": "number", "initial": 0}, "s": {"type": "string", "initial": "''"}},
     "events": {"go": {"payload": [{"name": "x", "type": "number"}]}, "tick": {}},
     "parts": [{"name": "p"}],
     "initial": "a", "states": {"a": {\(a)}, "b": {}}\(top.isEmpty ? "" : ", " + top)}
    """
}

struct LoadCase: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let status: Status
    let fragments: [String]
    var testDescription: String { name }
}

let loadCases: [LoadCase] = [
    LoadCase(name: "malformed JSON", json: "{\"name\": ", status: .invalidArgument, fragments: ["malformed"]),
    LoadCase(name: "missing name", json: #"{"initial": "a", "states": {"a": {}}}"#, status: .invalidArgument, fragments: ["'name' is required"]),
    LoadCase(name: "unknown top-level key", json: minimal(top: #""statse": {}"#), status: .invalidArgument, fragments: ["unknown key 'statse'", "did you mean 'states'"]),
    LoadCase(name: "unknown target", json: minimal(a: #""on": {"go": "c"}"#), status: .notFound, fragments: ["states.a.on.go", "no state named 'c'"]),
    LoadCase(name: "unknown target with a suggestion", json: minimal(a: #""on": {"go": "bb"}"#), status: .notFound, fragments: ["did you mean 'b'"]),
    LoadCase(name: "unknown initial state", json: minimal().replacing(#""initial": "a""#, with: #""initial": "z""#), status: .notFound, fragments: ["initial", "no state named 'z'"]),
    LoadCase(name: "compound state without initial", json: minimal(a: #""states": {"x": {}, "y": {}}"#), status: .invalidArgument, fragments: ["states.a", "needs an \"initial\" child"]),
    LoadCase(name: "initial that is not a child", json: minimal(a: #""initial": "b", "states": {"x": {}, "y": {}}"#), status: .invalidArgument, fragments: ["states.a.initial", "is not a child of 'a'"]),
    LoadCase(name: "event used but not declared", json: minimal(a: #""on": {"tap": "b"}"#), status: .notFound, fragments: ["states.a.on.tap", "'tap' is not a declared event; declare it in the top-level \"events\": {\"tap\": {}}"]),
    LoadCase(name: "event misspelt", json: minimal(a: #""on": {"tik": "b"}"#), status: .notFound, fragments: ["states.a.on.tik", "'tik' is not a declared event; did you mean 'tick'?"]),
    LoadCase(name: "context field given as its initial value", json: minimal().replacing(#""n": {"type": "number", "initial": 0}"#, with: #""n": 0"#), status: .invalidArgument, fragments: ["context.n: expected an object, found a number: a context field is written {\"type\": \"number\", \"initial\": 0}"]),
    LoadCase(name: "config parameter given as its default", json: minimal().replacing(#""k": {"type": "number", "default": 1}"#, with: #""k": 1"#), status: .invalidArgument, fragments: ["config.k: expected an object, found a number: a config parameter is written {\"type\": \"number\", \"default\": 0}"]),
    LoadCase(name: "raise of an undeclared event", json: minimal(a: #""entry": [{"raise": "tock"}]"#), status: .notFound, fragments: ["states.a.entry[0]", "no event named 'tock'", "did you mean 'tick'"]),
    LoadCase(name: "duplicate part names", json: minimal(top: #""parts": [{"name": "p"}, {"name": "p"}]"#).replacing(#""parts": [{"name": "p"}],"#, with: ""), status: .exists, fragments: ["parts[1].name", "declared already"]),
    LoadCase(name: "duplicate payload field", json: minimal(top: #""events": {"e": {"payload": [{"name": "a", "type": "number"}, {"name": "a", "type": "bool"}]}}"#).replacing(#""events": {"go": {"payload": [{"name": "x", "type": "number"}]}, "tick": {}},"#, with: ""), status: .exists, fragments: ["payload[1]", "declared twice"]),
    LoadCase(name: "guard that is not a boolean", json: minimal(a: #""on": {"go": {"target": "b", "guard": "context.n + 1"}}"#), status: .kind, fragments: ["states.a.on.go.guard", "column 1", "number but a bool is needed"]),
    LoadCase(name: "type error inside an expression, with its column", json: minimal(a: #""on": {"go": {"guard": "context.n > 1 and context.s > 2"}}"#), status: .kind, fragments: ["states.a.on.go.guard", "column 19", "left side of '>' must be a number, not a string"]),
    LoadCase(name: "unknown context field, with its column and a suggestion", json: minimal(a: #""on": {"go": {"guard": "context.m == 0"}}"#), status: .notFound, fragments: ["column 9", "no context field named 'm'", "did you mean 'n'"]),
    LoadCase(name: "event field read in an entry action", json: minimal(a: #""entry": [{"assign": {"n": "event.x"}}]"#), status: .invalidArgument, fragments: ["states.a.entry[0].assign.n", "'event.x' cannot be read here", "entry and exit actions"]),
    LoadCase(name: "unknown event field", json: minimal(a: #""on": {"go": {"actions": [{"assign": {"n": "event.y"}}]}}"#), status: .notFound, fragments: ["no field of event 'go' named 'y'", "did you mean 'x'"]),
    LoadCase(name: "a bare word where text is needed", json: minimal(a: #""entry": [{"assign": {"s": "Done"}}]"#), status: .notFound, fragments: ["unknown name 'Done'", "\"'Done'\""]),
    LoadCase(name: "syntax error", json: minimal(a: #""on": {"go": {"guard": "(context.n > 1"}}"#), status: .invalidArgument, fragments: ["column 15", "expected ')'"]),
    LoadCase(name: "chained comparison", json: minimal(a: #""on": {"go": {"guard": "0 < context.n < 2"}}"#), status: .invalidArgument, fragments: ["comparisons do not chain"]),
    LoadCase(name: "unknown function", json: minimal(a: #""on": {"go": {"guard": "clmp(1, 2, 3) > 0"}}"#), status: .notFound, fragments: ["unknown function 'clmp'", "did you mean 'clamp'"]),
    LoadCase(name: "wrong arity", json: minimal(a: #""on": {"go": {"guard": "clamp(1, 2) > 0"}}"#), status: .invalidArgument, fragments: ["clamp() takes 3 arguments, not 2"]),
    LoadCase(name: "an action with no verb", json: minimal(a: #""entry": [{"asign": {"n": 1}}]"#), status: .invalidArgument, fragments: ["states.a.entry[0]", "did you mean 'assign'"]),
    LoadCase(name: "an action with two verbs", json: minimal(a: #""entry": [{"assign": {"n": 1}, "raise": "tick"}]"#), status: .invalidArgument, fragments: ["one verb", "assign and raise"]),
    LoadCase(name: "join outside entry actions", json: minimal(a: #""on": {"go": {"actions": [{"animate": {"type": "basic", "keyPath": "opacity", "to": 0}, "part": "p", "join": true}]}}"#), status: .invalidArgument, fragments: ["only entry actions join"]),
    LoadCase(name: "unknown key path in a template", json: minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "opacty", "to": 0}}"#), status: .notFound, fragments: ["animations.f.keyPath", "did you mean 'opacity'"]),
    LoadCase(name: "wrong value kind in a template", json: minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "position", "to": 1}}"#), status: .kind, fragments: ["animations.f.to", "point"]),
    LoadCase(name: "unknown timing function", json: minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "timingFunction": "easeInOut"}}"#), status: .notFound, fragments: ["animations.f.timingFunction", "easeInOut"]),
    LoadCase(name: "field of another animation type", json: minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "mass": 2}}"#), status: .invalidArgument, fragments: ["'mass' applies to spring animations"]),
    LoadCase(name: "a flag a keyframe template would ignore", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "fromPresentation": true}}"#), status: .invalidArgument, fragments: ["animations.f.fromPresentation", "'fromPresentation' applies to basic and spring animations, not keyframe"]),
    LoadCase(name: "a flag a group template would ignore", json: minimal(top: #""animations": {"g": {"type": "group", "animations": [{"type": "basic", "keyPath": "opacity", "to": 0}], "cumulative": true}}"#), status: .invalidArgument, fragments: ["animations.g.cumulative", "'cumulative' applies to basic, keyframe and spring animations, not group"]),
    LoadCase(name: "additive and fromPresentation together", json: minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "to": 0, "additive": true, "fromPresentation": true}}"#), status: .invalidArgument, fragments: ["animations.f.fromPresentation", "additive and fromPresentation do not combine"]),
    LoadCase(name: "an animate action's additive over a template's fromPresentation", json: minimal(a: #""entry": [{"animate": "f", "part": "p", "additive": true}]"#, top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "to": 0, "fromPresentation": true}}"#), status: .invalidArgument, fragments: ["states.a.entry[0].additive", "additive and fromPresentation do not combine"]),
    LoadCase(name: "an animate action's fromPresentation over an additive template", json: minimal(a: #""entry": [{"animate": "f", "part": "p", "fromPresentation": true}]"#, top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "by": 1, "additive": true}}"#), status: .invalidArgument, fragments: ["states.a.entry[0].fromPresentation", "additive and fromPresentation do not combine"]),
    LoadCase(name: "template that contains itself", json: minimal(top: #""animations": {"g": {"type": "group", "animations": ["g"]}}"#), status: .invalidArgument, fragments: ["contains itself"]),
    LoadCase(name: "set written as an object", json: minimal(a: #""entry": [{"set": {"opacity": 1, "zPosition": 2}, "part": "p"}]"#), status: .invalidArgument, fragments: ["states.a.entry[0].set", "names one key path", #"{"set": "opacity", "value": …, "part": …}"#, "one 'set' action for each key path"]),
    LoadCase(name: "unknown part", json: minimal(a: #""entry": [{"remove": "k", "part": "q"}]"#), status: .notFound, fragments: ["no part named 'q'", "did you mean 'p'"]),
    LoadCase(name: "final state with transitions", json: minimal(a: #""type": "final", "on": {"go": "b"}"#), status: .invalidArgument, fragments: ["final state takes no transitions"]),
    LoadCase(name: "onFinal without a final child", json: minimal(a: #""initial": "x", "states": {"x": {}}, "onFinal": "b""#), status: .invalidArgument, fragments: ["has no final child"]),
    LoadCase(name: "internal transition to a non-descendant", json: minimal(a: #""on": {"go": {"target": "b", "type": "internal"}}"#), status: .invalidArgument, fragments: ["internal transition goes from a compound state to one of its descendants"]),
    LoadCase(name: "ambiguous short target", json: minimal(a: #""initial": "x", "states": {"x": {"on": {"go": "y"}}}"#).replacing(#""b": {}"#, with: #""b": {"initial": "y", "states": {"y": {}}}, "c": {"initial": "y", "states": {"y": {}}}"#), status: .invalidArgument, fragments: ["ambiguous", "'b.y'", "'c.y'"]),
    LoadCase(name: "maxMicrosteps out of range", json: minimal(top: #""maxMicrosteps": 0"#), status: .outOfRange, fragments: ["maxMicrosteps is 0"]),
    LoadCase(name: "config default out of range", json: minimal(top: #""config": {"k": {"type": "number", "default": 5, "max": 2}}"#).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .outOfRange, fragments: ["config.k.default: the default is 5; the maximum is 2"]),
    LoadCase(name: "a repeated part's count over one parameter whose declared range holds no count", json: minimal().replacing(#""default": 1}"#, with: #""default": 0.5, "min": 0.2, "max": 0.8}"#).replacing(#"{"name": "p"}"#, with: #"{"name": "p", "count": "config.k"}"#), status: .outOfRange, fragments: ["parts[0].count: with the config's defaults, part 'p' would have 0.5 copies (config.k); config.k declares 0.2 to 0.8, so no value of it is a count"]),
    LoadCase(name: "a repeated part's count that the config's defaults put past the limit", json: minimal().replacing(#"{"name": "p"}"#, with: #"{"name": "p", "count": "config.k * 4097"}"#), status: .outOfRange, fragments: ["parts[0].count: with the config's defaults, part 'p' would have 4097 copies (config.k * 4097); a count is a whole number from 0 to 4096"]),
    LoadCase(name: "config default of the wrong type", json: minimal(top: #""config": {"k": {"type": "bool", "default": 5}}"#).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .kind, fragments: ["expected a bool literal"]),
    LoadCase(name: "unknown type name", json: minimal(top: #""config": {"k": {"type": "numbr", "default": 5}}"#).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .invalidArgument, fragments: ["unknown type 'numbr'", "did you mean 'number'"]),
    LoadCase(name: "another language's name for a type", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "str"}"#), status: .invalidArgument, fragments: ["events.go.payload[0].type: unknown type 'str'; did you mean 'string'? (types here: number, bool, string"]),
    LoadCase(name: "another language's name for a number", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "Float"}"#), status: .invalidArgument, fragments: ["unknown type 'Float'; did you mean 'number'?"]),
    LoadCase(name: "state name with a dot", json: minimal().replacing(#""b": {}"#, with: #""b.c": {}"#), status: .invalidArgument, fragments: ["state name 'b.c'"]),
    LoadCase(name: "state name starting with a digit", json: minimal().replacing(#""b": {}"#, with: #""2b": {}"#), status: .invalidArgument, fragments: ["state name '2b'", "not starting with a digit"]),
    LoadCase(name: "event name starting with a dot", json: minimal().replacing(#""tick": {}"#, with: #"".tick": {}"#), status: .invalidArgument, fragments: ["event name '.tick'", "starting with a letter or '_'"]),
    LoadCase(name: "states nested too deep", json: #"{"name": "deep", "initial": "s", "states": "# + String(repeating: #"{"s": {"initial": "s", "states": "#, count: 40) + #"{"s": {}}"# + String(repeating: "}}", count: 40) + "}", status: .outOfRange, fragments: ["nested more than 32 deep"]),
    LoadCase(name: "a name that is too long", json: minimal().replacing(#""b": {}"#, with: "\"" + String(repeating: "b", count: 129) + "\": {}"), status: .invalidArgument, fragments: ["1 to 128"]),
    LoadCase(name: "an expression that is too long", json: minimal(a: "\"on\": {\"go\": {\"guard\": \"" + String(repeating: "true and ", count: 500) + "true\"}}"), status: .outOfRange, fragments: ["at most 4096"]),
    LoadCase(name: "ignored and handled", json: minimal(a: #""on": {"go": "b"}, "ignore": ["go"]"#), status: .invalidArgument, fragments: ["both ignored and handled"]),
    LoadCase(name: "a result event of an unknown request", json: minimal(top: #""requests": {"load": {}}"#).replacing(#""tick": {}"#, with: #""tick": {"resultOf": "lod"}"#), status: .notFound, fragments: ["no request named 'lod'", "did you mean 'load'"]),
    LoadCase(name: "raising a result event", json: minimal(a: #""entry": [{"raise": "tick", "payload": {"request": 1}}]"#, top: #""requests": {"load": {}}"#).replacing(#""tick": {}"#, with: #""tick": {"resultOf": "load"}"#), status: .invalidArgument, fragments: ["only the host sends it"]),
    LoadCase(name: "string key not in the default locale", json: minimal(top: #""strings": {"en": {"hello": "Hello"}, "zh": {"helo": "你好"}}"#), status: .notFound, fragments: ["strings.zh.helo", "did you mean 'hello'"]),
    LoadCase(name: "emit payload field that does not exist", json: minimal(a: #""entry": [{"emit": "done", "payload": {"valu": 1}}]"#, top: #""emits": {"done": {"payload": [{"name": "value", "type": "number"}]}}"#), status: .notFound, fragments: ["no payload field 'valu'", "did you mean 'value'"]),
    LoadCase(name: "emit without a required field", json: minimal(a: #""entry": [{"emit": "done"}]"#, top: #""emits": {"done": {"payload": [{"name": "value", "type": "number"}]}}"#), status: .invalidArgument, fragments: ["needs its payload field 'value'"]),
    LoadCase(name: "call of an unregistered function", json: minimal(a: #""entry": [{"call": "beep"}]"#), status: .notFound, fragments: ["no machine function named 'beep'"]),
    LoadCase(name: "cancel of an unknown timer", json: minimal(a: #""entry": [{"cancelTimer": "t"}]"#), status: .notFound, fragments: ["no timer named 't'"]),
    LoadCase(name: "a negative constant delay", json: minimal(a: #""after": [{"delay": -1, "target": "b"}]"#), status: .outOfRange, fragments: ["states.a.after[0].delay", "the delay is -1", "0 or more"]),
    LoadCase(name: "a constant delay computed negative", json: minimal(a: #""after": [{"delay": "2 - 3", "target": "b"}]"#), status: .outOfRange, fragments: ["states.a.after[0].delay", "the delay is -1"]),
    LoadCase(name: "one timer name on two afters of a state", json: minimal(a: #""after": [{"delay": 1, "name": "t", "target": "b"}, {"delay": 2, "name": "t", "target": "b"}]"#), status: .invalidArgument, fragments: ["states.a.after[1].name", "the timer name 't' is taken by another 'after' of 'a'"]),
    LoadCase(name: "one timer name on the afters of a state and its child", json: minimal(a: #""after": [{"delay": 1, "name": "t", "target": "b"}], "initial": "c", "states": {"c": {"after": [{"delay": 2, "name": "t", "target": "b"}]}}"#), status: .invalidArgument, fragments: ["states.a.states.c.after[0].name", "the timer name 't' is taken by an 'after' of 'a', active with 'a.c'"]),
    LoadCase(name: "one timer name on an after and a startTimer", json: minimal(a: #""after": [{"delay": 1, "name": "t", "target": "b"}]"#).replacing(#""b": {}"#, with: #""b": {"entry": [{"startTimer": "t", "delay": 1}]}"#), status: .invalidArgument, fragments: ["states.b.entry[0]", "the timer name 't' is taken by an 'after' of 'a'; a started timer runs in any state"]),
    LoadCase(name: "config min above max", json: minimal(top: #""config": {"k": {"type": "number", "default": 1, "min": 2, "max": 0}}"#).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .outOfRange, fragments: ["config.k", "min (2) is greater than max (0)"]),
    LoadCase(name: "config default outside oneOf", json: minimal(top: #""config": {"k": {"type": "string", "default": "fr", "oneOf": ["en", "zh"]}}"#).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .outOfRange, fragments: ["config.k.default: the default is 'fr'; it must be one of 'en', 'zh'"]),
    LoadCase(name: "partial on an event that is no result", json: minimal().replacing(#""tick": {}"#, with: #""tick": {"partial": true}"#), status: .invalidArgument, fragments: ["events.tick.partial", "it needs \"resultOf\""]),
    LoadCase(name: "a nested initial state of the machine", json: minimal(a: #""initial": "x", "states": {"x": {}}"#).replacing(#""initial": "a""#, with: #""initial": "a.x""#), status: .invalidArgument, fragments: ["initial", "the initial state 'a.x' must be a top-level state"]),
    LoadCase(name: "a colour of ten digits", json: minimal(top: ##""config": {"c": {"type": "color", "default": "#ff00ff0011"}}"##).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .invalidArgument, fragments: ["config.c.default", "'#ff00ff0011' is not a colour"]),
    LoadCase(name: "a colour with signs for digits", json: minimal(top: ##""config": {"c": {"type": "color", "default": "#+f+f+f"}}"##).replacing(#""config": {"k": {"type": "number", "default": 1}},"#, with: ""), status: .invalidArgument, fragments: ["config.c.default", "'#+f+f+f' is not a colour"]),
    LoadCase(name: "a final state with an eventless transition", json: minimal(a: #""type": "final", "always": "b""#), status: .invalidArgument, fragments: ["states.a.always", "final state takes no transitions ('always')"]),
    LoadCase(name: "a state reporting a computed field", json: minimal(a: #""values": ["c"]"#).replacing(#""s": {"type": "string", "initial": "''"}}"#, with: #""s": {"type": "string", "initial": "''"}, "c": {"type": "number", "computed": "context.n + 1"}}"#), status: .invalidArgument, fragments: ["states.a.values[0]", "'c' is computed"]),
    LoadCase(name: "an initial state that is a grandchild", json: minimal(a: #""initial": "y", "states": {"x": {"initial": "y", "states": {"y": {}}}}"#), status: .invalidArgument, fragments: ["states.a.initial", "the initial state 'a.x.y' is not a child of 'a'"]),
    LoadCase(name: "an initial child misspelt, with a suggestion among the children", json: minimal(a: #""initial": "y2", "states": {"x": {}, "y": {}}"#), status: .notFound, fragments: ["states.a.initial", "'a' has no child state named 'y2'; did you mean 'y'?", "(its children: 'x', 'y')"]),
    LoadCase(name: "an event mapped to an empty list of transitions", json: minimal(a: #""on": {"tick": []}"#), status: .invalidArgument, fragments: ["states.a.on.tick", "an empty list of transitions takes no 'tick'", "{} to take it and do nothing", "under \"ignore\""]),
    LoadCase(name: "an empty list of after timers", json: minimal(a: #""after": []"#), status: .invalidArgument, fragments: ["states.a.after: an empty list of 'after' timers starts none", "{\"delay\": seconds, \"target\": state}", "leave \"after\" out"]),
    LoadCase(name: "an empty list of ignored events", json: minimal(a: #""ignore": []"#), status: .invalidArgument, fragments: ["states.a.ignore: an empty 'ignore' list ignores no event: name the events to ignore, or leave \"ignore\" out"]),
    LoadCase(name: "an empty list of done transitions", json: minimal(a: #""done": []"#), status: .invalidArgument, fragments: ["states.a.done: an empty list of transitions takes no 'done'", "{} to take it and do nothing", "leave \"done\" out"]),
    LoadCase(name: "an empty list of eventless transitions", json: minimal(a: #""always": []"#), status: .invalidArgument, fragments: ["states.a.always: an empty list of eventless transitions takes none", "leave \"always\" out"]),
    LoadCase(name: "a misspelt transition type, with a suggestion", json: minimal(a: #""on": {"tick": {"target": "b", "type": "interal"}}"#), status: .invalidArgument, fragments: ["states.a.on.tick.type", "unknown transition type 'interal'", "did you mean 'internal'?"]),
    LoadCase(name: "a context field read without its namespace", json: minimal(a: #""entry": [{"assign": {"n": "n + 1"}}]"#), status: .notFound, fragments: ["states.a.entry[0].assign.n", "column 1", "unknown name 'n'; did you mean 'context.n'? (fields are read with their namespace)"]),
    LoadCase(name: "an event field and a config parameter read without their namespaces", json: minimal(a: #""on": {"go": {"guard": "x > k", "target": "b"}}"#), status: .notFound, fragments: ["states.a.on.go.guard", "column 1", "unknown name 'x'; did you mean 'event.x'?"]),
    LoadCase(name: "XState's onDone, pointed at onFinal rather than done", json: minimal(a: #""initial": "x", "states": {"x": {"on": {"go": "y"}}, "y": {"type": "final"}}, "onDone": "b""#), status: .invalidArgument, fragments: ["states.a.onDone", "XState's onDone (taken when a final child is entered) is \"onFinal\" here"]),
    LoadCase(name: "XState's history state, with its history and target keys, said to be unsupported", json: minimal(a: #""initial": "x", "states": {"x": {}, "h": {"type": "history", "history": "deep", "target": "x"}}"#), status: .invalidArgument, fragments: ["states.a.states.h.type", "unknown state type 'history'", "parallel and history states are not supported"]),
    LoadCase(name: "XState's reenter on a transition, told how to write either value", json: minimal(a: #""initial": "x", "states": {"x": {}}, "on": {"tick": {"target": "a.x", "reenter": false}}"#), status: .invalidArgument, fragments: ["states.a.on.tick.reenter", "unknown key 'reenter': transitions are external by default here, as in SCXML", "reenter: false, write \"type\": \"internal\" (to a descendant) or leave the target out"]),
    LoadCase(name: "a parallel state, said to be unsupported", json: minimal(a: #""type": "parallel", "states": {"x": {}, "y": {}}"#), status: .invalidArgument, fragments: ["states.a.type", "unknown state type 'parallel'", "parallel and history states are not supported"]),
    LoadCase(name: "a context field read by a part's property, said to be unreadable there, not unknown", json: minimal(top: #""parts": [{"name": "q", "properties": {"opacity": "context.n"}}]"#).replacing(#""parts": [{"name": "p"}],"#, with: ""), status: .invalidArgument, fragments: ["parts[0].properties.opacity", "column 1", "'context.n' cannot be read here: part values are set when the instance is created, before the context exists (config can be read)"]),
    LoadCase(name: "in() read by a context initial value, said to be unreadable there", json: minimal().replacing(#""s": {"type": "string", "initial": "''"}"#, with: #""s": {"type": "string", "initial": "in('a') ? 'x' : 'y'"}"#), status: .invalidArgument, fragments: ["context.s.initial", "column 1", "in() cannot be read here: context initial values are computed when the instance is created, before the machine enters a state"]),
    LoadCase(name: "a state named with a letter that is not ASCII", json: minimal().replacing(#""b": {}"#, with: #""b": {}, "état": {}"#), status: .invalidArgument, fragments: ["states.état", "state name 'état' must be 1 to 128 ASCII letters, digits and '_'"]),
    LoadCase(name: "an event named with a letter that is not ASCII", json: minimal().replacing(#""tick": {}"#, with: #""tick": {}, "tické": {}"#), status: .invalidArgument, fragments: ["events.tické", "event name 'tické' must be 1 to 128 ASCII letters, digits, '_', '-' and '.'"]),
    // What the runtime would refuse each time the animation plays is refused when the definition loads.
    LoadCase(name: "a keyframe template with more timing functions than segments", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "timingFunctions": ["easeIn", "easeOut", "linear"]}}"#), status: .invalidArgument, fragments: ["animations.f: 3 timingFunctions for 2 segments (3 values); give at most one per segment"]),
    LoadCase(name: "a keyframe template with a key time short", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 1]}}"#), status: .invalidArgument, fragments: ["animations.f: 2 keyTimes for 3 values; this calculationMode needs 3"]),
    LoadCase(name: "a discrete keyframe template with two key times too many", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "calculationMode": "discrete", "keyTimes": [0, 0.2, 0.4, 0.6, 1]}}"#), status: .invalidArgument, fragments: ["animations.f: 5 keyTimes for 3 values; this calculationMode needs 4 (or 3)"]),
    LoadCase(name: "a keyframe template with more tension values than values", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "calculationMode": "cubic", "tension": [0, 0, 0, 0]}}"#), status: .invalidArgument, fragments: ["animations.f: 4 tension values for 3 keyframes"]),
    LoadCase(name: "a keyframe template with no values", json: minimal(top: #""animations": {"f": {"type": "keyframe", "keyPath": "opacity", "values": []}}"#), status: .invalidArgument, fragments: ["animations.f.values", "needs at least one value"]),
    LoadCase(name: "a payload default above its field's max (a C send that leaves the field out would deliver it unchecked)", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "min": 0, "max": 1, "default": 5}"#), status: .outOfRange, fragments: ["events.go.payload[0].default", "the default of 'x' is 5; the maximum is 1"]),
    LoadCase(name: "a payload default of -0 above its field's max, named -0 as written", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "max": -0.5, "default": -0}"#), status: .outOfRange, fragments: ["events.go.payload[0].default: the default of 'x' is -0; the maximum is -0.5"]),
    LoadCase(name: "a payload default below its field's min, even when the field clamps", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "min": 0, "clamp": true, "default": -0.5}"#), status: .outOfRange, fragments: ["events.go.payload[0].default", "the default of 'x' is -0.5; the minimum is 0"]),
    LoadCase(name: "integer on a bool payload field", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "bool", "integer": true}"#), status: .invalidArgument, fragments: ["events.go.payload[0]", "min, max, clamp and integer apply to numbers; 'x' is a bool"]),
    LoadCase(name: "integer on a string field of an emitted event", json: minimal(top: #""emits": {"done": {"payload": [{"name": "who", "type": "string", "integer": true}]}}"#), status: .invalidArgument, fragments: ["emits.done.payload[0]", "min, max, clamp and integer apply to numbers; 'who' is a string"]),
    LoadCase(name: "integer given as a number, not true or false", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "integer": 1}"#), status: .invalidArgument, fragments: ["events.go.payload[0].integer", "expected true or false, found a number"]),
    LoadCase(name: "a payload default that is not whole on a whole-number field", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "min": 0, "integer": true, "default": 2.5}"#), status: .outOfRange, fragments: ["events.go.payload[0].default", "the default of 'x' is 2.5; it must be a whole number"]),
    LoadCase(name: "a whole-number field that would clamp to a bound that is not whole", json: minimal().replacing(#"{"name": "x", "type": "number"}"#, with: #"{"name": "x", "type": "number", "min": 0, "max": 9.5, "clamp": true, "integer": true}"#), status: .invalidArgument, fragments: ["events.go.payload[0].clamp", "'x' is a whole number and clamps to 9.5, which is not one"]),
    LoadCase(name: "a state given twice", json: minimal().replacing(#""b": {}"#, with: #""b": {}, "a": {"on": {"go": "a"}}"#), status: .invalidArgument, fragments: ["ambiguous", "line 5", "the member \"a\" appears twice in this object"]),
]

@Suite("R3.0.1 the loader refuses bad definitions with the JSON path (and the column in an expression)")
struct LoaderTests {
    @Test("every rejection path", arguments: loadCases)
    func rejected(_ c: LoadCase) {
        let h = Harness()
        expectError(c.status, c.fragments) { () throws(AnimrtError) in _ = try h.host.load(c.json) }
    }

    @Test("the rejection table covers every case it lists")
    func count() { #expect(loadCases.count == 111) }

    @Test("R0.3 a delay written with a unit, as CSS writes durations, is told to write seconds without one")
    func delayWithUnit() {
        func message(_ delay: String) -> String? {
            let h = Harness()
            do throws(AnimrtError) {
                _ = try h.host.load(minimal(a: #""after": [{"delay": "\#(delay)", "target": "b"}]"#))
                return nil
            } catch { return error.status == .invalidArgument ? error.message : "status \(error.status)" }
        }
        let path = "states.a.after[0].delay: column"
        #expect(message("2s") == "\(path) 2: unexpected 's' after the end of the expression; a delay is a number of seconds, without a unit: write 2")
        #expect(message(" 500 ms ") == "\(path) 6: unexpected 'ms' after the end of the expression; a delay is a number of seconds, without a unit: write 0.5")
        #expect(message("1.5 Seconds") == "\(path) 5: unexpected 'Seconds' after the end of the expression; a delay is a number of seconds, without a unit: write 1.5")
        // Not a number with a unit: the parser's message alone.
        #expect(message("2 days") == "\(path) 3: unexpected 'days' after the end of the expression")
        #expect(message("2 + context.n s") == "\(path) 15: unexpected 's' after the end of the expression")
    }

    @Test("the minimal definition itself loads, so each case fails for its own reason")
    func baseline() throws {
        let h = Harness()
        let d = try h.load(minimal())
        #expect(d.states.map(\.name) == ["a", "b"])
        #expect(d.events.map(\.name) == ["go", "tick", "error.execution"])
        #expect(d.context.map(\.name) == ["n", "s"])
    }

    @Test("additive beside a fromPresentation that is false loads: only flags that are both on are refused")
    func additiveBesideFalseFromPresentation() throws {
        let h = Harness()
        let d = try h.load(minimal(top: #""animations": {"f": {"type": "basic", "keyPath": "opacity", "by": 1, "additive": true, "fromPresentation": false}, "k": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "additive": true, "cumulative": true}}"#))
        #expect(d.states.map(\.name) == ["a", "b"])
    }

    @Test("additive and fromPresentation as expressions load; an add where both are true is refused, as the machine's error")
    func additiveAndFromPresentationBothTrueWhenAdded() throws {
        let json = """
        {"name": "nudge",
         "config": {"add": {"type": "bool", "default": true}, "fromScreen": {"type": "bool", "default": true}},
         "parts": [{"name": "dot", "properties": {"opacity": 0}}],
         "animations": {"nudge": {"type": "basic", "keyPath": "opacity", "from": 0, "to": 1,
                                  "additive": "config.add", "fromPresentation": "config.fromScreen"}},
         "events": {"tap": {}},
         "initial": "ready",
         "states": {"ready": {"on": {"tap": "nudging"}}, "nudging": {"entry": [{"animate": "nudge", "part": "dot"}]}}}
        """
        for (add, fromScreen) in [(true, true), (true, false), (false, true)] {
            let h = Harness()
            h.tick(0)
            let m = try h.machine(json, config: ["add": .bool(add), "fromScreen": .bool(fromScreen)])
            _ = h.events()
            try h.send(m, "tap")
            h.tick(0.1)
            let errors = h.machineEvents(m).filter { $0.hasPrefix("error") }
            #expect(errors.count == (add && fromScreen ? 1 : 0), "\(add) \(fromScreen): \(errors)")
            if add && fromScreen { #expect(errors.first?.contains("additive and fromPresentation do not combine") == true) }
            #expect(h.state(m) == "nudging")
        }
    }

    @Test("a config parameter pinned to one value loads; an instance's value outside oneOf is refused, nothing made")
    func configEdges() throws {
        let h = Harness()
        let json = minimal().replacing(#""config": {"k": {"type": "number", "default": 1}},"#,
                                       with: #""config": {"k": {"type": "number", "default": 1, "min": 1, "max": 1}, "lang": {"type": "string", "default": "en", "oneOf": ["en", "zh"]}},"#)
        let d = try h.load(json)
        #expect(d.config[0].minimum == 1 && d.config[0].maximum == 1)
        let m = try h.machine(json, config: ["lang": .string("zh")])
        #expect(h.state(m) == "a")
        let before = h.host.instanceCount
        expectError(.outOfRange, ["config 'lang' is 'fr'; it must be one of 'en', 'zh'"]) { () throws(AnimrtError) in
            _ = try h.machine(json, config: ["lang": .string("fr")])
        }
        #expect(h.host.instanceCount == before)
    }

    @Test("state ids are the sorted full names, whatever the JSON's key order")
    func stateIDs() throws {
        let h = Harness()
        let d = try h.load(#"{"name": "ids", "initial": "zeta", "states": {"zeta": {"initial": "b", "states": {"b": {}, "a": {}}}, "alpha": {}}}"#)
        #expect(d.states.map(\.name) == ["alpha", "zeta", "zeta.a", "zeta.b"])
        #expect(d.states[2].parent == 1 && d.states[1].children == [2, 3] && d.states[1].initial == 3)
        #expect(d.initial == 1)
    }

    @Test("a compound state's initial names its child, even when a top-level state or another compound's child has that name")
    func initialChildByItsOwnName() throws {
        let h = Harness()
        let json = #"""
        {"name": "names", "events": {"go": {}}, "initial": "idle",
         "states": {"idle": {"on": {"go": "upload"}},
                    "upload": {"initial": "idle", "states": {"idle": {"on": {"go": "download"}}, "busy": {}}},
                    "download": {"initial": "idle", "states": {"idle": {}, "busy": {}}}}}
        """#
        let d = try h.load(json)
        let upload = d.states.firstIndex { $0.name == "upload" }!, download = d.states.firstIndex { $0.name == "download" }!
        #expect(d.states[d.states[upload].initial!].name == "upload.idle")
        #expect(d.states[d.states[download].initial!].name == "download.idle")
        let m = try h.machine(json)
        #expect(h.state(m) == "idle")
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "upload.idle")
        #expect(try h.send(m, "go") == .taken)
        #expect(h.state(m) == "download.idle")
        // A transition's target is not looked up among siblings (docs/machines.md, differences from XState):
        // from a child, "idle" is the top-level idle.
        let s = try h.machine(#"""
        {"name": "siblings", "events": {"go": {}}, "initial": "idle",
         "states": {"idle": {"on": {"go": "upload"}},
                    "upload": {"initial": "busy", "states": {"idle": {}, "busy": {"on": {"go": "idle"}}}}}}
        """#)
        #expect(try h.send(s, "go") == .taken && h.state(s) == "upload.busy")
        #expect(try h.send(s, "go") == .taken && h.state(s) == "idle")
    }

    @Test("a definition file loads; a missing file and invalid UTF-8 are refused")
    func files() throws {
        let h = Harness()
        let path = "/tmp/animrt-machine-\(UInt32.random(in: 0...UInt32.max)).json"
        try minimal().write(toFile: path)
        defer { try? removeFile(path) }
        let d = try h.host.definition(try h.host.load(contentsOf: path))
        #expect(d.name == "m")
        expectError(.notFound, ["cannot read", "/nonexistent/x.json"]) { () throws(AnimrtError) in _ = try h.host.load(contentsOf: "/nonexistent/x.json") }
    }

    @Test("a definition larger than the limit is refused before it is parsed")
    func tooLarge() {
        let h = Harness()
        let big = "{\"name\": \"" + String(repeating: "x", count: DefinitionLimits.maxBytes) + "\"}"
        expectError(.outOfRange, ["at most \(DefinitionLimits.maxBytes)"]) { () throws(AnimrtError) in _ = try h.host.load(big) }
    }
}
