// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageSlot: synchronous memory hits, reuse, stale completions, hand-over, failure and retry.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImageSlotTests {
    let loader = GatedDataLoader()
    let pipeline: ImagePipeline
    let changes = AsyncCondition<[String]>([])

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
    }

    private func makeSlot() -> ImageSlot {
        let changes = changes
        return ImageSlot(pipeline: pipeline) { state in
            let label: String
            switch state {
            case .empty: label = "empty"
            case .loading(let request), .preview(_, let request): label = "loading \(request.url!.lastPathComponent)"
            case .loaded(_, let request, let cache):
                label = "loaded \(request.url!.lastPathComponent) \(cache.map { "\($0)" } ?? "network")"
            case .failed(_, let request): label = "failed \(request.url!.lastPathComponent)"
            }
            changes.update { $0.append(label) }
        }
    }

    private func request(_ n: Int) -> ImageRequest { ImageRequest(url: URL(string: "https://example.com/\(n).jpg")) }

    @Test func theImageShownIsPinnedInTheMemoryCacheUntilTheSlotShowsAnother() async throws {
        let cache = try #require(pipeline.memoryCache)
        for n in 1...2 {
            pipeline.storeCachedImage(
                Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage,
                for: request(n)
            )
        }
        var slot: ImageSlot? = makeSlot()
        slot?.configure(with: request(1))
        #expect(cache.isPinned(request(1).imageKey))
        slot?.configure(with: request(2))
        #expect(!cache.isPinned(request(1).imageKey))
        #expect(cache.isPinned(request(2).imageKey))
        slot?.prepareForReuse()
        #expect(!cache.isPinned(request(2).imageKey))
        // A load that completes pins what it shows too; releasing the slot lets it go.
        slot?.configure(with: request(3))
        await loader.waitForPending(1)
        loader.release("https://example.com/3.jpg")
        await changes.wait { $0.last == "loaded 3.jpg network" }
        #expect(cache.isPinned(request(3).imageKey))
        slot = nil
        #expect(!cache.isPinned(request(3).imageKey))
    }

    @Test func aMemoryHitIsShownSynchronously() {
        pipeline.storeCachedImage(Bitmap(width: 3, height: 3, red: 0, green: 0, blue: 0).platformImage, for: request(1))
        let slot = makeSlot()
        slot.configure(with: request(1))
        #expect(changes.value == ["loaded 1.jpg memory"])  // no placeholder first
        #expect(slot.state.image?.pixelWidth == 3)
        #expect(loader.record.value.started.isEmpty)
    }

    @Test func progressIsReportedForTheCurrentLoadOnly() async {
        let progress = AsyncCondition<[String]>([])
        let slot = ImageSlot(
            pipeline: pipeline,
            onProgress: { request, completed, total in
                progress.update { $0.append("\(request.url!.lastPathComponent) \(completed)/\(total ?? -1)") }
            }
        ) { _ in }
        // A load handed over (as ListImageSlots does for a row leaving the screen) goes on, but is no longer the
        // slot's: its progress must not reach the cell that now shows another row.
        slot.configure(with: request(1))
        await loader.waitForPending(1)
        let handedOver = slot.detachLoad()
        slot.configure(with: request(2))
        await loader.waitForPending(2)
        loader.release("https://example.com/1.jpg")
        _ = try? await handedOver?.response
        loader.release("https://example.com/2.jpg")
        await progress.wait { !$0.isEmpty }
        #expect(progress.value == ["2.jpg 1/2"])
    }

    @Test func aMissShowsThePlaceholderAndLoadsAtVisiblePriority() async {
        let slot = makeSlot()
        slot.configure(with: request(1))
        #expect(changes.value == ["loading 1.jpg"])
        #expect(pipeline.inspectGraph { $0.dataPriority(for: "https://example.com/1.jpg") } == .high)
        await loader.waitForPending(1)
        loader.release()
        await changes.wait { $0.count == 2 }
        #expect(changes.value.last == "loaded 1.jpg network")
    }

    @Test func reuseCancelsAndAnEarlierCompletionIsNeverApplied() async {
        let slot = makeSlot()
        slot.configure(with: request(1))
        // Someone else wants image 1 too, so its load survives the slot's cancel and completes.
        let other = pipeline.imageTask(with: request(1))
        slot.prepareForReuse()
        slot.configure(with: request(2))
        await loader.waitForPending(2)
        loader.release("https://example.com/1.jpg")
        _ = try? await other.response
        #expect(slot.state.request?.url?.lastPathComponent == "2.jpg")
        if case .loading = slot.state {
        } else {
            Issue.record("the slot must still wait for image 2, got \(slot.state)")
        }
        loader.release("https://example.com/2.jpg")
        await changes.wait { $0.last == "loaded 2.jpg network" }
        #expect(changes.value == ["loading 1.jpg", "empty", "loading 2.jpg", "loaded 2.jpg network"])
    }

    @Test func aDeferredLoadStartsWhenAskedAndOnlyOnce() async {
        let slot = makeSlot()
        slot.configure(with: request(1), startsLoading: false)
        #expect(changes.value == ["loading 1.jpg"])
        #expect(loader.record.value.started.isEmpty)
        slot.configure(with: request(1))  // the same request again, now loading
        slot.startLoading()  // already started: nothing more
        await loader.waitForStarts(1)
        #expect(pipeline.inspectGraph { $0.stageCount } == 2, "one request: one data stage, one decode stage")
        loader.release()
        await changes.wait { $0.last == "loaded 1.jpg network" }
        #expect(loader.record.value.started.count == 1)
    }

    @Test func reuseWithoutAnotherSubscriberCancelsTheDownload() async {
        let slot = makeSlot()
        slot.configure(with: request(1))
        await loader.waitForPending(1)
        slot.prepareForReuse()
        await loader.waitForCancellations(1)
    }

    @Test func detachingHandsTheRunningLoadOverWithoutCancellingIt() async {
        let slot = makeSlot()
        slot.configure(with: request(1))
        await loader.waitForPending(1)
        let task = slot.detachLoad()
        #expect(task?.request.url == request(1).url)
        #expect(task?.state == .running)
        guard case .empty = slot.state else {
            Issue.record("the slot should be empty, is \(slot.state)")
            return
        }
        #expect(slot.detachLoad() == nil, "the load was handed over once")
        #expect(loader.record.value.cancelled.isEmpty)
        task?.cancel()
        await loader.waitForCancellations(1)
    }

    @Test func aFailureCanBeRetried() async {
        let loader = GatedDataLoader(
            isGated: false,
            responses: ["https://example.com/9.jpg": .failure(.statusCodeUnacceptable(503, nil))]
        )
        let changes = changes
        let slot = ImageSlot(
            pipeline: ImagePipeline {
                $0.dataLoader = loader
                $0.diskCache = nil
            }
        ) { state in
            if case .failed = state { changes.update { $0.append("failed") } }
            if case .loading = state { changes.update { $0.append("loading") } }
        }
        slot.configure(with: request(9))
        await changes.wait { $0.contains("failed") }
        guard case .failed(.statusCodeUnacceptable(503, _), _) = slot.state else {
            Issue.record("expected a 503 failure, got \(slot.state)")
            return
        }
        slot.retry()
        await changes.wait { $0.filter { $0 == "failed" }.count == 2 }
        #expect(loader.record.value.started.count == 2)
        #expect(changes.value == ["loading", "failed", "loading", "failed"])
    }

    @Test func aFailedRowShownAgainWaitsForTheBackoffButRetryDoesNot() async {
        let loader = GatedDataLoader(
            isGated: false,
            responses: ["https://example.com/9.jpg": .failure(.statusCodeUnacceptable(500, nil))]
        )
        let failures = AsyncCondition<[ImagePipeline.Error]>([])
        let slot = ImageSlot(
            pipeline: ImagePipeline {
                $0.dataLoader = loader
                $0.diskCache = nil
                $0.failureBackoff = ImagePipeline.FailureBackoff(clock: ManualClock())
            }
        ) { state in
            if case .failed(let error, _) = state { failures.update { $0.append(error) } }
        }
        slot.configure(with: request(9))
        await failures.wait { $0.count == 1 }
        // The row scrolls away and back, twice: the failure shows at once, in the call, without the loader.
        for count in 2...3 {
            slot.prepareForReuse()
            slot.configure(with: request(9))
            #expect(failures.value.count == count)
        }
        #expect(loader.record.value.started.count == 1)
        guard case .failureBackoff(.statusCodeUnacceptable(500, _), _) = failures.value.last else {
            Issue.record("expected a backoff failure, got \(failures.value)"); return
        }
        slot.retry()  // the user asked: at once
        await failures.wait { $0.count == 4 }
        #expect(loader.record.value.started.count == 2)
        guard case .statusCodeUnacceptable(500, _) = failures.value.last else {
            Issue.record("the retry should reach the loader, got \(failures.value)"); return
        }
    }
}
