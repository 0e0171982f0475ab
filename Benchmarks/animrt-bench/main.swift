// Measures the runtime's batch tick against the hand-written C loop in
// bench/reference_eval.c, on the same animations and the same frames, and
// prints ns per animation per frame for both, their ratio, the bytes held
// per active animation, and the cost of a tick when nothing animates.
//
// Usage: animrt-bench REFERENCE_EVAL [ABI_BENCH] [--quick]
//   REFERENCE_EVAL  bench/reference_eval.c built with cc -O2
//   ABI_BENCH       bench/abi_bench.c: the same frames through the C ABI
import AnimationCore
import CBenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The generator shared with reference_eval.c.
struct SharedRandom {
    var state: UInt64 = 1
    mutating func next() -> UInt32 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt32(truncatingIfNeeded: state >> 33)
    }
}

func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func heapBytes() -> Int { Int(bench_heap_bytes()) }

let curveNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

struct Scene {
    let runtime: Runtime
    let targets: Runtime.BulkTargets
    var begin: [Double] = [], duration: [Double] = [], from: [Double] = [], to: [Double] = [], curve: [Int] = []
    let bytesPerAnimation: Double
    let bytesPerLayer: Double
}

func makeScene(_ n: Int) throws -> Scene {
    var rng = SharedRandom()
    let rt = Runtime()
    let before = heapBytes()
    var layers: [Handle] = []
    layers.reserveCapacity(n)
    for _ in 0..<n {
        let l = try rt.createLayer()
        try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l)
        layers.append(l)
    }
    let afterLayers = heapBytes()
    let curves = try curveNames.map { try rt.timingFunctions.function(named: $0) }
    var begin: [Double] = [], duration: [Double] = [], from: [Double] = [], to: [Double] = [], curve: [Int] = []
    for _ in 0..<n {
        begin.append(Double(rng.next() % 1000) / 1000)
        duration.append(0.25 + Double(rng.next() % 1000) / 500)
        from.append(Double(rng.next() % 100))
        to.append(Double(rng.next() % 100))
        curve.append(Int(rng.next() % 5))
    }
    let beforeAnimations = heapBytes()
    for i in 0..<n {
        var a = Animation.basic("opacity", from: .scalar(from[i]), to: .scalar(to[i]),
                                timing: MediaTiming(beginTime: begin[i], duration: duration[i], fillMode: .both),
                                timingFunction: curves[curve[i]])
        a.isRemovedOnCompletion = false
        // beginTime 0 means "at the next tick"; the C loop means time 0: use the next double.
        if a.timing.beginTime == 0 { a.timing.beginTime = Double.leastNonzeroMagnitude }
        try rt.add(a, to: layers[i], forKey: nil)
    }
    let afterAnimations = heapBytes()
    let targets = try rt.resolveTargets(layers.map { ($0, "opacity") })
    precondition(rt.attachedCounts.batched == n)
    return Scene(runtime: rt, targets: targets, begin: begin, duration: duration, from: from, to: to, curve: curve,
                 bytesPerAnimation: Double(afterAnimations - beforeAnimations) / Double(n),
                 bytesPerLayer: Double(afterLayers - before) / Double(n))
}

/// Exact y(x) by bisection on t, for checking accuracy.
func exactCurve(_ name: String, _ x: Double) -> Double {
    let p: [String: (Double, Double, Double, Double)] = ["linear": (0, 0, 1, 1), "easeIn": (0.42, 0, 1, 1),
        "easeOut": (0, 0, 0.58, 1), "easeInEaseOut": (0.42, 0, 0.58, 1), "default": (0.25, 0.1, 0.25, 1)]
    let (x1, y1, x2, y2) = p[name]!
    func bez(_ t: Double, _ a: Double, _ b: Double) -> Double { 3 * a * t * (1 - t) * (1 - t) + 3 * b * t * t * (1 - t) + t * t * t }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 { let m = (lo + hi) / 2; if bez(m, x1, x2) < x { lo = m } else { hi = m } }
    return bez((lo + hi) / 2, y1, y2)
}

/// Runs a benchmark program and returns the number after `key` in its output.
func runProgram(_ path: String, _ arguments: [String], key: String) throws -> Double {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    p.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(key + " ") {
        return Double(line.split(separator: " ")[1])!
    }
    throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path) printed: \(text)"])
}

func runReference(_ path: String, _ n: Int, _ frames: Int) throws -> Double {
    try runProgram(path, ["\(n)", "\(frames)"], key: "ns_per_animation_frame")
}

