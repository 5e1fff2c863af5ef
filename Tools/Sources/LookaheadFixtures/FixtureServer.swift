// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer: a loopback HTTP server with generated images and injectable faults.

public import Foundation
import Hummingbird

/// A real HTTP/1.1 server on the loopback interface that serves deterministic JPEGs and
/// misbehaves on request, for integration tests, the gallery and the benchmarks.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// let (data, _) = try await URLSession.shared.data(from: server.imageURL(3, width: 64))
/// #expect(Array(data) == (try FixtureImages.jpeg(number: 3, width: 64, height: 64)))
/// #expect(server.requestCount(forPath: "/images/3.jpg") == 1)
/// await server.stop()
/// ```
///
/// Routes: `GET /images/{n}.jpg?w=&h=`, the paginated media API
/// `GET /api/v2/content/misc/media-coverages?limit=&offset=` (see ``MediaItem``) with its
/// covers at `GET /media/{quality}/{key}`, `GET /status/{code}`, and the fault routes under
/// `/faults/` (`empty`, `corrupt.jpg`, `truncated.jpg`, `huge-dimensions.jpg`, `large`, `slow`,
/// `reset`). Every request is counted by path, and every response body is recorded as either
/// completed or aborted, so tests can wait for those events instead of sleeping.
///
/// The media covers are generated pictures, or real photos resized server-side when
/// ``Configuration/photosFolder`` names a folder of JPEGs.
///
/// The image routes can also fail at random but reproducibly, see
/// ``Configuration/faults`` and ``injectedFaults``.
///
/// - Important: All methods are thread-safe. Call ``stop()`` when done; a server that is
///   released without it is cancelled in `deinit`, without waiting for the shutdown.
public final class FixtureServer: Sendable {
    /// The settings the server was started with (`port` as requested, possibly 0).
    public let configuration: Configuration
    /// The port the server is listening on.
    public let port: Int
    /// `http://HOST:PORT`, with no trailing slash.
    public let baseURL: URL
    /// How many photos of ``Configuration/photosFolder`` the media covers show; 0 for generated
    /// pictures.
    public let photoCount: Int

    let ledger: RequestLedger
    let faultLedger: FaultLedger
    let httpCacheLedger: HTTPCacheLedger
    let headerLedger: RequestHeaderLedger
    let outage: OutageSwitch
    let holds: ResponseHolds
    private let serverTask: Task<Void, Never>

    private init(
        configuration: Configuration,
        port: Int,
        baseURL: URL,
        photoCount: Int,
        ledger: RequestLedger,
        faultLedger: FaultLedger,
        httpCacheLedger: HTTPCacheLedger,
        headerLedger: RequestHeaderLedger,
        outage: OutageSwitch,
        holds: ResponseHolds,
        serverTask: Task<Void, Never>
    ) {
        self.configuration = configuration
        self.port = port
        self.baseURL = baseURL
        self.photoCount = photoCount
        self.ledger = ledger
        self.faultLedger = faultLedger
        self.httpCacheLedger = httpCacheLedger
        self.headerLedger = headerLedger
        self.outage = outage
        self.holds = holds
        self.serverTask = serverTask
    }

    deinit {
        serverTask.cancel()
    }

