// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CCurl)
import Foundation

/// Loads data over HTTP and HTTPS with libcurl, the default loader on Linux. Cancelling closes the connection at once.
/// Decoded body chunks are checked as they arrive (a compression bomb stops at the size limit); no cache, no cookies.
public final class CurlDataLoader: DataLoading {
    /// What the loader accepts.
    public let options: DataLoaderOptions
    private let multi: CurlMulti

    /// Creates a loader with a multi handle and a thread of its own.
    public init(options: DataLoaderOptions = DataLoaderOptions()) {
        self.options = options
        self.multi = CurlMulti(maximumConnectionsPerHost: options.maximumConnectionsPerHost)
    }

    deinit {
        multi.shutDown()
    }

    public func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        if let local = try await DataSource.loadWithoutNetwork(request, options: options) { return local }
        let start = ContinuousClock.now
        let fields = options.headers.merging(request.headers) { _, new in new }
        var redirects = RedirectRules(from: request.url, options: options)
        var url = request.url
        while true {
            let hop = CurlTransfer.Hop(url: url, fields: redirects.fields(fields, forwardedTo: url), chainStart: start)
            switch try await load(hop, of: request) {
            case .response(let response):
                return response
            case .redirect(let target):
                if let refusal = redirects.accept(target) { throw refusal }
                url = target
            }
        }
    }

    /// One request of the chain on the multi handle.
    private func load(_ hop: CurlTransfer.Hop, of request: DataLoadRequest) async throws -> CurlTransfer.Outcome {
        // A request started from a cancelled task would still reach the server.
        try Task.checkCancellation()
        let started = Locked<CurlTransfer?>(nil)
        return try await ResumeOnce<CurlTransfer.Outcome>.run { completion in
            let transfer = CurlTransfer(request: request, hop: hop, options: options, completion: completion)
            started.withLock { $0 = transfer }
            multi.add(transfer)
        } onCancel: { [multi] in
            if let transfer = started.withLock({ $0 }) { multi.cancel(transfer) }
        }
    }
}
#endif
