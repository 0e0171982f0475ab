// machine-embedder OUTPUT.swift definition.json …
//
// Writes a Swift file holding each definition's JSON text, verbatim, with
// the machine's name read from it (the EmbedMachines plugin runs this at
// build time). Refuses a file that is not UTF-8, has no "name", carries
// carriage returns, or repeats a name.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Named: Decodable { let name: String }

func fail(_ message: String) -> Never {
    let line = Array("machine-embedder: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: machine-embedder OUTPUT.swift definition.json …") }
var entries = ""
var seen: Set<String> = []
for path in arguments.dropFirst(2) {
    guard let data = try? Data(contentsOf: URL(filePath: path)) else { fail("cannot read \(path)") }
    guard let text = String(validating: data, as: UTF8.self) else { fail("\(path) is not UTF-8") }
    guard !text.contains("\r") else { fail("\(path) has carriage returns; save it with \\n line ends") }
    guard let named = try? JSONDecoder().decode(Named.self, from: data) else { fail("\(path) is not a JSON object with a \"name\"") }
    guard seen.insert(named.name).inserted else { fail("two definitions are named '\(named.name)'") }
    // A raw string whose delimiter no run of '#' in the text can close.
    var longest = 0, run = 0, afterQuote = false
    for c in text.unicodeScalars {
        if c == "\"" { afterQuote = true; run = 0 } else if c == "#" && afterQuote { run += 1; longest = max(longest, run) }
        else { afterQuote = false; run = 0 }
    }
    let hashes = String(repeating: "#", count: longest + 1)
    let file = path.split(separator: "/").last.map(String.init) ?? path
    entries += "        (name: \"\(named.name)\", file: \"\(file)\", json: \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
}
let source = """
// Generated at build time by machine-embedder from Sources/StateMachines/Library/*.json. Do not edit.

/// The machine definitions that come with animrt, as their JSON text.
enum ShippedMachines {
    static let all: [(name: String, file: String, json: String)] = [
\(entries)    ]
}

"""
do { try Data(source.utf8).write(to: URL(filePath: arguments[1])) } catch { fail("cannot write \(arguments[1]): \(error)") }
