import AnimationCore

extension MachineDefinition {
    /// A Markdown page for the definition: what it is, its configuration,
    /// the events it takes, emits and requests, its context, its parts, its
    /// diagram (`<name>.svg` beside the page) and its full transition table.
    /// It says nothing of how it was made: a host exports its own machines'
    /// pages too, and tools/machine_docs.c adds to the committed ones that
    /// `make machine-docs` writes them.
    public func markdown() -> String {
        func cell(_ s: String) -> String { MachineDefinition.markdownCell(s) }
        func payload(_ fields: [PayloadField]) -> String {
            fields.map { f in
                var t = "`\(f.name)`: \(f.type)"
                if let lo = f.minimum, let hi = f.maximum { t += " in [\(NumberText.format(lo)), \(NumberText.format(hi))]" }
                else if let lo = f.minimum { t += " ≥ \(NumberText.format(lo))" }
                else if let hi = f.maximum { t += " ≤ \(NumberText.format(hi))" }
                let notes = (f.isInteger ? ["integer"] : []) + (f.clamps ? ["clamped"] : [])
                if !notes.isEmpty { t += " (\(notes.joined(separator: ", ")))" }
                if let d = f.defaultValue { t += " = \(d)" }
                return t
            }.joined(separator: ", ")
        }
        var out = "# \(name)\n\n"
        if !summary.isEmpty { out += summary + "\n\n" }
        out += "![statechart of \(name)](\(name).svg)\n\n"
        if !config.isEmpty {
            out += "## Configuration\n\n| parameter | type | default | allowed | meaning |\n|---|---|---|---|---|\n"
            for p in config {
                var allowed = ""
                if let lo = p.minimum, let hi = p.maximum { allowed = "[\(NumberText.format(lo)), \(NumberText.format(hi))]" }
                else if let lo = p.minimum { allowed = "≥ \(NumberText.format(lo))" }
                else if let hi = p.maximum { allowed = "≤ \(NumberText.format(hi))" }
                if !p.choices.isEmpty { allowed = p.choices.map { MachineDefinition.codeCell($0) }.joined(separator: ", ") }
                out += "| `\(p.name)` | \(p.type) | \(MachineDefinition.codeCell(MachineDefinition.literal(p.defaultValue))) | \(allowed) | \(cell(p.summary)) |\n"
            }
            out += "\n"
        }
        out += "## Events\n\n| event | payload | meaning |\n|---|---|---|\n"
        for e in hostEvents {
            var meaning = cell(events[e].summary)
            if let op = events[e].resultOf {
                meaning = "\(events[e].isPartial ? "partial " : "")result of `\(requests[op].name)`" + (meaning.isEmpty ? "" : "; " + meaning)
            }
            if let t = events[e].throttle { meaning += (meaning.isEmpty ? "" : "; ") + "throttled: at most one per \(MachineDefinition.codeCell(t.text)) s" }
            out += "| `\(events[e].name)` | \(cell(payload(events[e].payload))) | \(meaning) |\n"
        }
        if !emits.isEmpty {
            out += "\n## Emitted to the host\n\n| event | payload | meaning |\n|---|---|---|\n"
            for e in emits { out += "| `\(e.name)` | \(cell(payload(e.payload))) | \(cell(e.summary)) |\n" }
        }
        if !requests.isEmpty {
            out += "\n## Requests the host performs\n\n| request | payload | meaning |\n|---|---|---|\n"
            for r in requests { out += "| `\(r.name)` | \(cell(payload(r.payload))) | \(cell(r.summary)) |\n" }
        }
        if !context.isEmpty {
            out += "\n## Context\n\n| field | type | initial | meaning |\n|---|---|---|---|\n"
            for f in context {
                let value = f.computed.map { "computed: " + MachineDefinition.codeCell($0.text) } ?? MachineDefinition.codeCell(f.initial.text)
                out += "| `\(f.name)` | \(f.type) | \(value) | \(cell(f.summary)) |\n"
            }
        }
        if !parts.isEmpty {
            out += "\n## Parts\n\n"
            for (i, p) in parts.enumerated() {
                var depth = 0, a = p.parent
                while a >= 0 { depth += 1; a = parts[a].parent }
                out += String(repeating: "  ", count: depth) + "- `\(p.name)`" + (p.count.map { " × `\($0.text)`" } ?? "")
                if !p.summary.isEmpty { out += " — " + p.summary }
                if !p.properties.isEmpty { out += " (" + p.properties.map { "\($0.keyPath)" }.joined(separator: ", ") + ")" }
                out += "\n"
                _ = i
            }
        }
        if !stringKeys.isEmpty {
            let order = locales.keys.sorted { $0 == defaultLocale || ($1 != defaultLocale && $0 < $1) }
            // Locales and keys are any JSON member names, '|' and line breaks included.
            out += "\n## Copy\n\n| key | " + order.map(cell).joined(separator: " | ") + " |\n|---|" + String(repeating: "---|", count: order.count) + "\n"
            for (k, key) in stringKeys.enumerated() {
                out += "| \(MachineDefinition.codeCell(key)) | " + order.map { cell(locales[$0]?[k] ?? "") }.joined(separator: " | ") + " |\n"
            }
        }
        out += "\n## Transitions\n\n" + transitionTable()
        return out
    }
}

extension MachineDefinition {
    /// A value as a definition would write it: colours whose components are
    /// whole 255ths as "#rrggbb" (or "#rrggbbaa"), the rest as `description`.
    static func literal(_ v: MachineValue) -> String {
        guard case .vector(let x) = v, x.kind == .color else { return "\(v)" }
        let bytes = x.components.map { ($0 * 255).rounded() }
        guard zip(bytes, x.components).allSatisfy({ $0 >= 0 && $0 <= 255 && $0 / 255 == $1 }) else { return "\(v)" }
        let digits = "0123456789abcdef".map { $0 }
        let hex = bytes.map { b in String([digits[Int(b) / 16], digits[Int(b) % 16]]) }
        return "#" + hex[0..<3].joined() + (bytes[3] == 255 ? "" : hex[3])
    }
}
