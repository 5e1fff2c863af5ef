// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — RetryAfter: delta-seconds and the three HTTP-date forms, measured from the right clock.

import Foundation
import Testing

@testable import Lookahead

@Suite struct RetryAfterTests {
    /// 1994-11-06 08:49:37 GMT, the example date of RFC 9110.
    private static let now = Date(timeIntervalSince1970: 784_111_777)

    @Test func deltaSeconds() {
        #expect(RetryAfter.delay("120", now: Self.now) == .seconds(120))
        #expect(RetryAfter.delay(" 0 ", now: Self.now) == .zero)
        #expect(RetryAfter.delay("99999999999999999999999", now: Self.now) == .seconds(Int64.max))
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func everyHTTPDateForm(_ text: String) {
        #expect(RetryAfter.secondsSince1970(httpDate: text) == 784_111_777)
    }

    @Test func aDateIsMeasuredFromNowWithoutADateHeader() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:51:37 GMT", now: Self.now) == .seconds(120))
        #expect(RetryAfter.delay(in: ["retry-after": "Sun, 06 Nov 1994 08:50:07 GMT"], now: Self.now) == .seconds(30))
    }

    @Test func aDateIsMeasuredFromTheResponsesDateWhenThereIsOne() {
        let headers = ["retry-after": "Wed, 01 Jan 2031 00:01:00 GMT", "date": "Wed, 01 Jan 2031 00:00:00 GMT"]
        #expect(RetryAfter.delay(in: headers, now: Self.now) == .seconds(60))
    }

    @Test func aDateInThePastIsNoDelay() {
        #expect(RetryAfter.delay("Sat, 01 Jan 1994 00:00:00 GMT", now: Self.now) == .zero)
    }

    @Test func datesAcrossLeapYearsAndCenturies() {
        #expect(RetryAfter.secondsSince1970(httpDate: "Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(RetryAfter.secondsSince1970(httpDate: "Tue, 29 Feb 2000 12:00:00 GMT") == 951_825_600)
        #expect(RetryAfter.secondsSince1970(httpDate: "Mon, 01 Mar 2100 00:00:00 GMT") == 4_107_542_400)
        #expect(RetryAfter.secondsSince1970(httpDate: "Wednesday, 01-Jan-31 00:00:00 GMT") == 1_924_992_000)
    }

    @Test(arguments: [
        "", "soon", "-5", "1.5", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT",
    ])
    func garbageIsIgnored(_ text: String) {
        #expect(RetryAfter.delay(text, now: Self.now) == nil)
        #expect(RetryAfter.delay(in: [:], now: Self.now) == nil)
    }
}
