// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Lookahead

/// Memory-cache hits of requests with thumbnail options, built for each hit as a list of thumbnails builds them;
/// then exits. A function of its own, so the plain hit's loop in `main.swift` compiles as it did without it; its
/// set-up repeats that of the plain hit, since sharing it (through a function returning a tuple, or a struct) changed
/// the plain loop's code: its hit counted 1,344–1,347 instructions against 1,157.
func thumbnailHits(runs: Int) -> Never {
    let count = 1000
    let pipeline = ImagePipeline {
        $0.diskCache = nil
        $0.memoryCache = MemoryCache(costLimit: 64 << 20, countLimit: 10_000)
    }
    let urls = (0..<count).map { URL(string: "https://example.com/images/\($0).jpg")! }
    let image = Bitmap(width: 8, height: 8, red: 1, green: 2, blue: 3)
    let thumbnail = ThumbnailOptions(maximumPixelSize: 200)
    for url in urls { pipeline.storeCachedImage(image, for: ImageRequest(url: url, thumbnail: thumbnail)) }
    var hits = 0
    for _ in 0..<runs {
        for url in urls where pipeline.cachedImage(for: ImageRequest(url: url, thumbnail: thumbnail)) != nil {
            hits += 1
        }
    }
    print("\(runs) runs of \(count) memory-cache hits of thumbnail requests; \(hits) hits")
    exit(0)
}
