// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — every failure becomes the right typed error, and nothing stays alive after it.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineErrorTests {
    private static let url = URL(string: "https://example.com/image.jpg")!

    private func load(
        _ response: Result<DataLoadResponse, DataLoadingError>,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) async -> (ImagePipeline.Error?, ImagePipeline) {
        let loader = GatedDataLoader(isGated: false, responses: [Self.url.absoluteString: response])
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            configure(&$0)
        }
        do {
            _ = try await pipeline.image(for: Self.url)
            return (nil, pipeline)
        } catch {
            await pipeline.waitUntilIdle()
            return (error, pipeline)
        }
    }

    @Test func statusCode404() async {
        let (error, pipeline) = await load(.failure(.statusCodeUnacceptable(404, nil)))
        guard case .statusCodeUnacceptable(404, _) = error else {
            Issue.record("got \(String(describing: error))"); return
        }
        #expect(error?.description == "Response status code 404 is not acceptable")
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func emptyBody() async {
        let (error, pipeline) = await load(.success(DataLoadResponse(data: Data())))
        guard case .dataIsEmpty = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func oversizedBodyFromALoaderThatIgnoresTheLimit() async {
        let (error, pipeline) = await load(.success(DataLoadResponse(data: Data(count: 2000)))) {
            $0.maximumResponseSize = 1000
        }
        guard case .responseTooLarge(limit: 1000) = error else {
            Issue.record("got \(String(describing: error))"); return
        }
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func oversizedBodyReportedByTheLoader() async {
        let (error, _) = await load(.failure(.responseTooLarge(limit: 10)))
        guard case .responseTooLarge(limit: 10) = error else {
            Issue.record("got \(String(describing: error))"); return
        }
    }

    @Test func corruptJPEG() async {
        var bytes = [UInt8](TestImages.jpeg)
        for index in stride(from: 200, to: bytes.count - 2, by: 3) { bytes[index] = 0xFF }
        let (error, pipeline) = await load(.success(DataLoadResponse(data: Data(bytes))))
        guard case .decodingFailed(codec: "JPEG", let message) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(!message.isEmpty)
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func truncatedJPEG() async {
        let (error, _) = await load(.success(DataLoadResponse(data: TestImages.jpeg.prefix(TestImages.jpeg.count / 2))))
        guard case .decodingFailed(codec: "JPEG", _) = error else {
            Issue.record("got \(String(describing: error))"); return
        }
    }

    @Test func headerClaimingHugeDimensionsFailsBeforeAllocating() async {
        let data = TestImages.jpegClaiming(width: 65000, height: 65000)
        let (error, _) = await load(.success(DataLoadResponse(data: data))) { $0.maximumPixelCount = 100_000_000 }
        guard case .imageTooLarge(width: 65000, height: 65000, limit: 100_000_000) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test func unknownBytesHaveNoDecoder() async {
        let (error, _) = await load(.success(DataLoadResponse(data: Data("<html>not an image</html>".utf8))))
        guard case .noDecoder(let header) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(header == "3c 68 74 6d 6c 3e 6e 6f")
    }

    @Test func transportFailure() async {
        struct Reset: Error {}
        let loader = ThrowingLoader(error: Reset())
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        await #expect {
            try await pipeline.image(for: Self.url)
        } throws: { error in
            if case ImagePipeline.Error.dataLoadingFailed(let underlying) = error { return underlying is Reset }
            return false
        }
    }

    @Test func missingURL() async {
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = GatedDataLoader(isGated: false)
            $0.diskCache = nil
        }
        let task = pipeline.imageTask(with: ImageRequest(url: nil))
        await expectFailure(task) { if case .invalidURL(nil) = $0 { true } else { false } }
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func processorFailure() async {
        struct Fails: ImageProcessing {
            struct Failure: Error {}
            let identifier = "fails"
            func process(_ image: Bitmap) throws -> Bitmap { throw Failure() }
        }
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = GatedDataLoader(isGated: false)
            $0.diskCache = nil
        }
        let task = pipeline.imageTask(with: ImageRequest(url: Self.url, processors: [Fails()]))
        await expectFailure(task) { if case .processingFailed(identifier: "fails", _) = $0 { true } else { false } }
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func everyErrorDescribesItself() {
        let errors: [ImagePipeline.Error] = [
            .dataLoadingFailed(CancellationError()), .statusCodeUnacceptable(500), .dataIsEmpty,
            .responseTooLarge(limit: 1), .noDecoder(header: "00"), .decodingFailed(codec: "JPEG", message: "bad"),
            .imageTooLarge(width: 1, height: 2, limit: 1), .processingFailed(identifier: "p", message: "m"),
            .cancelled, .invalidURL(nil), .pipelineInvalidated, .dataMissingInCache,
            .failureBackoff(lastError: .statusCodeUnacceptable(500), retryIn: .seconds(2)),
            .failureBackoff(lastError: .statusCodeUnacceptable(404), retryIn: nil),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(ImagePipeline.Error.noDecoder(header: "").description == "No decoder recognises empty data")
    }
}

/// A loader that always throws the same error.
struct ThrowingLoader: DataLoading {
    let error: any Error
    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse { throw error }
}
