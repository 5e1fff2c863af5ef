// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Created by the task graph when it starts a stage; the pipeline attaches the Swift task that does the work. A
/// cancellation decided before then (under the graph's lock) cancels the work as soon as it is attached.
package final class OperationToken: Sendable {
    private let state = Locked<(task: Task<Void, Never>?, isCancelled: Bool)>((nil, false))

    package init() {}

    /// Whether the graph has cancelled the stage.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Attaches the running work; cancels it at once if the stage was already cancelled.
    package func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the stage and its work, if attached.
    package func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
