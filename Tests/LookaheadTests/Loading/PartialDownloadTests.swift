// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — when a partial body may be resumed, and which answers to a resumed request are joined.

import Foundation
import Testing

@testable import Lookahead

@Suite struct PartialDownloadTests {
    let url = URL(string: "https://example.com/large.jpg")!
    let prefix = Data(repeating: 1, count: 500)
    let rest = Data(repeating: 2, count: 500)

    private func first(_ headers: [String: String]) -> HTTPResponseInfo {
        HTTPResponseInfo(url: url, statusCode: 200, headers: headers)
    }

    private var partial: PartialDownload {
        PartialDownload(
            data: prefix,
            response: first(["Accept-Ranges": "bytes", "ETag": #""abc""#, "Content-Length": "1000"]),
            maximumLength: 1 << 20
        )!
    }

    private func answer(_ status: Int, _ headers: [String: String], body: Data) -> DataLoadResponse {
        DataLoadResponse(data: body, response: HTTPResponseInfo(url: url, statusCode: status, headers: headers))
    }

    @Test func resumingNeedsAcceptRangesAndAStrongValidator() {
        #expect(partial.resumeHeaders == ["Range": "bytes=500-", "If-Range": #""abc""#])
        let modified = PartialDownload(
            data: prefix,
            response: first(["Accept-Ranges": "bytes", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]),
            maximumLength: 1 << 20
        )
        #expect(modified?.resumeHeaders["If-Range"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        // No Accept-Ranges, `none`, a weak tag only, no validator, too large, complete, encoded: not kept.
        for headers in [
            ["ETag": #""abc""#],
            ["Accept-Ranges": "none", "ETag": #""abc""#],
            ["Accept-Ranges": "bytes", "ETag": #"W/"abc""#],
            ["Accept-Ranges": "bytes"],
            ["Accept-Ranges": "bytes", "ETag": #""abc""#, "Content-Length": "500"],
            ["Accept-Ranges": "bytes", "ETag": #""abc""#, "Content-Encoding": "gzip"],
        ] {
            #expect(PartialDownload(data: prefix, response: first(headers), maximumLength: 1 << 20) == nil)
        }
        let tooLarge = first(["Accept-Ranges": "bytes", "ETag": #""abc""#])
        #expect(PartialDownload(data: prefix, response: tooLarge, maximumLength: 499) == nil)
    }

    @Test func theExactContinuationIsJoined() {
        let outcome = partial.resume(with: answer(206, ["Content-Range": "bytes 500-999/1000"], body: rest))
        #expect(outcome == .joined(prefix + rest))
    }

    @Test func a200ReplacesThePrefix() {
        let whole = Data(repeating: 3, count: 1000)
        #expect(partial.resume(with: answer(200, [:], body: whole)) == .replaced(whole))
    }

    @Test func hostileRangesStartOver() {
        let cases: [(Int, [String: String], Data)] = [
            (206, [:], rest),  // no Content-Range
            (206, ["Content-Range": "bytes 0-499/1000"], rest),  // from the start, not where we asked
            (206, ["Content-Range": "bytes 400-899/1000"], rest),  // overlapping
            (206, ["Content-Range": "bytes 500-999/1000"], Data(count: 10)),  // body shorter than the range
            (206, ["Content-Range": "bytes 500-998/999"], rest.prefix(499)),  // another total than declared
            (206, ["Content-Range": "bytes 500-799/1000"], rest.prefix(300)),  // does not reach the end
            (206, ["Content-Range": "bytes 500-99999999999999999999999/*"], rest),  // giant
            (206, ["Content-Range": "bytes 500-999/999999999999999999999"], rest),  // giant total
            (206, ["Content-Range": "bytes 999-500/1000"], rest),  // reversed
            (206, ["Content-Range": "bytes 500-999/500"], rest),  // ends past the total
            (206, ["Content-Range": "items 500-999/1000"], rest),  // not bytes
            (206, ["Content-Range": "bytes -1-999/1000"], rest),
            (416, ["Content-Range": "bytes */1000"], Data()),
        ]
        for (status, headers, body) in cases {
            let outcome = partial.resume(with: answer(status, headers, body: body))
            guard case .startOver = outcome else {
                Issue.record("\(status) \(headers) was \(outcome)")
                continue
            }
        }
    }

    /// Found by fuzz-content-range: NULs in the field reach the parser as spaces (the sanitiser's), and a range that
    /// then names exactly the rest is joined; one that does not still starts over.
    @Test func aContentRangeHoldingNULsIsReadAsTheAppSeesIt() {
        let nuls = String(repeating: "\u{0}", count: 24)
        let exact = partial.resume(with: answer(206, ["Content-Range": "bytes \(nuls)500-999/1000"], body: rest))
        #expect(exact == .joined(prefix + rest))
        let inside = partial.resume(with: answer(206, ["Content-Range": "bytes 500-\(nuls)999/1000"], body: rest))
        guard case .startOver = inside else {
            Issue.record("a range with spaces between its numbers was \(inside)")
            return
        }
    }

    @Test func contentRangeParsesStrictly() {
        #expect(ContentRange("bytes 0-9/10") == ContentRange("  BYTES 0-9/10 "))
        #expect(ContentRange("bytes 5-9/*")?.completeLength == nil)
        #expect(ContentRange("bytes 5-9/10")?.completeLength == 10)
        #expect(ContentRange("bytes 5-9") == nil)
        #expect(ContentRange("bytes 5-9/10/11") == nil)
        #expect(ContentRange("bytes 5-/10") == nil)
        #expect(ContentRange("bytes 9-9/9") == nil)
        #expect(ContentRange("") == nil)
    }
}
