// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — listing items from a media API that misbehaves.

import Foundation
import LookaheadFixtures
import Testing

@testable import LookaheadGallery

@Suite(.timeLimit(.minutes(1))) struct GallerySourceTests {
    @Test func anEndlessAPIAnswerStopsAtThePageLimit() async throws {
        let server = try await FixtureServer.start()
        let source = GallerySource.api(server.url("/hostile/endless"))
        do {
            _ = try await source.items(limit: 10)
            Issue.record("an endless page was accepted")
        } catch {
            #expect(error.description.contains("sent more than 8 MiB"), "\(error.description)")
        }
        await server.waitForAbort(path: "/hostile/endless")
        await server.stop()
    }

    @Test func theEmbeddedAPIStillLists() async throws {
        let server = try await FixtureServer.start()
        let items = try await GallerySource.api(server.url("/api/v2/content/misc/media-coverages")).items(limit: 60)
        #expect(items.count == 60)
        await server.stop()
    }
}
