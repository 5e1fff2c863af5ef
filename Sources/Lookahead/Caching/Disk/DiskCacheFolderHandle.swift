// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The cache folder, open: a hit opens its entry relative to it, so `open` looks up one name instead of walking
/// the whole path. Held by reference, so a reader keeps the descriptor open while it uses it even if the cache
/// opens the folder again meanwhile. A folder deleted and made again is noticed at the first entry missing from the
/// old one; a folder renamed away (not deleted) is read where it went until then.
final class DiskCacheFolderHandle: Sendable {
    let descriptor: Int32

    /// `nil` when the folder cannot be opened (it is missing, or not a folder).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
