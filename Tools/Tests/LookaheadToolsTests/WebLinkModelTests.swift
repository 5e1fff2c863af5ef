// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// The web benchmark's link model: the relay's delay line on a clock the test drives, and the limits it reports.

import LookaheadFixtures
import Testing

@Suite struct WebLinkModelTests {
    @Test func delayLineGivesEachItemBackAfterTheDelayInOrder() {
        var line = DelayLine<Int>(delay: .milliseconds(30), capacity: 10)
        line.push(1, at: .milliseconds(0))
        line.push(2, at: .milliseconds(5))
        line.push(3, at: .milliseconds(5))
        #expect(line.nextDue == .milliseconds(30))
        #expect(line.popDue(at: .milliseconds(29)).isEmpty)
        #expect(line.popDue(at: .milliseconds(30)) == [1])
        #expect(line.nextDue == .milliseconds(35))
        line.push(4, at: .milliseconds(31))
        #expect(line.popDue(at: .milliseconds(40)) == [2, 3])
        #expect(line.popDue(at: .milliseconds(60)) == [])
        #expect(line.popDue(at: .milliseconds(61)) == [4])
        #expect(line.nextDue == nil)
    }

    @Test func aFullDelayLineDropsWhatArrives() {
        var line = DelayLine<Int>(delay: .milliseconds(10), capacity: 2)
        let accepted = [line.push(1, at: .zero), line.push(2, at: .zero), line.push(3, at: .zero)]
        #expect(accepted == [true, true, false])
        #expect(line.dropped == 1)
        #expect(line.popDue(at: .milliseconds(10)) == [1, 2])
        let roomAgain = line.push(4, at: .milliseconds(10))
        #expect(roomAgain)
    }

    @Test func aLongRunKeepsOrderAcrossCompaction() {
        var line = DelayLine<Int>(delay: .milliseconds(1), capacity: 1000)
        var out: [Int] = []
        for step in 0..<500 {
            line.push(step, at: .milliseconds(step))
            out += line.popDue(at: .milliseconds(step))
        }
        out += line.popDue(at: .seconds(1))
        #expect(out == Array(0..<500))
    }

    @Test func limitsCountTheRoundTripsToTheFirstByteAndTheBytesAtTheRate() {
        // 4g: 12 Mbit/s, 60 ms. 600 kB take 0.4 s at the rate; three round trips add 0.18 s.
        let fourG = LinkProfile.fourG
        #expect(abs(fourG.limitSeconds(bytes: 600_000) - 0.58) < 1e-9)
        // Decoding slower than the transfer sets the floor.
        #expect(abs(fourG.floorSeconds(bytes: 600_000, decodingSeconds: 0.9) - 0.9) < 1e-9)
        #expect(abs(fourG.floorSeconds(bytes: 600_000, decodingSeconds: 0.1) - 0.58) < 1e-9)
        // Loopback has no limit of its own: only decoding bounds it.
        #expect(LinkProfile.loopback.limitSeconds(bytes: 10_000_000) == 0)
        // Slow start: 14,480, 28,960 and 57,920 bytes in the first three rounds, then the window (115,840) covers
        // the 90,000 bytes in flight at the rate, and the last 36,280 bytes go at it.
        #expect(abs(fourG.slowStartLimitSeconds(bytes: 137_640) - (0.36 + 36_280 / 1.5e6)) < 1e-9)
        // From an initial window of 40 segments (57,920 bytes) one round, then the rest (79,720 bytes) at the rate.
        let forty = fourG.slowStartLimitSeconds(bytes: 137_640, initialWindow: 40)
        #expect(abs(forty - (0.24 + 79_720 / 1.5e6)) < 1e-9)
        // A response within the first window takes one round of it.
        #expect(abs(fourG.slowStartLimitSeconds(bytes: 10_000) - fourG.limitSeconds(bytes: 10_000)) < 1e-9)
        let bucket = LinkProfile.threeG.tokenBucket
        #expect(bucket?.rateBits == 1_600_000)
        #expect(bucket?.burstBytes == 3028)
        // Twice the bandwidth-delay product: 200 kB/s × 0.3 s × 2.
        #expect(bucket?.limitBytes == 120_000)
    }
}
