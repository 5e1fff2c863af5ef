// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the decode stage on its own: the image, and its verdict on the data's disk cache entry.

import Foundation
import Testing

@testable import Lookahead

@Suite struct DecodeWorkerTests {
    let url = URL(string: "https://example.com/a.jpg")!
    let cache = DictionaryCache()
    let records = FailureRecords(policy: ImagePipeline.FailureBackoff(clock: ManualClock()))
    static let html = Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)

    private var stage: DecodeWorker {
        DecodeWorker(
            decoders: ImageDecoders.default,
            limits: ImageDecodingContext(
                maximumPixelCount: 1 << 20,
                maximumFrameCount: 10,
                maximumAnimationPixelCount: 1 << 20
            ),
            events: nil,
            failureRecords: records
        )
    }

    private func loaded(_ data: Data, from origin: DiskCacheTicket.Origin) -> LoadedData {
        LoadedData(
            response: DataLoadResponse(data: data),
            cacheType: origin == .disk ? .disk : nil,
            diskCacheTicket: DiskCacheTicket(origin: origin, cache: cache, key: url.absoluteString, data: data)
        )
    }

    @Test func networkDataThatDecodesIsStoredAndClearsTheURLsFailures() throws {
        records.recordDecode(of: ImageRequest(url: url), error: .dataIsEmpty)
        #expect(records.check(ImageRequest(url: url)) != nil)
        let skipping = ImageRequest(url: url, options: [.skipFailureBackoff])
        let image = try stage.run(loaded(TestImages.jpeg, from: .network), for: skipping).get()
        #expect(image.image.pixelWidth == 64 && image.cacheType == nil)
        #expect(cache.cachedData(for: url.absoluteString) == TestImages.jpeg)
        #expect(records.check(ImageRequest(url: url)) == nil, "a decoded image clears its URL's failures")
    }

    @Test func aThumbnailIsDecodedAtItsSize() throws {
        let request = ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 16))
        let image = try stage.run(loaded(TestImages.jpeg, from: .network), for: request).get()
        #expect(max(image.image.pixelWidth, image.image.pixelHeight) == 16)
    }

    @Test func networkDataThatIsNotAnImageIsNeverStoredAndCountsAsAFailure() {
        let result = stage.run(loaded(Self.html, from: .network), for: ImageRequest(url: url))
        guard case .failure(let error) = result, error.isInvalidImageData else {
            Issue.record("expected a decoding failure, got \(result)")
            return
        }
        #expect(cache.stores.isEmpty)
        #expect(records.check(ImageRequest(url: url)) != nil, "an HTML answer counts as a failure of its URL")
    }

    @Test func diskDataThatIsNotAnImageIsRemovedAndFetchedAgain() {
        let data = loaded(Self.html, from: .disk)
        let result = stage.run(data, for: ImageRequest(url: url))
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(cache.removals == [url.absoluteString])
        #expect(records.check(ImageRequest(url: url)) == nil, "disk data says nothing about the server")
        #expect(DecodeWorker.reloads(after: error, of: data, for: ImageRequest(url: url)))
        let cacheOnly = ImageRequest(url: url, options: [.returnCacheDataDontLoad])
        #expect(!DecodeWorker.reloads(after: error, of: data, for: cacheOnly), "not without the network")
    }

    @Test func validationStoresCompleteImagesOnly() {
        let truncated = TestImages.jpeg.prefix(TestImages.jpeg.count / 2)
        #expect((try? stage.validate(loaded(Data(truncated), from: .network)).get()) == nil)
        #expect(cache.stores.isEmpty)
        #expect((try? stage.validate(loaded(TestImages.jpeg, from: .network)).get()) != nil)
        #expect(cache.stores == [url.absoluteString])
    }
}
