import AnimationCore

extension MachineHost.Options {
    /// Options from a JSON object: {"config": {...}, "locale": "zh", "strings": {...}}.
    /// Config values are JSON numbers, booleans, strings, or arrays of
    /// numbers; their types are checked against the definition when the
    /// instance is created, which also reads a "#rrggbb" or "#rrggbbaa"
    /// string as a colour where the parameter is one (and only there: a
    /// string parameter keeps "#beaded" as text).
    public init(json: String) throws(AnimrtError) {
        let root: JSONValue
        do throws(AnimrtErrorBox) { root = try JSONValue.parse(Array(json.utf8)) }
        catch { throw AnimrtError(error.status, "options: \(error.message)") }
        let node = JSONNode(value: root, path: "options")
        let o = try node.object(allowed: DefinitionKeys.options)
        self.init()
        if let c = o["config"] {
            for (name, v) in try c.members() {
                switch v.value {
                case .number(let d): config[name] = .number(d)
                case .bool(let b): config[name] = .bool(b)
                case .string(let s): config[name] = .string(s)
                case .array(let items):
                    var numbers: [Double] = []
                    for (i, item) in items.enumerated() {
                        guard case .number(let d) = item else { throw v.element(i, item).wrongType("a number") }
                        numbers.append(d)
                    }
                    let kinds: [Int: ValueKind] = [2: .point, 4: .rect, 16: .transform]
                    guard let k = kinds[numbers.count] else {
                        throw v.error(.kind, "an array of \(numbers.count) numbers is not a point (2), rect or colour (4) or transform (16)")
                    }
                    config[name] = .vector(try AnimatableValue(kind: k, components: numbers))
                default:
                    throw v.error(.kind, "expected a number, a boolean, a string or an array of numbers, found \(v.value.kindName)")
                }
            }
        }
        if let l = o["locale"] { locale = try l.string() }
        if let s = o["strings"] { for (k, v) in try s.members() { strings[k] = try v.string() } }
    }
}
