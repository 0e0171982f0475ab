/// The keys each kind of object in a definition accepts: the loader refuses
/// any other, and a test checks docs/machine.schema.json against these lists.
enum DefinitionKeys {
    static let top = ["$schema", "name", "description", "locale", "maxMicrosteps", "config", "context", "events", "emits",
                      "requests", "strings", "parts", "animations", "initial", "states"]
    static let config = ["type", "default", "min", "max", "oneOf", "description"]
    static let context = ["type", "initial", "computed", "description"]
    static let event = ["payload", "resultOf", "partial", "throttle", "description"]
    static let declaration = ["payload", "description"]
    static let payloadField = ["name", "type", "min", "max", "clamp", "integer", "default", "description"]
    static let state = ["description", "type", "initial", "states", "entry", "exit", "on", "after", "done", "always",
                        "onFinal", "ignore", "values"]
    static let transition = ["target", "guard", "actions", "type", "description"]
    static let after = transition + ["delay", "name"]
    static let part = ["name", "count", "properties", "parts", "description"]
    static let template = ["type", "keyPath", "description", "from", "to", "by", "values", "keyTimes", "timingFunctions",
                           "calculationMode", "tension", "continuity", "bias", "fillMode", "direction", "timingFunction",
                           "animations"]
        + Template.TimingField.allCases.map(\.rawValue) + Template.FlagField.allCases.map(\.rawValue)
        + Template.SpringField.allCases.map(\.rawValue)
    /// Each action verb and the other keys it takes.
    static let actions: [String: [String]] = [
        "assign": [],
        "animate": ["part", "key", "join"] + template.filter { !["type", "keyPath", "animations"].contains($0) },
        "remove": ["part"], "removeAll": [], "set": ["part", "value"],
        "emit": ["payload"], "raise": ["payload"], "request": ["payload"], "cancelRequest": [],
        "startTimer": ["delay", "event", "payload"], "cancelTimer": [], "call": ["args"],
    ]
    static let options = ["config", "locale", "strings"]
}
