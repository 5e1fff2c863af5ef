// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — `Retry-After` as a server sends it (delta-seconds or an HTTP-date in any of its three forms),
// with the response's `Date` on the second line, judged at a fixed instant and at the extremes of the clock.

import Foundation

@testable import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let value = lines[0]
    let date = lines.count > 1 ? lines[1] : nil
    for now in [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 0), Date.distantFuture] {
        let delay = RetryAfter.delay(value, date: date, now: now)
        if let delay, delay < .zero { fatalError("negative delay \(delay) for \(value.debugDescription)") }
        var headers = ["retry-after": value]
        headers["date"] = date
        if RetryAfter.delay(in: headers, now: now) != delay { fatalError("the two entry points disagree") }
    }
    // A date that parses is a whole second of a real day, and formats back to the same instant.
    if let parsed = HTTPDate.parse(value) {
        let seconds = parsed.timeIntervalSince1970
        if seconds != seconds.rounded(.down) { fatalError("a fractional date from \(value.debugDescription)") }
        if HTTPDate.parse(HTTPDate.format(parsed)) != parsed, (0...253_402_300_799).contains(seconds) {
            fatalError("\(value.debugDescription) does not round-trip")
        }
    }
    return 0
}
