// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the process stage on its own: the last processor, and a failing one as a typed error.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ProcessWorkerTests {
    private struct Halve: ImageProcessing {
        var identifier: String { "halve" }
        func process(_ bitmap: Bitmap) throws -> Bitmap {
            try ImageProcessors.Resize(width: bitmap.width / 2, height: bitmap.height / 2).process(bitmap)
        }
    }

    private struct Broken: ImageProcessing {
        struct Failure: Error {}
        var identifier: String { "broken" }
        func process(_ bitmap: Bitmap) throws -> Bitmap { throw Failure() }
    }

    private let input = PreparedImage(
        image: PlatformImage.make(from: Bitmap(width: 8, height: 4, red: 1, green: 2, blue: 3)),
        response: nil,
        cacheType: .disk
    )

    @Test func onlyTheLastProcessorRuns() throws {
        let request = ImageRequest(url: URL(string: "https://example.com/a.jpg"), processors: [Halve(), Halve()])
        let output = try ProcessWorker().run(input, for: request).get()
        #expect(output.image.pixelWidth == 4 && output.image.pixelHeight == 2, "one halving: the first ran earlier")
        #expect(output.cacheType == .disk, "where the image came from is kept")
    }

    @Test func aFailingProcessorIsATypedError() {
        let request = ImageRequest(url: URL(string: "https://example.com/a.jpg"), processors: [Broken()])
        guard case .failure(.processingFailed(let identifier, _)) = ProcessWorker().run(input, for: request) else {
            Issue.record("expected processingFailed")
            return
        }
        #expect(identifier == "broken")
    }
}
