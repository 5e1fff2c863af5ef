// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Dispatch

extension DispatchQueue {
    /// Runs `body` on this queue and returns its result, keeping blocking I/O off the cooperative pool.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            async { continuation.resume(returning: body()) }
        }
    }
}
