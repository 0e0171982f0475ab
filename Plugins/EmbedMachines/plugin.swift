// Embeds the machine definitions that come with animrt into the library at
// build time: every Sources/StateMachines/Library/*.json becomes a string in
// a generated Swift file (ShippedMachines.swift) of the StateMachines module.
// The JSON files are the only source, so the embedded copies cannot drift
// from them, and nothing is read from disk at run time.
import Foundation
import PackagePlugin

@main
struct EmbedMachines: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Sources/StateMachines/Library")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let inputs = names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ShippedMachines.swift")
        return [.buildCommand(displayName: "Embedding \(inputs.count) machine definitions",
                              executable: try context.tool(named: "machine-embedder").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
