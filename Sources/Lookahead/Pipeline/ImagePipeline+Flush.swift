// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePipeline {
    /// Waits until the data (and final images) handed to the disk cache so far are on disk, and the revalidations
    /// running in the background (`stale-while-revalidate`) have finished: the cache writes in the background, so a
    /// program that exits right after a load calls this first. Later stores are not waited for.
    public func flush() async {
        await runner.flushFinalImages()
        await runner.finishBackgroundRevalidations()
        await configuration.diskCache?.flush()
    }
}
