// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the pipeline asks for the formats it decodes, and a server that negotiates them (as an
// image CDN does) answers with WebP, over real loopback HTTP.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct FormatNegotiationOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-negotiation-\(UUID())")

    private static func negotiatingServer() async throws -> FixtureServer {
        try await FixtureServer.start(configuration: .init { $0.negotiatesFormats = true })
    }

    private static func isWebP(_ data: Data) -> Bool {
        data.count > 12 && data.prefix(4).elementsEqual("RIFF".utf8)
            && data.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    private static func isJPEG(_ data: Data) -> Bool { data.prefix(2).elementsEqual([0xFF, 0xD8]) }

    /// A pipeline without a disk cache on the transport's loader.
    private static func pipeline(_ transport: Transport, advertising: Bool = true) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = transport.makeLoader()
            $0.diskCache = nil
            $0.advertisesDecodableFormats = advertising
        }
    }

    @Test(arguments: Transport.allCases)
    func theDefaultPipelineIsSentWebPAndShowsIt(transport: Transport) async throws {
        let server = try await Self.negotiatingServer()
        let pipeline = Self.pipeline(transport)
        let url = server.imageURL(1, width: 96, height: 64)
        let data = try await pipeline.data(for: ImageRequest(url: url))
        #expect(Self.isWebP(data.data), "the server answered \(data.data.prefix(4).map { String($0, radix: 16) })")
        #expect(data.httpResponse?.headers.first { $0.key.lowercased() == "vary" }?.value == "Accept")
        let image = try await pipeline.image(for: ImageRequest(url: url, options: .reloadIgnoringCachedData))
        #expect(image.image.width == 96 && image.image.height == 64)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func withTheOptionOffTheServerSendsJPEG(transport: Transport) async throws {
        let server = try await Self.negotiatingServer()
        let pipeline = Self.pipeline(transport, advertising: false)
        let data = try await pipeline.data(for: ImageRequest(url: server.imageURL(2, width: 64, height: 64)))
        #expect(Self.isJPEG(data.data))
        await server.stop()
    }

    @Test func aRequestsOwnAcceptIsSentAndKeepsItsOwnDiskEntry() async throws {
        let server = try await Self.negotiatingServer()
        let url = server.imageURL(3, width: 64, height: 64)
        let pipeline = ImagePipeline { $0.diskCache = DiskCache(directory: folder) }
        defer { try? FileManager.default.removeItem(at: folder) }

        let modern = try await pipeline.data(for: ImageRequest(url: url))
        #expect(Self.isWebP(modern.data))
        var jpegOnly = ImageRequest(url: url)
        jpegOnly.headers = ["accept": "image/jpeg"]
        let jpeg = try await pipeline.data(for: jpegOnly)
        #expect(Self.isJPEG(jpeg.data), "the request's own Accept wins")
        #expect(jpeg.cacheType == nil, "not answered by the WebP on disk")
        #expect(server.requestCount(forPath: url.path) == 2)

        // Each representation comes back from its own entry.
        let modernAgain = try await pipeline.data(for: ImageRequest(url: url))
        let jpegAgain = try await pipeline.data(for: jpegOnly)
        #expect(modernAgain.cacheType == .disk && Self.isWebP(modernAgain.data))
        #expect(jpegAgain.cacheType == .disk && Self.isJPEG(jpegAgain.data))
        #expect(server.requestCount(forPath: url.path) == 2)
        await server.stop()
    }

    @Test func aClientThatAsksForNothingGetsJPEG() async throws {
        let server = try await Self.negotiatingServer()
        let client = FixtureClient()
        defer { client.close() }
        let (data, response) = try await client.get(server.imageURL(4, width: 32, height: 32))
        #expect(Self.isJPEG(data))
        #expect(response.value(forHTTPHeaderField: "Vary") == "Accept")
        await server.stop()
    }
}
