// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "animrt",
    products: [
        .library(name: "animrt", type: .dynamic, targets: ["animrt"]),
        .library(name: "AnimationCore", targets: ["AnimationCore"]),
        .library(name: "StateMachines", targets: ["StateMachines"]),
        .library(name: "Plugins", targets: ["Plugins"]),
    ],
    targets: [
        // Pure Swift: curves, timing, values, animations, layers, barriers, events.
        .target(name: "AnimationCore", dependencies: ["CBatchKernel"]),
        // The Bézier lane's blocks of four with AVX2, chosen at run time (the
        // only C under the core; its Swift blocks are the reference).
        .target(name: "CBatchKernel"),
        // The statechart engine: definitions (JSON), expressions, instances. Above the core.
        // The definitions that come with animrt (Library/*.json) are embedded at build time.
        .target(name: "StateMachines", dependencies: ["AnimationCore"], exclude: ["Library"], plugins: ["EmbedMachines"]),
        .executableTarget(name: "machine-embedder", path: "Plugins/MachineEmbedder"),
        .plugin(name: "EmbedMachines", capability: .buildTool(), dependencies: ["machine-embedder"]),
        // The public header, seen from Swift (a module map, no code).
        .systemLibrary(name: "CAnimrt", path: "Sources/CAnimrt"),
        // libffi from the system, found with pkg-config (module map only).
        .systemLibrary(name: "CLibFFI", path: "Sources/CLibFFI", pkgConfig: "libffi",
                       providers: [.apt(["libffi-dev"])]),
        // Plugins (dlopen, a versioned entry point) and C functions bound by
        // signature through libffi. Above the machines.
        .target(name: "Plugins", dependencies: ["AnimationCore", "StateMachines", "CAnimrt", "CLibFFI"]),
        // The C ABI: the only target with C exports; builds libanimrt.so.
        .target(name: "animrt", dependencies: ["AnimationCore", "StateMachines", "Plugins", "CAnimrt"]),
        // Benchmarks of the core against the hand-written C loop (see Makefile `bench`).
        .target(name: "CBenchSupport", path: "Benchmarks/CBenchSupport"),
        .executableTarget(name: "animrt-bench", dependencies: ["AnimationCore", "CBenchSupport"], path: "Benchmarks/animrt-bench"),
        .testTarget(name: "AnimationCoreTests", dependencies: ["AnimationCore"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "StateMachinesTests", dependencies: ["StateMachines", "AnimationCore"]),
        // The C exports driven from Swift (traces: recorded and replayed through the ABI).
        .testTarget(name: "ExportsTests", dependencies: ["animrt", "CAnimrt"]),
        .testTarget(name: "PluginsTests", dependencies: ["Plugins", "StateMachines", "AnimationCore"]),
        // include/animrt.h parsed and compared with the enums that number its constants.
        .testTarget(name: "HeaderTests", dependencies: ["AnimationCore", "StateMachines", "Plugins"]),
    ]
)
