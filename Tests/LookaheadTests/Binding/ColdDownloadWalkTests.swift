// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — one cold download from an image view's call to the image on screen, with the disk cache on.
// `scripts/cold-walk` runs these two tests under code coverage to list the library files the download enters.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ColdDownloadWalkTests {
    let directory = TemporaryDirectory()
    let loader = GatedDataLoader(
        responses: [:],
        defaultResponse: { _ in
            let pixels = TestImages.gradient(width: 64, height: 48)
            return .success(DataLoadResponse(data: Data(TestImages.encode(pixels: pixels, width: 64, height: 48))))
        }
    )
    let view = FakeImageView()
    let hops = ManualScheduler()
    let pipeline: ImagePipeline
    let options: ImageLoadingOptions
    let url = URL(string: "https://example.com/7.jpg")!

    init() {
        let (loader, directory) = (loader, directory)
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = DiskCache(directory: directory.url)
        }
        options = ImageLoadingOptions(pipeline: pipeline, transition: .fadeIn(duration: 0.2))
        view.lookaheadBinding = ImageViewBinding(view: view, options: options, mainScheduler: hops.schedule)
    }

    /// The baseline of the walk: the pipeline, its caches and the view made, nothing asked for.
    @Test func setUpOnly() {
        #expect(view.labels.isEmpty)
        #expect(loader.record.value.started.isEmpty)
    }

    @Test func aCellShowsADownloadedThumbnailAndTheDiskKeepsTheData() async throws {
        var request = ImageRequest(url: url)
        request.thumbnail = ThumbnailOptions(width: 32, height: 32)
        view.lookahead.setImage(with: request, options: options)
        hops.runAll()
        await loader.waitForPending(url.absoluteString)
        loader.release(url.absoluteString)
        await hops.waitForWork()
        hops.runAll()
        // Aspect fill of 64×48 into 32×32 points at scale 1, faded in over the empty placeholder.
        #expect(view.labels == ["nil", "43x32 fading"])
        let disk = try #require(pipeline.configuration.diskCache)
        await disk.flush()
        #expect(disk.containsData(for: url.absoluteString))
    }
}
