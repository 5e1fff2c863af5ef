// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — decode budgets: a progressive JPEG of thousands of scans fails at the scan budget (counted
// before decoding) or at libjpeg-turbo's scan limit instead of holding a decode thread for seconds, and the
// pipeline keeps it out of the disk cache.

#if canImport(CTurboJPEG)
import Foundation
import Testing

@testable import Lookahead

@Suite struct DecodeBudgetTests {
    let decoder = ImageDecoders.JPEG()

    /// The message of a JPEG `decodingFailed`, or `nil` for anything else.
    private func jpegFailure(_ result: Result<(image: Bitmap, codec: String), ImagePipeline.Error>) -> String? {
        if case .failure(.decodingFailed(codec: "JPEG", let message)) = result { return message }
        return nil
    }

    @Test func aScanBombUnderTheBudgetFailsAtLibjpegTurbosScanLimit() throws {
        // 4,096 blocks × 5,010 scans: under the budget of 2^26 block passes, so libjpeg-turbo's limit stops it.
        let bomb = ScanBombJPEG.make(width: 512, height: 512, extraScans: 5000)
        let clock = ContinuousClock()
        let start = clock.now
        let result = ImageDecoders.decode(bomb, context: ImageDecodingContext())
        let elapsed = start.duration(to: clock.now)
        let message = try #require(jpegFailure(result), "got \(result)")
        #expect(message.contains("more than 500 scans"), "\(message)")
        print("scan bomb 512×512, 5,010 scans, \(bomb.count) bytes: failed in \(elapsed): \(message)")
    }

    @Test func aLargeScanBombFailsAtTheBudgetBeforeDecoding() throws {
        // 65,536 blocks × 2,010 scans: over the budget; refused from the marker walk, before any scan is decoded.
        let bomb = ScanBombJPEG.make(width: 2048, height: 2048, extraScans: 2000)
        let clock = ContinuousClock()
        let start = clock.now
        let result = ImageDecoders.decode(bomb, context: ImageDecodingContext())
        let elapsed = start.duration(to: clock.now)
        let message = try #require(jpegFailure(result), "got \(result)")
        #expect(message.contains("too many scans: 2010 scans × 65536 blocks"), "\(message)")
        print("scan bomb 2048×2048, 2,010 scans, \(bomb.count) bytes: failed in \(elapsed): \(message)")
        // A smaller budget refuses smaller files; a larger one lets the same file reach libjpeg-turbo's limit.
        let strict = ImageDecoders.JPEG(maximumProgressiveWork: 4096 * 100)
        let small = ScanBombJPEG.make(width: 512, height: 512, extraScans: 100)
        #expect(throws: ImageDecodingError.self) { try strict.decode(small, context: ImageDecodingContext()) }
        let lenient = ImageDecoders.JPEG(maximumProgressiveWork: .max)
        #expect {
            try lenient.decode(bomb, context: ImageDecodingContext())
        } throws: { error in
            (error as? ImageDecodingError)?.message.contains("more than 500 scans") == true
        }
    }

    @Test func theScanCountIsReadFromTheMarkers() throws {
        let rgb = TestImages.gradient(width: 100, height: 60)
        let progressive = Data(TestImages.encode(pixels: rgb, width: 100, height: 60, progressive: true))
        let baseline = Data(TestImages.encode(pixels: rgb, width: 100, height: 60))
        // libjpeg's standard progression for three components has ten scans.
        let work = progressive.withUnsafeBytes { JPEGScanWalk($0).progressiveWork }
        #expect(work?.scans == 10)
        #expect(work?.blocks == 13 * 8)
        #expect(baseline.withUnsafeBytes { JPEGScanWalk($0).progressiveWork } == nil)
        let bomb = ScanBombJPEG.make(width: 100, height: 60, extraScans: 37)
        #expect(bomb.withUnsafeBytes { JPEGScanWalk($0).progressiveWork }?.scans == 47)
        // Cut short: counts what is there, and leaves the verdict to the decoder.
        #expect(bomb.prefix(bomb.count / 2).withUnsafeBytes { JPEGScanWalk($0).progressiveWork } != nil)
    }

    @Test func theSameConstructionUnderTheLimitDecodes() throws {
        // 480 extra scans: below the limit, and each of them valid. So the bomb fails for its scan count alone.
        let data = ScanBombJPEG.make(width: 256, height: 128, extraScans: 480)
        let image = try decoder.decode(data, context: ImageDecodingContext())
        #expect(image.width == 256 && image.height == 128)
        let plain = try decoder.decode(ScanBombJPEG.make(width: 256, height: 128, extraScans: 0), context: .init())
        #expect(image.pixels == plain.pixels, "the extra scans change no coefficient")
        let over = ScanBombJPEG.make(width: 256, height: 128, extraScans: 600)
        #expect(jpegFailure(ImageDecoders.decode(over, context: ImageDecodingContext()))?.contains("500 scans") == true)
    }

    @Test func anOrdinaryProgressiveJPEGStillDecodes() throws {
        let rgb = TestImages.gradient(width: 640, height: 480)
        let data = Data(TestImages.encode(pixels: rgb, width: 640, height: 480, progressive: true))
        let image = try decoder.decode(data, context: ImageDecodingContext())
        #expect(image.width == 640 && image.height == 480)
        let thumbnail = try decoder.decode(data, context: ImageDecodingContext(thumbnail: .init(maximumPixelSize: 100)))
        #expect(max(thumbnail.width, thumbnail.height) >= 100)
    }

    @Test func thePipelineReportsTheScanBombAndDoesNotCacheIt() async throws {
        let folder = TemporaryDirectory("lookahead-scan-bomb")
        let disk = DiskCache(directory: folder.url)
        let bomb = ScanBombJPEG.make(width: 2048, height: 2048, extraScans: 2000)
        let loader = GatedDataLoader(isGated: false) { _ in .success(DataLoadResponse(data: bomb)) }
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
        }
        let url = URL(string: "https://example.com/bomb.jpg")!
        do {
            _ = try await pipeline.image(for: url)
            Issue.record("the scan bomb decoded")
        } catch {
            guard case .decodingFailed(codec: "JPEG", let message) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(message.contains("too many scans"))
        }
        await pipeline.flush()
        #expect(disk.totalCount == 0)
        #expect(disk.cachedData(for: url.absoluteString) == nil)
    }
}
#endif
