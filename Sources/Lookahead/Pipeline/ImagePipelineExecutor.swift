// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Where an ``ImagePipeline`` runs the work of its stages. The default runs downloads as Swift tasks and decoding
/// on dedicated threads. A simulation passes one that runs both in virtual time, so the real pipeline, prefetcher
/// and slots can be measured over a modelled network without sleeping (see `lookahead-bench scroll`).
///
/// Not API for apps: it exists so that no policy has to be written twice to be measured.
@_spi(Simulation)
public protocol ImagePipelineExecutor: Sendable {
    /// Runs a download stage, which awaits the data loader. The pipeline cancels the returned task when no request
    /// wants the download any more.
    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    /// Runs a decoding or processing stage: CPU-bound and synchronous. Never on the caller's thread.
    func runDecode(_ work: @escaping @Sendable () -> Void)

    /// How long the task that starts downloads waits for more after starting some, before it stops; `nil` stops at
    /// once. Starts in a burst then share one wake-up of a thread, and a start cancelled within the pause costs
    /// no task; the price is at most this delay for a download started during it.
    var launchBatchInterval: Duration? { get }
}

extension ImagePipelineExecutor {
    public var launchBatchInterval: Duration? { nil }
}

/// Downloads as Swift tasks at the request's priority; decoding on a concurrent dispatch queue (its threads are
/// not the cooperative pool's), bounded by the task graph's decode limit.
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
