// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the task graph alone, for an instruction counter: submits and cancels requests `runs` times; or
// (`hit`, `hit-thumbnail`) memory-cache hits with the request built, plain or with thumbnail options, as
// `lookahead-bench engine --only hit` times them; or (`start`)
// whole starts and cancels through the pipeline, as `lookahead-bench engine --only start` times them. A program of
// its own, with nothing else linked, so valgrind can run it.
//
// Usage: lookahead-graph-driver plain|thumbnail|hit|hit-thumbnail|start RUNS

import Foundation
@_spi(Benchmarks) import Lookahead
import LookaheadBenchmarkSupport

let arguments = CommandLine.arguments.dropFirst()
guard let kind = arguments.first, ["plain", "thumbnail", "hit", "hit-thumbnail", "start"].contains(kind),
    let runs = arguments.dropFirst().first.flatMap(Int.init), runs >= 0
else {
    let usage = "usage: lookahead-graph-driver plain|thumbnail|hit|hit-thumbnail|start RUNS\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}

if kind == "hit" {
    let count = 1000
    let pipeline = ImagePipeline {
        $0.diskCache = nil
        $0.memoryCache = MemoryCache(costLimit: 64 << 20, countLimit: 10_000)
    }
    let urls = (0..<count).map { URL(string: "https://example.com/images/\($0).jpg")! }
    let image = Bitmap(width: 8, height: 8, red: 1, green: 2, blue: 3)
    for url in urls { pipeline.storeCachedImage(image, for: ImageRequest(url: url)) }
    var hits = 0
    for _ in 0..<runs {
        for url in urls where pipeline.cachedImage(for: ImageRequest(url: url)) != nil { hits += 1 }
    }
    print("\(runs) runs of \(count) memory-cache hits; \(hits) hits")
    exit(0)
}

if kind == "hit-thumbnail" { thumbnailHits(runs: runs) }

if kind == "start" {
    let (pipeline, requests) = TaskGraphBenchmarkDriver.startAndCancelFixture(count: 2000)
    for _ in 0..<runs {
        for request in requests {
            let task = pipeline.imageTask(with: request)
            task.cancel()
        }
    }
    print("\(runs) runs of \(requests.count) requests started and cancelled through the pipeline")
    exit(0)
}

let count = 2000
let requests = (0..<count).map {
    ImageRequest(
        url: URL(string: "https://example.com/graph/\($0).jpg"),
        thumbnail: kind == "thumbnail" ? ThumbnailOptions(maximumPixelSize: 200) : nil
    )
}
var driver = TaskGraphBenchmarkDriver()
var left = 0
for _ in 0..<runs { left += driver.startAndCancel(requests) }
print("\(runs) runs of \(count) \(kind) requests started and cancelled; \(left) stages left")
