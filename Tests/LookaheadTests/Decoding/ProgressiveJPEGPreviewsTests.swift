// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — previews of a progressive JPEG from partial data (libjpeg's buffered-image mode).

import Foundation
import Testing

@testable import Lookahead

#if canImport(CJPEGProgressive)
@Suite struct ProgressiveJPEGPreviewsTests {
    let jpeg = ProgressiveJPEGFixture.make()
    let context = ImageDecodingContext(thumbnail: nil, maximumPixelCount: 1 << 24)

    private func scan(of outcome: ProgressiveJPEGPreviews.Outcome) -> Int? {
        if case .preview(_, let scan) = outcome { return scan }
        return nil
    }

    @Test func previewShowsTheScansCompleteAtEachBoundary() throws {
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        #expect(offsets.count >= 5)  // libjpeg-turbo's progression has about ten scans
        // Before the first scan's data: nothing to show yet.
        let header = ProgressiveJPEGFixture.prefix(jpeg, offsets[0])
        guard case .needsMoreData = ProgressiveJPEGPreviews.preview(of: header, context: context) else {
            Issue.record("a header alone gave something other than needsMoreData")
            return
        }
        // Scan k is complete once the next scan's marker arrived (the bit reader sees the marker and stops); libjpeg
        // sometimes lets a scan out only once the next scan's header is read, so a preview lags at most one scan.
        var shown: [Int] = []
        for (index, offset) in offsets.enumerated().dropFirst() {
            let outcome = ProgressiveJPEGPreviews.preview(
                of: ProgressiveJPEGFixture.prefix(jpeg, offset + 2),
                context: context
            )
            let scan = scan(of: outcome) ?? 0
            #expect(scan == index || scan == index - 1, "cut at the marker of scan \(index + 1): \(outcome)")
            shown.append(scan)
        }
        #expect(shown == shown.sorted())
        #expect(shown.filter { $0 > 0 }.count >= offsets.count - 2)
        // With the next scan's header whole (FF DA, its length, then the header), scan k always shows.
        for (index, offset) in offsets.enumerated().dropFirst() {
            let bytes = [UInt8](jpeg)
            let headerEnd = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            let outcome = ProgressiveJPEGPreviews.preview(
                of: ProgressiveJPEGFixture.prefix(jpeg, headerEnd),
                context: context
            )
            #expect(scan(of: outcome) == index, "cut after the header of scan \(index + 1): \(outcome)")
        }
        // The whole file: every scan.
        let full = ProgressiveJPEGPreviews.preview(of: jpeg, context: context)
        #expect(scan(of: full) == offsets.count)
    }

    @Test func theLastScanMatchesTheFinalDecodeAndEarlierScansAreCoarser() throws {
        let final = try ImageDecoders.JPEG().decode(jpeg, context: context).makeBitmap()
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        guard case .preview(let whole, _) = ProgressiveJPEGPreviews.preview(of: jpeg, context: context),
            case .preview(let first, let scan) = ProgressiveJPEGPreviews.preview(
                of: ProgressiveJPEGFixture.prefix(jpeg, offsets[2] + 2),
                context: context
            )
        else {
            Issue.record("no preview")
            return
        }
        #expect(scan == 1 || scan == 2)
        let wholeBitmap = try #require(whole.makeBitmap())
        let firstBitmap = try #require(first.makeBitmap())
        let finalBitmap = try #require(final)
        #expect(wholeBitmap.width == 256 && wholeBitmap.height == 192)
        #expect(firstBitmap.width == 256 && firstBitmap.height == 192)
        #expect(Self.meanDifference(wholeBitmap, finalBitmap) < 0.5)
        // The first scan holds the DC coefficients only of one component set: visibly not the final image.
        #expect(Self.meanDifference(firstBitmap, finalBitmap) > 0.5)
    }

