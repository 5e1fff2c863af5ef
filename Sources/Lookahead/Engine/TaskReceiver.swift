// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Where the runner delivers a task's progress and result: an ``ImageTask``, or the data-only task behind
/// ``ImagePipeline/data(for:)``.
package protocol TaskReceiver: AnyObject, Sendable {
    var id: Int { get }
    var request: ImageRequest { get }
    /// Whether the task ended (was cancelled) before it was submitted: the runner then submits nothing for it.
    var hasEnded: Bool { get }
    /// Progress, a preview, or the result; an image is in the memory cache by then, stored once for all the tasks
    /// that share it.
    func receive(_ delivery: TaskGraph.Actions.Delivery)
}
