// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the task graph alone, for an instruction counter: submits and cancels requests `runs` times.
// A program of its own, synchronous and with nothing else linked, so valgrind can run it.
//
// Usage: lookahead-graph-driver plain|thumbnail RUNS

import Foundation
@_spi(Benchmarks) import Lookahead

let arguments = CommandLine.arguments.dropFirst()
guard let kind = arguments.first, ["plain", "thumbnail"].contains(kind),
    let runs = arguments.dropFirst().first.flatMap(Int.init), runs >= 0
else {
    FileHandle.standardError.write(Data("usage: lookahead-graph-driver plain|thumbnail RUNS\n".utf8))
    exit(64)
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
