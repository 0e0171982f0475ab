// The one file through which the core reaches the platform's threads.
//
// A pthread mutex and condition variable rather than Synchronization's
// Mutex: on Linux that Mutex is a bare futex, whose hand-offs the thread
// sanitizer cannot see, so `make tsan` would report every contended call.
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock with one condition variable.
public struct Lock: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A lock; with `checksOwner`, one that knows which thread holds it, so
    /// that `lockUnlessHeld` can refuse the holder instead of leaving it
    /// waiting on itself.
    public init(checksOwner: Bool = false) {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        if checksOwner {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            pthread_mutex_init(mutex, nil)
        }
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @inlinable @inline(__always) public func lock() { pthread_mutex_lock(mutex) }
    @inlinable @inline(__always) public func unlock() { pthread_mutex_unlock(mutex) }
    /// Takes the lock, waiting for it; false, at once and without it, when
    /// the calling thread holds it already (a lock made with `checksOwner`).
    @inlinable @inline(__always) public func lockUnlessHeld() -> Bool { pthread_mutex_lock(mutex) != EDEADLK }
    /// Takes the lock if it is free; false if another holder has it.
    @inlinable @inline(__always) public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    @inlinable @inline(__always)
    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Releases the lock, sleeps until `broadcast()`, and takes it again.
    /// Call with the lock held, in a loop that rechecks the condition.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread sleeping in `wait()`.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// The identity of a thread, comparable across threads.
public struct ThreadID: Equatable, Sendable {
    let raw: pthread_t
    /// The calling thread.
    public static var current: ThreadID { ThreadID(raw: pthread_self()) }
    public static func == (a: ThreadID, b: ThreadID) -> Bool { pthread_equal(a.raw, b.raw) != 0 }
}

/// A number for the calling thread that no other thread of the process
/// ever gets, even once this one has ended (a `pthread_t` is handed to the
/// next thread made): what keys state a thread leaves behind, such as its
/// open transactions, so that a later thread never inherits it.
public enum ThreadOrdinal {
    /// The thread-specific slot that holds each thread's number; nil if the
    /// system had no slot left to give (then every thread shares number 0,
    /// and transactions are the runtime's, one stack for all its threads).
    private static let key: pthread_key_t? = {
        var k = pthread_key_t()
        return pthread_key_create(&k, nil) == 0 ? k : nil
    }()
    /// The next number to give, from 1.
    private static let next = Atomic<UInt>(1)

    /// The calling thread's number, given at its first call.
    public static var current: UInt64 {
        guard let key else { return 0 }
        if let p = pthread_getspecific(key) { return UInt64(UInt(bitPattern: p)) }
        let n = next.wrappingAdd(1, ordering: .relaxed).oldValue
        // A thread whose number cannot be kept (the system is out of memory)
        // shares number 0, as when there is no slot: a number given afresh
        // at each call would strand each transaction it begins.
        guard pthread_setspecific(key, UnsafeRawPointer(bitPattern: n)) == 0 else { return 0 }
        return UInt64(n)
    }
}
