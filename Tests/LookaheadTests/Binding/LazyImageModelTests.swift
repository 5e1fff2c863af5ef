// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — LazyImageModel: the phases of a declarative image view, over a real pipeline and the main queue.

import Foundation
import Testing

@testable import Lookahead

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LazyImageModelTests {
    let loader = GatedDataLoader(responses: [
        "https://example.com/broken.jpg": .failure(.statusCodeUnacceptable(500, nil))
    ])
    let pipeline: ImagePipeline
    let options: ImageLoadingOptions
    let changes = AsyncCondition<[String]>([])

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        options = ImageLoadingOptions(pipeline: pipeline, transition: .fadeIn(duration: 0.2))
    }

    private func request(_ name: String) -> ImageRequest {
        ImageRequest(url: URL(string: "https://example.com/\(name).jpg"))
    }

    /// A model whose changes are recorded as "success 64x48 fading", "loading", "empty", "failure", each repeat once.
    private func makeModel(_ request: ImageRequest?) -> LazyImageModel {
        let model = LazyImageModel(request: request, options: options)
        let changes = changes
        model.onChange = { [unowned model] phase, transition in
            let label: String
            switch phase {
            case .empty: label = model.isLoading ? "loading" : "empty"
            case .success(let image): label = "success \(image.pixelWidth)x\(image.pixelHeight)"
            case .failure: label = "failure"
            }
            let change = transition.isAnimated ? "\(label) fading" : label
            // A progress report redraws the same phase: recorded once.
            changes.update { if $0.last != change { $0.append(change) } }
        }
        return model
    }

    @Test func aMemoryHitIsTheFirstPhaseAndNothingLoads() {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: request("a")
        )
        let model = makeModel(request("a"))
        #expect(model.phase.image?.pixelWidth == 3)  // before the view appears: the first frame shows it
        model.appear(request("a"))
        #expect(model.phase.image?.pixelWidth == 3)
        #expect(changes.value == ["success 3x3"])
        #expect(loader.record.value.started.isEmpty)
        #expect(model.player == nil)  // a still image
    }

    @Test func aMissIsEmptyThenFadesInFromTheMainQueue() async {
        let model = makeModel(request("a"))
        #expect(model.phase.image == nil)
        model.appear(request("a"))
        #expect(changes.value == ["loading"])
        #expect(model.isLoading)
        await loader.waitForPending(1)
        loader.release()
        await changes.wait { $0.count == 2 }  // the completion hopped through the main queue
        #expect(changes.value == ["loading", "success 64x48 fading"])
        #expect(!model.isLoading)
        #expect(model.phase.image?.pixelWidth == 64)
    }

    @Test func disappearingCancelsARunningLoadAndAppearingLoadsAgain() async {
        let model = makeModel(request("a"))
        model.appear(request("a"))
        await loader.waitForPending(1)
        model.disappear()
        await loader.waitForCancellations(1)
        model.appear(request("a"))
        await loader.waitForPending(1)
        #expect(loader.record.value.started.count == 2)
        loader.release()
        await changes.wait { $0.count == 4 }
        #expect(changes.value == ["loading", "empty", "loading", "success 64x48 fading"])
    }

    @Test func disappearingKeepsAnImageAlreadyShown() {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: request("a")
        )
        let model = makeModel(request("a"))
        model.appear(request("a"))
        model.disappear()
        #expect(model.phase.image?.pixelWidth == 3)
        #expect(changes.value == ["success 3x3"])
    }

    @Test func aNewRequestReplacesTheImage() async {
        pipeline.storeCachedImage(
            Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
            for: request("a")
        )
        let model = makeModel(request("a"))
        model.appear(request("a"))
        model.appear(request("b"))
        #expect(changes.value == ["success 3x3", "loading"])
        await loader.waitForPending(1)
        loader.release()
        await changes.wait { $0.count == 3 }
        #expect(changes.value.last == "success 64x48 fading")
    }

    @Test func aFailureIsAPhaseAndRetryLoadsAgain() async {
        let model = makeModel(request("broken"))
        model.appear(request("broken"))
        await loader.waitForPending(1)
        loader.release()
        await changes.wait { $0.count == 2 }
        #expect(changes.value == ["loading", "failure"])
        if case .statusCodeUnacceptable(500, _) = model.phase.error {
        } else {
            Issue.record("expected a 500, got \(model.phase)")
        }
        model.retry()
        #expect(changes.value == ["loading", "failure", "loading"])
        await loader.waitForStarts(2)
    }

    @Test func anAnimatedRequestPlaysItsFramesAsPhases() async {
        let clock = SteppingClock()
        let request = ImageRequest(url: URL(string: "https://example.com/spinner.gif"), isAnimated: true)
        let animation = AnimatedImage.numbered([100, 100, 100], loopCount: 1)
        pipeline.configuration.memoryCache?.store(animation, for: request.imageKey)
        let model = LazyImageModel(request: request, options: options, animationClock: clock)
        var shown: [String] = []
        model.onChange = { phase, transition in
            shown.append("\(phase.image?.pixelWidth ?? 0)" + (transition.isAnimated ? " fading" : ""))
        }
        #expect(model.phase.image?.pixelWidth == 1)
        model.appear(request)
        let player = model.player
        model.appear(request)  // the memory hit again: the same player
        #expect(player != nil && model.player === player)
        let play = Task { await model.playAnimation() }
        await clock.sleeps.wait { $0 >= 1 }
        clock.advance(by: .milliseconds(100))
        await clock.sleeps.wait { $0 >= 2 }
        clock.advance(by: .milliseconds(100))
        await play.value  // one loop: it ends on the third frame
        #expect(shown == ["1", "2", "3"])
        #expect(model.phase.image?.pixelWidth == 3)
    }

    @Test func aLoadReportsItsStartProgressAndPreviewsThenTheImage() async throws {
        #if canImport(CJPEGProgressive)
        let jpeg = ProgressiveJPEGFixture.make()
        let chunked = ChunkedDataLoader(body: jpeg, chunkEnds: [ProgressiveJPEGFixture.scanBoundaries(jpeg)[0]])
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = chunked
            $0.isProgressiveDecodingEnabled = true
            $0.progressiveDecodingInterval = .zero
        }
        let model = LazyImageModel(request: nil, options: ImageLoadingOptions(pipeline: pipeline))
        var started: [String] = []
        model.onStart = { started.append($0.url?.lastPathComponent ?? "") }
        let seen = AsyncCondition<[String]>([])
        model.onChange = { [unowned model] phase, _ in
            let preview = model.preview.map { " preview \($0.pixelWidth)" } ?? ""
            let label = phase.image.map { "image \($0.pixelWidth)" } ?? (model.isLoading ? "loading" : "empty")
            seen.update { $0.append(label + preview + " \(model.progress.completed)") }
        }
        let request = ImageRequest(url: URL(string: "https://example.com/progressive.jpg"))
        model.appear(request)
        model.appear(request)  // the same request again: the same load, no second start
        #expect(started == ["progressive.jpg"])
        chunked.release()
        await seen.wait { $0.contains { $0.contains("preview") } }
        #expect(model.isLoading && model.phase.image == nil)
        #expect(model.progress.completed > 0 && model.progress.total == Int64(jpeg.count))
        chunked.release()
        await seen.wait { $0.last?.hasPrefix("image") == true }
        #expect(!model.isLoading && model.preview == nil && model.progress == LazyImageModel.Progress())
        #expect(seen.value.first == "loading 0")
        #expect(started.count == 1)
        #endif
    }
}
