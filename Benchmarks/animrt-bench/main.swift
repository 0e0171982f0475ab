// Measures the runtime's batch tick against the hand-written C loop in
// bench/reference_eval.c, on the same animations and the same frames, and
// prints ns per animation per frame for both, their ratio, the bytes held
// per active animation and per layer, the cost of a tick when nothing
// animates, and (through bench/abi_bench.c) what adds, bulk adds, churn and
// finished fills cost from C. Every figure is printed with its target.
//
// Usage: animrt-bench REFERENCE_EVAL [ABI_BENCH] [REFERENCE_EVAL_NATIVE] [--quick]
//   REFERENCE_EVAL         bench/reference_eval.c built with cc -O2
//   ABI_BENCH              bench/abi_bench.c: the same frames through the C ABI
//   REFERENCE_EVAL_NATIVE  the C loop built with cc -O3 -march=native
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
    try runProgram(path, arguments, keys: [key])[0]
}

/// Runs a benchmark program and returns the numbers after each of `keys`.
func runProgram(_ path: String, _ arguments: [String], keys: [String]) throws -> [Double] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    p.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    var found: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let v = Double(parts[1]) { found[String(parts[0])] = v }
    }
    if keys.allSatisfy({ found[$0] != nil }) { return keys.map { found[$0]! } }
    throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path) printed: \(text)"])
}

func runReference(_ path: String, _ n: Int, _ frames: Int, active: Bool = false) throws -> Double {
    try runProgram(path, ["\(n)", "\(frames)"] + (active ? ["active"] : []), key: "ns_per_animation_frame")
}

/// The mid-flight scene of reference_eval.c ("active"): every animation runs
/// from `activeStart` for `activeWindow` seconds at least, so every frame
/// solves every curve. Built with bulk adds, one per curve.
let activeStart = 10.0, activeWindow = 1.9

func makeActiveScene(_ n: Int) throws -> Scene {
    var rng = SharedRandom()
    let rt = Runtime()
    var layers = [Handle](repeating: Handle(raw: 0), count: n)
    try layers.withUnsafeMutableBufferPointer { try rt.createLayers(parent: nil, into: $0) }
    var begin: [Double] = [], duration: [Double] = [], from: [Double] = [], to: [Double] = [], curve: [Int] = []
    for _ in 0..<n {
        let u = Double(rng.next() % 1_000_000) / 1e6, v = Double(rng.next() % 1_000_000) / 1e6
        let d = 2 + 3 * u
        duration.append(d)
        begin.append(activeStart - v * (d - activeWindow - 2e-3) - 1e-3)
        from.append(Double(rng.next() % 100))
        to.append(Double(rng.next() % 100))
        curve.append(Int(rng.next() % 5))
    }
    // The layers hold their property already (its bytes are the layer's).
    for l in layers { try rt.setModelValue(.scalar(0), forKeyPath: "opacity", of: l) }
    let before = heapBytes()
    for (c, name) in curveNames.enumerated() {
        var a = Animation.basic("opacity", timing: MediaTiming(fillMode: .both), timingFunction: try rt.timingFunctions.function(named: name))
        a.isRemovedOnCompletion = false
        let d = try rt.createAnimation(a)
        let picked = (0..<n).filter { curve[$0] == c }
        let columns = [picked.map { begin[$0] }, picked.map { duration[$0] }, picked.map { from[$0] }, picked.map { to[$0] }]
        let targets = picked.map { layers[$0] }
        try columns[0].withUnsafeBufferPointer { b in try columns[1].withUnsafeBufferPointer { du in
        try columns[2].withUnsafeBufferPointer { f in try columns[3].withUnsafeBufferPointer { t in
        try targets.withUnsafeBufferPointer { l in
            try rt.addAnimations(d, to: l, columns: [BulkColumn(.timing(.beginTime), b.baseAddress!),
                                                     BulkColumn(.timing(.duration), du.baseAddress!),
                                                     BulkColumn(.value(.from), f.baseAddress!), BulkColumn(.value(.to), t.baseAddress!)],
                                 forKey: nil, joining: nil)
        }}}}}
        try rt.destroyAnimation(d)
    }
    let bytes = Double(heapBytes() - before) / Double(n)
    let targets = try rt.resolveTargets(layers.map { ($0, "opacity") })
    precondition(rt.attachedCounts.batched == n)
    return Scene(runtime: rt, targets: targets, begin: begin, duration: duration, from: from, to: to, curve: curve,
                 bytesPerAnimation: bytes, bytesPerLayer: 0)
}

