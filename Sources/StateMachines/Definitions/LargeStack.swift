// A thread of its own, with a stack of known size, for reading input that
// nests deeply. Reading JSON and expressions recurses once per level of
// nesting: the toolchain's JSONDecoder takes close to 2 KiB of stack a level
// (the 128 levels a definition may nest would need most of a 256 KiB
// thread), and the expression parser about 1.6 KiB a level of parentheses
// in a release build, ten times that in a debug one. The host's thread may
// be small, or already deep in its own calls: input nesting deeper than a
// few levels is read on a thread whose stack is ours to size, so that what
// the host's thread needs does not grow with the input.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum LargeStack {
    /// The deepest JSON decoded on the caller's thread (about 30 KiB of
    /// stack in a release build). Every shipped definition nests 11 or less.
    static let inlineJSONDepth = 16
    /// The deepest expression parsed on the caller's thread, in levels of
    /// recursion (`Parser.nestingBound`): every shipped expression has 4 or
    /// less, about 7 KiB of stack in a release build. Unoptimized frames
    /// are ten times larger, and a debug build parses deeper than 2 levels
    /// on the thread, so that it too reads everything on 128 KiB.
    #if DEBUG
    static let inlineExpressionDepth = 2
    #else
    static let inlineExpressionDepth = 4
    #endif
    /// The stack of the reading thread: room for `DefinitionLimits.maxJSONDepth`
    /// and `maxExpressionDepth` levels several times over, in any build.
    static let stackBytes = 4 << 20

    private final class Job: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a stack of `stackBytes`, and waits
    /// for it. Runs it on the caller's thread when no thread can be made
    /// (the caller's stack is then all there is).
    static func run<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { (body) -> T in
            var result: T? = nil
            withUnsafeMutablePointer(to: &result) { (out) in
                let job = Job { out.pointee = body() }
                if !run(job) { out.pointee = body() }
            }
            return result!
        }
    }

    private static func run(_ job: Job) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackBytes) == 0 else { return false }
        let context = Unmanaged.passRetained(job).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(&thread, &attributes, { (context) in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            job.body()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        return true
    }
}
