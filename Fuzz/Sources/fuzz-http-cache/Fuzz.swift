// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — the HTTP caching headers a server controls: Cache-Control, Expires, Date, Age, Last-Modified
// and Vary, as one response's header lines (`name: value`), judged at a fixed instant.

import Foundation
import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        fields[String(parts[0]), default: ""] += String(parts[1])
    }
    let headers = HTTPCacheHeaders(headers: fields)
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let lifetime = headers.freshnessLifetime(now: now)
    let heuristic = headers.heuristicLifetime(now: now)
    let age = headers.initialAge(requestTime: now.addingTimeInterval(-1), responseTime: now)
    // Every figure is a duration: never negative, never NaN.
    for value in [lifetime, heuristic, age] {
        if let value, !(value >= 0) { fatalError("negative or NaN duration \(value) for \(fields)") }
    }
    if let heuristic, heuristic > 7 * 24 * 3600 { fatalError("heuristic lifetime past a week: \(heuristic)") }
    if headers.vary.contains(where: { $0.isEmpty || $0 != $0.lowercased() }) { fatalError("vary \(headers.vary)") }
    return 0
}
