// Lookahead — RequestTrackingMiddleware: counts requests and watches their bodies being written.

import Hummingbird

/// Records every request in the ledger and wraps the response body so that the ledger learns
/// whether the body was written to the end or cut short.
///
/// A response counts as aborted when
/// - writing its body throws: the peer closed the connection (the next write fails with
///   "I/O on closed channel"), or the server stopped while the body paused between chunks;
/// - the connection is already closed when the handler returns, e.g. the client left during
///   the latency delay (its response head could not be written, so the body never starts);
/// - the handler was cancelled because the server stopped (e.g. during the latency delay).
///
/// Other errors thrown by handlers (such as "no such route") count as neither aborted nor
/// completed.
struct RequestTrackingMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext

    let ledger: RequestLedger

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        var context = context
        context.requestIndex = ledger.recordRequest(path: path)
        var response: Response
        do {
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
