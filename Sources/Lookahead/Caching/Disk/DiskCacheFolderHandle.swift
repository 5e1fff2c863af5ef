// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The cache folder, open: a hit opens its entry relative to it, looking up one name instead of the whole path. A
/// reference, so a reader keeps the descriptor open even if the cache opens the folder again meanwhile.
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
