import AnimationCore
@testable import StateMachines
import Testing

/// The loader walks an expression's tree for what it reads: the computed
/// fields (for cycles) and whether it reads only config (for a count
/// computed from the defaults). Every operand counts, the else branch of
/// '? :' as much as its condition and its then branch.
@Suite("R3.0.1 what an expression reads is found in every operand, the else branch of '? :' too")
struct ExpressionWalkTests {
    @Test("a cycle of computed fields through an else branch is refused when the definition loads")
    func cycleThroughElse() {
        let h = Harness()
        let json = minimal().replacing(#""s": {"type": "string", "initial": "''"}}"#, with: #"""
        "s": {"type": "string", "initial": "''"}, "x": {"type": "number", "computed": "context.n > 0 ? 1 : context.y"},
        "y": {"type": "number", "computed": "context.x + 1"}}
        """#)
        expectError(.invalidArgument, ["computed fields depend on each other in a cycle", "'x'", "'y'"]) {
            () throws(AnimrtError) in _ = try h.load(json)
        }
    }

    /// A count that reads copy is computed at creation, from the instance's
    /// strings; computed from no strings when the definition loads, 6 / 0
    /// would refuse a definition whose every instance has 2 copies.
    @Test("a count that divides by the length of a string is computed from the instance's copy, not from none")
    func countFromCopy() throws {
        let h = Harness()
        let json = #"{"name": "halves", "strings": {"en": {"title": "abc"}}, "parts": [{"name": "p", "count": "6 / len(text('title'))"}], "initial": "a", "states": {"a": {}}}"#
        let d = try h.host.load(json)
        #expect(try h.host.partCount("p", of: h.host.create(d)) == 2)
        #expect(try h.host.partCount("p", of: h.host.create(d, options: .init(strings: ["title": "abcdef"]))) == 1)
    }

    static func computed(_ fields: String) -> String {
        #"{"name": "walk", "context": {"n": {"type": "number", "initial": 0}, "#
            + fields + #"}, "initial": "a", "states": {"a": {}}}"#
    }

    @Test("a cycle of computed fields through '-' or '!' is refused when the definition loads")
    func cycleThroughNegation() {
        let h = Harness()
        let negated = Self.computed(#""x": {"type": "number", "computed": "-context.y"}, "y": {"type": "number", "computed": "context.x + 1"}"#)
        expectError(.invalidArgument, ["computed fields depend on each other in a cycle: 'x' → 'y' → 'x'"]) {
            () throws(AnimrtError) in _ = try h.load(negated)
        }
        let not = Self.computed(#""f": {"type": "bool", "computed": "!context.g"}, "g": {"type": "bool", "computed": "context.f"}"#)
        expectError(.invalidArgument, ["computed fields depend on each other in a cycle: 'f' → 'g' → 'f'"]) {
            () throws(AnimrtError) in _ = try h.load(not)
        }
    }

    /// x reads y, then z; both read x back. The walk meets y first, so the
    /// cycle the loader names is the one through y.
    @Test("the computed fields an expression reads are met left to right: a cycle is named by the first one read")
    func cycleNamedLeftToRight() {
        let h = Harness()
        let json = Self.computed(#""x": {"type": "number", "computed": "context.y + context.z"}, "#
            + #""y": {"type": "number", "computed": "context.x"}, "z": {"type": "number", "computed": "context.x"}"#)
        let message = expectError(.invalidArgument, ["computed fields depend on each other in a cycle: 'x' → 'y' → 'x'"]) {
            () throws(AnimrtError) in _ = try h.load(json)
        }
        #expect(!message.contains("'z'"), "\(message)")
    }
}
