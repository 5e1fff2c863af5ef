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

    /// A model whose changes are recorded as "success 64x48 fading", "empty", "failure".
    private func makeModel(_ request: ImageRequest?) -> LazyImageModel {
        let model = LazyImageModel(request: request, options: options)
        let changes = changes
        model.onChange = { phase, transition in
            let label: String
            switch phase {
            case .empty: label = "empty"
            case .success(let image): label = "success \(image.pixelWidth)x\(image.pixelHeight)"
            case .failure: label = "failure"
            }
            changes.update { $0.append(transition == .none ? label : "\(label) fading") }
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
        #expect(changes.value.isEmpty)  // still empty: nothing to redraw
        await loader.waitForPending(1)
        loader.release()
        await changes.wait { !$0.isEmpty }  // the completion hopped through the main queue
        #expect(changes.value == ["success 64x48 fading"])
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
        await changes.wait { !$0.isEmpty }
        #expect(changes.value == ["success 64x48 fading"])
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
        #expect(changes.value == ["success 3x3", "empty"])
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
        await changes.wait { !$0.isEmpty }
        #expect(changes.value == ["failure"])
        if case .statusCodeUnacceptable(500, _) = model.phase.error {
        } else {
            Issue.record("expected a 500, got \(model.phase)")
        }
        model.retry()
        #expect(changes.value == ["failure", "empty"])
        await loader.waitForStarts(2)
    }

    @Test func anAnimatedRequestPlaysItsFramesAsPhases() async {
        let clock = SteppingClock()
        let request = ImageRequest(url: URL(string: "https://example.com/spinner.gif"), isAnimated: true)
        let frames = (1...3).map { width in
            AnimatedImage.Frame(
                image: Bitmap(width: width, height: 1, red: 0, green: 0, blue: 0).platformImage,
                duration: .milliseconds(100)
            )
        }
        pipeline.configuration.memoryCache?.store(AnimatedImage(frames: frames, loopCount: 1), for: request.imageKey)
        let model = LazyImageModel(request: request, options: options, animationClock: clock)
        var shown: [String] = []
        model.onChange = { phase, transition in
            shown.append("\(phase.image?.pixelWidth ?? 0)" + (transition == .none ? "" : " fading"))
        }
        #expect(model.phase.image?.pixelWidth == 1)
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
}
