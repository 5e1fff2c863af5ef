// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the data stage on its own: disk cache, backoff, download and HTTP freshness, without a pipeline.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct DataLoadWorkerTests {
    let url = URL(string: "https://example.com/a.jpg")!
    let cache = DictionaryCache()
    let recorder = RecordingReporter()
    /// A file's bytes: this stage stores and returns them, and never decodes them.
    static let file = Data((0..<64).map { UInt8($0) })

    private func stage(
        loader: any DataLoading,
        policy: DiskCachePolicy = .cacheForever,
        failureRecords: FailureRecords? = nil,
        maximumResponseSize: Int? = nil,
        accept: String? = nil
    ) -> DataLoadWorker {
        var configuration = ImagePipeline.Configuration(dataLoader: loader, memoryCache: nil, diskCache: cache)
        configuration.diskCachePolicy = policy
        configuration.maximumResponseSize = maximumResponseSize
        configuration.dataLoadTimeout = nil
        configuration.dataLoadIdleTimeout = nil
        configuration.stalledDownloadInterval = nil
        return DataLoadWorker(
            configuration: configuration,
            credentials: CredentialRefresh(refresh: nil),
            accept: accept,
            failureRecords: failureRecords,
            ioQueue: DispatchQueue(label: "test.io"),
            executor: InlineExecutor()
        )
    }

    @Test func aDiskHitNeverCallsTheLoader() async throws {
        let loader = GatedDataLoader(isGated: false)
        cache.storeData(Self.file, for: url.absoluteString)
        let loaded = try await stage(loader: loader).run(ImageRequest(url: url), reporter: recorder.reporter()).get()
        #expect(loaded.cacheType == .disk)
        #expect(loaded.response.data == Self.file)
        #expect(loader.record.value.started.isEmpty)
        #expect(!recorder.record.withLock { $0.startedDownload }, "a hit is not a download")
    }

    @Test func aMissDownloadsAndStoresOnlyWhenTheTicketIsAccepted() async throws {
        let loader = GatedDataLoader(isGated: false)
        let loaded = try await stage(loader: loader).run(ImageRequest(url: url), reporter: recorder.reporter()).get()
        #expect(loaded.cacheType == nil)
        #expect(loader.record.value.started == [url.absoluteString])
        #expect(recorder.record.withLock { $0.startedDownload })
        #expect(cache.stores.isEmpty, "nothing is stored before the decode stage judges the data")
        loaded.diskCacheTicket?.accept()
        #expect(cache.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func cacheOnlyRequestsFailWithoutTheNetwork() async {
        let loader = GatedDataLoader(isGated: false)
        let request = ImageRequest(url: url, options: [.returnCacheDataDontLoad])
        let result = await stage(loader: loader).run(request, reporter: recorder.reporter())
        guard case .failure(.dataMissingInCache) = result else {
            Issue.record("expected dataMissingInCache, got \(result)")
            return
        }
        #expect(loader.record.value.started.isEmpty)
    }

    @Test func aURLInBackoffIsNotDownloaded() async {
        let loader = GatedDataLoader(isGated: false)
        let records = FailureRecords(policy: ImagePipeline.FailureBackoff(clock: ManualClock()))
        records.recordDownloadFailure(of: ImageRequest(url: url), error: .statusCodeUnacceptable(500))
        let result = await stage(loader: loader, failureRecords: records).run(
            ImageRequest(url: url),
            reporter: recorder.reporter()
        )
        guard case .failure(.failureBackoff) = result else {
            Issue.record("expected failureBackoff, got \(result)")
            return
        }
        #expect(loader.record.value.started.isEmpty)
    }

    @Test func aFailedDownloadCountsForTheBackoff() async {
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { _ in
                .failure(.transportFailed(TransportFailure(kind: .connectionRefused, message: "refused")))
            }
        )
        let records = FailureRecords(policy: ImagePipeline.FailureBackoff(clock: ManualClock()))
        _ = await stage(loader: loader, failureRecords: records).run(
            ImageRequest(url: url),
            reporter: recorder.reporter()
        )
        #expect(records.check(ImageRequest(url: url)) != nil)
    }

    @Test func aBodyOverTheLimitIsRefused() async {
        let loader = GatedDataLoader(isGated: false)
        let result = await stage(loader: loader, maximumResponseSize: 10).run(
            ImageRequest(url: url),
            reporter: recorder.reporter()
        )
        guard case .failure(.responseTooLarge(limit: 10)) = result else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
    }

    @Test func aStaleEntryIsRevalidatedAndA304ServesIt() async throws {
        let stored = HTTPCacheMetadata(
            response: HTTPResponseInfo(
                url: nil,
                statusCode: 200,
                headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"]
            ),
            requestHeaders: [:],
            requestTime: Date(timeIntervalSince1970: 0),
            responseTime: Date(timeIntervalSince1970: 0)
        )
        cache.storeData(Self.file, for: url.absoluteString)
        cache.storeData(stored.encoded(), for: HTTPCacheMetadata.key(for: url.absoluteString))
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { url in
                .failure(.statusCodeUnacceptable(304, HTTPResponseInfo(url: url, statusCode: 304, headers: [:])))
            }
        )
        let recordingLoader = HeaderRecordingLoader(base: loader)
        let loaded = try await stage(
            loader: recordingLoader,
            policy: .httpSemantics(now: { Date(timeIntervalSince1970: 100) })
        )
        .run(ImageRequest(url: url), reporter: recorder.reporter()).get()
        #expect(recordingLoader.sent.withLock { $0["If-None-Match"] } == "\"v1\"")
        #expect(loaded.cacheType == .disk)
        #expect(loaded.response.data == Self.file)
    }

    @Test func aDownloadAsksForTheDecodableFormatsUnlessTheRequestAsksForItsOwn() async throws {
        let loader = HeaderRecordingLoader(base: GatedDataLoader(isGated: false))
        let stage = stage(loader: loader, accept: "image/webp,image/jpeg")
        _ = try await stage.run(ImageRequest(url: url), reporter: recorder.reporter()).get()
        #expect(loader.sent.withLock { $0 } == ["Accept": "image/webp,image/jpeg"])

        var own = ImageRequest(url: url)
        own.headers = ["ACCEPT": "image/png"]
        let loaded = try await stage.run(own, reporter: recorder.reporter()).get()
        #expect(loader.sent.withLock { $0 } == ["ACCEPT": "image/png"], "one Accept, the request's")
        loaded.diskCacheTicket?.accept()
        #expect(cache.cachedData(for: url.absoluteString) == nil, "its bytes are not the default entry")
        #expect(cache.cachedData(for: own.dataIdentity) != nil)
    }
}

/// Passes loads on, keeping the headers of the last one.
private final class HeaderRecordingLoader: DataLoading {
    let base: any DataLoading
    let sent = Locked<[String: String]>([:])

    init(base: any DataLoading) {
        self.base = base
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        sent.withLock { $0 = request.headers }
        return try await base.loadData(for: request)
    }
}
