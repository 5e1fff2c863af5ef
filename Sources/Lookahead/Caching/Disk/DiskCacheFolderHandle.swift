// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The cache folder, open, so a hit looks up one name instead of the whole path.
final class DiskCacheFolderHandle: Sendable {
    let descriptor: Int32

    /// `nil` when the folder cannot be opened (it is missing, or not a folder).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
