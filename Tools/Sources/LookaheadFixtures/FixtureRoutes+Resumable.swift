// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+Resumable: an image route that serves byte ranges, for resumed downloads.

import Hummingbird

/// | Route | Response |
/// |---|---|
/// | `GET /resumable/{n}.jpg?w=&ranges=&stall=&badRange=` | JPEG n (w×w) with `ETag: "<version>-<n>"` and, unless
/// `ranges=0`, `Accept-Ranges: bytes`. `Range: bytes=N-` (with a matching or absent `If-Range`) is answered `206`
/// with `Content-Range`; a mismatched `If-Range` gets the whole new body (`200`). With `stall=1`, the first `200` for
/// the path writes the first half of the body and then holds the connection (for `holdMs`, default 60 s); later
/// ones are whole. `badRange=start` makes a 206 claim it starts at byte 0, `badRange=giant` an absurd end. |
extension FixtureRoutes {
    func registerResumable(on router: Router<FixtureRequestContext>) {
        router.get("/resumable/{n}.jpg") { request, context in
            try await resumable(request, context: context)
        }
    }

    private func resumable(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let path = request.uri.path
        guard let number = context.parameters.get("n", as: Int.self), number >= 0 else {
            return Self.text(.notFound, "no such image: \(path)\n")
        }
        let query = request.uri.queryParameters
        let width = FixtureImages.clampedDimension(query.get("w").flatMap { Int($0) } ?? 256)
        let acceptsRanges = query.get("ranges") != "0"
        let version = httpCacheLedger.version(path: path)
        let etag = "\"\(version)-\(number)\""
        let key = EncodedImageCache.Key(
            number: version == "v1" ? number : number + 1_000,
            width: width,
            height: width,
            quality: configuration.jpegQuality
        )
        let jpeg = try await cache.jpeg(for: key)
        let total = jpeg.readableBytes
        var headers: HTTPFields = [.eTag: etag, .contentType: "image/jpeg"]
        if acceptsRanges { headers[.acceptRanges] = "bytes" }
        if request.headers[.range] != nil { httpCacheLedger.recordRangeRequest(path: path) }

        if acceptsRanges, let start = Self.rangeStart(request.headers[.range]), start < total,
            request.headers[.ifRange].map({ $0 == etag }) ?? true
        {
            let rest = jpeg.getSlice(at: jpeg.readerIndex + start, length: total - start) ?? ByteBuffer()
            headers[.contentRange] =
                switch query.get("badRange") {
                case "start": "bytes 0-\(total - start - 1)/\(total)"  // the right bytes, labelled as the wrong ones
                case "giant": "bytes \(start)-99999999999999999999999/*"
                default: "bytes \(start)-\(total - 1)/\(total)"
                }
            httpCacheLedger.record(path: path, bodyBytes: rest.readableBytes, notModified: false, partial: true)
            return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: rest))
        }
        guard query.get("stall") == "1", httpCacheLedger.takeStall(path: path) else {
            httpCacheLedger.record(path: path, bodyBytes: total, notModified: false)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: jpeg))
        }
        let half = jpeg.getSlice(at: jpeg.readerIndex, length: total / 2) ?? ByteBuffer()
        httpCacheLedger.record(path: path, bodyBytes: half.readableBytes, notModified: false)
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(contentLength: total) { writer in
                try await writer.write(half)
                try await Self.hold(request, context: context)
            }
        )
    }

    /// `N` of `bytes=N-`; `nil` for any other form (a suffix, a closed or multiple range).
    private static func rangeStart(_ value: String?) -> Int? {
        guard let value, value.hasPrefix("bytes="), value.hasSuffix("-") else { return nil }
        let digits = value.dropFirst("bytes=".count).dropLast()
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