/// Largest error of `out` against the exact curves at `time`, relative to each value's span.
func worstError(_ scene: Scene, _ out: [Double], at time: Double) -> Double {
    var worst = 0.0
    let n = out.count
    for i in stride(from: 0, to: n, by: max(1, n / 20_000)) {
        var p = (time - scene.begin[i]) / scene.duration[i]
        p = min(max(p, 0), 1)
        let exact = scene.from[i] + (scene.to[i] - scene.from[i]) * exactCurve(curveNames[scene.curve[i]], p)
        let span = abs(scene.to[i] - scene.from[i])
        if span > 0 { worst = max(worst, abs(out[i] - exact) / span) }
    }
    return worst
}

let args = CommandLine.arguments
let paths = args.dropFirst().filter { !$0.hasPrefix("--") }
guard let referencePath = paths.first else {
    print("usage: animrt-bench REFERENCE_EVAL [ABI_BENCH] [REFERENCE_EVAL_NATIVE] [--quick | --mid-flight]")
    exit(2)
}
let abiPath = paths.dropFirst().first
let nativePath = paths.dropFirst(2).first
let quick = args.contains("--quick")
/// Only the mid-flight frame against the C loop (for work on the kernel).
let midFlightOnly = args.contains("--mid-flight")
/// ns per animation per frame of `frames` mixed-scene frames (tick + bulk
/// read), on the same clock as the C loop.
func mixedFrames(_ scene: Scene, frames: Int, into out: inout [Double]) throws -> Double {
    let n = out.count
    let start = seconds()
    for f in 0..<frames {
        try scene.runtime.tick(Double(f % 120) / 60)
        try out.withUnsafeMutableBufferPointer { try scene.runtime.readPresentation(scene.targets, into: $0) }
    }
    return (seconds() - start) * 1e9 / Double(n * frames)
}

