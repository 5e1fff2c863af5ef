// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — GatedDataLoader: an in-process loader whose loads wait at a gate the test opens.

import Foundation

@testable import Lookahead

/// Records every load and cancellation; while gated, each load waits until the test releases it.
final class GatedDataLoader: DataLoading {
    struct Record: Sendable {
        var started: [String] = []
        var cancelled: [String] = []
        var completed: [String] = []
        /// The priority each load started with, in start order.
        var priorities: [ImageRequest.Priority] = []
        fileprivate var pending: [Int: Pending] = [:]
        fileprivate var nextID = 0
        var pendingURLs: [String] { pending.values.sorted { $0.id < $1.id }.map(\.url) }
    }

    fileprivate struct Pending: Sendable {
        let id: Int
        let url: String
        var continuation: CheckedContinuation<Void, any Error>?
        var isCancelled = false
    }

    /// What the loader answers per URL; URLs not listed get `defaultResponse`.
    let responses: [String: Result<DataLoadResponse, DataLoadingError>]
    let defaultResponse: @Sendable (URL) -> Result<DataLoadResponse, DataLoadingError>
    let isGated: Bool
    let record = AsyncCondition(Record())

    init(
        isGated: Bool = true,
        responses: [String: Result<DataLoadResponse, DataLoadingError>] = [:],
        defaultResponse: @escaping @Sendable (URL) -> Result<DataLoadResponse, DataLoadingError> = { _ in
            .success(DataLoadResponse(data: TestImages.jpeg))
        }
    ) {
        self.isGated = isGated
        self.responses = responses
        self.defaultResponse = defaultResponse
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        let url = request.url.absoluteString
        let id = record.update { record -> Int in
            record.started.append(url)
            record.priorities.append(request.priority)
            record.nextID += 1
            if isGated { record.pending[record.nextID] = Pending(id: record.nextID, url: url) }
            return record.nextID
        }
        if isGated {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = record.update { record -> Bool in
                        guard record.pending[id]?.isCancelled == false else {
                            record.pending[id] = nil
                            return true
                        }
                        record.pending[id]?.continuation = continuation
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let continuation = record.update { record -> CheckedContinuation<Void, any Error>? in
                    guard var pending = record.pending[id], !pending.isCancelled else { return nil }
                    pending.isCancelled = true
                    record.cancelled.append(url)
                    let continuation = pending.continuation
                    if continuation == nil { record.pending[id] = pending } else { record.pending[id] = nil }
                    return continuation
                }
                continuation?.resume(throwing: CancellationError())
            }
        }
        let result = responses[url] ?? defaultResponse(request.url)
        request.progress(1, 2)
        record.update { $0.completed.append(url) }
        return try result.get()
    }

    /// Releases the oldest waiting load for a URL (any URL when `nil`); returns whether one was waiting.
    @discardableResult
    func release(_ url: String? = nil) -> Bool {
        let continuation = record.update { record -> CheckedContinuation<Void, any Error>? in
            guard
                let entry = record.pending.values.sorted(by: { $0.id < $1.id })
                    .first(where: { (url == nil || $0.url == url) && $0.continuation != nil })
            else { return nil }
            record.pending[entry.id] = nil
            return entry.continuation
        }
        continuation?.resume()
        return continuation != nil
    }

    /// Suspends until `count` loads have started.
    func waitForStarts(_ count: Int) async {
        await record.wait { $0.started.count >= count }
    }

    /// Suspends until `count` loads are waiting at the gate.
    func waitForPending(_ count: Int) async {
        await record.wait { $0.pending.values.filter { $0.continuation != nil }.count >= count }
    }

    /// Suspends until a load for `url` waits at the gate.
    func waitForPending(_ url: String) async {
        await record.wait { $0.pending.values.contains { $0.url == url && $0.continuation != nil } }
    }

    /// Suspends until `count` loads were cancelled.
    func waitForCancellations(_ count: Int) async {
        await record.wait { $0.cancelled.count >= count }
    }
}
