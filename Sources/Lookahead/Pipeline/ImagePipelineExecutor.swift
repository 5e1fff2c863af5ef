// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Where an ``ImagePipeline`` runs the work of its stages: by default downloads as Swift tasks and decoding on
/// dedicated threads; a simulation runs both in virtual time (`lookahead-bench scroll`). Not API for apps.
@_spi(Simulation)
public protocol ImagePipelineExecutor: Sendable {
    /// Runs a download stage; the pipeline cancels the returned task when no request wants the download any more.
    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    /// Runs a decoding or processing stage: CPU-bound and synchronous. Never on the caller's thread.
    func runDecode(_ work: @escaping @Sendable () -> Void)

    /// How long the task that starts downloads waits for more before it stops, so a burst shares one wake-up.
    var launchBatchInterval: Duration? { get }
}

extension ImagePipelineExecutor {
    public var launchBatchInterval: Duration? { nil }
}

/// Downloads as Swift tasks at the request's priority; decoding on a concurrent dispatch queue.
struct DefaultPipelineExecutor: ImagePipelineExecutor {
    let decodeQueue = DispatchQueue(label: "Lookahead.ImagePipeline.decode", attributes: .concurrent)

    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(priority: priority, operation: work)
    }

    func runDecode(_ work: @escaping @Sendable () -> Void) {
        decodeQueue.async(execute: work)
    }

    var launchBatchInterval: Duration? { .milliseconds(1) }
}
