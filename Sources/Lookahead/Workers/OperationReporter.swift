// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Where a running operation reports before it finishes: the pipeline's runner (to the task graph), a test's recorder.
package protocol OperationReporting: AnyObject, Sendable {
    func operation(_ operation: TaskGraph.OperationID, reported event: TaskGraph.OperationEvent)
    /// The data stage found its data in the disk cache: whether it may answer with it.
    func operationMayAnswerFromDisk(_ operation: TaskGraph.OperationID) -> Bool
    /// The bytes the operation has reported so far.
    func progress(ofOperation operation: TaskGraph.OperationID) -> Int64
}

/// One running operation's reporting line, handed to its work. Holds its sink weakly: an operation that outlives
/// its pipeline reports to nobody.
package struct OperationReporter: Sendable {
    package let operation: TaskGraph.OperationID
    private weak var sink: (any OperationReporting)?

    package init(operation: TaskGraph.OperationID, sink: (any OperationReporting)?) {
        self.operation = operation
        self.sink = sink
    }

    /// Reports to nobody: for work no task waits on (a background revalidation).
    static let unattached = OperationReporter(operation: TaskGraph.OperationID(-1), sink: nil)

    func report(_ event: TaskGraph.OperationEvent) { sink?.operation(operation, reported: event) }
    /// Whether the data stage may answer with what it found in the disk cache.
    var mayAnswerFromDisk: Bool { sink?.operationMayAnswerFromDisk(operation) ?? true }
    var completedBytes: Int64 { sink?.progress(ofOperation: operation) ?? 0 }
}

/// Where diagnostic events go (``ImagePipeline/Configuration/eventHandler``); `nil` drops them.
package typealias PipelineEventSink = (@Sendable (ImagePipeline.Event) -> Void)?