    @Test func aThumbnailPreviewHasTheThumbnailSize() throws {
        let thumbnail = ImageDecodingContext(
            thumbnail: ThumbnailOptions(maximumPixelSize: 64),
            maximumPixelCount: 1 << 24
        )
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        guard
            case .preview(let image, _) = ProgressiveJPEGPreviews.preview(
                of: ProgressiveJPEGFixture.prefix(jpeg, offsets[2] + 2),
                context: thumbnail
            )
        else {
            Issue.record("no preview")
            return
        }
        #expect(image.pixelWidth == 64 && image.pixelHeight == 48)
        #expect(
            ProgressiveJPEGPreviews.scaleDenominator(for: jpeg, thumbnail: ThumbnailOptions(maximumPixelSize: 64)) == 4
        )
    }

    @Test func thePixelLimitIsCheckedFromTheHeader() {
        let small = ImageDecodingContext(thumbnail: nil, maximumPixelCount: 256 * 192 - 1)
        guard case .unsupported(let reason) = ProgressiveJPEGPreviews.preview(of: jpeg, context: small) else {
            Issue.record("an image over the pixel limit gave a preview")
            return
        }
        #expect(reason.contains("exceeds"))
        // A header claiming 65535×65535 fails before any allocation, even with nothing after it.
        let claim = TestImages.jpegClaiming(width: 65535, height: 65535)
        let outcome = ProgressiveJPEGPreviews.preview(of: claim, context: context)
        #expect(scan(of: outcome) == nil)
    }

    @Test func baselineJPEGsAndOtherFormatsGiveNoPreviews() {
        guard case .unsupported = ProgressiveJPEGPreviews.preview(of: TestImages.jpeg, context: context) else {
            Issue.record("a baseline JPEG gave something other than unsupported")
            return
        }
        guard case .unsupported = ProgressiveJPEGPreviews.preview(of: Data("GIF89a".utf8), context: context) else {
            Issue.record("a GIF header gave something other than unsupported")
            return
        }
    }

    @Test func truncatedAndCorruptDataNeverCrash() {
        var previews = 0
        for length in stride(from: 0, through: jpeg.count, by: 97) {
            if scan(
                of: ProgressiveJPEGPreviews.preview(of: ProgressiveJPEGFixture.prefix(jpeg, length), context: context)
            ) != nil {
                previews += 1
            }
        }
        #expect(previews > 10)
        // Garbage after the header: libjpeg's errors come back as `.unsupported` (or a best-effort preview).
        var corrupt = [UInt8](jpeg)
        let start = ProgressiveJPEGFixture.scanOffsets(jpeg)[0] + 4
        var random = SplitMix64(seed: 7)
        for index in start..<corrupt.count where index % 3 == 0 {
            corrupt[index] = UInt8(truncatingIfNeeded: random.next())
        }
        _ = ProgressiveJPEGPreviews.preview(of: Data(corrupt), context: context)
        var broken = [UInt8](jpeg)
        broken[start - 2] = 0x00  // the scan header's component count: malformed
        _ = ProgressiveJPEGPreviews.preview(of: Data(broken), context: context)
        #expect(scan(of: ProgressiveJPEGPreviews.preview(of: jpeg, context: context)) != nil)
    }

    @Test func aScanBombStopsAtTheScanLimit() {
        let bomb = ScanBombJPEG.make(width: 64, height: 64, extraScans: 1000)
        guard case .unsupported(let reason) = ProgressiveJPEGPreviews.preview(of: bomb, context: context) else {
            Issue.record("a scan bomb gave a preview")
            return
        }
        #expect(reason.contains("scans"))
    }

    static func meanDifference(_ lhs: Bitmap, _ rhs: Bitmap) -> Double {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return .infinity }
        var total = 0
        for y in 0..<lhs.height {
            for x in 0..<lhs.width {
                let a = lhs[x, y]
                let b = rhs[x, y]
                total +=
                    abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
            }
        }
        return Double(total) / Double(lhs.width * lhs.height * 3)
    }
}
#endif
