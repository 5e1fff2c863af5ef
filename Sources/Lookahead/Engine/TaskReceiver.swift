// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Where the runner delivers a task's progress and result: an ``ImageTask``, or the data-only task behind
/// ``ImagePipeline/data(for:)``.
protocol TaskReceiver: AnyObject, Sendable {
    var id: Int { get }
    var request: ImageRequest { get }
    func didProgress(completed: Int64, total: Int64?)
    /// Delivers a preview (progressive decoding); only image tasks use it.
    func didPreview(_ image: PreparedImage)
    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipelineError>)
}

extension TaskReceiver {
    func didPreview(_ image: PreparedImage) {}
}
