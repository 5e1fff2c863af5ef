// Lookahead — URLSessionDataLoader: the default data loader, URLSession with a streaming delegate.

import Foundation
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Loads data over HTTP with `URLSession` (FoundationNetworking on Linux).
///
/// - No `URLCache`: the pipeline's own caches hold images; HTTP caching would store every body twice.
/// - Only 2xx responses are accepted; others fail with ``DataLoadingError/statusCodeUnacceptable(_:_:)``.
/// - The size limit is enforced from `Content-Length` before the body arrives, and again while it streams,
///   so a server that does not declare the length cannot send more than the limit either.
/// - Cancelling the calling task cancels the `URLSessionDataTask`: the transfer stops and the server sees
///   the connection close.
/// - `file:` URLs are read directly from disk, off the cooperative pool, with the same size limit.
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader()))
/// ```
public final class URLSessionDataLoader: DataLoading {
    private let session: URLSession
    private let router: TaskRouter

    /// A session configuration for images: no URL cache, no cookies, a 60-second request timeout.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 60
        configuration.httpMaximumConnectionsPerHost = 6
        return configuration
    }

    /// Creates a loader with its own `URLSession`.
    public init(configuration: URLSessionConfiguration = URLSessionDataLoader.defaultConfiguration) {
        let router = TaskRouter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Lookahead.URLSessionDataLoader"
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        if request.url.isFileURL { return try await FileDataReader.read(request) }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DataLoadingError.unsupportedURL(request.url)
        }
        // A request started from a cancelled task would still reach the server.
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let handle = CancellationHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<DataLoadResponse, any Error>) in
                let task = session.dataTask(with: urlRequest)
                router.register(
                    task.taskIdentifier,
                    TaskRouter.Transfer(
                        limit: request.maximumResponseSize,
                        progress: request.progress,
                        continuation: continuation
                    )
                )
                if handle.attach(task) {
                    task.resume()
                } else {
                    router.finish(task.taskIdentifier, error: CancellationError())
                    task.cancel()  // never started; cancelling removes it from the session
                }
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

// MARK: - Cancellation

/// Connects Swift task cancellation, which may come before the data task exists, to the data task.
private final class CancellationHandle: Sendable {
    private let state = Mutex<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

    /// Stores the task; `false` when cancellation came first and the task must not start.
    func attach(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.task = task
            return true
        }
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}

// MARK: - Delegate

/// Receives the session's delegate callbacks (on its serial queue) and routes them to the transfer they belong to.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    struct Transfer: Sendable {
        let limit: Int?
        let progress: @Sendable (Int64, Int64?) -> Void
        let continuation: CheckedContinuation<DataLoadResponse, any Error>
        var data = Data()
        var response: HTTPResponseInfo?
        var expected: Int64?
        var failure: (any Error)?
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    func register(_ id: Int, _ transfer: Transfer) {
        transfers.withLock { $0[id] = transfer }
    }

    /// Removes a transfer and resumes its continuation exactly once.
    func finish(_ id: Int, error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return }
        if let failure = transfer.failure {
            transfer.continuation.resume(throwing: failure)
        } else if let error {
            transfer.continuation.resume(throwing: Self.map(error))
        } else {
            transfer.continuation.resume(returning: DataLoadResponse(data: transfer.data, response: transfer.response))
        }
    }

    private static func map(_ error: any Error) -> any Error {
        if let urlError = error as? URLError, urlError.code == .cancelled { return CancellationError() }
        return error
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = modify(dataTask.taskIdentifier) { transfer -> Bool in
            guard let http = response as? HTTPURLResponse else {
                transfer.expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                return true
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            let info = HTTPResponseInfo(url: http.url, statusCode: http.statusCode, headers: headers)
            transfer.response = info
            transfer.expected = info.expectedContentLength
            if !(200..<300).contains(http.statusCode) {
                transfer.failure = DataLoadingError.statusCodeUnacceptable(http.statusCode, info)
                return false
            }
            if let limit = transfer.limit, let expected = transfer.expected, expected > Int64(limit) {
                transfer.failure = DataLoadingError.responseTooLarge(limit: limit)
                return false
            }
            // The header is the server's word, not a fact: reserve at most 8 MiB ahead of the bytes.
            if let expected = transfer.expected, expected > 0 {
                transfer.data.reserveCapacity(Int(min(expected, Int64(transfer.limit ?? Int.max), 8 << 20)))
            }
            return true
        }
        completionHandler(accepted == true ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // The body grows in place: copying the transfer out and back would copy the whole body per chunk.
        let update =
            modify(dataTask.taskIdentifier) {
                transfer -> (progress: @Sendable (Int64, Int64?) -> Void, completed: Int64, total: Int64?)? in
                guard transfer.failure == nil else { return nil }
                if let limit = transfer.limit, transfer.data.count + data.count > limit {
                    transfer.failure = DataLoadingError.responseTooLarge(limit: limit)
                    transfer.data = Data()
                    return nil
                }
                transfer.data.append(data)
                return (transfer.progress, Int64(transfer.data.count), transfer.expected)
            } ?? nil
        if let update {
            update.progress(update.completed, update.total)
        } else {
            dataTask.cancel()
        }
    }

    /// Mutates a transfer in place under the lock; `nil` when there is none for the task.
    private func modify<R>(_ id: Int, _ body: (inout Transfer) -> R) -> R? {
        transfers.withLock { transfers in
            guard transfers[id] != nil else { return nil }
            return body(&transfers[id]!)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(task.taskIdentifier, error: error)
    }
}
