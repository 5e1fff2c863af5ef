// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif

/// Loads data over HTTP with `URLSession`, the default loader on Apple platforms. No `URLCache`; only 2xx responses.
/// Cancelling resumes the caller at once; on Linux, where FoundationNetworking cannot cancel a task between a redirect
/// and its next request, the task is stopped from its next delegate callback (prefer ``CurlDataLoader`` there).
public final class URLSessionDataLoader: DataLoading {
    /// What the loader accepts.
    public let options: DataLoaderOptions
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
    ///
    /// - Parameters:
    ///   - configuration: the session's settings; the loader sets its connections per host from `options`.
    ///   - options: the limits, and the trust (certificates and pins) checked when a server presents its certificate.
    public init(
        configuration: URLSessionConfiguration = URLSessionDataLoader.defaultConfiguration,
        options: DataLoaderOptions = DataLoaderOptions()
    ) {
        let router = TaskRouter(options: options)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Lookahead.URLSessionDataLoader"
        configuration.httpMaximumConnectionsPerHost = options.maximumConnectionsPerHost
        self.options = options
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        if let local = try await DataSource.loadWithoutNetwork(request, options: options) { return local }
        if let refusal = router.pinRefusal(for: request.url) { throw refusal }
        // A request started from a cancelled task would still reach the server.
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if let idle = request.idleTimeout { urlRequest.timeoutInterval = idle.secondsValue }
        if let agent = options.userAgent { urlRequest.setValue(agent, forHTTPHeaderField: "User-Agent") }
        for (name, value) in options.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let started = Locked<URLSessionDataTask?>(nil)
        return try await ResumeOnce<DataLoadResponse>.run { completion in
            let task = session.dataTask(with: urlRequest)
            task.priority = request.priority.sessionTaskPriority
            let redirects = RedirectRules(from: request.url, options: options)
            router.register(task, TaskRouter.Transfer(request: request, completion: completion, redirects: redirects))
            started.withLock { $0 = task }
            task.resume()
            if let timeout = request.timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.secondsValue) { [weak router] in
                    router?.expire(task, after: timeout)
                }
            }
        } onCancel: { [router] in
            if let task = started.withLock({ $0 }) { router.stop(task) }
        }
    }
}

/// The platform's default data loader: ``CurlDataLoader`` on Linux, ``URLSessionDataLoader`` on Apple platforms.
#if canImport(CCurl)
public typealias DefaultDataLoader = CurlDataLoader
#else
public typealias DefaultDataLoader = URLSessionDataLoader
#endif

// MARK: - Delegate

