// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Where the runner delivers a task's progress and result: an ``ImageTask``, or the data-only task behind
/// ``ImagePipeline/data(for:)``.
package protocol TaskReceiver: AnyObject, Sendable {
    var id: Int { get }
    var request: ImageRequest { get }
    /// Whether the task has already ended (a task cancelled before it was submitted): the runner then submits
    /// nothing for it, so no work starts that nobody wants.
    var hasEnded: Bool { get }
    func didProgress(completed: Int64, total: Int64?)
    /// Delivers a preview (progressive decoding); only image tasks use it.
    func didPreview(_ image: PreparedImage)
    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipeline.Error>)
}

extension TaskReceiver {
    package func didPreview(_ image: PreparedImage) {}
    package var hasEnded: Bool { false }
}
