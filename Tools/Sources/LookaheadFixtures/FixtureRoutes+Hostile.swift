// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — FixtureRoutes+Hostile: a network that misbehaves the way real ones do.

import Foundation
import Hummingbird

extension FixtureRoutes {
    /// Adds the `/hostile/...` network routes. Every one is deterministic and bounded in time: a route that
    /// stalls holds the connection for at most `holdMs` milliseconds (default 60 000), then closes it; a body that
    /// never ends stops when a write fails because the client went away.
    ///
    /// | Route | Response |
    /// |---|---|
    /// | `redirect/{hops}?delayMs=&to=` | 302 to `redirect/{hops-1}` … then to `to` (default a 64×64 JPEG) |
    /// | `redirect-loop/{name}` | `a` → `b` → `a` …: a loop of two |
    /// | `redirect-to?location=` | 302 to any location (`ftp://…`, `file:///etc/passwd`) |
    /// | `endless` | 200, chunked, bytes for ever |
    /// | `gzip-bomb?mb=` | 200, `Content-Encoding: gzip`, inflates to `mb` MiB of zeros (default 1024) |
    /// | `declared-huge?bytes=` | 200 with `Content-Length: bytes` (default 200 MB), then 64 KiB, then silence |
    /// | `short-body?declared=&sent=` | `Content-Length: declared`, `sent` bytes of a JPEG, then the connection closes |
    /// | `trickle?intervalMs=&bytes=&holdMs=` | one byte every `intervalMs` (default 20 s), for at most `holdMs` |
    /// | `stall-headers?holdMs=` | nothing at all until the client leaves or `holdMs` passes |
    /// | `stall-body?holdMs=` | headers and the first 1 KiB of a JPEG, then nothing |
    /// | `many-headers?count=&size=` | a 64×64 JPEG with `count` extra header fields of `size` bytes each |
    /// | `no-credentials` | a 64×64 JPEG, or 403 when the request carries `Authorization` or `Cookie` |
    /// | `needs-token?token=` | a 64×64 JPEG for `Authorization: Bearer {token}`, else 401 |
    /// | `headers/{name}` | a 64×64 JPEG; the request's fields kept for ``FixtureServer/receivedHeaders(forPath:)`` |
    func registerHostileNetwork(on router: Router<FixtureRequestContext>) {
        registerHostileRedirects(on: router)
        registerHostileSizes(on: router)
        registerHostileCredentials(on: router)
        registerHostileStalls(on: router)
    }

