// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRequestContext: the per-request context the fixture routes run with.

import Hummingbird

/// Hummingbird request context carrying what the fixture routes need beyond the basics.
struct FixtureRequestContext: RequestContext {
    /// Hummingbird's own per-request storage (logger, endpoint, path parameters).
    var coreContext: CoreRequestContextStorage

    /// The index of this request among the requests for the same path since the last counter
    /// reset; set by ``RequestTrackingMiddleware`` and used to derive latency jitter.
    var requestIndex = 0

    /// Closes the connection this request arrived on, discarding anything not yet written.
    let closeConnection: @Sendable () async -> Void

    /// Whether the connection this request arrived on is still open. It turns false shortly
    /// after the client closes its end, once the server has read the end of the stream.
    let isConnectionOpen: @Sendable () -> Bool

    /// The client's end of the connection (address and port), which tells connections apart.
    let remoteEndpoint: String

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        let channel = source.channel
        self.remoteEndpoint = channel.remoteAddress.map { "\($0)" } ?? ""
        self.closeConnection = {
            try? await channel.close().get()
        }
        self.isConnectionOpen = {
            channel.isActive
        }
    }
}
