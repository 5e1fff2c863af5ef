// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes: the image and status routes of the fixture server.

import Hummingbird

/// The request handlers of the fixture server.
///
/// | Route | Response |
/// |---|---|
/// | `GET /images/{n}.jpg?w=&h=` | generated JPEG n (delayed by latency, paced by bandwidth) |
/// | `GET /api/v2/content/misc/media-coverages?limit=&offset=` | a page of the media catalog as JSON |
/// | `GET /media/{quality}/{key}` | the cover of a media item (like an image) |
/// | `GET /status/{code}` | that status (200...599) with a short text body |
/// | `GET /faults/...` | broken responses, see `FixtureRoutes+Faults.swift` |
/// | `GET /hostile/...` | a misbehaving network, see `FixtureRoutes+Hostile.swift` |
/// | `GET /hostile/status/{code}/{name}` | that status under any name, optionally with `Retry-After` |
/// | `GET /cacheable/{n}.jpg` | an image with validators and `Cache-Control`, see `FixtureRoutes+HTTPCache.swift` |
/// | `GET /resumable/{n}.jpg` | an image served in byte ranges, see `FixtureRoutes+Resumable.swift` |
///
/// The two image routes also break responses on purpose when
/// ``FixtureServer/Configuration/faults`` asks for it.
struct FixtureRoutes: Sendable {
    let configuration: FixtureServer.Configuration
    let cache: EncodedImageCache
    let faults: FaultBodies
    let catalog: MediaCatalog
    /// Counts the faults injected into image responses.
    let faultLedger: FaultLedger
    /// The server's base URL once it is listening; the media API reports it as the domain.
    let boundAddress: BoundAddress
    /// Counts what the `/cacheable/` route sent.
    let httpCacheLedger = HTTPCacheLedger()
    /// The header fields of the requests to `/hostile/headers/`.
    let headerLedger = RequestHeaderLedger()

    /// Routes for `configuration`; `photos`, when given, are the media covers.
    init(configuration: FixtureServer.Configuration, photos: PhotoLibrary? = nil) throws(FixtureServer.Error) {
        if let problem = configuration.faults.validationFailure {
            throw .startFailed(reason: "invalid fault injection: \(problem)")
        }
        self.configuration = configuration
        self.cache = EncodedImageCache(photos: photos)
        self.faults = try FaultBodies(quality: configuration.jpegQuality)
        self.catalog = MediaCatalog(count: configuration.mediaCount, photos: photos)
        self.faultLedger = FaultLedger()
        self.boundAddress = BoundAddress()
    }

    /// Adds every route to `router`.
    func register(on router: Router<FixtureRequestContext>) {
        router.get("/images/{n}.jpg") { request, context in
            try await image(request, context: context)
        }
        router.get("/status/{code}") { _, context in
            status(context: context)
        }
        registerMedia(on: router)
        registerFaults(on: router)
        registerHostileNetwork(on: router)
        registerHostileBodies(on: router)
        registerHostileStatus(on: router)
        registerHTTPCache(on: router)
        registerResumable(on: router)
        registerProgressive(on: router)
        registerAnimated(on: router)
    }

    // MARK: - Images

    /// For `hops=N` (N > 0) in the query: a 302 to the same URL with `hops=N-1`; hop 0 is the image itself.
    static func nextHop(_ request: Request) -> Response? {
        guard let query = request.uri.query, let hops = request.uri.queryParameters.get("hops").flatMap({ Int($0) }),
            hops > 0
        else { return nil }
        let rest = query.split(separator: "&").filter { !$0.hasPrefix("hops=") }
        let next = (rest + ["hops=\(hops - 1)"]).joined(separator: "&")
        return redirect(to: request.uri.path + "?" + next)
    }

    private func image(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let arrival = ContinuousClock.now
        guard let number = context.parameters.get("n", as: Int.self), number >= 0 else {
            return Self.text(.notFound, "no such image: \(request.uri.path)\n")
        }
        let query = request.uri.queryParameters
        // Outer optional: was the parameter given; inner: did it parse.
        let requestedWidth: Int?? = query.get("w").map { Int($0) }
        let requestedHeight: Int?? = query.get("h").map { Int($0) }
        guard requestedWidth != .some(nil), requestedHeight != .some(nil) else {
            return Self.text(.badRequest, "w and h must be integers\n")
        }
        let size = imageSize(width: requestedWidth ?? nil, height: requestedHeight ?? nil)
        let key = EncodedImageCache.Key(
            number: number,
            width: size.width,
            height: size.height,
            quality: configuration.jpegQuality
        )
        return try await imageResponse(.encoded(key), request: request, context: context, arrival: arrival)
    }

