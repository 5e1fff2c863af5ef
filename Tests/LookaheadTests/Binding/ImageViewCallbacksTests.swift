// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the callbacks of `view.lookahead.setImage` and of LazyImageModel: a completion once per load
// (never for a replaced one), progress for the current load only, the priority of a visible load, and a load that
// goes on at low priority when its view disappears.

import Foundation
import Testing

@testable import Lookahead

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ImageViewCallbacksTests {
    let loader = GatedDataLoader(responses: ["https://example.com/404.jpg": .failure(.statusCodeUnacceptable(404, nil))]
    )
    let pipeline: ImagePipeline
    let view = FakeImageView()
    let hops = ManualScheduler()
    let options: ImageLoadingOptions
    let results = AsyncCondition<[String]>([])

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        options = ImageLoadingOptions(pipeline: pipeline, transition: .none)
        view.lookaheadBinding = ImageViewBinding(view: view, options: options, mainScheduler: hops.schedule)
    }

    private func url(_ name: String) -> URL { URL(string: "https://example.com/\(name).jpg")! }

    /// Records a result as "name: cache pixels" or "name: failed".
    private func record(_ name: String) -> ImageViewBinding.Completion {
        let results = results
        return { result in
            switch result {
            case .success(let response):
                let cache = response.cacheType.map { "\($0)" } ?? "network"
                results.update {
                    $0.append("\(name): \(cache) \(response.image.pixelWidth)x\(response.image.pixelHeight)")
                }
            case .failure:
                results.update { $0.append("\(name): failed") }
            }
        }
    }

    private func finish(_ name: String) async {
        hops.runAll()  // the hops of the view's own calls
        await loader.waitForPending(url(name).absoluteString)
        loader.release(url(name).absoluteString)
        await hops.waitForWork()
        hops.runAll()
    }

    @Test func theActivityIndicatorShowsWhileTheImageLoadsAndOnlyWhenAsked() async {
        var options = options
        options.showsActivityIndicator = true
        view.lookahead.setImage(with: url("a"), options: options, completion: record("a"))
        #expect(view.activity == [true])
        await finish("a")
        #expect(view.activity == [true, false])
        #expect(results.value == ["a: network 64x48"])
        view.lookahead.setImage(with: url("a"), options: options)  // a memory hit: no indicator
        view.lookahead.setImage(with: url("b"), options: self.options)  // not asked for
        #expect(view.activity == [true, false])
    }

    @Test func aMemoryHitCompletesBeforeTheCallReturns() {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: ImageRequest(url: url("a"))
        )
        view.lookahead.setImage(with: url("a"), options: options, completion: record("a"))
        #expect(results.value == ["a: memory 3x3"])
    }

    @Test func aLoadCompletesOnceWhenShownAndAReplacedLoadNever() async {
        view.lookahead.setImage(with: url("a"), options: options, completion: record("a"))
        view.lookahead.setImage(with: url("b"), options: options, completion: record("b"))
        await finish("b")
        #expect(results.value == ["b: network 64x48"])
        // A later render (another hop) does not call it again; the replaced load never calls.
        view.lookaheadBinding?.render()
        #expect(results.value == ["b: network 64x48"])
    }

    @Test func aFailureCompletesWithTheErrorAndACancelledLoadNever() async {
        view.lookahead.setImage(with: url("404"), options: options, completion: record("404"))
        await finish("404")
        #expect(results.value == ["404: failed"])
        view.lookahead.setImage(with: url("c"), options: options, completion: record("c"))
        view.lookahead.cancel()
        hops.runAll()
        #expect(results.value == ["404: failed"])
    }

    @Test func progressReachesTheCurrentLoadOnly() async throws {
        let body = TestImages.jpeg
        let chunked = ChunkedDataLoader(body: body, chunkEnds: [100])
        let pipeline = ImagePipeline {
            $0.dataLoader = chunked
            $0.diskCache = nil
        }
        // A view whose binding hops through the main queue, as in an app.
        let view = FakeImageView()
        let progress = AsyncCondition<[Int64]>([])
        view.lookahead.setImage(
            with: url("p"),
            options: ImageLoadingOptions(pipeline: pipeline, transition: .none),
            progress: { completed, _ in progress.update { $0.append(completed) } },
            completion: record("p")
        )
        chunked.release()
        await progress.wait { $0 == [100] }
        chunked.release()
        await results.wait { !$0.isEmpty }
        #expect(progress.value == [100, Int64(body.count)])
        #expect(results.value == ["p: network 64x48"])
    }

    @Test func theOptionsPriorityIsTheVisibleLoadsPriority() async {
        var urgent = options
        urgent.priority = .veryHigh
        view.lookahead.setImage(with: url("d"), options: urgent)
        await loader.waitForPending(1)
        #expect(pipeline.inspectGraph { $0.dataPriority(for: url("d").absoluteString) } == .veryHigh)
    }

    @Test func aLazyImageThatDisappearsLowersItsLoadInsteadOfStoppingIt() async throws {
        let model = LazyImageModel(request: nil, options: options)
        model.disappearBehavior = .lowerPriority
        let request = ImageRequest(url: url("e"))
        model.appear(request)
        await loader.waitForPending(1)
        model.disappear()
        #expect(model.phase.image == nil)
        #expect(pipeline.inspectGraph { $0.dataPriority(for: url("e").absoluteString) } == .veryLow)
        #expect(loader.record.value.cancelled.isEmpty)
        // The download finishes while the view is away: back on screen, the image is in memory.
        loader.release(url("e").absoluteString)
        await pipeline.waitUntilIdle()
        #expect(pipeline.cachedImage(for: request) != nil)
        model.appear(request)
        #expect(model.phase.image != nil)
        #expect(loader.record.value.started.count == 1)
    }

    @Test func aLazyImageReportsItsCompletion() async {
        let model = LazyImageModel(request: nil, options: options)
        model.onCompletion = record("f")
        model.appear(ImageRequest(url: url("f")))
        await loader.waitForPending(1)
        loader.release(url("f").absoluteString)
        await results.wait { !$0.isEmpty }
        #expect(results.value == ["f: network 64x48"])
    }
}
