// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+HostileStatus: error statuses under many paths, with or without Retry-After.

import Foundation
import Hummingbird

extension FixtureRoutes {
    /// Adds `GET /hostile/status/{code}/{name}`: status `code` (400...599) with a short text body, for any
    /// `name`, so a test can make hundreds of distinct failing URLs and count the requests for each path.
    ///
    /// - `?retry-after=N`: a `Retry-After: N` header (delta-seconds).
    /// - `?retry-after-date=N`: a `Retry-After` HTTP-date N seconds from now. The response's `Date` is the
    ///   server's clock cached about once a second (less often when the server is busy), so measured from it
    ///   the wait is N seconds or a little more.
    func registerHostileStatus(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/status/{code}/{name}") { request, context in
            hostileStatus(request, context: context)
        }
    }

    private func hostileStatus(_ request: Request, context: FixtureRequestContext) -> Response {
        guard let code = context.parameters.get("code", as: Int.self), (400...599).contains(code) else {
            return Self.text(.badRequest, "status code must be an integer in 400...599\n")
        }
        let query = request.uri.queryParameters
        var response = Self.text(HTTPResponse.Status(code: code), "HTTP status \(code)\n")
        if let seconds = query.get("retry-after") {
            guard let seconds = Int(seconds), seconds >= 0 else {
                return Self.text(.badRequest, "retry-after must be a whole number of seconds\n")
            }
            response.headers[.retryAfter] = String(seconds)
        } else if let seconds = query.get("retry-after-date") {
            guard let seconds = Int(seconds), seconds >= 0 else {
                return Self.text(.badRequest, "retry-after-date must be a whole number of seconds\n")
            }
            response.headers[.retryAfter] = Self.httpDate(Date().addingTimeInterval(TimeInterval(seconds)))
        }
        return response
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