    // MARK: - Lifecycle

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameter configuration: Where to listen and what network conditions to simulate.
    /// - Throws: ``Error/startFailed(reason:)`` if the address cannot be bound (for example the
    ///   port is taken), the host is not usable in a URL, the fault rates are invalid (see
    ///   ``FaultInjection/validationFailure``), the photos folder cannot be read or holds no JPEG,
    ///   or the calling task is cancelled.
    public static func start(configuration: Configuration = .init()) async throws(Error) -> FixtureServer {
        var photos: PhotoLibrary?
        if let folder = configuration.photosFolder {
            photos = try await PhotoLibrary.load(folder: folder)
        }
        let routes = try FixtureRoutes(configuration: configuration, photos: photos)
        let ledger = RequestLedger()
        let router = Router(context: FixtureRequestContext.self)
        let outage = OutageSwitch()
        let holds = ResponseHolds()
        router.add(middleware: RequestTrackingMiddleware(ledger: ledger, outage: outage, holds: holds))
        routes.register(on: router)

        let signal = StartupSignal()
        var app = Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "lookahead-fixture-server"
            ),
            onServerRunning: { [boundAddress = routes.boundAddress] channel in
                if let port = channel.localAddress?.port {
                    if let baseURL = makeBaseURL(host: configuration.host, port: port) {
                        boundAddress.set(baseURL.absoluteString)
                    }
                    signal.succeed(port: port)
                } else {
                    signal.fail(.startFailed(reason: "the listening socket has no port"))
                }
            }
        )
        if !configuration.shouldLogServerEvents {
            app.logger.logLevel = .critical
        }
        let serverTask = Task { [app] in
            do {
                try await app.run()
                signal.fail(.startFailed(reason: "the server stopped before it was listening"))
            } catch {
                signal.fail(.startFailed(reason: String(describing: error)))
            }
        }

        let (port, baseURL) = try await listening(signal, serverTask: serverTask, host: configuration.host)
        return FixtureServer(
            configuration: configuration,
            port: port,
            baseURL: baseURL,
            photoCount: photos?.photos.count ?? 0,
            ledger: ledger,
            faultLedger: routes.faultLedger,
            httpCacheLedger: routes.httpCacheLedger,
            headerLedger: routes.headerLedger,
            outage: outage,
            holds: holds,
            serverTask: serverTask
        )
    }

    /// Waits until the server listens: its port and base URL. When it cannot, stops it and throws.
    private static func listening(
        _ signal: StartupSignal,
        serverTask: Task<Void, Never>,
        host: String
    ) async throws(Error) -> (Int, URL) {
        let port: Int
        do {
            port = try await signal.wait()
        } catch {
            serverTask.cancel()
            await serverTask.value
            throw error
        }
        guard let baseURL = makeBaseURL(host: host, port: port) else {
            serverTask.cancel()
            await serverTask.value
            throw .startFailed(reason: "host \(host) cannot be used in a URL")
        }
        return (port, baseURL)
    }

    /// Stops the server and returns once it has shut down. Calling it again does nothing.
    ///
    /// The listening socket closes and every connection is closed: responses still pending or
    /// being written (latency delays, slow bodies, bandwidth-limited images) are cut off and
    /// counted as aborted.
    public func stop() async {
        serverTask.cancel()
        await serverTask.value
    }

    // MARK: - URLs

    /// The URL of `path` on this server; `path` starts with `/` and may carry a query. Returns
    /// ``baseURL`` if `path` is not valid URL text.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL
    }

    /// The URL of generated image `n`, optionally with an explicit width and height.
    ///
    /// With only one of `width` and `height` the server makes a square picture; with neither it
    /// uses ``Configuration/defaultImageSize``.
    public func imageURL(_ n: Int, width: Int? = nil, height: Int? = nil) -> URL {
        var query: [String] = []
        if let width { query.append("w=\(width)") }
        if let height { query.append("h=\(height)") }
        if configuration.redirectHops > 0 { query.append("hops=\(min(configuration.redirectHops, 5))") }
        return url("/images/\(n).jpg" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }

    /// The URL of a page of the media API; `nil` leaves the parameter out, so the server uses
    /// its default (a limit of 20, offset 0).
    public func mediaPageURL(limit: Int? = nil, offset: Int? = nil) -> URL {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let offset { query.append("offset=\(offset)") }
        return url(MediaCatalog.pagePath + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }

    /// The URL of `thumbnail`'s picture at `quality` (a width in pixels, or
    /// ``MediaThumbnail/originalQuality``) on this server, whatever host the thumbnail names.
    public func mediaImageURL(_ thumbnail: MediaThumbnail, quality: Int) -> URL {
        url("/\(thumbnail.basePath)/\(quality)/\(thumbnail.key)")
    }

    private static func makeBaseURL(host: String, port: Int) -> URL? {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(hostPart):\(port)")
    }
}
