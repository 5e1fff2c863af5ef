// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+HTTPCache: an image route with caching headers, validators and 304 answers.

import Hummingbird

/// | Route | Response |
/// |---|---|
/// | `GET /cacheable/{n}.jpg?w=&h=&cc=&age=&vary=` | JPEG n with `ETag: "<version>-<n>"` (the version is `v1`
/// until ``FixtureServer/setCacheableVersion(_:forPath:)`` changes it), a fixed `Last-Modified`, and
/// `Cache-Control: <cc>`, `Age: <age>` and `Vary: <vary>` when given; `304 Not Modified` (no body) when `If-None-Match` holds that tag, or, without
/// `If-None-Match`, when `If-Modified-Since` is the `Last-Modified` date. Another version also shifts the pixels,
/// so a stale image is told from a new one; the status ``FixtureServer/setCacheableStatus(_:forPath:)`` sets, with the
/// same caching headers and a text body, in place of all that. |
extension FixtureRoutes {
    /// The `Last-Modified` date of every cacheable image.
    static let cacheableLastModified = "Sun, 06 Nov 1994 08:49:37 GMT"

    func registerHTTPCache(on router: Router<FixtureRequestContext>) {
        router.get("/cacheable/{n}.jpg") { request, context in
            try await cacheable(request, context: context)
        }
    }

    private func cacheable(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let path = request.uri.path
        guard let number = context.parameters.get("n", as: Int.self), number >= 0 else {
            return Self.text(.notFound, "no such image: \(path)\n")
        }
        let query = request.uri.queryParameters
        let width = FixtureImages.clampedDimension(query.get("w").flatMap { Int($0) } ?? 64)
        let height = FixtureImages.clampedDimension(query.get("h").flatMap { Int($0) } ?? width)
        let version = httpCacheLedger.version(path: path)
        let etag = "\"\(version)-\(number)\""
        var headers: HTTPFields = [.eTag: etag, .lastModified: Self.cacheableLastModified]
        if let cacheControl = query.get("cc") { headers[.cacheControl] = String(cacheControl) }
        if let age = query.get("age") { headers[.age] = String(age) }
        if let vary = query.get("vary") { headers[.vary] = String(vary) }
        if let status = httpCacheLedger.status(path: path) {
            httpCacheLedger.record(path: path, bodyBytes: 0, notModified: false)
            headers[.contentType] = "text/plain"
            return Response(
                status: HTTPResponse.Status(code: status),
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: "status \(status)\n"))
            )
        }

        let notModified: Bool
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            notModified = ifNoneMatch.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
        } else {
            notModified = request.headers[.ifModifiedSince] == Self.cacheableLastModified
        }
        if notModified {
            httpCacheLedger.record(path: path, bodyBytes: 0, notModified: true)
            return Response(status: .notModified, headers: headers)
        }
        let key = EncodedImageCache.Key(
            number: version == "v1" ? number : number + 1_000,
            width: width,
            height: height,
            quality: configuration.jpegQuality
        )
        let jpeg = try await cache.jpeg(for: key)
        httpCacheLedger.record(path: path, bodyBytes: jpeg.readableBytes, notModified: false)
        headers[.contentType] = "image/jpeg"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: jpeg))
    }
}
