// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — RequestTrackingMiddleware: counts requests and watches their bodies being written.

import Hummingbird

/// Records every request in the ledger and wraps the response body so that the ledger learns
/// whether the body was written to the end or cut short.
///
/// A response counts as aborted when
/// - writing its body throws: the peer closed the connection, or the server stopped while the
///   body paused between chunks;
/// - the connection is already known to be closed when the handler returns (the response head
///   could not be written, so the body would never start), as after `/faults/reset`;
/// - the handler was cancelled because the server stopped (e.g. during the latency delay).
///
/// The server does not read from a connection while it handles a request on it, so it learns
/// that the client left only when a write fails: the first write after the client's close
/// usually still succeeds (the kernel buffers it and the peer answers with a reset), and a
/// later one fails with "I/O on closed channel". Bodies written in several chunks therefore
/// show aborts reliably; a body written in one go after the client left counts as completed.
///
/// Other errors thrown by handlers (such as "no such route") count as neither aborted nor
/// completed.
struct RequestTrackingMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext

    let ledger: RequestLedger
    /// During an outage every connection is closed unanswered (``FixtureServer/startOutage(for:)``).
    let outage: OutageSwitch
    /// Responses the test holds back (``FixtureServer/holdResponses(withPathPrefix:)``).
    let holds: ResponseHolds

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        var context = context
        context.requestIndex = ledger.recordRequest(path: path, connection: context.remoteEndpoint)
        if outage.isDown {
            ledger.recordAbort(path: path)
            return await FixtureRoutes.resetConnection(context: context)
        }
        await holds.waitIfHeld(path)
        var response: Response
        do {
            try Task.checkCancellation()
            response = try await next(request, context)
        } catch is CancellationError {
            ledger.recordAbort(path: path)
            throw CancellationError()
        }
        guard context.isConnectionOpen() else {
            ledger.recordAbort(path: path)
            return response
        }
        let body = response.body
        let ledger = self.ledger
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                ledger.recordAbort(path: path)
                throw error
            }
            ledger.recordCompletion(path: path)
        }
        return response
    }
}
