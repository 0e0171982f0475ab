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
}
