// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — what the default loaders accept without the network: `data:` URLs and scheme checks.

import Foundation
import Testing

@testable import Lookahead

@Suite struct LocalSourcesTests {
    private func load(_ string: String, limit: Int? = nil) async throws -> Data {
        let loader = DefaultDataLoader()
        return try await loader.loadData(for: DataLoadRequest(url: URL(string: string)!, maximumResponseSize: limit))
            .data
    }

    @Test func base64DataURLsDecode() async throws {
        let url = "data:image/jpeg;base64," + TestImages.jpeg.base64EncodedString()
        #expect(try await load(url) == TestImages.jpeg)
        let response = try await ImagePipeline { $0.diskCache = nil }.image(for: URL(string: url)!)
        #expect(response.image.pixelWidth == 64 && response.image.pixelHeight == 48)
    }

    @Test func percentEncodedDataURLsDecode() async throws {
        #expect(try await load("data:,A%20brief%20note") == Data("A brief note".utf8))
        #expect(try await load("data:application/octet-stream,%00%FF%7f") == Data([0, 255, 127]))
    }

    @Test func dataURLsHonourTheSizeLimit() async throws {
        let url = "data:;base64," + Data(repeating: 7, count: 1000).base64EncodedString()
        await #expect(throws: DataLoadingError.responseTooLarge(limit: 999)) { try await load(url, limit: 999) }
        #expect(try await load(url, limit: 1000).count == 1000)
    }

    @Test func malformedDataURLsAreUnsupportedURLs() async throws {
        for string in ["data:image/png;base64", "data:;base64,@@@@", "data:;base64,QUJD%"] {
            await #expect(throws: DataLoadingError.unsupportedURL(URL(string: string)!), "\(string)") {
                try await load(string)
            }
        }
    }

    @Test(arguments: ["ftp://example.com/a.jpg", "javascript:alert(1)", "gopher://example.com/", "file:///etc/passwd"])
    func otherSchemesAreRejectedByName(string: String) async throws {
        let scheme = String(string.prefix { $0 != ":" })
        await #expect(throws: DataLoadingError.unsupportedScheme(scheme)) { try await load(string) }
        let pipeline = ImagePipeline { $0.diskCache = nil }
        await #expect {
            _ = try await pipeline.image(for: URL(string: string)!)
        } throws: { error in
            guard case .unsupportedScheme(let reported) = error as? ImagePipeline.Error else { return false }
            return reported == scheme
        }
    }

    @Test func httpWithoutAHostIsAnInvalidURL() async throws {
        await #expect(throws: DataLoadingError.unsupportedURL(URL(string: "http:///a.jpg")!)) {
            try await load("http:///a.jpg")
        }
    }

    @Test func dataURLsStayOutOfTheDiskCache() async throws {
        let folder = TemporaryDirectory()
        let disk = DiskCache(directory: folder.url)
        let pipeline = ImagePipeline {
            $0.diskCache = disk
            $0.memoryCache = nil
        }
        let url = "data:image/jpeg;base64," + TestImages.jpeg.base64EncodedString()
        _ = try await pipeline.image(for: URL(string: url)!)
        await disk.flush()
        #expect(disk.totalCount == 0)
    }
}
