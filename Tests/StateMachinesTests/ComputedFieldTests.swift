import AnimationCore
@testable import StateMachines
import Testing

let computedMachine = """
{
  "name": "computed",
  "config": {"total": {"type": "number", "default": 7}},
  "strings": {"en": {"none": "Start", "some": "Keep going"}, "zh": {"none": "开始", "some": "继续"}},
  "context": {
    "done": {"type": "number", "initial": 0},
    "ratio": {"type": "number", "computed": "config.total > 0 ? clamp(context.done / config.total, 0, 1) : 0"},
    "percent": {"type": "string", "computed": "fixed(context.ratio * 100, 0) + '%'"},
    "title": {"type": "string", "computed": "in('busy') ? 'Busy' : context.done == 0 ? text('none') : text('some')"},
    "broken": {"type": "number", "computed": "1 / (context.done - 2)"}
  },
  "events": {"add": {"payload": [{"name": "n", "type": "number"}]}, "work": {}, "rest": {}},
  "parts": [{"name": "bar", "properties": {"bounds": [0, 0, 0, 10]}}],
  "initial": "idle",
  "states": {
    "idle": {"on": {"add": {"guard": "context.ratio < 1", "actions": [{"assign": {"done": "context.done + event.n"}},
                                                             {"set": "bounds.size.width", "part": "bar", "value": "100 * context.ratio"}]},
                    "work": "busy"}},
    "busy": {"on": {"rest": "idle"}}
  }
}
"""

@Suite("Computed context fields: the copy and geometry a UI shows, as a function of the machine")
struct ComputedFieldTests {
    @Test("a computed field is evaluated when it is read: by the host, by guards and by actions")
    func readEverywhere() throws {
        let h = Harness()
        let m = try h.machine(computedMachine)
        #expect(h.context(m, "ratio") == .number(0))
        #expect(h.context(m, "percent") == .string("0%"))
        #expect(h.context(m, "title") == .string("Start"))
        try h.send(m, "add", [.number(3)])
        #expect(h.context(m, "ratio") == .number(3.0 / 7))
        #expect(h.context(m, "percent") == .string("43%"))
        #expect(h.context(m, "title") == .string("Keep going"))
        let bar = try h.host.part("bar", of: m)
        #expect(try h.runtime.modelValue(forKeyPath: "bounds.size.width", of: bar) == .scalar(100 * 3.0 / 7))
        try h.send(m, "work")
        #expect(h.context(m, "title") == .string("Busy"))   // in() sees the active state
        try h.send(m, "rest")
        try h.send(m, "add", [.number(10)])
        #expect(h.context(m, "ratio") == .number(1))        // clamped
        // The guard reads the computed ratio: full, so add is no longer taken.
        expectError(.state, ["no guard of its transitions passed"]) { () throws(AnimrtError) in try h.send(m, "add", [.number(1)]) }
    }

    @Test("a computed field follows the instance's copy (locale and overrides)")
    func copy() throws {
        let h = Harness()
        let dh = try h.host.load(computedMachine)
        let zh = try h.host.create(dh, options: .init(locale: "zh"))
        #expect(h.context(zh, "title") == .string("开始"))
        let custom = try h.host.create(dh, options: .init(strings: ["none": "Let's go"]))
        #expect(h.context(custom, "title") == .string("Let's go"))
    }

    @Test("R0.4 a computed number that is not finite is refused when read, with the field and its expression")
    func nonFinite() throws {
        let h = Harness()
        let m = try h.machine(computedMachine)
        #expect(h.context(m, "broken") == .number(-0.5))
        try h.send(m, "add", [.number(2)])
        let d = try h.host.definition(of: m)
        expectError(.invalidArgument, ["context.broken computes to inf", "1 / (context.done - 2)", "must be finite"]) { () throws(AnimrtError) in
            _ = try h.host.context(d.contextID("broken")!, of: m)
        }
    }

