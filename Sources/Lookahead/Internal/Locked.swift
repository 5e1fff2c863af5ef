// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(Darwin)
import os
#else
import Foundation  // pthreads, under LOOKAHEAD_PTHREAD_LOCKS
import Synchronization
#endif

/// A value only read or written under a lock (not recursive): an `OSAllocatedUnfairLock` on Apple platforms, a
/// `Mutex` on Linux, a pthread mutex under ThreadSanitizer (`-DLOOKAHEAD_PTHREAD_LOCKS`), which misses futex calls.
package struct Locked<Value>: ~Copyable, @unchecked Sendable {
    // SAFETY: the value is reached only inside `withLock`, while the lock is held, and it enters through
    // `init(_:)` as `sending`, so no reference to it is left outside the lock.
    #if canImport(Darwin)
    private let lock: OSAllocatedUnfairLock<Value>
    #else
    #if LOOKAHEAD_PTHREAD_LOCKS
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #else
    private let mutex = Mutex(())
    #endif
    private let value: UnsafeMutablePointer<Value>
    #endif

    package init(_ value: consuming sending Value) {
        #if canImport(Darwin)
        lock = OSAllocatedUnfairLock(uncheckedState: value)
        #else
        #if LOOKAHEAD_PTHREAD_LOCKS
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        #endif
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        #endif
    }

    #if !canImport(Darwin)
    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        #if LOOKAHEAD_PTHREAD_LOCKS
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        #endif
    }
    #endif

    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        #if canImport(Darwin)
        lock.withLockUnchecked(body)
        #elseif LOOKAHEAD_PTHREAD_LOCKS
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value.pointee)
        #else
        mutex.withLock { _ in body(&value.pointee) }
        #endif
    }
}

/// An integer read and written atomically: an `Atomic<Int>` on Linux, an `OSAllocatedUnfairLock` on Apple platforms.
package struct AtomicInt: ~Copyable, @unchecked Sendable {
    // SAFETY: the integer is reached only through `Atomic`'s operations (Linux) or under the unfair lock (Apple).
    #if canImport(Darwin)
    private let lock: OSAllocatedUnfairLock<Int>
    #else
    private let atomic: Atomic<Int>
    #endif

    package init(_ value: Int) {
        #if canImport(Darwin)
        lock = OSAllocatedUnfairLock(initialState: value)
        #else
        atomic = Atomic(value)
        #endif
    }

    /// The current value (acquiring).
    package func load() -> Int {
        #if canImport(Darwin)
        lock.withLockUnchecked { $0 }
        #else
        atomic.load(ordering: .acquiring)
        #endif
    }

    /// Replaces the value (releasing).
    package func store(_ newValue: Int) {
        #if canImport(Darwin)
        lock.withLockUnchecked { $0 = newValue }
        #else
        atomic.store(newValue, ordering: .releasing)
        #endif
    }

    /// Adds `delta`, wrapping on overflow, and returns the new value.
    @discardableResult
    package func add(_ delta: Int) -> Int {
        #if canImport(Darwin)
        lock.withLockUnchecked {
            $0 &+= delta
            return $0
        }
        #else
        atomic.wrappingAdd(delta, ordering: .relaxed).newValue
        #endif
    }

    /// Sets the value to `desired` if it is `expected`; returns whether it did.
    package func compareExchange(expected: Int, desired: Int) -> Bool {
        #if canImport(Darwin)
        lock.withLockUnchecked {
            guard $0 == expected else { return false }
            $0 = desired
            return true
        }
        #else
        atomic.compareExchange(expected: expected, desired: desired, ordering: .acquiringAndReleasing).exchanged
        #endif
    }
}
