import AnimationCore
import CAnimrt
import StateMachines
import Testing
@testable import animrt

/// animrt_definition_export under the two-call protocol (ask for the size,
/// then fill): the text a too-small buffer was refused is kept for the fill,
/// which returns it as it is, so a large definition's table is built once.
/// Only the last such text is kept, for its definition and format alone,
/// and it goes when a fill takes it or its definition is destroyed (R3.0.1).
@Suite("R3.0.1 a definition's export is built once for the size call and the fill")
struct ExportKeptTests {
    static let card = #"{"name": "card", "events": {"go": {}, "back": {}}, "initial": "a", "states": {"a": {"on": {"go": "b"}}, "b": {"on": {"back": "a"}}}}"#
    static let list = #"{"name": "list", "events": {"go": {}}, "initial": "a", "states": {"a": {"on": {"go": "b"}}, "b": {}}}"#

    /// The text the runtime keeps for a fill, if any: its definition's name, its format and its text.
    func kept(_ c: CRuntime) -> (String?, ExportFormat, String)? {
        RuntimeBox.with(c.rt!) { box in box.keptExport.map { ($0.definition?.name, $0.format, $0.text) } }
    }

    /// Puts `text` in place of the kept text, as a fill that took the kept
    /// text rather than building it again would return it.
    func plant(_ c: CRuntime, _ text: String) {
        RuntimeBox.with(c.rt!) { box in box.keptExport = box.keptExport.map { KeptExport(definition: $0.definition, format: $0.format, text: text) } }
    }

    /// The size call: ANIMRT_E_BUFFER and the size with its NUL.
    func size(_ c: CRuntime, _ h: animrt_id, _ format: animrt_export_format) -> Int {
        var needed = 0
        #expect(animrt_definition_export(c.rt, h, format, nil, 0, &needed) == ANIMRT_E_BUFFER)
        return needed
    }

    /// The fill, into a buffer of `cap` bytes.
    func fill(_ c: CRuntime, _ h: animrt_id, _ format: animrt_export_format, _ cap: Int) -> String? {
        var buf = [CChar](repeating: 1, count: cap), needed = 0
        guard animrt_definition_export(c.rt, h, format, &buf, cap, &needed) == ANIMRT_OK else { return nil }
        let text = String(cString: buf)
        #expect(needed == text.utf8.count + 1)
        return text
    }

    @Test("The size call keeps the text; the fill returns those bytes, the definition's export, and drops them")
    func sizeThenFill() throws {
        let c = CRuntime()
        var def: animrt_id = 0
        #expect(animrt_definition_load(c.rt, Self.card, &def) == ANIMRT_OK)
        let expected = try RuntimeBox.with(c.rt!) { box in Result { () throws(AnimrtError) in try box.machines.definition(Handle(raw: def)).export(.markdown) } }.get()
        let needed = size(c, def, ANIMRT_EXPORT_MARKDOWN)
        #expect(needed == expected.utf8.count + 1)
        #expect(kept(c)?.0 == "card" && kept(c)?.1 == .markdown && kept(c)?.2 == expected)
        // A buffer one byte short is refused as well, and keeps it.
        #expect(fill(c, def, ANIMRT_EXPORT_MARKDOWN, needed - 1) == nil)
        #expect(kept(c)?.2 == expected)
        #expect(fill(c, def, ANIMRT_EXPORT_MARKDOWN, needed) == expected)
        #expect(kept(c) == nil)
        // A buffer large enough at once keeps nothing.
        #expect(fill(c, def, ANIMRT_EXPORT_DOT, 1 << 16)?.hasPrefix("digraph") == true)
        #expect(kept(c) == nil)
    }

    @Test("The fill takes the kept text, built by the size call, not built again")
    func fillTakesKeptText() {
        let c = CRuntime()
        var def: animrt_id = 0
        #expect(animrt_definition_load(c.rt, Self.card, &def) == ANIMRT_OK)
        _ = size(c, def, ANIMRT_EXPORT_DOT)
        plant(c, "kept")
        #expect(fill(c, def, ANIMRT_EXPORT_DOT, 64) == "kept")
        // Taken once: the next call builds the text anew.
        #expect(fill(c, def, ANIMRT_EXPORT_DOT, 1 << 16)?.hasPrefix("digraph") == true)
    }

    @Test("Kept text serves its definition and format alone, and goes with its definition")
    func keptTextIsNeverStale() {
        let c = CRuntime()
        var card: animrt_id = 0, list: animrt_id = 0, machine: animrt_id = 0
        #expect(animrt_definition_load(c.rt, Self.card, &card) == ANIMRT_OK)
        #expect(animrt_definition_load(c.rt, Self.list, &list) == ANIMRT_OK)
        // Another format, or another definition: built, and the kept text replaced.
        _ = size(c, card, ANIMRT_EXPORT_DOT)
        plant(c, "kept")
        #expect(fill(c, card, ANIMRT_EXPORT_MARKDOWN, 1 << 16)?.hasPrefix("# card") == true)
        #expect(kept(c) == nil)
        _ = size(c, card, ANIMRT_EXPORT_DOT)
        plant(c, "kept")
        _ = size(c, list, ANIMRT_EXPORT_DOT)
        #expect(kept(c)?.0 == "list" && kept(c)?.2 != "kept")
        // A call refused for anything but its buffer drops it as well.
        var needed = 0
        #expect(animrt_definition_export(c.rt, list, animrt_export_format(rawValue: 9), nil, 0, &needed) == ANIMRT_E_ENUM)
        #expect(kept(c) == nil)
        _ = size(c, list, ANIMRT_EXPORT_DOT)
        // A machine's definition is the one it was made from: its kept text serves it.
        #expect(animrt_machine_create(c.rt, list, 0, nil, &machine) == ANIMRT_OK)
        plant(c, "kept")
        #expect(fill(c, machine, ANIMRT_EXPORT_DOT, 64) == "kept")
        // Destroying the definition drops its kept text; its handle is then refused.
        _ = size(c, card, ANIMRT_EXPORT_MARKDOWN)
        #expect(animrt_definition_destroy(c.rt, card) == ANIMRT_OK)
        #expect(kept(c) == nil)
        #expect(animrt_definition_export(c.rt, card, ANIMRT_EXPORT_MARKDOWN, nil, 0, &needed) == ANIMRT_E_HANDLE)
        // A definition loaded in its place has its own text.
        var again: animrt_id = 0
        #expect(animrt_definition_load(c.rt, Self.list, &again) == ANIMRT_OK)
        #expect(fill(c, again, ANIMRT_EXPORT_MARKDOWN, 1 << 16)?.hasPrefix("# list") == true)
    }
}
