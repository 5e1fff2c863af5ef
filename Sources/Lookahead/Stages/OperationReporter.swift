// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Where a running stage reports on its operation: progress, previews, a stall. The pipeline's runner in the
/// pipeline, a recorder in tests.
package protocol OperationReporting: AnyObject, Sendable {
    func operation(_ operation: Int, progressed completed: Int64, total: Int64?)
    /// The data stage missed the disk cache and is downloading: a reload of its URL may join it now.
    func operationStartedDownload(_ operation: Int)
    /// The data stage found its data in the disk cache: whether it may answer with it.
    func operationMayAnswerFromDisk(_ operation: Int) -> Bool
    /// A download made no progress for a whole interval.
    func operationStalled(_ operation: Int)
    func operation(_ operation: Int, previewed image: PreparedImage)
    /// The bytes the operation has reported so far.
    func progress(ofOperation operation: Int) -> Int64
}

/// One running operation's reporting line, handed to a stage's `run`. Holds its sink weakly: an operation that
/// outlives its pipeline reports to nobody.
package struct OperationReporter: Sendable {
    package let operation: Int
    private weak var sink: (any OperationReporting)?

    package init(operation: Int, sink: any OperationReporting) {
        self.operation = operation
        self.sink = sink
    }

    func progressed(completed: Int64, total: Int64?) {
        sink?.operation(operation, progressed: completed, total: total)
    }

    func startedDownload() { sink?.operationStartedDownload(operation) }
    /// Whether the data stage may answer with what it found in the disk cache.
    var mayAnswerFromDisk: Bool { sink?.operationMayAnswerFromDisk(operation) ?? true }
    func stalled() { sink?.operationStalled(operation) }
    func previewed(_ image: PreparedImage) { sink?.operation(operation, previewed: image) }
    var completedBytes: Int64 { sink?.progress(ofOperation: operation) ?? 0 }
}

/// Where diagnostic events go (``ImagePipeline/Configuration/eventHandler``); `nil` drops them.
package typealias PipelineEventSink = (@Sendable (ImagePipeline.Event) -> Void)?