/// Receives the session's delegate callbacks (on its serial queue) and routes them to the transfer they belong to.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    struct Transfer: Sendable {
        let request: DataLoadRequest
        let completion: ResumeOnce<DataLoadResponse>
        var data = Data()
        var response: HTTPResponseInfo?
        var expected: Int64?
        var failure: DataLoadingError?
        var redirects: RedirectRules
        /// The caller is gone; stop the task at its next callback.
        var isStopping = false

        /// Hands the body so far of a `200` to ``DataLoadRequest/partialBodyOnInterruption``; `nil` when there is none.
        var handOverPartialBody: (@Sendable () -> Void)? {
            guard let handler = request.partialBodyOnInterruption, let response, response.statusCode == 200,
                !data.isEmpty
            else { return nil }
            let data = data
            return { handler(data, response) }
        }
    }

    private let transfers = Locked<[Int: Transfer]>([:])
    private let options: DataLoaderOptions

    init(options: DataLoaderOptions) {
        self.options = options
    }

    /// The failure of a load to `url` whose pins cannot be checked: FoundationNetworking never shows the certificate.
    func pinRefusal(for url: URL) -> DataLoadingError? {
        #if canImport(FoundationNetworking)
        guard !options.pinnedPublicKeyHashes.isEmpty, url.scheme?.lowercased() == "https" else { return nil }
        let message = "FoundationNetworking cannot check pinned public keys; nothing was sent"
        return .transportFailed(TransportFailure(kind: .tls, message: message))
        #else
        return nil
        #endif
    }

    func register(_ task: URLSessionDataTask, _ transfer: Transfer) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// The caller cancelled (and has been resumed): the body so far of a `200` is handed over, once.
    func stop(_ task: URLSessionDataTask) {
        let handOver = modify(task.taskIdentifier) { transfer -> (@Sendable () -> Void)? in
            defer { transfer.isStopping = true }
            guard !transfer.isStopping, transfer.failure == nil, let handOver = transfer.handOverPartialBody else {
                return nil
            }
            transfer.data = Data()
            return handOver
        }
        handOver??()
        #if !canImport(FoundationNetworking)
        task.cancel()  // safe in every state on Apple platforms
        #endif
    }

    /// The deadline passed: fail the caller now, stop the task at its next callback.
    func expire(_ task: URLSessionDataTask, after timeout: Duration) {
        let completion = modify(task.taskIdentifier) { transfer -> ResumeOnce<DataLoadResponse> in
            transfer.isStopping = true
            return transfer.completion
        }
        completion?.resume(with: .failure(DataLoadingError.timedOut(.total(timeout))))
        #if !canImport(FoundationNetworking)
        task.cancel()
        #endif
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let follow =
            modify(task.taskIdentifier) { transfer -> URLRequest? in
                if transfer.isStopping { return nil }
                guard let target = request.url else {
                    transfer.failure = .unsupportedURL(transfer.request.url)
                    return nil
                }
                if let refusal = transfer.redirects.accept(target) ?? pinRefusal(for: target) {
                    transfer.failure = refusal
                    return nil
                }
                var forwarded = request
                for name in request.allHTTPHeaderFields?.keys ?? [:].keys
                where !transfer.redirects.mayForward(name, to: target) {
                    forwarded.setValue(nil, forHTTPHeaderField: name)
                }
                return forwarded
            } ?? nil
        // Answering nil ends the task with the 3xx as its response: the one safe way to stop it here.
        completionHandler(follow)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = modify(dataTask.taskIdentifier) { transfer -> Bool in
            if transfer.isStopping || transfer.failure != nil { return false }
            guard let http = response as? HTTPURLResponse else {
                transfer.expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                return true
            }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields {
                headers[name] = value
            }
            let size = headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 }  // "name: value\r\n"
            guard headers.count <= options.maximumHeaderFieldCount, size <= options.maximumHeaderSize else {
                transfer.failure = .headersTooLarge
                return false
            }
            let info = HTTPResponseInfo(url: http.url, statusCode: http.statusCode, headers: headers)
            transfer.response = info
            transfer.expected = info.expectedContentLength
            if let refusal = transfer.request.refusal(of: info) {
                transfer.failure = refusal
                return false
            }
            transfer.data.reserveCapacity(transfer.request.reservation(forDeclaredLength: transfer.expected))
            return true
        }
        completionHandler(accepted == true ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // The body grows in place under the lock; the callbacks run after it is let go.
        let report =
            modify(dataTask.taskIdentifier) { transfer -> (() -> Void)? in
                guard transfer.failure == nil, !transfer.isStopping else { return nil }
                if let limit = transfer.request.maximumResponseSize, transfer.data.count + data.count > limit {
                    transfer.failure = .responseTooLarge(limit: limit)
                    transfer.data = Data()
                    return nil
                }
                transfer.data.append(data)
                let (request, completed, total) = (transfer.request, Int64(transfer.data.count), transfer.expected)
                let body = request.onData == nil ? Data() : transfer.data
                return {
                    request.progress(completed, total)
                    request.onData?(body)
                }
            } ?? nil
        if let report {
            report()
        } else {
            // A body callback comes after the last redirect, so cancelling here is safe on every platform.
            dataTask.cancel()
        }
    }

    /// The server's certificate against the options' anchors and pins, and the app's client certificate (Apple
    /// platforms).
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
        if challenge.protectionSpace.authenticationMethod == ClientCertificate.authenticationMethod,
            let client = options.clientCertificate
        {
            if let credential = ServerTrust.credential(for: client) {
                completionHandler(.useCredential, credential)
            } else {
                let failure = TransportFailure(kind: .tls, message: "the client certificate's archive does not open")
                _ = modify(task.taskIdentifier) { $0.failure = .transportFailed(failure) }
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
            return
        }
        // A protection space holds a trust only for a server-trust challenge.
        if let trust = challenge.protectionSpace.serverTrust,
            !options.trustedCertificates.isEmpty || !options.pinnedPublicKeyHashes.isEmpty
        {
            if let refusal = ServerTrust.evaluate(trust, options: options) {
                _ = modify(task.taskIdentifier) { $0.failure = .transportFailed(refusal) }
                completionHandler(.cancelAuthenticationChallenge, nil)
            } else {
                completionHandler(.useCredential, URLCredential(trust: trust))
            }
            return
        }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result: Result<DataLoadResponse, any Error>
        if let failure = transfer.failure {
            result = .failure(failure)
        } else if transfer.isStopping {
            result = .failure(CancellationError())
        } else if let error {
            result = .failure(Self.map(error, transfer: transfer))
        } else if let response = transfer.response, !(200..<300).contains(response.statusCode) {
            result = .failure(DataLoadingError.statusCodeUnacceptable(response.statusCode, response))
        } else if let expected = transfer.expected, Int64(transfer.data.count) < expected {
            result = .failure(DataLoadingError.truncated(received: Int64(transfer.data.count), expected: expected))
        } else {
            result = .success(DataLoadResponse(data: transfer.data, response: transfer.response))
        }
        // A body cut short (reset, truncated, stalled) keeps what arrived, so a later load can resume it.
        if case .failure(let error as DataLoadingError) = result, error.isInterruption {
            transfer.handOverPartialBody?()
        }
        transfer.completion.resume(with: result)
    }

    private static func map(_ error: any Error, transfer: Transfer) -> any Error {
        guard let urlError = error as? URLError else { return error }
        let received = Int64(transfer.data.count)
        let cause = TransportFailure(urlError)
        let cutShort = urlError.code == .networkConnectionLost || received < (transfer.expected ?? 0)
        switch urlError.code {
        case .cancelled: return CancellationError()
        case .timedOut:
            return DataLoadingError.timedOut(.idle(transfer.request.idleTimeout ?? .seconds(60)), cause: cause)
        case _ where cutShort:
            return DataLoadingError.truncated(received: received, expected: transfer.expected, cause: cause)
        case .httpTooManyRedirects: return DataLoadingError.tooManyRedirects(limit: 0)
        default: return DataLoadingError.transportFailed(cause)
        }
    }

    /// Mutates a transfer in place under the lock; `nil` when there is none for the task.
    private func modify<R>(_ id: Int, _ body: (inout Transfer) -> R) -> R? {
        transfers.withLock { transfers in
            guard transfers[id] != nil else { return nil }
            return body(&transfers[id]!)
        }
    }
}
