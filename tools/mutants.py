"""The curated mutants of tools/mutate.py.

Each mutant is one plausible fault, written as an exact search/replace of a
snippet that must occur exactly once in its file (mutate.py --check fails,
naming the mutant, when the code has moved: then update the snippet here).
`suites` are the suites that should catch it ("swift", "swift:FILTER", "c",
"python"). A mutant marked `equivalent` cannot change what any caller
observes; the note says why, and the run shows that it survives.

When a mutant survives, either a test is missing (write it) or the mutant
is equivalent (say why here). Kinds: sign, comparison, enum raw value,
off-by-one, dropped statement, swapped operand, constant.
"""
from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Mutant:
    id: str
    kind: str
    file: str
    find: str
    replace: str
    suites: Tuple[str, ...]
    why: str
    equivalent: Optional[str] = None


TIMING_MODEL = "Sources/AnimationCore/Timing/TimingModel.swift"
MEDIA_TIMING = "Sources/AnimationCore/Timing/MediaTiming.swift"
LIFE_STATE = "Sources/AnimationCore/Timing/LifeState.swift"
BATCH_KERNEL = "Sources/AnimationCore/Batch/BatchKernel.swift"
BATCH_STORAGE = "Sources/AnimationCore/Batch/BatchStorage.swift"
BATCH_BLOCKS = "Sources/AnimationCore/Batch/BatchKernel+Blocks.swift"
BATCH_AVX2 = "Sources/CBatchKernel/batch_kernel.c"
BATCH_BLOCK_CURVES = "Sources/AnimationCore/Batch/BatchKernel+BlockCurves.swift"
BATCH_NATIVE = "Sources/AnimationCore/Batch/BatchKernel+Native.swift"
BATCH_TEMPLATE = "Sources/AnimationCore/Batch/BatchTemplate.swift"
UNIT_BEZIER = "Sources/AnimationCore/Curves/UnitBezier.swift"
STEPS = "Sources/AnimationCore/Curves/StepsFunction.swift"
TIMING_FUNCTION = "Sources/AnimationCore/Curves/TimingFunction.swift"
SPRING = "Sources/AnimationCore/Curves/Spring.swift"
BARRIERS = "Sources/AnimationCore/Sync/Runtime+Barriers.swift"
TIMERS = "Sources/AnimationCore/Sync/Runtime+Timers.swift"
TIMER_QUEUE = "Sources/AnimationCore/Sync/TimerQueue.swift"
ATTACH = "Sources/AnimationCore/Layers/Runtime+Attach.swift"
BULK_ATTACH = "Sources/AnimationCore/Layers/Runtime+BulkAttach.swift"
TICK = "Sources/AnimationCore/Runtime/Runtime+Tick.swift"
EVENT = "Sources/AnimationCore/Runtime/Event.swift"
GROWING_BLOCK = "Sources/AnimationCore/Support/GrowingBlock.swift"
CURVE_TABLE = "Sources/AnimationCore/Batch/CurveTable.swift"
LARGE_PAGES = "Sources/AnimationCore/Support/LargePages.swift"
RESOLVED = "Sources/AnimationCore/Animations/ResolvedAnimation.swift"
RESOLVED_VELOCITY = "Sources/AnimationCore/Animations/ResolvedAnimation+Velocity.swift"
KEYFRAMES = "Sources/AnimationCore/Animations/ResolvedKeyframes.swift"
FLAGS = "Sources/AnimationCore/Animations/AnimationFlag.swift"
VALUE = "Sources/AnimationCore/Values/Value.swift"
EX_RUNTIME = "Sources/animrt/Exports+Runtime.swift"
EX_ANIMATION = "Sources/animrt/Exports+Animation.swift"
EX_ATTACH = "Sources/animrt/Exports+Attach.swift"
EX_LAYER = "Sources/animrt/Exports+Layer.swift"
EX_SUPPORT = "Sources/animrt/Support.swift"
EX_READBACK = "Sources/animrt/Exports+Readback.swift"
EX_KEYPATHS = "Sources/animrt/KeyPathIDs.swift"
EX_MACHINES = "Sources/animrt/Exports+Machines.swift"
INTERPRETER = "Sources/StateMachines/Engine/Interpreter.swift"
THROTTLE = "Sources/StateMachines/Engine/Throttle.swift"
EVALUATOR = "Sources/StateMachines/Expressions/Evaluator.swift"
PARSER = "Sources/StateMachines/Expressions/Parser.swift"
PLUGIN_LOADING = "Sources/Plugins/Host/PluginHost+Loading.swift"
SIGNATURE = "Sources/Plugins/FFI/Signature.swift"
PY_ANIMATION = "bindings/python/src/animrt/_animation.py"
PY_ENUMS = "bindings/python/src/animrt/_enums.py"
PY_EVENTS = "bindings/python/src/animrt/_events.py"

SWIFT = ("swift",)
SWIFT_C = ("swift", "c")
C = ("c",)
C_PY = ("c", "python")
PY = ("python",)
MACHINES = ("swift:StateMachinesTests",)
PLUGINS = ("swift:PluginsTests", "c", "python")

