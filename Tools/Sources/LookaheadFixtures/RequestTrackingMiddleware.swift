// Lookahead fixtures — middleware that counts requests and watches their bodies being written.

import Hummingbird

/// Records every request in the ledger and wraps the response body so that the ledger learns
/// whether the body was written to the end or cut short.
///
/// A body counts as aborted when writing it throws: the peer closed the connection (the next
/// write fails), or the handler task was cancelled while pausing between chunks (server stop).
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
        var response = try await next(request, context)
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
