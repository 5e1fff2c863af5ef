// Lookahead — FixtureRoutes: the image and status routes of the fixture server.

import Hummingbird

/// The request handlers of the fixture server.
///
/// | Route | Response |
/// |---|---|
/// | `GET /images/{n}.jpg?w=&h=` | generated JPEG n (delayed by latency, paced by bandwidth) |
/// | `GET /status/{code}` | that status (200...599) with a short text body |
/// | `GET /faults/...` | broken responses, see `FixtureRoutes+Faults.swift` |
struct FixtureRoutes: Sendable {
    let configuration: FixtureServer.Configuration
    let cache: EncodedImageCache
    let faults: FaultBodies

    init(configuration: FixtureServer.Configuration) throws(FixtureServer.Error) {
        self.configuration = configuration
        self.cache = EncodedImageCache()
        self.faults = try FaultBodies(quality: configuration.jpegQuality)
    }

    /// Adds every route to `router`.
    func register(on router: Router<FixtureRequestContext>) {
        router.get("/images/{n}.jpg") { request, context in
            try await image(request, context: context)
        }
        router.get("/status/{code}") { _, context in
            status(context: context)
        }
        registerFaults(on: router)
    }

    // MARK: - Images

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
        let jpeg = try await cache.jpeg(for: key)

        let schedule = configuration.latencySchedule
        if !schedule.isZero {
            let delay = schedule.delay(path: request.uri.path, index: context.requestIndex)
            try await ContinuousClock().sleep(until: arrival + delay)
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
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg"],
            body: body.responseBody()
        )
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