    /// `redirect`, `redirect-loop`, `redirect-to` and `endless`.
    private func registerHostileRedirects(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/redirect/{hops}") { request, context in
            try await redirect(request, context: context)
        }
        router.get("/hostile/redirect-loop/{name}") { _, context in
            let name = context.parameters.get("name") ?? "a"
            return Self.redirect(to: "/hostile/redirect-loop/" + (name == "a" ? "b" : "a"))
        }
        router.get("/hostile/redirect-to") { request, _ in
            Self.redirect(to: request.uri.queryParameters.get("location") ?? "/")
        }
        router.get("/hostile/endless") { _, context in
            Self.endless(context: context)
        }
    }

    /// `gzip-bomb`, `declared-huge` and `many-headers`.
    private func registerHostileSizes(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/gzip-bomb") { request, _ in
            let size = Self.integer(request.uri.queryParameters.get("mb"), default: 1024, in: 1...(16 << 10)) ?? 1024
            let body = ByteBuffer(bytes: CompressionBomb.gzip(mebibytes: size))
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg", .contentEncoding: "gzip"],
                body: .init(byteBuffer: body)
            )
        }
        router.get("/hostile/declared-huge") { request, context in
            let declared =
                Self.integer(request.uri.queryParameters.get("bytes"), default: 200_000_000, in: 1...(1 << 40))
                ?? 200_000_000
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: ResponseBody(contentLength: declared) { writer in
                    try await writer.write(ByteBuffer(repeating: 0xFF, count: 64 << 10))
                    try await Self.hold(request, context: context)
                }
            )
        }
        router.get("/hostile/many-headers") { request, _ in
            let query = request.uri.queryParameters
            let count = Self.integer(query.get("count"), default: 1000, in: 0...10_000) ?? 1000
            let size = Self.integer(query.get("size"), default: 16, in: 1...(64 << 10)) ?? 16
            var response = Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: .init(byteBuffer: try await cache.jpeg(for: .init(number: 1, width: 64, height: 64, quality: 85)))
            )
            let value = String(repeating: "x", count: size)
            for index in 0..<count {
                response.headers[.init("x-filler-\(index)")!] = value
            }
            return response
        }
    }

    /// `no-credentials`, `needs-token` and `headers`.
    private func registerHostileCredentials(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/headers/{name}") { request, _ in
            headerLedger.record(
                path: request.uri.path,
                fields: request.headers.map { (name: $0.name.canonicalName, value: $0.value) }
            )
            let jpeg = try await cache.jpeg(for: .init(number: 1, width: 64, height: 64, quality: 85))
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: jpeg))
        }
        router.get("/hostile/no-credentials") { request, _ in
            if request.headers[.authorization] != nil || request.headers[.cookie] != nil {
                return Self.text(.forbidden, "credentials reached this host\n")
            }
            let jpeg = try await cache.jpeg(for: .init(number: 1, width: 64, height: 64, quality: 85))
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: jpeg))
        }
        router.get("/hostile/needs-token") { request, _ in
            let token = request.uri.queryParameters.get("token") ?? "good"
            guard request.headers[.authorization] == "Bearer \(token)" else {
                var response = Self.text(.unauthorized, "a bearer token is needed\n")
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            }
            let jpeg = try await cache.jpeg(for: .init(number: 1, width: 64, height: 64, quality: 85))
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: jpeg))
        }
    }

    /// `short-body`, `trickle`, `stall-headers` and `stall-body`.
    private func registerHostileStalls(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/short-body") { request, context in
            try await shortBody(request, context: context)
        }
        router.get("/hostile/trickle") { request, context in
            Self.trickle(request, context: context)
        }
        router.get("/hostile/stall-headers") { request, context in
            try await Self.hold(request, context: context)
            return Response(status: .ok)
        }
        router.get("/hostile/stall-body") { request, context in
            let jpeg = try await cache.jpeg(for: .init(number: 1, width: 200, height: 200, quality: 85))
            let head = jpeg.getSlice(at: jpeg.readerIndex, length: min(1024, jpeg.readableBytes)) ?? ByteBuffer()
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: ResponseBody(contentLength: jpeg.readableBytes) { writer in
                    try await writer.write(head)
                    try await Self.hold(request, context: context)
                }
            )
        }
    }

    private func redirect(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let hops = context.parameters.get("hops", as: Int.self), (0...100).contains(hops),
            let delay = Self.integer(query.get("delayMs"), default: 0, in: 0...10_000)
        else { return Self.text(.badRequest, "hops must be in 0...100 and delayMs in 0...10000\n") }
        if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
        let target = query.get("to") ?? "/images/1.jpg?w=64&h=64"
        guard hops > 0 else { return Self.redirect(to: target) }
        var next = "/hostile/redirect/\(hops - 1)?delayMs=\(delay)"
        if let to = query.get("to"), let escaped = to.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            next += "&to=" + escaped
        }
        return Self.redirect(to: next)
    }

    private func shortBody(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let jpeg = try await cache.jpeg(for: .init(number: 2, width: 200, height: 200, quality: 85))
        let query = request.uri.queryParameters
        let declared = Self.integer(query.get("declared"), default: jpeg.readableBytes, in: 1...(1 << 30)) ?? 1
        let sent = Self.integer(query.get("sent"), default: declared / 2, in: 0...(1 << 30)) ?? 0
        let part = jpeg.getSlice(at: jpeg.readerIndex, length: min(sent, jpeg.readableBytes)) ?? ByteBuffer()
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg"],
            body: ResponseBody(contentLength: declared) { writer in
                try await writer.write(part)
                await context.closeConnection()
                throw CancellationError()
            }
        )
    }

    private static func endless(context: FixtureRequestContext) -> Response {
        let block = ByteBuffer(repeating: 0xAB, count: 64 << 10)
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg"],
            body: ResponseBody { writer in
                while context.isConnectionOpen() {
                    try await writer.write(block)
                }
                throw CancellationError()
            }
        )
    }

    private static func trickle(_ request: Request, context: FixtureRequestContext) -> Response {
        let query = request.uri.queryParameters
        let interval = integer(query.get("intervalMs"), default: 20_000, in: 1...600_000) ?? 20_000
        let length = integer(query.get("bytes"), default: 1000, in: 1...(1 << 20)) ?? 1000
        let giveUp = holdDeadline(request)
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg"],
            body: ResponseBody(contentLength: length) { writer in
                for _ in 0..<length {
                    try await writer.write(ByteBuffer(repeating: 0xFF, count: 1))
                    let resume = ContinuousClock.now + .milliseconds(interval)
                    if await !waitWhileConnected(until: min(resume, giveUp), context: context) || resume > giveUp {
                        await context.closeConnection()
                        throw CancellationError()
                    }
                }
                try await writer.finish(nil)
            }
        )
    }

    /// Holds the connection without writing for `holdMs` milliseconds of the request's query (default 60 000),
    /// or until the client has gone, then closes it and ends the response with an error.
    static func hold(_ request: Request, context: FixtureRequestContext) async throws {
        _ = await waitWhileConnected(until: holdDeadline(request), context: context)
        await context.closeConnection()
        throw CancellationError()
    }

    /// When a route that stalls lets go: `holdMs` of the query (default 60 000) from now.
    private static func holdDeadline(_ request: Request) -> ContinuousClock.Instant {
        let hold = integer(request.uri.queryParameters.get("holdMs"), default: 60_000, in: 0...600_000) ?? 60_000
        return .now + .milliseconds(hold)
    }

    /// Waits until `deadline`, polling the connection every 20 ms; `false` as soon as the client is gone (or the
    /// server stops).
    private static func waitWhileConnected(
        until deadline: ContinuousClock.Instant,
        context: FixtureRequestContext
    ) async -> Bool {
        while ContinuousClock.now < deadline {
            guard context.isConnectionOpen(), !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return context.isConnectionOpen()
    }

    /// A 302 with a short HTML body, as web servers and CDNs send them.
    static func redirect(to location: String) -> Response {
        let body = "<html><body>Found. Redirecting to <a href=\"\(location)\">\(location)</a></body></html>\n"
        return Response(
            status: .found,
            headers: [.location: location, .contentType: "text/html"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }
}
