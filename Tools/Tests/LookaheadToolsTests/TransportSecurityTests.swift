// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — TLS verification, https → http redirects, bounded response headers, and failure kinds,
// over real loopback servers.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct TransportSecurityTests {
    private static func load(_ url: URL, with loader: any DataLoading) async -> Result<DataLoadResponse, any Error> {
        do {
            return .success(try await loader.loadData(for: DataLoadRequest(url: url, maximumResponseSize: 8 << 20)))
        } catch {
            return .failure(error)
        }
    }

    private static func error(_ result: Result<DataLoadResponse, any Error>) -> DataLoadingError? {
        if case .failure(let error) = result { return error as? DataLoadingError }
        return nil
    }

    private static func transportFailure(_ result: Result<DataLoadResponse, any Error>) -> TransportFailure? {
        if case .transportFailed(let failure)? = error(result) { return failure }
        return nil
    }

    private static let image = Data(try! FixtureImages.jpeg(number: 2, width: 32, height: 32))

    @Test func aSelfSignedCertificateIsATLSFailureUntilTheAppTrustsIt() async throws {
        let server = try await TLSFixture.start(image: Self.image)
        let refused = await Self.load(server.url("/image"), with: DefaultDataLoader())
        #expect(Self.transportFailure(refused)?.kind == .tls, "got \(refused)")

        var options = DataLoaderOptions()
        options.trustedCertificates = [server.certificate]
        let trusted = await Self.load(server.url("/image"), with: DefaultDataLoader(options: options))
        #expect((try? trusted.get())?.data == Self.image)
        await server.stop()
    }

    @Test func thePipelineReportsTheTLSKind() async throws {
        let server = try await TLSFixture.start(image: Self.image)
        let pipeline = ImagePipeline { $0.diskCache = nil }
        do {
            _ = try await pipeline.image(for: server.url("/image"))
            Issue.record("an untrusted certificate loaded")
        } catch {
            guard case .dataLoadingFailed(let underlying) = error,
                case .transportFailed(let failure)? = underlying as? DataLoadingError
            else {
                Issue.record("got \(error)")
                return
            }
            #expect(failure.kind == .tls)
        }
        await server.stop()
    }

    @Test func anHTTPSImageMayNotRedirectToHTTPUnlessAllowed() async throws {
        let plain = try await FixtureServer.start()
        let server = try await TLSFixture.start(image: Self.image)
        let target = plain.imageURL(1, width: 32, height: 32)
        var options = DataLoaderOptions()
        options.trustedCertificates = [server.certificate]
        var components = URLComponents(url: server.url("/to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "location", value: target.absoluteString)]
        let redirect = components.url!
        let refused = await Self.load(redirect, with: DefaultDataLoader(options: options))
        #expect(Self.error(refused) == .insecureRedirect(target))
        #expect(plain.requestCount(forPath: target.path) == 0, "the plain URL was never asked for")

        options.allowsInsecureRedirects = true
        let allowed = await Self.load(redirect, with: DefaultDataLoader(options: options))
        #expect((try? allowed.get())?.response?.statusCode == 200)
        await server.stop()
        await plain.stop()
    }

    @Test(arguments: Transport.allCases)
    func responseHeadersAreBounded(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let loader = transport.makeLoader()
        let many = await Self.load(server.url("/hostile/many-headers?count=1000&size=8"), with: loader)
        #expect(Self.error(many) == .headersTooLarge, "a thousand fields: \(many)")
        let large = await Self.load(server.url("/hostile/many-headers?count=20&size=8000"), with: loader)
        #expect(Self.error(large) == .headersTooLarge, "160 KB of fields: \(large)")
        let usual = await Self.load(server.url("/hostile/many-headers?count=40&size=100"), with: loader)
        #expect((try? usual.get())?.response?.statusCode == 200, "forty fields of 100 bytes load: \(usual)")
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func credentialsAreNotSentToAnotherHostAfterARedirect(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        var options = DataLoaderOptions()
        options.headers = ["Authorization": "Bearer secret", "Cookie": "session=secret"]
        let loader = transport.makeLoader(options: options)
        // The same host: the credentials are sent (and this route refuses them).
        let direct = await Self.load(server.url("/hostile/no-credentials"), with: loader)
        #expect(Self.error(direct).map { if case .statusCodeUnacceptable(403, _) = $0 { true } else { false } } == true)
        // From 127.0.0.1 to localhost: another origin, so they are dropped.
        var other = URLComponents(url: server.url("/hostile/no-credentials"), resolvingAgainstBaseURL: false)!
        other.host = "localhost"
        var redirect = URLComponents(url: server.url("/hostile/redirect-to"), resolvingAgainstBaseURL: false)!
        redirect.queryItems = [URLQueryItem(name: "location", value: other.url!.absoluteString)]
        let redirected = await Self.load(redirect.url!, with: loader)
        #expect((try? redirected.get())?.response?.statusCode == 200, "got \(redirected)")
        await server.stop()
    }

    @Test func aClosedPortIsARefusedConnection() async throws {
        // A socket bound and never listening holds the port, so no server of a test running beside this one can
        // take it: a connection to it is refused.
        let (fd, port) = try LoopbackSocket.bind()
        defer { close(fd) }
        let result = await Self.load(URL(string: "http://127.0.0.1:\(port)/images/1.jpg")!, with: DefaultDataLoader())
        #expect(Self.transportFailure(result)?.kind == .connectionRefused, "got \(result)")
    }
}