MUTANTS = [
    # ---- the timing model (Web Animations) -------------------------------
    Mutant("timing-reverse-ignored", "dropped statement", TIMING_MODEL,
           "case .reverse: forwards = false", "case .reverse: forwards = true", SWIFT_C,
           "direction reverse plays forwards"),
    Mutant("timing-alternate-reverse", "swapped operand", TIMING_MODEL,
           "if direction == .alternateReverse { d += 1 }", "if direction == .alternate { d += 1 }", SWIFT_C,
           "alternate and alternate-reverse start on the wrong side"),
    Mutant("timing-alternate-parity", "sign", TIMING_MODEL,
           "if direction == .alternateReverse { d += 1 }", "if direction == .alternateReverse { d -= 1 }", SWIFT,
           "alternate-reverse shifts the iteration by -1 instead of +1",
           equivalent="only the parity of d is used (positiveRemainder(d, 2)): d - 1 and d + 1 have the same parity"),
    Mutant("timing-before-flag-backwards", "dropped statement", TIMING_MODEL,
           "let beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)",
           "let beforeFlag = (phase == .before && forwards)", SWIFT,
           "the before flag is not set in the after phase when playing backwards"),
    Mutant("timing-after-boundary", "comparison", TIMING_MODEL,
           "(!backwards && localTime == activeAfter)", "(backwards && localTime == activeAfter)", SWIFT,
           "the end of the active interval is inclusive going forwards"),
    Mutant("timing-end-of-iteration", "constant", TIMING_MODEL,
           "            simple = 1\n", "            simple = 0\n", SWIFT,
           "a fill at an exact iteration end shows the start of the next iteration, not the end of the last"),
    Mutant("timing-iteration-off-by-one", "off-by-one", TIMING_MODEL,
           "else if simple == 1 { iteration = overall.rounded(.down) - 1 }",
           "else if simple == 1 { iteration = overall.rounded(.down) }", SWIFT,
           "the current iteration at an iteration end is one too many"),
    Mutant("timing-zero-active-duration", "dropped statement", TIMING_MODEL,
           "iterationDuration == 0 || iterationCount == 0 ? 0 : iterationDuration * iterationCount",
           "iterationDuration * iterationCount", SWIFT,
           "0 × ∞ is NaN instead of an empty active interval"),
    Mutant("fill-raw-values", "enum raw value", TIMING_MODEL,
           "case removed = 0, forwards, backwards, both", "case removed = 0, backwards, forwards, both", SWIFT_C,
           "FillMode forwards and backwards swapped (ABI raw values)"),
    Mutant("fill-backwards-both", "dropped statement", TIMING_MODEL,
           "@inlinable var fillsBackwards: Bool { self == .backwards || self == .both }",
           "@inlinable var fillsBackwards: Bool { self == .backwards }", SWIFT,
           "fill both does not fill backwards"),
    Mutant("direction-raw-values", "enum raw value", TIMING_MODEL,
           "case normal = 0, reverse, alternate, alternateReverse",
           "case normal = 0, alternate, reverse, alternateReverse", SWIFT_C,
           "PlaybackDirection reverse and alternate swapped (ABI raw values)"),
    # ---- Core Animation media timing ----------------------------------
    Mutant("media-autoreverses-count", "constant", MEDIA_TIMING,
           "(repeatCount > 0 ? repeatCount : 1) * (autoreverses ? 2 : 1)",
           "(repeatCount > 0 ? repeatCount : 1) * (autoreverses ? 1 : 1)", SWIFT,
           "autoreverses does not double the iteration count"),
    Mutant("media-autoreverses-over-reverse", "dropped statement", MEDIA_TIMING,
           "if autoreverses { dir = (direction == .reverse || direction == .alternateReverse) ? .alternateReverse : .alternate }",
           "if autoreverses { dir = .alternate }", SWIFT,
           "autoreverses combined with a reverse direction plays forwards first"),
    Mutant("media-negative-speed", "sign", MEDIA_TIMING,
           "return speed > 0 ? scaled : model.endTime + scaled", "return speed > 0 ? scaled : model.endTime - scaled",
           SWIFT, "a negative speed runs local time the wrong way"),
    Mutant("media-time-offset-wrap", "dropped statement", MEDIA_TIMING,
           "a = speed < 0 && phase == .active ? ad - positiveRemainder(ad - a, ad) : positiveRemainder(a, ad)",
           "a = speed < 0 && phase == .active ? ad - positiveRemainder(ad - a, ad) : a", SWIFT,
           "timeOffset shifts past the end instead of wrapping (playing forwards)"),
    Mutant("media-repeat-duration", "swapped operand", MEDIA_TIMING,
           "else if repeatDuration > 0 { iterations = d > 0 ? repeatDuration / d : .infinity }",
           "else if repeatDuration > 0 { iterations = d > 0 ? repeatDuration * d : .infinity }", SWIFT,
           "repeatDuration counted in the wrong unit"),
    Mutant("media-iteration-start-range", "comparison", MEDIA_TIMING,
           "guard iterationStart >= 0 else", "guard iterationStart >= -1 else", SWIFT_C,
           "a negative iterationStart is accepted"),
    Mutant("media-default-duration", "constant", MEDIA_TIMING,
           "public static let defaultDuration = 0.25", "public static let defaultDuration = 0.5", SWIFT,
           "a zero duration means 0.5 s instead of Core Animation's 0.25 s"),
    Mutant("group-curve-ignored", "dropped statement", RESOLVED,
           "let eased = curve?.evaluate(progress, beforeFlag: s.beforeFlag) ?? progress\n            let childTime",
           "let eased = progress\n            let childTime", ("swift:AnimationCoreTests.GroupTimingTests",),
           "a group's timing function does not ease its children's time"),
    Mutant("group-curve-slope-ignored", "dropped statement", RESOLVED_VELOCITY,
           "let slope = curve?.slope(progress) ?? 1", "let slope = 1.0", ("swift:AnimationCoreTests.GroupTimingTests",),
           "a group child's velocity leaves out the slope of the group's curve"),
    # ---- lifecycle ---------------------------------------------------------
    Mutant("life-negative-speed-waiting", "comparison", LIFE_STATE,
           "else { state = s.phase == .after ? .waiting", "else { state = s.phase == .before ? .waiting", SWIFT,
           "playing backwards, the end is taken for the start"),
    Mutant("life-speed-zero-ends", "constant", LIFE_STATE,
           "if speed == 0 { state = .running }", "if speed == 0 { state = .ended }", SWIFT,
           "a paused animation (speed 0) finishes at once"),
    Mutant("life-simple-ignores-direction", "dropped statement", LIFE_STATE,
           "&& !autoreverses && iterationStart == 0 && endDelay == 0 && direction == .normal",
           "&& !autoreverses && iterationStart == 0 && endDelay == 0", SWIFT,
           "the batch's inline path takes a reversed animation for a simple one"),
    # ---- the batch -----------------------------------------------------------
    Mutant("batch-removed-on-completion-complex", "dropped statement", BATCH_KERNEL,
           "inEffect = s.directedProgress != nil && !(st == .ended && f & BatchStorage.removedOnCompletion != 0)",
           "inEffect = s.directedProgress != nil", SWIFT,
           "removedOnCompletion ignored for batch entries with complex timing"),
    Mutant("batch-end-boundary", "comparison", BATCH_KERNEL,
           "&+ (raw >= 1 ? 1 : 0)", "&+ (raw > 1 ? 1 : 0)", SWIFT,
           "a simple batch entry of the one-at-a-time loop (other curves, a block's tail) is still active exactly "
           "at its end"),
    Mutant("batch-block-end-boundary", "comparison", BATCH_BLOCKS,
           "&+ (raw >= 1 ? 1 : 0)", "&+ (raw > 1 ? 1 : 0)", SWIFT,
           "a simple linear or Bézier entry taken four at a time is still active exactly at its end"),
    Mutant("batch-steady-block-end", "comparison", BATCH_BLOCKS,
           "(raw .>= 0) .& (raw .< 1) .& (value - value .== 0)", "(raw .>= 0) .& (raw .<= 1) .& (value - value .== 0)",
           ("swift:Kernel",),
           "a block of four reaching the end of its active interval together is taken as still mid-flight "
           "(no ended transition, no fill decision)"),
    Mutant("batch-lanes-newton-step", "dropped statement", BATCH_BLOCKS,
           ".& (step .< e) .& (step .> -e)", ".& (step .< e)", ("swift:Kernel",),
           "the SIMD4 blocks stop after one Newton step that moved t down by too much (solveT goes on)"),
    Mutant("batch-ends-captured", "constant", BATCH_TEMPLATE,
           "            let c = captured()\n", "            let c = 0.0\n", ("swift:BulkAdd",),
           "a batched animation that starts from the presentation value starts from 0 instead"),
    Mutant("late-close-last", "dropped statement", BATCH_NATIVE,
           "            if let w = waiting { closeChunk(w.start, w.count, spare, now, kind, &transitions) }\n", "",
           ("swift:KernelPath",),
           "the last chunk closed late is never closed: its ending entries keep last frame's values and states"),
    Mutant("late-close-results", "dropped statement", BATCH_NATIVE,
           "                    swap(&current, &spare)\n", "", ("swift:KernelPath",),
           "a chunk closed late is closed with the next chunk's results, which overwrote its own"),
    Mutant("batch-native-exact", "dropped statement", BATCH_NATIVE,
           "if kind == .bezier && exact & (1 << l) != 0 { v = exactValue(",
           "if false && exact & (1 << l) != 0 { v = exactValue(", ("swift:Kernel",),
           "a block the AVX2 code leaves keeps the C value of an entry that needs the exact solver "
           "(one Newton step from the guess table, not converged)"),
    Mutant("batch-avx2-ends", "dropped statement", BATCH_AVX2,
           "__m256d ok = _mm256_and_pd(inside, _mm256_or_pd(trusted, converged));",
           "__m256d ok = _mm256_or_pd(trusted, converged);", ("swift:Kernel",),
           "the AVX2 blocks take an entry on an end of [0, 1] (or NaN progress) from the guess table's piece 0 "
           "instead of the exact solver"),
    Mutant("batch-avx2-finite", "comparison", BATCH_AVX2,
           "_CMP_EQ_OQ)) == 0xF;", "_CMP_EQ_OQ)) >= 0;", ("swift:Kernel",),
           "the AVX2 blocks let a value that overflowed the doubles through as mid-flight, so it is shown "
           "infinite instead of replaced (R0.4)"),
    Mutant("batch-block-curve-runs", "comparison", BATCH_BLOCK_CURVES,
           "while e < count && curve[first &+ e] == c", "while e < count && curve[first &+ e] >= 0", ("swift:Kernel",),
           "a run of a block curve goes on past a change of curve, so the entries after it are eased by the "
           "first curve of the run"),
    Mutant("batch-block-curve-finite", "dropped statement", BATCH_BLOCK_CURVES,
           "eased = eased.replacing(with: 0, where: .!(eased - eased .== 0))", "_ = eased", ("swift:Kernel",),
           "a block curve's infinite or NaN value is shown (as the largest double, or the model) instead of "
           "counting as 0"),
    Mutant("batch-block-curve-complex-progress", "dropped statement", BATCH_BLOCK_CURVES,
           "if UnsafeRawPointer(flags + j).loadUnaligned(as: UInt32.self) & 0x0808_0808 == 0 { p = progress(j, now) }",
           "p = progress(j, now)", ("swift:BlockCurve",),
           "a block holding complex timing hands the curve a progress made from its duration column, which "
           "holds an index there (NaN or infinite), breaking the promise that x is in [0, 1]"),
    Mutant("batch-avx2-eased-finite", "dropped statement", BATCH_AVX2,
           "        eased = _mm256_and_pd(eased, _mm256_cmp_pd(_mm256_sub_pd(eased, eased), zero, _CMP_EQ_OQ));\n", "",
           ("swift:KernelPath|BlockCurve",),
           "in the AVX2 blocks around block curves, a value the curve gives that is not finite does not count as 0"),
    Mutant("batch-avx2-progress-complex", "constant", BATCH_AVX2,
           "        if (fl & complex) {", "        if (0) {", ("swift:KernelPath|BlockCurve",),
           "a block curve is handed the raw progress of a block with complex timing (not in [0, 1])"),
    Mutant("batch-avx2-steady", "dropped statement", BATCH_AVX2,
           "e == ANIMRT_BLOCK_FINITE && s == k.running", "e == ANIMRT_BLOCK_FINITE", ("swift:Kernel",),
           "the AVX2 blocks show a block whose entries have not all started as steady: the one that "
           "starts this frame reports no start"),
    Mutant("batch-before-flag", "constant", BATCH_KERNEL,
           "beforeFlag = newState == 0", "beforeFlag = false", SWIFT,
           "steps() before the start of a simple batch entry ignore the before flag"),
    Mutant("batch-fill-forwards-retained", "dropped statement", BATCH_STORAGE,
           "let after: UInt8 = fill.fillsForwards && !removedOnCompletion ? 4 : 0",
           "let after: UInt8 = fill.fillsForwards ? 4 : 0", SWIFT,
           "a simple batch entry removed on completion keeps filling forwards in its last frame"),
    Mutant("batch-remove-keeps-complex-index", "dropped statement", BATCH_STORAGE,
           "begin[i] = begin[last]; duration[i] = duration[last];", "begin[i] = begin[last];", SWIFT,
           "removing an entry leaves the moved entry with the removed one's timing (the duration column "
           "holds a complex entry's timing index)"),
    Mutant("batch-workers", "off-by-one", BATCH_STORAGE,
           "let workers = max(1, min(threads, n / minimumPerThread))",
           "let workers = max(1, min(threads - 1, n / minimumPerThread))", SWIFT,
           "one worker fewer than asked for",
           equivalent="values and events are the same whatever the number of workers (the batch's guarantee); "
                      "only the speed differs"),
    # ---- curves --------------------------------------------------------------
    Mutant("bezier-start-gradient", "swapped operand", UNIT_BEZIER,
           "if x1 > 0 { startGradient = y1 / x1 }", "if x1 > 0 { startGradient = y1 * x1 }", SWIFT_C,
           "the curve is extended below x = 0 with the wrong slope"),
    Mutant("bezier-flat-end-restart", "dropped statement", UNIT_BEZIER,
           "        if let atStart = flatEnd(k, ax: ax, bx: bx, cx: cx),\n",
           "        if false, let atStart = flatEnd(k, ax: ax, bx: bx, cx: cx),\n", SWIFT,
           "next to a flat end, a Newton that crawls falls to bisection (a microsecond a value) instead of "
           "starting again from the end's expansion"),
    Mutant("bezier-flat-end-bend", "dropped statement", UNIT_BEZIER,
           "3 * ax + 2 * bx + cx < 1e-2 && 3 * ax + bx < 0 ? false : nil",
           "3 * ax + 2 * bx + cx < 1e-2 ? false : nil", SWIFT,
           "a flat end at 1 without curvature (x1 = x2 = 1: x = 1 - (1 - t)^3) is taken as one; its expansion "
           "divides by zero (the values stay right: Newton fails and bisection follows)"),
    Mutant("bezier-end-guess-start", "changed constant", UNIT_BEZIER,
           "return 2 * x / (cx + (cx * cx + 4 * bx * x).squareRoot())",
           "return 2 * x / (cx + (cx * cx + 2 * bx * x).squareRoot())", SWIFT,
           "the expansion at 0 solves the wrong quadratic: its guess is off to first order"),
    Mutant("bezier-x2-range", "dropped statement", TIMING_FUNCTION,
           "guard (0...1).contains(x1), (0...1).contains(x2) else", "guard (0...1).contains(x1) else", SWIFT_C,
           "x2 outside [0, 1] is accepted"),
    Mutant("steps-jump-both", "dropped statement", STEPS,
           "if position == .jumpStart || position == .jumpBoth { step += 1 }",
           "if position == .jumpStart { step += 1 }", SWIFT,
           "steps(n, jump-both) does not jump at the start"),
    Mutant("steps-before-flag", "dropped statement", STEPS,
           "if beforeFlag && (x * n).truncatingRemainder(dividingBy: 1) == 0 { step -= 1 }", "", SWIFT,
           "the before flag never pulls a jump back"),
    Mutant("spring-critical-velocity", "sign", SPRING,
           "return (1 + (w0 - v0) * t) * _exp(-w0 * t)", "return (1 + (w0 + v0) * t) * _exp(-w0 * t)", SWIFT,
           "the initial velocity of a critically damped spring points the wrong way"),
    Mutant("spring-overdamping-flag", "comparison", SPRING,
           "        if zeta == 1 || !allowsOverdamping {\n            return (1 + (w0 - v0) * t)",
           "        if zeta == 1 || allowsOverdamping {\n            return (1 + (w0 - v0) * t)", SWIFT_C,
           "allowsOverdamping inverted"),
    Mutant("spring-critical-psi-rate", "sign", "Sources/AnimationCore/Curves/Spring+Response.swift",
           "t * e, (1 - w0 * t) * e)", "t * e, (1 + w0 * t) * e)", ("swift:PhysicsTests",),
           "a retargeted critically damped spring carries its velocity at the wrong rate"),
    Mutant("spring-overdamped-psi", "swapped operand", "Sources/AnimationCore/Curves/Spring+Response.swift",
           "(e1 - e2) / (r1 - r2), (r1 * e1", "(e2 - e1) / (r1 - r2), (r1 * e1", ("swift:PhysicsTests",),
           "a retargeted over-damped spring moves against the velocity it carries"),
    # ---- barriers, transactions, timers -----------------------------------
    Mutant("barrier-enter-count", "constant", BARRIERS,
           "barriers[i].count += n", "barriers[i].count += 1", SWIFT,
           "enter(count:) ignores its count"),
    Mutant("barrier-leave-drain", "off-by-one", BARRIERS,
           "if barriers[i].count == 0 { drain(i) }", "if barriers[i].count <= 1 { drain(i) }", SWIFT_C,
           "notifications run one leave early"),
    Mutant("timer-due", "comparison", TIMERS,
           "guard top.time <= t else { return }", "guard top.time < t else { return }", SWIFT_C,
           "a timer does not fire at a tick exactly at its time"),
    Mutant("timer-same-time-order", "comparison", TIMER_QUEUE,
           "(time == o.time && sequence < o.sequence)", "(time == o.time && sequence > o.sequence)", SWIFT,
           "timers due at the same time fire in the reverse of their start order"),
    Mutant("timer-heap-sift", "off-by-one", TIMER_QUEUE,
           "let l = 2 * i + 1, r = l + 1", "let l = 2 * i + 2, r = l + 1", SWIFT,
           "the heap skips a child when it sifts down: timers fire out of order"),
    Mutant("transaction-duration", "dropped statement", RESOLVED,
           "if timing.duration == 0 && timing.iterationDuration == nil { timing.duration = defaultDuration }", "",
           SWIFT_C,
           "a transaction's animationDuration is ignored"),
    # ---- attaching, removing, the tick ------------------------------------
    Mutant("remove-instance-reason", "enum raw value", ATTACH,
           "stop(instance: try instances.index(of: h), reason: .removed)",
           "stop(instance: try instances.index(of: h), reason: .replaced)", SWIFT,
           "removeInstance reports the wrong stop reason"),
    Mutant("replace-under-key", "dropped statement", ATTACH,
           "if instances[Int(c)].keyID == kid { stop(instance: Int(c), reason: .replaced) }", "", SWIFT_C,
           "adding under a taken key does not replace"),
    Mutant("bulk-planned-barrier", "dropped statement", BULK_ATTACH,
           "                                                   slot: slot, curve: curves.retain(id: plan.curve), flags: plan.flags)\n        joinBarriers(ii, barrier)",
           "                                                   slot: slot, curve: curves.retain(id: plan.curve), flags: plan.flags)",
           ("swift:BulkAdd",), "a bulk add's animations on fresh layers do not join its barrier"),
    Mutant("bulk-planned-key-count", "dropped statement", BULK_ATTACH,
           "if keyID != 0 { keyUses[Int(keyID)] += 1 }", "", ("swift:BulkAdd",),
           "a bulk add's key is counted once, not per animation: removing one animation frees it for all"),
    Mutant("bulk-column-order", "swapped operand", BULK_ATTACH,
           "if timingColumns.allSatisfy({ $0.0 == .beginTime || $0.0 == .duration }) {\n"
           "            for (p, v) in timingColumns { if p == .beginTime { begin = v } else { duration = v } }\n"
           "        } else {\n            timing = timingColumns\n        }",
           "for (p, v) in timingColumns {\n"
           "            if p == .beginTime { begin = v } else if p == .duration { duration = v } else { timing.append((p, v)) }\n"
           "        }", ("swift:BulkAdd",),
           "a bulk add's duration column is applied before the other timing columns, out of the host's order"),
    Mutant("stop-reason-raw-values", "enum raw value", EVENT,
           "    case removed\n    /// Another animation was added under its key.\n    case replaced\n",
           "    case replaced\n    /// Another animation was added under its key.\n    case removed\n", SWIFT_C,
           "StopReason removed and replaced swapped (ABI raw values)"),
    Mutant("general-removed-on-completion", "dropped statement", TICK,
           "if state == .ended && r.removedOnCompletion { continue }", "", SWIFT,
           "the general path shows a removed animation in the frame it ends"),
    Mutant("cumulative-autoreverse-cycles", "dropped statement", RESOLVED,
           "cycles = (timing.autoreverses ? it / 2 : it).rounded(.down)", "cycles = it.rounded(.down)", SWIFT,
           "with autoreverses, every pass counts as a cycle"),
    Mutant("by-and-to", "sign", RESOLVED,
           "case (nil, let t?, let b?): return (t.subtracting(b), t)",
           "case (nil, let t?, let b?): return (t.adding(b), t)", SWIFT,
           "byValue with toValue starts from to + by instead of to − by"),
    Mutant("discrete-last-value", "comparison", KEYFRAMES,
           "while i + 1 < n && keyTimes[i + 1] <= y { i += 1 }",
           "while i + 1 < n && keyTimes[i + 1] < y { i += 1 }", SWIFT_C,
           "a discrete keyframe starts one instant late"),
    Mutant("event-bulk-pop-wrap", "comparison", EVENT,
           "if i == capacity { i = 0 }", "if i > capacity { i = 0 }", ("swift:EventQueue",),
           "the bulk pop reads past the end of the ring instead of wrapping to its start"),
    Mutant("event-bulk-pop-notice", "comparison", EVENT,
           "if k < limit, count == 0, lost > 0, let notice = pop() {",
           "if k < limit, count == 0, lost > 1, let notice = pop() {", ("swift:EventQueue",),
           "the bulk pop holds back the overflow notice of a single lost event"),
    Mutant("event-bulk-pop-in-place", "off-by-one", EVENT,
           "                    body(base + i)\n", "                    body(base + head)\n", ("swift:EventQueue",),
           "the bulk pop hands the oldest event over and over instead of each in turn"),
    Mutant("curve-quick-key", "swapped operand", CURVE_TABLE,
           "SIMD4(b.x1, b.y1, b.x2, b.y2)", "SIMD4(b.x1, b.y1, b.x2, b.x2)", ("swift:CurveTable",),
           "two Béziers that differ only in y2 share a curve id, so the second is drawn with the first's solver"),
    Mutant("growing-block-moves", "dropped statement", GROWING_BLOCK,
           "guard let p = realloc(block, bytes(T.self, capacity))",
           "guard let p = malloc(bytes(T.self, capacity))", ("swift:Footprint",),
           "a table that grows gets a new block without its records"),
    Mutant("growing-block-takable", "dropped statement", GROWING_BLOCK,
           " && _isBitwiseTakable(T.self)", "", ("swift:Footprint",),
           "a record holding a weak reference is moved by realloc, byte for byte, against its rules"),
    Mutant("large-pages-span", "changed constant", LARGE_PAGES,
           "let mask = UInt(page - 1)", "let mask = UInt(size - 1)", ("swift:Footprint",),
           "large tables advise only the whole 2 MiB pages inside them, so the C library cannot remap them to grow"),
    Mutant("promote-survivor", "dropped statement", ATTACH,
           "            if property >= 0 { promoteSurvivor(layer: li, property: property) }\n", "",
           ("swift:Promotion",),
           "an animation left alone on its property stays on the general path for the rest of its life"),
    Mutant("promote-only-alone", "dropped statement", ATTACH,
           "                if survivor >= 0 { return }\n", "", ("swift:Promotion",),
           "an animation is promoted while another animation of the property remains"),
    Mutant("promote-ended-freezes", "dropped statement", ATTACH,
           "           r.timing.sampleAndState(at: now()).1 == .ended { freeze(survivor) }\n",
           "           r.timing.sampleAndState(at: now()).1 == .ended {}\n", ("swift:Promotion",),
           "a promoted survivor that has ended and fills is left in a lane instead of the frozen store"),
    Mutant("promote-freeze-past-end", "constant", ATTACH,
           "           r.timing.sampleAndState(at: now()).1 == .ended { freeze(survivor) }\n",
           "           true { freeze(survivor) }\n", ("swift:Promotion",),
           "a promoted survivor that ended in an earlier time of its layer is frozen mid-interval"),
    Mutant("event-queue-capacity", "off-by-one", EVENT,
           "if lost > 0 || count >= capacity - 1 {", "if lost > 0 || count >= capacity {", SWIFT_C,
           "the overflow notice has no slot kept for it"),
    Mutant("value-interpolation", "swapped operand", VALUE,
           "return AnimatableValue(kind: kind, lanes: lanes + (other.lanes - lanes) * t)",
           "return AnimatableValue(kind: kind, lanes: other.lanes + (lanes - other.lanes) * t)", SWIFT,
           "interpolation runs from the end to the start"),
    Mutant("flag-raw-values", "enum raw value", FLAGS,
           "    case additive\n    /// `Animation.isCumulative`.\n    case cumulative\n",
           "    case cumulative\n    /// `Animation.isCumulative`.\n    case additive\n", SWIFT_C,
           "ANIMRT_FLAG_ADDITIVE and ANIMRT_FLAG_CUMULATIVE swapped"),
    # ---- the C exports -------------------------------------------------------
    Mutant("export-flag-inverted", "sign", EX_ANIMATION,
           "case .removedOnCompletion: a.isRemovedOnCompletion = b", "case .removedOnCompletion: a.isRemovedOnCompletion = !b",
           C_PY, "animrt_animation_set_flag(REMOVED_ON_COMPLETION) inverted"),
    Mutant("value-slot-by", "swapped operand", "Sources/AnimationCore/Animations/Animation+Values.swift",
           "case (.basic(let f, let t, _), .by): content = .basic(from: f, to: t, by: v)",
           "case (.basic(let f, let t, _), .by): content = .basic(from: v, to: t, by: f)", C_PY,
           "ANIMRT_BY on a basic animation writes fromValue"),
    Mutant("export-transaction-zero", "dropped statement", EX_ATTACH,
           "try r.beginTransaction(animationDuration: animationDuration == 0 ? nil : animationDuration)",
           "try r.beginTransaction(animationDuration: animationDuration)", C_PY,
           "animrt_transaction_begin(rt, 0) is refused instead of keeping 0.25 s"),
    Mutant("export-removed-out", "constant", EX_ATTACH,
           "removed?.pointee = found ? 1 : 0", "removed?.pointee = 1", C_PY,
           "animrt_layer_remove_animation says it removed an animation when there was none"),
    Mutant("export-key-nul", "off-by-one", EX_ATTACH,
           "guard let buf, capacity(cap) > utf8.count else", "guard let buf, capacity(cap) >= utf8.count else", C,
           "a key buffer one byte short gets its NUL written past the end"),
    Mutant("export-threads-zero", "dropped statement", EX_RUNTIME,
           "r.evaluationThreads = threads == 0 ? processorCount() : Int(min(threads, 256))",
           "r.evaluationThreads = Int(min(threads, 256))", C,
           "0 threads means one instead of one per processor",
           equivalent="the thread count never changes values or events (the batch's guarantee), only speed"),
    Mutant("export-event-capacity", "dropped statement", EX_RUNTIME,
           "let capacity = eventCapacity == 0 ? 65_536 : Int(eventCapacity)", "let capacity = Int(eventCapacity)",
           C_PY, "an event capacity of 0 is not the default 65536"),
    Mutant("export-keypath-components", "dropped statement", EX_LAYER,
           "components?.pointee = kp.kind.componentCount", "", C_PY,
           "animrt_keypath_info does not report the component count"),
    Mutant("export-presentation-count", "dropped statement", EX_LAYER,
           "        count.pointee = n\n        if buffer.count < n", "        if buffer.count < n", C_PY,
           "animrt_layer_get_presentation does not say how many doubles it wrote"),
    Mutant("export-checked-count", "comparison", EX_SUPPORT,
           "guard n >= 0 && n <= maximumCount else {", "guard n >= 0 && n <= maximumCount * 2 else {", C_PY,
           "counts up to 2^29 pass the size_t check (a caller's bug reaches memory)"),
    Mutant("export-definition-of-machine", "swapped operand", EX_MACHINES,
           "? try m.definition(of: handle) : try m.definition(handle)", "? try m.definition(handle) : try m.definition(handle)",
           C, "a definition getter given a machine refuses it instead of reading the machine's definition"),
    Mutant("export-keypath-foreign", "dropped statement", EX_KEYPATHS,
           "guard id >= 0, id >> indexBits == Int32(r.tag) else {", "guard id >= 0 else {", C_PY,
           "a key path id from another runtime is taken for whatever key path has its index here"),
    Mutant("export-group-child-index", "changed constant", EX_READBACK,
           "out.pointee = try r.createAnimation(children[index]).raw", "out.pointee = try r.createAnimation(children[0]).raw",
           C_PY, "animrt_group_get_child hands back the first child whatever the index"),
    Mutant("export-event-payload", "comparison", EX_SUPPORT,
           "e.pointee.payload.isEmpty ? (nil, 0)", "!e.pointee.payload.isEmpty ? (nil, 0)", C_PY,
           "polled events lose their payload (a machine's state values, messages, request arguments)"),
    # ---- the Python binding ------------------------------------------------
    Mutant("py-autoreverses-is-cumulative", "enum raw value", PY_ANIMATION,
           '_FLAGS = {"autoreverses": 0, "removed_on_completion": 1, "additive": 2, "cumulative": 3,',
           '_FLAGS = {"autoreverses": 3, "removed_on_completion": 1, "additive": 2, "cumulative": 3,', PY,
           "autoreverses=True sends ANIMRT_FLAG_CUMULATIVE"),
    Mutant("py-removed-on-completion-flag", "enum raw value", PY_ANIMATION,
           '"removed_on_completion": 1, "additive": 2,', '"removed_on_completion": 2, "additive": 2,', PY,
           "removed_on_completion=False sends ANIMRT_FLAG_ADDITIVE"),
    Mutant("py-time-offset-param", "enum raw value", PY_ANIMATION,
           '"speed": 2, "time_offset": 3, "repeat_count": 4,', '"speed": 2, "time_offset": 4, "repeat_count": 3,', PY,
           "time_offset and repeat_count swap C parameter numbers"),
    Mutant("py-by-slot", "off-by-one", PY_ANIMATION,
           '_SLOTS = {"from": 0, "from_": 0, "to": 1, "by": 2}', '_SLOTS = {"from": 0, "from_": 0, "to": 1, "by": 1}', PY,
           "by= sets toValue"),
    Mutant("py-spring-kind", "enum raw value", PY_ANIMATION,
           "    _kind = 2\n", "    _kind = 0\n", PY,
           "rt.spring() creates a basic animation"),
    Mutant("py-direction-inverted", "swapped operand", PY_ENUMS,
           '{"normal": Direction.NORMAL, "reverse": Direction.REVERSE,',
           '{"normal": Direction.REVERSE, "reverse": Direction.NORMAL,', PY,
           "direction='reverse' plays forwards and 'normal' backwards"),
    Mutant("py-fill-forwards", "swapped operand", PY_ENUMS,
           '"forwards": FillMode.FORWARDS,', '"forwards": FillMode.BACKWARDS,', PY,
           "fill_mode='forwards' sends ANIMRT_FILL_BACKWARDS"),
    Mutant("py-paced-mode", "swapped operand", PY_ENUMS,
           '"paced": CalculationMode.PACED,', '"paced": CalculationMode.LINEAR,', PY,
           "calculation_mode='paced' sends ANIMRT_CALC_LINEAR"),
    Mutant("py-spring-response", "enum raw value", PY_ANIMATION,
           '"damping_ratio": 4, "response": 5,', '"damping_ratio": 5, "response": 4,', PY,
           "damping_ratio and response read each other's parameter"),
    Mutant("py-decay-velocity", "enum raw value", PY_ANIMATION,
           "_VELOCITY = 3", "_VELOCITY = 2", PY,
           "a decay's velocity is sent as byValue"),
    Mutant("py-stop-reasons", "enum raw value", PY_ENUMS,
           "    REMOVED = 1\n    REPLACED = 2\n", "    REMOVED = 2\n    REPLACED = 1\n", PY,
           "StopReason.REMOVED and REPLACED swapped"),
    Mutant("py-event-types", "enum raw value", PY_EVENTS,
           "TIMER_FIRED, OVERFLOW = 1, 2, 3, 4, 5, 6", "TIMER_FIRED, OVERFLOW = 2, 1, 3, 4, 5, 6", PY,
           "started and stopped events decoded the wrong way round"),
    # ---- the state-machine engine (run to completion, SCXML) -------------
    Mutant("engine-no-bubbling", "dropped statement", INTERPRETER,
           "if state.ignored.contains(e) { return .ignored }\n                a = state.parent",
           "if state.ignored.contains(e) { return .ignored }\n                a = -1", MACHINES,
           "an event not handled by the active leaf is not offered to its ancestors"),
    Mutant("engine-internal-reenters", "dropped statement", INTERPRETER,
           "if t.isInternal { return t.source }", "if t.isInternal && false { return t.source }", MACHINES,
           "an internal transition exits and re-enters its source (its exit and entry actions run)"),
    Mutant("engine-no-initial-child", "dropped statement", INTERPRETER,
           "while let i = definition.states[d].initial { path.append(i); d = i }", "", MACHINES,
           "a transition to a compound state does not enter its initial child"),
    Mutant("engine-final-not-finished", "dropped statement", INTERPRETER,
           "        } else {\n            finished = true\n", "        } else {\n", MACHINES,
           "a machine in a top-level final state keeps taking events"),
    Mutant("engine-microstep-bound", "off-by-one", INTERPRETER,
           "if microsteps >= definition.maxMicrosteps {", "if microsteps > definition.maxMicrosteps {", MACHINES,
           "an eventless loop runs one microstep more than the bound"),
    Mutant("engine-closed-request", "dropped statement", INTERPRETER,
           "return id != nil && requests[op].open && requests[op].latest == id",
           "return id != nil && requests[op].latest == id", MACHINES,
           "a result of a request already answered (closed) is processed again instead of reported stale"),
    Mutant("engine-after-survives-exit", "dropped statement", INTERPRETER,
           "guard activations[s] == activation else { return .ignored }\n            let t = definition.states[s].after[i].transition",
           "let t = definition.states[s].after[i].transition", MACHINES,
           "an `after` timer that fired while its state was being left still takes its transition",
           equivalent="exit() cancels the state's timers, and a cancelled timer does not fire even when it was due in "
                      "the same tick (AfterTests.twoDueInOneTick); a timer can only be queued behind a running macrostep "
                      "if a tick runs inside one, which the runtime refuses (a call from inside a callout): the "
                      "activation check is a second line of defence no input reaches"),
    Mutant("engine-exit-order", "swapped operand", INTERPRETER,
           "        run(state.exit, payload: [], entering: nil)\n        for t in afterTimers[s]",
           "        for t in afterTimers[s]", MACHINES,
           "exit actions do not run"),
    Mutant("engine-throttle-window", "dropped statement", THROTTLE,
           "if outcome == .taken, alive, !finished { openThrottleWindow(event) }", "", MACHINES,
           "a throttled event is never held: every one is processed at once"),
    Mutant("expr-and-short-circuit", "swapped operand", EVALUATOR,
           "guard try bool(a, &c) else { return .bool(false) }\n            return .bool(try bool(b, &c))",
           "guard try bool(a, &c) else { return .bool(true) }\n            return .bool(try bool(b, &c))", MACHINES,
           "false and x is true"),
    Mutant("expr-clamp", "swapped operand", EVALUATOR,
           "return .number(Swift.min(Swift.max(x, lo), hi))", "return .number(Swift.max(Swift.min(x, lo), hi))", MACHINES,
           "clamp(x, lo, hi) returns the wrong bound"),
    Mutant("expr-precedence", "swapped operand", PARSER,
           "            let r = try product()\n                try require(l, .number, \"the left side of '-'\")",
           "            let r = try sum()\n                try require(l, .number, \"the left side of '-'\")", MACHINES,
           "a - b - c parses as a - (b - c)"),
    Mutant("expr-lexer-longest", "swapped operand", "Sources/StateMachines/Expressions/Lexer.swift",
           '["==", "!=", "<=", ">=", "&&", "||", "<", ">",', '["==", "!=", "<", ">", "<=", ">=", "&&", "||",', MACHINES,
           "'<=' lexes as '<' then '=': the longest operator is not matched first"),
    # ---- plugins --------------------------------------------------------
    Mutant("plugin-registrar-token-kept", "dropped statement", "Sources/Plugins/Host/PluginHost+Loading.swift",
           "        RegistrarTokens.close(token)\n", "", C,
           "a registrar kept by its plugin still registers after init returned"),
    Mutant("plugin-entry-not-a-table", "constant", "Sources/Plugins/Host/PluginHost+Loading.swift",
           "guard version <= 0xFFFF else {", "guard version <= 0xFFFF_FFFF else {", C,
           "an entry point defined as a function is reported as a plugin from the future"),
    Mutant("plugin-soname-hint", "comparison", "Sources/Plugins/Platform/SharedLibrary.swift",
           "if let path, !path.contains(\"/\"), RawCalls.fileExists(path) {",
           "if let path, path.contains(\"/\"), RawCalls.fileExists(path) {", PY,
           "a library name that is a file here gets no hint to write './'"),
    Mutant("json-duplicate-names", "dropped statement", "Sources/StateMachines/Definitions/JSONValue.swift",
           "if let p = JSONSyntax.firstDuplicateKey(in: Array(bytes)) {", "if let p = JSONSyntax.firstDuplicateKey(in: []) {",
           MACHINES, "a member name given twice is decoded silently, one of its values lost"),
    Mutant("json-duplicate-escaped", "dropped statement", "Sources/StateMachines/Definitions/JSONSyntax.swift",
           "let name = memberName(bytes[start..<i])", "let name = String(decoding: bytes[start..<i], as: UTF8.self)",
           MACHINES, "a name given twice, once with escapes, passes as two names"),
    Mutant("request-number-whole", "dropped statement", "Sources/StateMachines/Host/MachineHost.swift",
           "x.rounded(.towardZero) != x || x > 9_007_199_254_740_992", "x > 9_007_199_254_740_992", MACHINES,
           "a fractional request number is reported as a stale result instead of refused"),
    Mutant("delay-constant-negative", "comparison", "Sources/StateMachines/Definitions/DefinitionLoader.swift",
           "!(d.isFinite && d >= 0)", "!(d.isFinite && d >= -1)", MACHINES,
           "a definition whose timer can never run (delay -1) loads"),
    Mutant("plugin-version-check", "comparison", PLUGIN_LOADING,
           "guard version == Self.abiVersion else {", "guard version <= Self.abiVersion else {", C_PY,
           "a plugin built for an older ABI version is loaded"),
    Mutant("plugin-i8-range", "off-by-one", SIGNATURE,
           "case .i8: (Int64(Int8.min), UInt64(Int8.max))", "case .i8: (Int64(Int8.min), UInt64(UInt8.max))", PLUGINS,
           "an int8_t argument accepts 128 to 255 and wraps"),
    Mutant("plugin-f32-kind", "swapped operand", SIGNATURE,
           "case .f32, .f64: .number", "case .f64: .number\n        case .f32: .bool", PLUGINS,
           "a float result is given to machines as a bool"),
]
