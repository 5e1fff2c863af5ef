// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageTask.onFinish: one call with the final result, at once when late, `.cancelled` on cancel.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImageTaskTests {
    let loader = GatedDataLoader()
    let pipeline: ImagePipeline
    /// What the completions received, as short labels.
    let calls = AsyncCondition<[String]>([])

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
    }

    private func request(_ n: Int) -> ImageRequest { ImageRequest(url: URL(string: "https://example.com/\(n).jpg")) }

    /// A completion that records what it receives under `name`.
    private func completion(_ name: String) -> @Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void {
        let calls = calls
        return { result in
            let label =
                switch result {
                case .success(let response):
                    "\(name): \(response.image.pixelWidth)×\(response.image.pixelHeight) \(response.cacheType.map { "\($0)" } ?? "network")"
                case .failure(.cancelled): "\(name): cancelled"
                case .failure(let error): "\(name): \(error)"
                }
            calls.update { $0.append(label) }
        }
    }

    @Test func eachCompletionIsCalledOnceWithTheResult() async {
        let task = pipeline.imageTask(with: request(1))
        task.onFinish(completion("a"))
        task.onFinish(completion("b"))
        await loader.waitForPending(1)
        #expect(calls.value.isEmpty, "nothing before the image")
        loader.release()
        await calls.wait { $0.count == 2 }
        #expect(calls.value.sorted() == ["a: 64×48 network", "b: 64×48 network"])
        #expect(task.state == .completed)
        task.cancel()  // too late: the result stands, and nobody is called again
        #expect(task.state == .completed)
        #expect(calls.value.count == 2)
    }

    @Test func aTaskCancelledBeforeItStartsLoadsNothing() async {
        let task = pipeline.unstartedImageTask(with: request(1))
        task.onFinish(completion("a"))
        task.cancel()
        pipeline.start(task)
        #expect(pipeline.liveTaskCount == 0)
        let other = pipeline.imageTask(with: request(2))  // a load after it reaches the loader first
        await loader.waitForPending(1)
        #expect(loader.record.value.started == ["https://example.com/2.jpg"])
        #expect(task.state == .cancelled)
        #expect(calls.value == ["a: cancelled"])
        other.cancel()
    }

    @Test func aCompletionAddedAfterTheEndIsCalledAtOnce() async throws {
        let task = pipeline.imageTask(with: request(1))
        await loader.waitForPending(1)
        loader.release()
        _ = try await task.response
        task.onFinish(completion("late"))
        #expect(calls.value == ["late: 64×48 network"], "called within onFinish")

        // A memory hit finishes the task inside imageTask(with:).
        let hit = pipeline.imageTask(with: request(1))
        hit.onFinish(completion("hit"))
        #expect(calls.value.last == "hit: 64×48 memory")
        #expect(loader.record.value.started.count == 1)
    }

    @Test func cancellingDeliversCancelledOnceInTheCancellingCall() async {
        let task = pipeline.imageTask(with: request(1))
        task.onFinish(completion("a"))
        await loader.waitForPending(1)
        task.cancel()
        #expect(calls.value == ["a: cancelled"], "delivered on the cancelling thread, before cancel() returns")
        task.cancel()
        #expect(calls.value == ["a: cancelled"])
        task.onFinish(completion("late"))
        #expect(calls.value == ["a: cancelled", "late: cancelled"])
        await loader.waitForCancellations(1)
        #expect(task.state == .cancelled)
    }
}