var coreAtLargest: (n: Int, frames: Int, ns: Double)? = nil
// `--frame N FRAMES`: the mixed frame of the core alone, in a process of its
// own, printed as abi_bench prints its frame (to compare the two like for like).
if let i = args.firstIndex(of: "--frame"), i + 2 < args.count, let n = Int(args[i + 1]), let frames = Int(args[i + 2]) {
    var out = [Double](repeating: 0, count: n)
    let ns = try mixedFrames(try makeScene(n), frames: frames, into: &out)
    print(String(format: "sink %g\nns_per_animation_frame %.3f", out[n / 2], ns))
    exit(0)
}
let sizes = midFlightOnly ? [] : quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
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
        best = min(best, try mixedFrames(fresh, frames: frames, into: &out))
    }
    let scene = last!
    // Accuracy at the last frame against the exact curve.
    let worst = worstError(scene, out, at: Double((frames - 1) % 120) / 60)
    var cBest = Double.infinity
    for _ in 0..<3 { cBest = min(cBest, try runReference(referencePath, n, frames)) }
    coreAtLargest = (n, frames, best)
    print(String(format: "N=%d frames=%d  animrt %.2f ns/anim/frame  C %.2f ns/anim/frame  ratio %.3f (animrt/C)  max curve error %.1e (target <= 1e-9)",
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
    print(String(format: "N=%d bytes per active animation, added one by one: %.1f; per layer with one animated property: %.1f (targets <= 96, <= 128 at 10^6)",
                 n, scene.bytesPerAnimation, scene.bytesPerLayer))
}

// Every animation mid-flight in every frame: the batch kernel against the C
// loop on the same scene, one core, frames interleaved with the C runs.
if !quick {
    let n = 1_000_000, frames = 100
    var out = [Double](repeating: 0, count: n)
    var best = Double.infinity, cBest = Double.infinity, nativeBest = Double.infinity
    var scene: Scene? = nil
    for _ in 0..<3 {
        let fresh = try makeActiveScene(n)
        scene = fresh
        try fresh.runtime.tick(activeStart - 1.0 / 60)  // every animation starts here (10^6 events, drained)
        while fresh.runtime.pollEvent() != nil {}
        let start = seconds()
        for f in 0..<frames {
            try fresh.runtime.tick(activeStart + Double(f) / 60)
            try out.withUnsafeMutableBufferPointer { try fresh.runtime.readPresentation(fresh.targets, into: $0) }
        }
        best = min(best, (seconds() - start) * 1e9 / Double(n * frames))
        cBest = min(cBest, try runReference(referencePath, n, frames, active: true))
        if let nativePath { nativeBest = min(nativeBest, try runReference(nativePath, n, frames, active: true)) }
    }
    let worst = worstError(scene!, out, at: activeStart + Double(frames - 1) / 60)
    print(String(format: "N=%d mid-flight, one core: animrt %.2f ns/anim/frame, C -O2 %.2f: ratio %.3f (target <= 0.2); max curve error %.1e (target <= 1e-9)",
                 n, best, cBest, best / cBest, worst))
    if nativePath != nil {
        print(String(format: "N=%d mid-flight, one core: against C -O3 -march=native %.2f ns/anim/frame: ratio %.3f", n, nativeBest, best / nativeBest))
    }
    print(String(format: "N=%d bytes per active basic animation, added in bulk: %.1f (target <= 96)", n, scene!.bytesPerAnimation))
    scene = nil
}
if midFlightOnly { exit(0) }

// The same frames through the C ABI (tick + animrt_reader_read), and one read call.
// Both sides run in fresh processes of their own, the same number of times,
// interleaved: a scene built in this process, after every scene above, sits
// in a heap of another history than abi_bench's, and the machine's load
// moves between runs. Each side's best run counts.
if let abiPath, let core = coreAtLargest {
    var abi = Double.infinity, coreBest = Double.infinity
    let frame = ["\(core.n)", "\(core.frames)"]
    for _ in 0..<5 {
        abi = min(abi, try runProgram(abiPath, ["frame"] + frame, key: "ns_per_animation_frame"))
        coreBest = min(coreBest, try runProgram("/proc/self/exe", ["--frame"] + frame, key: "ns_per_animation_frame"))
    }
    print(String(format: "N=%d through the C ABI %.2f ns/anim/frame vs the core %.2f (each the best of 5 processes): ABI overhead %+.1f%% (target <= 5%%)",
                 core.n, abi, coreBest, (abi / coreBest - 1) * 100))
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

// What building and changing scenes costs from C (bench/abi_bench.c).
if let abiPath, !quick {
    let add = try runProgram(abiPath, ["add", "200000"], key: "ns_per_add")
    print(String(format: "C: one add with its configuration (create, begin time, duration, timing function, from, to, add, destroy): %.0f ns (target <= 1000 ns)", add))
    let bulk = try runProgram(abiPath, ["bulk", "1000000"], key: "ns_per_bulk_animation")
    print(String(format: "C: animrt_layer_add_animations, N=10^6: %.1f ns per animation (target <= 100 ns); %.1fx cheaper than one add at a time", bulk, add / bulk))
    let steps = ["tick", "events", "add", "read"]
    let c = try runProgram(abiPath, ["churn", "1000000"], keys: ["churn_ratio", "steady_ms", "destroy_steady_ms", "destroy_churned_ms"]
                           + steps.map { "steady_\($0)_ms" } + steps.map { "churn_\($0)_ms" })
    let (churn, steady) = (c[0], c[1])
    print(String(format: "C: N=10^6 frame where 1%% finish and 1%% are added in bulk vs a steady frame: ratio %.3f (target <= 1.3; steady frame %.2f ms)", churn, steady))
    // Where the churned frame's extra time goes, against what the target leaves.
    let (st, ch) = (Array(c[4..<8]), Array(c[8..<12]))
    print(String(format: "   by step, steady -> churned (ms): tick %.2f -> %.2f, events %.2f -> %.2f, bulk add %.2f -> %.2f, read %.2f -> %.2f; the target leaves %.2f ms for all the churn's extra work",
                 st[0], ch[0], st[1], ch[1], st[2], ch[2], st[3], ch[3], 0.3 * steady))
    print(String(format: "C: destroying a runtime of 10^6 animations: %.0f ms, %.0f ms after the churn (not a target)", c[2], c[3]))
    let s = try runProgram(abiPath, ["churn", "1000000", "scattered"], keys: ["churn_ratio", "steady_ms"])
    print(String(format: "C: the same with the values made in a random order first: ratio %.3f (steady frame %.2f ms; not a target, shows how much of the ratio is the order of the values)", s[0], s[1]))
    let k = try runProgram(abiPath, ["churn", "1000000", "clustered"], keys: ["churn_ratio", "steady_ms"])
    print(String(format: "C: the same with the animations ending in a frame on neighbouring layers (rows of a list): ratio %.3f (steady frame %.2f ms; not a target, shows how much of the ratio is scattered memory)", k[0], k[1]))
    let sets = try runProgram(abiPath, ["sets", "1000000", "10000"],
                              keys: ["ns_per_set_value", "ns_per_value_set_one_by_one", "ns_per_value_set_in_bulk"])
    print(String(format: "C: N=10^6 layers, 10^4 model values set a frame (every 100th layer): %.1f ns per value for the tick that shows it; the sets %.1f ns per value one call a layer, %.1f in one animrt_layer_set_values (not targets)",
                 sets[0], sets[1], sets[2]))
    let fills = try runProgram(abiPath, ["fills", "1000000"], key: "ns_per_fill_per_tick")
    print(String(format: "C: finished fills, N=10^6: %.4f ns per fill per tick over an empty tick (target: nothing per tick)", fills))
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
