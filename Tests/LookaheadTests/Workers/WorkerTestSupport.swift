// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — what the stage tests run a stage with instead of a pipeline: a dictionary cache and a recorder.

import Foundation

@_spi(Simulation) @testable import Lookahead

/// A disk cache in a dictionary, recording what the stage stores and removes.
final class DictionaryCache: DataCaching {
    private let entries = Locked<[String: Data]>([:])
    private let log = Locked<(stores: [String], removals: [String])>(([], []))

    var stores: [String] { log.withLock { $0.stores } }
    var removals: [String] { log.withLock { $0.removals } }

    func cachedData(for key: String) -> Data? { entries.withLock { $0[key] } }
    func storeData(_ data: Data, for key: String) {
        log.withLock { $0.stores.append(key) }
        entries.withLock { $0[key] = data }
    }
    func removeData(for key: String) {
        log.withLock { $0.removals.append(key) }
        entries.withLock { $0[key] = nil }
    }
    func removeAll() { entries.withLock { $0.removeAll() } }
}

/// Records what a running stage reports about its operation.
final class RecordingReporter: OperationReporting {
    struct Record: Sendable {
        var progress: [Int64] = []
        var startedDownload = false
        var stalled = false
        var previews = 0
    }

    let record = Locked(Record())

    func operation(_ operation: TaskGraph.OperationID, reported event: TaskGraph.OperationEvent) {
        record.withLock {
            switch event {
            case .progressed(let completed, _): $0.progress.append(completed)
            case .startedDownload: $0.startedDownload = true
            case .stalled: $0.stalled = true
            case .previewed: $0.previews += 1
            }
        }
    }
    func operationMayAnswerFromDisk(_ operation: TaskGraph.OperationID) -> Bool { true }
    func progress(ofOperation operation: TaskGraph.OperationID) -> Int64 {
        record.withLock { $0.progress.last ?? 0 }
    }

    func reporter() -> OperationReporter { OperationReporter(operation: TaskGraph.OperationID(1), sink: self) }
}

/// Runs decode work at once, on the calling thread; downloads as plain tasks.
struct InlineExecutor: ImagePipelineExecutor {
    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(priority: priority, operation: work)
    }

    func runDecode(_ work: @escaping @Sendable () -> Void) { work() }
}
