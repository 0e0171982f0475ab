import FoundationEssentials
@testable import StateMachines
import Testing

/// docs/machine.schema.json, the schema editors use, must accept exactly
/// the keys the loader accepts.
@Suite("docs/machine.schema.json matches the loader")
struct SchemaTests {
    let schema: JSONValue = {
        let data = try! Data(contentsOf: URL(filePath: repositoryRoot + "/docs/machine.schema.json"))
        return try! JSONValue.parse(Array(data))
    }()

    func at(_ path: [String]) -> JSONValue? {
        var v = schema
        for key in path {
            guard case .object(let o) = v, let next = o[key] else { return nil }
            v = next
        }
        return v
    }

    func keys(_ path: [String]) -> Set<String> {
        guard case .object(let o)? = at(path) else { return [] }
        return Set(o.keys)
    }

    @Test("each kind of object has the loader's keys", arguments: [
        (["properties"], DefinitionKeys.top),
        (["$defs", "state", "properties"], DefinitionKeys.state),
        (["$defs", "transitionObject", "properties"], DefinitionKeys.transition),
        (["$defs", "after", "properties"], DefinitionKeys.after),
        (["$defs", "part", "properties"], DefinitionKeys.part),
        (["$defs", "template", "properties"], DefinitionKeys.template),
        (["$defs", "payloadField", "properties"], DefinitionKeys.payloadField),
        (["$defs", "eventDeclaration", "properties"], DefinitionKeys.event),
        (["$defs", "declaration", "properties"], DefinitionKeys.declaration),
        (["properties", "config", "additionalProperties", "properties"], DefinitionKeys.config),
        (["properties", "context", "additionalProperties", "properties"], DefinitionKeys.context),
    ])
    func objectKeys(_ path: [String], _ expected: [String]) {
        #expect(keys(path) == Set(expected), "\(path.joined(separator: "."))")
    }

    /// The list form of `path` (one of two forms: one item, or a list).
    func listForm(_ path: [String]) -> [String: JSONValue]? {
        guard case .array(let forms)? = at(path) else { Issue.record("no forms at \(path.joined(separator: "."))"); return nil }
        let lists = forms.filter { if case .object(let o) = $0, o["type"] == .string("array") { true } else { false } }
        #expect(forms.count == 2 && lists.count == 1, "\(path.joined(separator: "."))")
        guard case .object(let list)? = lists.first else { return nil }
        return list
    }

    /// The loader refuses `"on": {"e": []}` (every `e` would then be
    /// refused as an event the state does not accept), and an empty list
    /// under `after`, `done` or `always` as well (it says nothing: most
    /// likely a mistake): the schema shows it to editors.
    @Test("R3.0.1 transitions under on, after, done and always are one or a list of at least one", arguments: [
        ["$defs", "state", "properties", "on", "additionalProperties", "anyOf"],
        ["$defs", "state", "properties", "after", "anyOf"],
        ["$defs", "transitions", "anyOf"],
    ])
    func transitionListsNotEmpty(_ path: [String]) {
        #expect(listForm(path)?["minItems"] == .number(1), "\(path.joined(separator: "."))")
    }

    @Test("done and always are written as transitions, which are never an empty list")
    func doneAndAlwaysAreTransitions() {
        for key in ["done", "always"] {
            #expect(at(["$defs", "state", "properties", key]) == .object(["$ref": .string("#/$defs/transitions")]), "\(key)")
        }
    }

    @Test("each action verb has the loader's keys")
    func actions() {
        guard case .array(let verbs)? = at(["$defs", "action", "oneOf"]) else { Issue.record("no action list"); return }
        var seen: [String: Set<String>] = [:]
        for v in verbs {
            guard case .object(let o) = v, case .array(let required)? = o["required"], case .string(let verb)? = required.first,
                  case .object(let props)? = o["properties"] else { Issue.record("malformed action \(v)"); continue }
            seen[verb] = Set(props.keys).subtracting([verb])
        }
        #expect(Set(seen.keys) == Set(DefinitionKeys.actions.keys))
        for (verb, keys) in DefinitionKeys.actions { #expect(seen[verb] == Set(keys), "\(verb)") }
    }
}
