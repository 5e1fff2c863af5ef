// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageSlot: a failure to reach a host loads again by itself when the host answers, once per answer.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImageSlotRecoveryTests {
    /// Whether the test's server "a.test" is up; "b.test" and every `down.jpg` never answer.
    let isUp = AsyncCondition(false)
    let loader: GatedDataLoader
    let pipeline: ImagePipeline
    let changes = AsyncCondition<[String]>([])

    init() {
        let isUp = isUp
        let loader = GatedDataLoader(isGated: false) { url in
            let refused = DataLoadingError.transportFailed(
                TransportFailure(kind: .connectionRefused, message: "refused")
            )
            guard url.host == "a.test", url.lastPathComponent != "down.jpg", isUp.value else {
                return .failure(refused)
            }
            return .success(DataLoadResponse(data: TestImages.jpeg))
        }
        self.loader = loader
        // The backoff's clock never moves: no URL is allowed again by time, only by its host's answer.
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.failureBackoff = ImagePipeline.FailureBackoff(clock: ManualClock())
        }
    }

    private func makeSlot() -> ImageSlot {
        let changes = changes
        return ImageSlot(pipeline: pipeline) { state in
            let url = state.request?.url.map { "\($0.host ?? "")/\($0.lastPathComponent)" } ?? ""
            switch state {
            case .loaded: changes.update { $0.append("loaded \(url)") }
            case .failed: changes.update { $0.append("failed \(url)") }
            case .empty, .loading, .preview: break
            }
        }
    }

    private func request(_ host: String, _ name: String) -> ImageRequest {
        ImageRequest(url: URL(string: "https://\(host)/\(name)"))
    }

    private func starts(_ url: String) -> Int {
        loader.record.value.started.filter { $0 == "https://\(url)" }.count
    }

    /// A download that gets an answer from a.test: what tells the pipeline the host is back.
    private func answer(_ name: String) async throws {
        _ = try await pipeline.image(for: request("a.test", name))
    }

    @Test func failedVisibleSlotsReloadOnceWhenTheirHostAnswersAndRecycledOnesDoNot() async throws {
        let visible = [makeSlot(), makeSlot()]
        let recycled = makeSlot()
        let otherHost = makeSlot()
        visible[0].configure(with: request("a.test", "1.jpg"))
        visible[1].configure(with: request("a.test", "2.jpg"))
        recycled.configure(with: request("a.test", "3.jpg"))
        otherHost.configure(with: request("b.test", "1.jpg"))
        await changes.wait { $0.filter { $0.hasPrefix("failed") }.count == 4 }
        recycled.prepareForReuse()

        isUp.update { $0 = true }
        try await answer("probe.jpg")
        await changes.wait { Set($0).isSuperset(of: ["loaded a.test/1.jpg", "loaded a.test/2.jpg"]) }
        #expect(starts("a.test/1.jpg") == 2)
        #expect(starts("a.test/2.jpg") == 2)
        #expect(starts("a.test/3.jpg") == 1)
        #expect(starts("b.test/1.jpg") == 1)
        guard case .failed = otherHost.state, case .empty = recycled.state else {
            Issue.record("expected b.test failed and the recycled slot empty: \(otherHost.state), \(recycled.state)")
            return
        }

        // The same news again reloads nothing: no slot shows a failure to reach a.test any more.
        pipeline.hostRecoveries.hostRecovered("a.test")
        #expect(starts("a.test/1.jpg") == 2)
        #expect(starts("a.test/2.jpg") == 2)
        withExtendedLifetime(visible) {}
    }

    @Test func aSlotThatFailsAgainWaitsForTheNextAnswer() async throws {
        let slot = makeSlot()
        slot.configure(with: request("a.test", "down.jpg"))
        await changes.wait { $0 == ["failed a.test/down.jpg"] }
        isUp.update { $0 = true }
        for (answerNumber, name) in ["probe-1.jpg", "probe-2.jpg"].enumerated() {
            try await answer(name)
            await changes.wait { $0.count == answerNumber + 2 }
            #expect(starts("a.test/down.jpg") == answerNumber + 2)
        }
        #expect(changes.value == Array(repeating: "failed a.test/down.jpg", count: 3))
    }

    @Test func aFailureAppliedJustAfterTheHostAnsweredStillReloadsOnce() async {
        let isUp = isUp
        let changes = changes
        let failureRecords = pipeline.failureRecords
        let url = URL(string: "https://a.test/1.jpg")!
        let slot = ImageSlot(pipeline: pipeline) { state in
            switch state {
            case .failed where !isUp.value:
                // The answer lands between the failure's record and the slot showing it: the announcement finds
                // the slot still loading, and the slot catches up when it shows the failure.
                isUp.update { $0 = true }
                failureRecords?.hostAnswered(url)
            case .failed: changes.update { $0.append("failed") }
            case .loaded: changes.update { $0.append("loaded") }
            case .empty, .loading, .preview: break
            }
        }
        slot.configure(with: ImageRequest(url: url))
        await changes.wait { $0 == ["loaded"] }
        #expect(starts("a.test/1.jpg") == 2)
    }

    @Test func theAnswerIsAnnouncedOnRecoveredHosts() async throws {
        let stream = pipeline.recoveredHosts
        _ = try? await pipeline.image(for: request("a.test", "1.jpg"))
        isUp.update { $0 = true }
        try await answer("probe.jpg")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == "a.test")
        // The failure was forgotten before the announcement: the URL loads at once.
        _ = try await pipeline.image(for: request("a.test", "1.jpg"))
    }
}
