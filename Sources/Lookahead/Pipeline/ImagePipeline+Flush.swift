// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePipeline {
    /// Waits until the data handed to the disk cache so far is on disk, without blocking a thread.
    ///
    /// The disk cache writes in the background, so a program that exits right after a load can lose the entry.
    /// Call this before exiting:
    ///
    /// ```swift
    /// let response = try await pipeline.image(for: url)
    /// await pipeline.flush()
    /// ```
    ///
    /// Final images being encoded for the disk cache (``DiskCacheContent``) are waited for too. Loads still running
    /// keep going; what they store later is not waited for.
    public func flush() async {
        await runner.flushFinalImages()
        await configuration.diskCache?.flush()
    }
}
