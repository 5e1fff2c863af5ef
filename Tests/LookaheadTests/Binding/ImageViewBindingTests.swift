// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageViewBinding: the one-line image view call over a real pipeline, with a fake view.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ImageViewBindingTests {
    let loader: GatedDataLoader
    let pipeline: ImagePipeline
    let view = FakeImageView()
    let hops = ManualScheduler()
    let options: ImageLoadingOptions
    /// The placeholder is 1×1, the failure image 2×2, a memory-cached image 3×3, and image n from the network
    /// (10 + n)×8.
    static let placeholder = Bitmap(width: 1, height: 1, red: 9, green: 9, blue: 9).platformImage
    static let failureImage = Bitmap(width: 2, height: 2, red: 200, green: 0, blue: 0).platformImage

    init() {
        let loader = GatedDataLoader(
            responses: ["https://example.com/404.jpg": .failure(.statusCodeUnacceptable(404, nil))],
            defaultResponse: { url in
                let width = 10 + (Int(url.deletingPathExtension().lastPathComponent) ?? 0)
                let pixels = TestImages.gradient(width: width, height: 8)
                return .success(
                    DataLoadResponse(data: Data(TestImages.encode(pixels: pixels, width: width, height: 8)))
                )
            }
        )
        self.loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        options = ImageLoadingOptions(
            pipeline: pipeline,
            placeholder: Self.placeholder,
            failureImage: Self.failureImage,
            transition: .fadeIn(duration: 0.2)
        )
        // Completions hop to the main thread only when the test runs `hops`.
        view.lookaheadBinding = ImageViewBinding(view: view, options: options, mainScheduler: hops.schedule)
    }

    private func url(_ n: Int) -> URL { URL(string: "https://example.com/\(n).jpg")! }

    /// Releases the download of `url` and waits until its completion's hop to the main thread is scheduled (the
    /// hops scheduled before, by the view's own calls, have run).
    private func release(_ url: URL) async {
        hops.runAll()
        await loader.waitForPending(url.absoluteString)
        loader.release(url.absoluteString)
        await hops.waitForWork()
    }

    /// Releases the download of image `n` and shows its result.
    private func complete(_ n: Int) async {
        await release(url(n))
        hops.runAll()
    }

    @Test func aMemoryHitShowsAtOnceWithoutFadeOrPlaceholder() {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: ImageRequest(url: url(1))
        )
        view.lookahead.setImage(with: url(1), options: options)
        #expect(view.labels == ["3x3"])  // in the call, no placeholder first, no fade
        #expect(loader.record.value.started.isEmpty)
        #expect(view.lookahead.state.image?.pixelWidth == 3)
    }

    @Test func aNetworkImageReplacesThePlaceholderFadingIn() async {
        view.lookahead.setImage(with: url(1), options: options)
        #expect(view.labels == ["1x1"])
        #expect(pipeline.inspectGraph { $0.dataPriority(for: "https://example.com/1.jpg") } == .high)
        await complete(1)
        #expect(view.labels == ["1x1", "11x8 fading"])
        // Shown again for the same URL (the cell comes back): from memory, at once, no fade.
        let other = FakeImageView()
        other.lookahead.setImage(with: url(1), options: options)
        #expect(other.labels == ["11x8"])
    }

    @Test func theCallsPlaceholderOverridesTheOptions() {
        view.lookahead.setImage(
            with: url(1),
            placeholder: Bitmap(width: 5, height: 5, red: 0, green: 0, blue: 0).platformImage,
            options: options
        )
        #expect(view.labels == ["5x5"])
    }

    @Test func reuseNeverShowsTheFirstImage() async throws {
        view.lookahead.setImage(with: url(1), options: options)
        // Someone else wants image 1 too, so its download survives the view's cancel and completes.
        let other = pipeline.imageTask(with: ImageRequest(url: url(1)))
        view.lookahead.setImage(with: url(2), options: options)
        await loader.waitForPending(2)
        loader.release(url(1).absoluteString)
        _ = try await other.response
        hops.runAll()
        #expect(view.labels == ["1x1", "1x1"])  // image 1 never shown
        await complete(2)
        #expect(view.labels == ["1x1", "1x1", "12x8 fading"])
    }

    @Test func aCompletionWhoseHopArrivesAfterANewerCallIsNotShown() async {
        view.lookahead.setImage(with: url(1), options: options)
        await release(url(1))  // image 1 is loaded; its hop to the main thread waits
        #expect(view.lookahead.binding.slot.state.image?.pixelWidth == 11)
        // The cell is reused for row 2 before the hop runs.
        view.lookahead.setImage(with: url(2), options: options)
        hops.runAll()
        #expect(view.labels == ["1x1", "1x1"])
        #expect(view.lookahead.state.request?.url == url(2))
    }

    @Test func aNilURLCancelsTheLoadAndShowsThePlaceholder() async {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: ImageRequest(url: url(3))
        )
        view.lookahead.setImage(with: url(3), options: options)
        view.lookahead.setImage(with: nil as URL?, options: options)  // the image gives way to the placeholder
        #expect(view.labels == ["3x3", "1x1"])
        view.lookahead.setImage(with: url(1), options: options)
        await loader.waitForPending(1)
        view.lookahead.setImage(with: nil as URL?, options: options)
        await loader.waitForCancellations(1)
        #expect(loader.record.value.cancelled == [url(1).absoluteString])
        hops.runAll()
        #expect(view.labels == ["3x3", "1x1", "1x1", "1x1"])
        if case .empty = view.lookahead.state {} else { Issue.record("expected empty, got \(view.lookahead.state)") }
    }

    @Test func cancelStopsTheLoadAndNothingIsShownAfterwards() async {
        view.lookahead.setImage(with: url(1), options: options)
        await loader.waitForPending(1)
        view.lookahead.cancel()
        await loader.waitForCancellations(1)
        hops.runAll()
        #expect(view.labels == ["1x1", "1x1"])
    }

    @Test func aFailureShowsTheFailureImageAndRetryLoadsAgain() async {
        let broken = URL(string: "https://example.com/404.jpg")!
        view.lookahead.setImage(with: broken, options: options)
        await release(broken)
        hops.runAll()
        #expect(view.labels == ["1x1", "2x2"])
        #expect(view.lookahead.state.request?.url == broken)
        // Configured again, the URL waits for its failure backoff: the failure shows at once, nothing loads.
        view.lookahead.setImage(with: broken, options: options)
        #expect(loader.record.value.started.count == 1)
        // An explicit retry loads now.
        view.lookahead.retry()
        #expect(view.labels == ["1x1", "2x2", "1x1"])
        await loader.waitForStarts(2)
    }

    @Test func withoutAFailureImageAFailureKeepsThePlaceholder() async {
        var options = options
        options.failureImage = nil
        let broken = URL(string: "https://example.com/404.jpg")!
        view.lookahead.setImage(with: broken, options: options)
        await release(broken)
        hops.runAll()
        #expect(view.labels == ["1x1", "1x1"])
        if case .failed = view.lookahead.state {} else { Issue.record("expected failed, got \(view.lookahead.state)") }
    }

    @Test func anotherPipelineGetsItsOwnSlotAndTheOldLoadStops() async {
        view.lookahead.setImage(with: url(1), options: options)
        await loader.waitForPending(1)
        let slot = view.lookahead.binding.slot
        let otherLoader = GatedDataLoader()
        var options = options
        options.pipeline = ImagePipeline {
            $0.dataLoader = otherLoader
            $0.diskCache = nil
        }
        view.lookahead.setImage(with: url(2), options: options)
        await loader.waitForCancellations(1)
        await otherLoader.waitForPending(1)
        #expect(view.lookahead.binding.slot !== slot)
        #expect(otherLoader.record.value.started == [url(2).absoluteString])
    }

    @Test func theLoaderIsCreatedOnFirstUseAndKeptByTheView() {
        let view = FakeImageView()
        #expect(view.lookaheadBinding == nil)
        view.lookahead.setImage(with: nil as URL?, options: options)
        let loader = view.lookaheadBinding
        #expect(loader?.slot.pipeline === pipeline)  // created with the call's pipeline
        view.lookahead.setImage(with: nil as URL?, options: options)
        #expect(view.lookaheadBinding === loader)
    }

    @Test func aListBindingJoinsTheListAndUnbindingHandsTheLoadToThePrefetcher() async throws {
        let list = ListImageSlots(pipeline: pipeline, snapshot: ListSnapshot(0..<10))
        view.lookahead.binding.bind(0, request: ImageRequest(url: url(1)), in: list, options: options)
        #expect(view.labels == ["1x1"])
        await loader.waitForPending(1)
        #expect(pipeline.inspectGraph { $0.dataPriority(for: "https://example.com/1.jpg") } == .high)
        list.unbind(0)  // the cell left the screen: the load goes on as a prefetch
        hops.runAll()  // the list emptied the view's slot: the view shows its placeholder
        #expect(view.labels == ["1x1", "1x1"])
        #expect(loader.record.value.cancelled.isEmpty)
        loader.release(url(1).absoluteString)
        let response = try await pipeline.image(for: ImageRequest(url: url(1)))  // joins the running download
        #expect(response.image.pixelWidth == 11)
        #expect(loader.record.value.started.count == 1)
        hops.runAll()
        #expect(view.labels == ["1x1", "1x1"])  // the unbound view does not show it
        list.stop()
    }

    @Test func aViewThatGoesAwayCancelsItsLoad() async {
        do {
            let view = FakeImageView()
            view.lookahead.setImage(with: url(1), options: options)
            await loader.waitForPending(1)
            #expect(view.labels == ["1x1"])  // the view lives until here
        }
        await loader.waitForCancellations(1)
        #expect(loader.record.value.cancelled == [url(1).absoluteString])
    }
}
