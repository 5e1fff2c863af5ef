// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+Faults: broken files, odd sizes, slow and dropped bodies.

import Hummingbird

/// The fixed bodies of the broken-JPEG routes, prepared once when the server starts.
struct FaultBodies: Sendable {
    let corrupt: ByteBuffer
    let truncated: ByteBuffer
    let hugeDimensions: ByteBuffer

    init(quality: Int) throws(FixtureServer.Error) {
        self.corrupt = ByteBuffer(bytes: FixtureImages.corruptJPEG())
        let whole = try FixtureImages.jpeg(number: 1, width: 200, height: 200, quality: quality)
        self.truncated = ByteBuffer(bytes: whole.prefix(whole.count / 2))
        self.hugeDimensions = ByteBuffer(bytes: try FixtureImages.hugeDimensionsJPEG())
    }
}

extension FixtureRoutes {
    /// Adds the `/faults/...` routes:
    ///
    /// - `empty`: 200 with an empty body.
    /// - `corrupt.jpg`: 200, `FF D8 FF` then garbage.
    /// - `truncated.jpg`: 200, the first half of a valid JPEG (Content-Length matches the half).
    /// - `huge-dimensions.jpg`: a small valid JPEG whose frame header claims 65000×65000.
    /// - `large?bytes=N&length=true|false`: N pattern bytes, with or without `Content-Length`
    ///   (without it the body is sent with chunked transfer encoding).
    /// - `slow?bytes=N&chunk=K&delayMs=D`: N bytes in K-byte chunks, D ms apart, with
    ///   `Content-Length`; the first chunk goes out at once.
    /// - `reset`: closes the connection before writing any part of a response (counted as an
    ///   aborted response).
    func registerFaults(on router: Router<FixtureRequestContext>) {
        router.get("/faults/empty") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"])
        }
        router.get("/faults/corrupt.jpg") { _, _ in
            Self.jpeg(faults.corrupt)
        }
        router.get("/faults/truncated.jpg") { _, _ in
            Self.jpeg(faults.truncated)
        }
        router.get("/faults/huge-dimensions.jpg") { _, _ in
            Self.jpeg(faults.hugeDimensions)
        }
        router.get("/faults/large") { request, _ in
            large(request)
        }
        router.get("/faults/slow") { request, _ in
            slow(request)
        }
        router.get("/faults/reset") { _, context in
            await Self.resetConnection(context: context)
        }
    }

    /// Closes the request's connection and returns a response that will never be written.
    ///
    /// Closing the channel here means Hummingbird's attempt to write the response head fails, so
    /// the client sees the connection end with no response at all, and the request counts as
    /// aborted.
    static func resetConnection(context: FixtureRequestContext) async -> Response {
        await context.closeConnection()
        return Response(status: .ok)
    }

    private func large(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        guard let length = Self.integer(query.get("bytes"), default: 1 << 20, in: 0...(1 << 30)) else {
            return Self.text(.badRequest, "bytes must be an integer in 0...\(1 << 30)\n")
        }
        guard let sendsLength = query.get("length").map({ Bool($0) }) ?? true else {
            return Self.text(.badRequest, "length must be true or false\n")
        }
        let body = PacedBody(source: .pattern(length: length), chunkSize: 64 * 1024, pacing: .unlimited)
        return Response(
            status: .ok,
            headers: [.contentType: "application/octet-stream"],
            body: body.responseBody(sendsLength: sendsLength)
        )
    }

    private func slow(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        guard
            let length = Self.integer(query.get("bytes"), default: 64 * 1024, in: 0...(1 << 30)),
            let chunk = Self.integer(query.get("chunk"), default: 1024, in: 1...(1 << 20)),
            let delay = Self.integer(query.get("delayMs"), default: 50, in: 0...60_000)
        else {
            return Self.text(.badRequest, "bytes, chunk and delayMs must be non-negative integers in range\n")
        }
        let body = PacedBody(
            source: .pattern(length: length),
            chunkSize: chunk,
            pacing: .pauseBetweenChunks(.milliseconds(delay))
        )
        return Response(
            status: .ok,
            headers: [.contentType: "application/octet-stream"],
            body: body.responseBody()
        )
    }

    private static func jpeg(_ bytes: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: bytes))
    }

    /// Parses an optional integer query value: `fallback` when absent, `nil` when malformed or
    /// outside `range`.
    static func integer(_ value: String?, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return fallback }
        guard let number = Int(value), range.contains(number) else { return nil }
        return number
    }
}
