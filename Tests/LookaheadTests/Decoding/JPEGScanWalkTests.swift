// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a JPEG's scans walked without decoding, and the preview prefix Apple platforms hand to ImageIO:
// closed after scan k, the file decodes (here with libjpeg-turbo) as libjpeg's buffered-image preview of scan k.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CJPEGProgressive)
@Suite struct JPEGScanWalkTests {
    let jpeg = ProgressiveJPEGFixture.make()
    let context = ImageDecodingContext(thumbnail: nil, maximumPixelCount: 1 << 24)

    @Test func theWalkCountsCompleteScansAndWhereTheyEnd() {
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        let whole = JPEGScanWalk(jpeg)
        #expect(whole.frame == JPEGScanWalk.Frame(isProgressive: true, width: 256, height: 192))
        #expect(whole.scans == offsets.count)
        #expect(whole.completeScans == offsets.count)  // the last scan is followed by the end-of-image marker
        // Cut just after the marker of scan k + 1: k scans are complete, and they end at the first marker after
        // scan k's data (the next scan's Huffman tables, or its start).
        let bytes = [UInt8](jpeg)
        for (index, offset) in offsets.enumerated() {
            let walk = JPEGScanWalk(jpeg.prefix(offset + 2))
            #expect(walk.completeScans == index, "cut at the marker of scan \(index + 1)")
            guard index > 0 else {
                #expect(walk.endOfCompleteScans == 0)
                continue
            }
            let end = walk.endOfCompleteScans
            #expect(end > offsets[index - 1] && end <= offset)
            #expect(
                bytes[end] == 0xFF && ![0x00, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7].contains(bytes[end + 1])
            )
            // Nothing but marker segments between that end and the next scan: a marker-only walk reaches it.
            var position = end
            while position < offset {
                #expect(bytes[position] == 0xFF)
                position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
            }
            #expect(position == offset)
        }
        #expect(JPEGScanWalk(TestImages.jpeg).frame?.isProgressive == false)
    }

    @Test func thePreviewPrefixIsTheCompleteScansClosedWithAnEndMarker() {
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        #expect(
            ProgressiveJPEGPreviews.previewPrefix(of: jpeg.prefix(offsets[0] + 2), maximumPixelCount: 1 << 24)
                == .needsMoreData
        )
        for (index, offset) in offsets.enumerated().dropFirst() {
            let cut = jpeg.prefix(offset + 2)
            let expected = Data(jpeg.prefix(JPEGScanWalk(cut).endOfCompleteScans)) + [0xFF, 0xD9]
            #expect(
                ProgressiveJPEGPreviews.previewPrefix(of: cut, maximumPixelCount: 1 << 24)
                    == .prefix(expected, scan: index)
            )
        }
    }

    @Test func thePrefixRefusesWhatThePreviewsRefuse() {
        func isUnsupported(_ data: Data, limit: Int = 1 << 24) -> Bool {
            if case .unsupported = ProgressiveJPEGPreviews.previewPrefix(of: data, maximumPixelCount: limit) {
                return true
            }
            return false
        }
        #expect(isUnsupported(TestImages.jpeg))  // baseline
        #expect(isUnsupported(Data("GIF89a".utf8)))
        #expect(isUnsupported(jpeg, limit: 256 * 192 - 1))
        #expect(
            isUnsupported(ScanBombJPEG.make(width: 64, height: 48, extraScans: ProgressiveJPEGPreviews.maximumScans))
        )
    }

    /// A progressive JPEG of detail (blocks of noise over the gradient), whose scans differ from one another far more
    /// than two decoders' rounding does.
    static let detailed: Data = {
        var pixels = TestImages.gradient(width: 256, height: 192)
        var generator = SplitMix64(seed: 7)
        for index in pixels.indices {
            let noise = Int(generator.next() % 97) - 48
            pixels[index] = UInt8(clamping: Int(pixels[index]) + noise)
        }
        return Data(TestImages.encode(pixels: pixels, width: 256, height: 192, quality: 90, progressive: true))
    }()

    @Test func aPrefixClosedAfterScanKDecodesAsThePreviewOfScanK() throws {
        let jpeg = Self.detailed
        let offsets = ProgressiveJPEGFixture.scanOffsets(jpeg)
        let bytes = [UInt8](jpeg)
        var decodedByScan: [Int: Bitmap] = [:]
        var previewByScan: [Int: Bitmap] = [:]
        for (index, offset) in offsets.enumerated().dropFirst() {
            // libjpeg's buffered-image preview, given the next scan's header whole so it shows scan k for certain.
            let headerEnd = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            guard
                case .preview(let preview, let scan) = ProgressiveJPEGPreviews.preview(
                    of: jpeg.prefix(headerEnd),
                    context: context
                ), scan == index,
                case .prefix(let prefix, _) = ProgressiveJPEGPreviews.previewPrefix(
                    of: jpeg.prefix(headerEnd),
                    maximumPixelCount: 1 << 24
                )
            else {
                Issue.record("no preview of scan \(index)")
                continue
            }
            let decoded = try #require(try ImageDecoders.JPEG().decode(prefix, context: context).makeBitmap())
            let shown = try #require(preview.makeBitmap())
            #expect(decoded.width == shown.width && decoded.height == shown.height)
            decodedByScan[index] = decoded
            previewByScan[index] = shown
        }
        // The same coefficients, though libjpeg smooths the blocks of a buffered-image preview its own way: each
        // decoded prefix is nearer the preview of its own scan than to that of any other.
        for (scan, decoded) in decodedByScan {
            let distances = previewByScan.mapValues { ProgressiveJPEGPreviewsTests.meanDifference(decoded, $0) }
            let nearest = distances.min { $0.value < $1.value }?.key
            #expect(nearest == scan, "scan \(scan): \(distances.sorted { $0.key < $1.key })")
        }
        // The whole file gives every scan, and decodes exactly as the file does.
        guard
            case .prefix(let all, let scans) = ProgressiveJPEGPreviews.previewPrefix(
                of: jpeg,
                maximumPixelCount: 1 << 24
            )
        else {
            Issue.record("no prefix of the whole file")
            return
        }
        #expect(scans == offsets.count)
        let whole = try #require(try ImageDecoders.JPEG().decode(jpeg, context: context).makeBitmap())
        let closed = try #require(try ImageDecoders.JPEG().decode(all, context: context).makeBitmap())
        #expect(closed == whole)
    }
}
#endif