    @Test("computed fields are refused where only stored values make sense, and cycles are refused", arguments: [
        LoadCase(name: "assigning a computed field", json: computedMachine.replacing(#""assign": {"done": "context.done + event.n"}"#, with: #""assign": {"ratio": 1}"#),
                 status: .invalidArgument, fragments: ["assign.ratio", "context.ratio is computed", "cannot be assigned"]),
        LoadCase(name: "a computed field in values", json: computedMachine.replacing(#""busy": {"on""#, with: #""busy": {"values": ["title"], "on""#),
                 status: .invalidArgument, fragments: ["states.busy.values[0]", "'title' is computed"]),
        LoadCase(name: "both initial and computed", json: computedMachine.replacing(#""done": {"type": "number", "initial": 0}"#, with: #""done": {"type": "number", "initial": 0, "computed": "1"}"#),
                 status: .invalidArgument, fragments: ["context.done", "not both"]),
        LoadCase(name: "neither initial nor computed", json: computedMachine.replacing(#""done": {"type": "number", "initial": 0}"#, with: #""done": {"type": "number"}"#),
                 status: .invalidArgument, fragments: ["context.done", "needs an \"initial\" value"]),
        LoadCase(name: "a cycle", json: computedMachine.replacing(#""computed": "1 / (context.done - 2)""#, with: #""computed": "context.ratio + context.broken""#),
                 status: .invalidArgument, fragments: ["context.broken.computed", "cycle", "'broken' → 'broken'"]),
        LoadCase(name: "a type error with its column", json: computedMachine.replacing(#""computed": "fixed(context.ratio * 100, 0) + '%'""#, with: #""computed": "context.ratio + '%'""#),
                 status: .kind, fragments: ["context.percent.computed", "column"]),
        LoadCase(name: "reading an event", json: computedMachine.replacing(#""computed": "1 / (context.done - 2)""#, with: #""computed": "event.n""#),
                 status: .invalidArgument, fragments: ["context.broken.computed", "whenever it is read"]),
    ])
    func refused(_ c: LoadCase) {
        let h = Harness()
        expectError(c.status, c.fragments) { () throws(AnimrtError) in _ = try h.load(c.json) }
    }

    @Test("R0.4 chains of computed fields are limited to the nesting depth, at and past the edge")
    func depth() throws {
        func chain(_ n: Int) -> String {
            let fields = (0..<n).map { i in
                let value = i == 0 ? "1" : "context.f" + String(i - 1) + " + 1"
                return #""f\#(i)": {"type": "number", "computed": "\#(value)"}"#
            }
            return #"{"name": "chain", "context": {\#(fields.joined(separator: ", "))}, "initial": "a", "states": {"a": {}}}"#
        }
        let h = Harness()
        let m = try h.machine(chain(DefinitionLimits.maxDepth))
        #expect(h.context(m, "f\(DefinitionLimits.maxDepth - 1)") == .number(Double(DefinitionLimits.maxDepth)))
        expectError(.outOfRange, ["computed fields read each other more than 32 deep"]) { () throws(AnimrtError) in
            _ = try h.load(chain(DefinitionLimits.maxDepth + 1))
        }
        expectError(.outOfRange, ["more than 32 deep"]) { () throws(AnimrtError) in _ = try h.load(chain(4000)) }
    }

    @Test("a longer cycle names every field on it")
    func longCycle() {
        let h = Harness()
        let json = computedMachine
            .replacing(#""computed": "fixed(context.ratio * 100, 0) + '%'""#, with: #""computed": "str(context.broken)""#)
            .replacing(#""computed": "1 / (context.done - 2)""#, with: #""computed": "len(context.title)""#)
            .replacing(#""computed": "in('busy') ? 'Busy' : context.done == 0 ? text('none') : text('some')""#, with: #""computed": "context.percent""#)
        let message = expectError(.invalidArgument, ["cycle"]) { () throws(AnimrtError) in _ = try h.load(json) }
        for name in ["'broken'", "'percent'", "'title'"] { #expect(message.contains(name), "\(message)") }
    }
}