let args = CommandLine.arguments
let paths = args.dropFirst().filter { !$0.hasPrefix("--") }
guard let referencePath = paths.first else {
    print("usage: animrt-bench REFERENCE_EVAL [ABI_BENCH] [--quick]")
    exit(2)
}
let abiPath = paths.dropFirst().first
let quick = args.contains("--quick")
var coreAtLargest: (n: Int, frames: Int, ns: Double)? = nil
let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
print("animrt batch tick vs hand-written C (cc -O2), one core; a frame = tick + bulk read of every value")
for n in sizes {
    // At most 120 frames: the runtime's clock only moves forwards (the C loop wraps after 120).
    let frames = max(20, min(120, 60_000_000 / n))
    var out = [Double](repeating: 0, count: n)
    // Best of three fresh scenes, on the same clock as the C loop; the last
    // scene is kept for the accuracy check and the split below.
    var best = Double.infinity
    var last: Scene? = nil
    for _ in 0..<3 {
        let fresh = try makeScene(n)
        last = fresh
        let start = seconds()
        for f in 0..<frames {
            try fresh.runtime.tick(Double(f % 120) / 60)
            try out.withUnsafeMutableBufferPointer { try fresh.runtime.readPresentation(fresh.targets, into: $0) }
        }
        best = min(best, (seconds() - start) * 1e9 / Double(n * frames))
    }
    let scene = last!
    // Accuracy at the last frame against the exact curve.
    let lastTime = Double((frames - 1) % 120) / 60
    var worst = 0.0
    for i in stride(from: 0, to: n, by: max(1, n / 20_000)) {
        var p = (lastTime - scene.begin[i]) / scene.duration[i]
        p = min(max(p, 0), 1)
        let exact = scene.from[i] + (scene.to[i] - scene.from[i]) * exactCurve(curveNames[scene.curve[i]], p)
        // Values span 0…99, so compare the eased fraction: divide by the span.
        let span = abs(scene.to[i] - scene.from[i])
        if span > 0 { worst = max(worst, abs(out[i] - exact) / span) }
    }
    var cBest = Double.infinity
    for _ in 0..<3 { cBest = min(cBest, try runReference(referencePath, n, frames)) }
    coreAtLargest = (n, frames, best)
    print(String(format: "N=%d frames=%d  animrt %.2f ns/anim/frame  C %.2f ns/anim/frame  ratio %.3f (animrt/C)  max curve error %.1e",
                 n, frames, best, cBest, best / cBest, worst))
    // The two halves of a frame, timed apart on the last scene.
    var tickTime = 0.0, readTime = 0.0
    let split = scene.runtime
    for f in frames..<(frames + 60) {
        let t0 = seconds()
        try split.tick(Double(f) / 60)
        let t1 = seconds()
        try out.withUnsafeMutableBufferPointer { try split.readPresentation(scene.targets, into: $0) }
        tickTime += t1 - t0; readTime += seconds() - t1
    }
    print(String(format: "N=%d split: tick %.2f ns/anim, bulk read %.2f ns/anim", n, tickTime * 1e9 / Double(n * 60),
                 readTime * 1e9 / Double(n * 60)))
    print(String(format: "N=%d bytes per active animation %.1f (layers: %.1f bytes each, not counted)",
                 n, scene.bytesPerAnimation, scene.bytesPerLayer))
}

// The same frames through the C ABI (tick + animrt_reader_read), and one read call.
if let abiPath, let core = coreAtLargest {
    var abi = Double.infinity
    for _ in 0..<3 { abi = min(abi, try runProgram(abiPath, ["frame", "\(core.n)", "\(core.frames)"], key: "ns_per_animation_frame")) }
    print(String(format: "N=%d through the C ABI %.2f ns/anim/frame vs the core %.2f: ABI overhead %+.1f%% (target <= 5%%)",
                 core.n, abi, core.ns, (abi / core.ns - 1) * 100))
    let read = try runProgram(abiPath, ["read"], key: "ns_per_read")
    print(String(format: "one presentation read through the C ABI: %.1f ns per call (target <= 25 ns)", read))
}

// The largest scene again, with the batch spread over every processor.
if !quick {
    let n = 1_000_000, frames = 60
    let threads = ProcessInfo.processInfo.activeProcessorCount
    var best = Double.infinity
    for _ in 0..<3 {
        let scene = try makeScene(n)
        scene.runtime.evaluationThreads = threads
        var out = [Double](repeating: 0, count: n)
        let start = seconds()
        for f in 0..<frames {
            try scene.runtime.tick(Double(f % 120) / 60)
            try out.withUnsafeMutableBufferPointer { try scene.runtime.readPresentation(scene.targets, into: $0) }
        }
        best = min(best, (seconds() - start) * 1e9 / Double(n * frames))
    }
    print(String(format: "N=%d with %d evaluation threads: %.2f ns/anim/frame", n, threads, best))
}

// A tick with many idle layers and nothing animating.
do {
    let rt = Runtime()
    for _ in 0..<100_000 { _ = try rt.createLayer() }
    let ticks = 1_000_000
    let start = seconds()
    for i in 0..<ticks { try rt.tick(Double(i) * 1e-3) }
    let ns = (seconds() - start) * 1e9 / Double(ticks)
    print(String(format: "idle tick with 100000 layers and nothing animating: %.1f ns", ns))
}
