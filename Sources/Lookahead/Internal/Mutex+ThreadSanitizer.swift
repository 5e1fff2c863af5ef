// Lookahead — a pthread-backed stand-in for Synchronization.Mutex, compiled only for ThreadSanitizer runs.

#if LOOKAHEAD_PTHREAD_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `Synchronization.Mutex` on Linux locks with raw futex system calls, which ThreadSanitizer does not see:
/// every access under the lock is reported as a race. ThreadSanitizer does intercept `pthread_mutex_*`, so
/// `scripts/test` builds its sanitizer pass with `-DLOOKAHEAD_PTHREAD_LOCKS`, and this type, with the same
/// `withLock` shape, shadows the standard one. Ordinary builds never compile it.
package final class Mutex<Value: ~Copyable>: @unchecked Sendable {
    // SAFETY: `value` is only read or written inside `withLock`, between pthread_mutex_lock and unlock.
    private var value: Value
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: consuming sending Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
#endif
