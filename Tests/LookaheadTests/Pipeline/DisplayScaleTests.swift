// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — thumbnails asked for in points at a display scale: decoded at points × scale pixels, and the
// response carries the scale, so a view that sizes itself to the image shows it at its size in points.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct DisplayScaleTests {
    @Test func pointSizesBecomeWholePixelsAtTheScale() {
        let cell = ThumbnailOptions(pointWidth: 40, pointHeight: 30, scale: 3)
        #expect(cell.target == .size(width: 120, height: 90, contentMode: .aspectFill))
        #expect(cell.scale == 3)
        #expect(ThumbnailOptions(maximumPointSize: 80, scale: 2).target == .maximumPixelSize(160))
        // A fraction of a pixel counts as a pixel: the image is never smaller than its view.
        #expect(
            ThumbnailOptions(pointWidth: 33.4, pointHeight: 10, scale: 3).target
                == .size(width: 101, height: 30, contentMode: .aspectFill)
        )
        #expect(ThumbnailOptions(maximumPointSize: 80, scale: 0).scale == 1)
        #expect(ThumbnailOptions(maximumPointSize: 80, scale: .nan).scale == 1)
        // The same pixels at another scale are another image: a key of their own.
        let pixels = ThumbnailOptions(width: 120, height: 90)
        #expect(cell != pixels)
        #expect(cell.description == "120x90fill@3.0x")
        #expect(pixels.description == "120x90fill")
    }

    @Test func aPointThumbnailDecodesAtItsPixelSizeAndTheResponseCarriesTheScale() async throws {
        let photo = Data(
            TestImages.encode(pixels: TestImages.gradient(width: 640, height: 480), width: 640, height: 480)
        )
        let loader = GatedDataLoader(isGated: false) { _ in .success(DataLoadResponse(data: photo)) }
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        let url = URL(string: "https://example.com/photo.jpg")!
        let points = ImageRequest(url: url, thumbnail: ThumbnailOptions(pointWidth: 80, pointHeight: 60, scale: 2))
        let response = try await pipeline.image(for: points)
        #expect(response.image.pixelWidth == 160 && response.image.pixelHeight == 120)
        #expect(response.scale == 2)
        #expect(Double(response.image.pixelWidth) / response.scale == 80)
        // From the memory cache: the same scale.
        let cached = try await pipeline.imageTask(with: points).response
        #expect(cached.cacheType == .memory)
        #expect(cached.scale == 2)
        // The same pixels asked for in pixels are shown one pixel per point.
        let pixels = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: ThumbnailOptions(width: 160, height: 120))
        )
        #expect(pixels.image.pixelWidth == 160)
        #expect(pixels.scale == 1)
        #expect(pixels.cacheType == nil)
        // No thumbnail: one pixel per point.
        #expect(try await pipeline.image(for: ImageRequest(url: url)).scale == 1)
    }
}