    /// The response for `picture`, shared by the image routes: held back
    /// by the latency schedule (counted from `arrival`), paced by the bandwidth limit, and broken
    /// on purpose if the fault injection draws a fault for this path and attempt.
    func imageResponse(
        _ picture: Picture,
        request: Request,
        context: FixtureRequestContext,
        arrival: ContinuousClock.Instant
    ) async throws -> Response {
        let path = request.uri.path
        if let redirect = Self.nextHop(request) { return redirect }
        let fault = configuration.faults.fault(seed: configuration.seed, path: path, attempt: context.requestIndex)
        let (picture, contentType) = negotiated(picture, request: request)
        // Failures and resets never send the picture, so they skip encoding it.
        var jpeg = ByteBuffer()
        if fault != .failure, fault != .reset {
            jpeg = try await self.jpeg(picture)
        }

        let schedule = configuration.latencySchedule
        var delay = schedule.isZero ? Duration.zero : schedule.delay(path: path, index: context.requestIndex)
        if fault == .slow {
            faultLedger.record(.slow)
            delay += configuration.faults.slowDelay
        }
        if delay > .zero {
            try await ContinuousClock().sleep(until: arrival + delay)
        }
        switch fault {
        case .failure:
            faultLedger.record(.failure)
            return Self.text(.internalServerError, "injected failure: \(path), attempt \(context.requestIndex + 1)\n")
        case .reset:
            faultLedger.record(.reset)
            return await Self.resetConnection(context: context)
        case .truncation:
            faultLedger.record(.truncation)
            jpeg = jpeg.getSlice(at: jpeg.readerIndex, length: jpeg.readableBytes / 2) ?? ByteBuffer()
        case .slow, nil:
            break
        }

        let body: PacedBody
        if let rate = configuration.bytesPerSecond {
            body = PacedBody(
                source: .buffer(jpeg),
                chunkSize: PacedBody.chunkSize(forBytesPerSecond: rate),
                pacing: .bytesPerSecond(rate)
            )
        } else {
            body = PacedBody(source: .buffer(jpeg), chunkSize: jpeg.readableBytes, pacing: .unlimited)
        }
        var headers: HTTPFields = [.contentType: contentType]
        if configuration.negotiatesFormats { headers[.vary] = "Accept" }
        return Response(status: .ok, headers: headers, body: body.responseBody())
    }

    /// The picture in the format the request's `Accept` prefers, when the server negotiates formats (WebP for a
    /// client that lists `image/webp` with a weight above 0), and its content type.
    private func negotiated(_ picture: Picture, request: Request) -> (Picture, contentType: String) {
        guard configuration.negotiatesFormats, case .encoded(var key) = picture else { return (picture, "image/jpeg") }
        let accepted = request.headers[values: .accept].flatMap { $0.split(separator: ",") }.contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first?.lowercased() == "image/webp" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
        key.format = accepted ? .webp : .jpeg
        return (.encoded(key), key.format.contentType)
    }

    /// The size to generate: both given → as given; one given → a square; none → the default.
    /// Either way clamped to `1...FixtureImages.maximumDimension`.
    private func imageSize(width: Int?, height: Int?) -> FixtureServer.ImageSize {
        let size: (width: Int, height: Int) =
            switch (width, height) {
            case let (width?, height?): (width, height)
            case let (width?, nil): (width, width)
            case let (nil, height?): (height, height)
            case (nil, nil): (configuration.defaultImageSize.width, configuration.defaultImageSize.height)
            }
        return .init(
            width: FixtureImages.clampedDimension(size.width),
            height: FixtureImages.clampedDimension(size.height)
        )
    }

    // MARK: - Status codes

    private func status(context: FixtureRequestContext) -> Response {
        guard let code = context.parameters.get("code", as: Int.self), (200...599).contains(code) else {
            return Self.text(.badRequest, "status code must be an integer in 200...599\n")
        }
        let status = HTTPResponse.Status(code: code)
        // These statuses must not carry a body.
        if code == 204 || code == 304 {
            return Response(status: status)
        }
        return Self.text(status, "HTTP status \(code)\n")
    }

    /// A plain-text response.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message))
        )
    }
}
