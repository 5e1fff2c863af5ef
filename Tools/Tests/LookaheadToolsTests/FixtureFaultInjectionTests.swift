// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — seeded fault injection on the fixture server's image routes, over real HTTP.

import Foundation
import Lookahead
import Testing

@testable import LookaheadFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1)))
struct FixtureFaultInjectionTests {
    private typealias FaultInjection = FixtureServer.FaultInjection

    // MARK: - One kind at a time

    @Test func failureRateOneFailsEveryImage() async throws {
        try await withFixtureServer(.init { $0.faults = .init(failureRate: 1) }) { server, client in
            for n in 1...4 {
                let (_, response) = try await client.get(server.imageURL(n, width: 32))
                #expect(response.statusCode == 500)
            }
            let (_, media) = try await client.get(server.url("/media/120/cover-1.jpg"))
            #expect(media.statusCode == 500)

            // Only the image routes misbehave.
            let (_, status) = try await client.get(server.url("/status/200"))
            #expect(status.statusCode == 200)
            let (_, page) = try await client.get(server.mediaPageURL())
            #expect(page.statusCode == 200)

            #expect(server.injectedFaults == .init(failures: 5))
            #expect(server.requestCount(forPath: "/images/1.jpg") == 1)
            #expect(server.requestCount(forPath: "/media/120/cover-1.jpg") == 1)
            await server.waitForCompletion(path: "/images/4.jpg")
            #expect(server.completedCount(forPath: "/images/4.jpg") == 1)
        }
    }

    @Test func resetRateOneClosesTheConnectionWithoutAResponse() async throws {
        try await withFixtureServer(.init { $0.faults = .init(resetRate: 1) }) { server, client in
            for path in ["/images/3.jpg", "/media/0/cover-3.jpg"] {
                await #expect(throws: URLError.self) {
                    _ = try await client.get(server.url(path))
                }
                await server.waitForAbort(path: path)
                #expect(server.abortedCount(forPath: path) == 1)
                #expect(server.completedCount(forPath: path) == 0)
            }
            #expect(server.injectedFaults.resets == server.totalRequestCount)
            #expect(server.injectedFaults.resets >= 2)
            #expect(server.injectedFaults.total == server.injectedFaults.resets)
        }
    }

    @Test func truncationRateOneSendsHalfAJPEG() async throws {
        try await withFixtureServer(.init { $0.faults = .init(truncationRate: 1) }) { server, client in
            let whole = try FixtureImages.jpeg(number: 3, width: 64, height: 48)
            let (data, response) = try await client.get(server.imageURL(3, width: 64, height: 48))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == String(whole.count / 2))
            #expect(Array(data) == Array(whole.prefix(whole.count / 2)))
            #expect(throws: (any Error).self) { try ImageDecoders.decode(data, context: .init()).get() }
            #expect(throws: Never.self) { try ImageDecoders.decode(Data(whole), context: .init()).get() }

            let (cover, coverResponse) = try await client.get(server.url("/media/120/cover-1.jpg"))
            #expect(coverResponse.statusCode == 200)
            let size = MediaCatalog.size(number: 1, width: 120)
            let wholeCover = try FixtureImages.jpeg(number: 1, width: size.width, height: size.height)
            #expect(cover.count == wholeCover.count / 2)
            #expect(throws: (any Error).self) { try ImageDecoders.decode(cover, context: .init()).get() }

            #expect(server.injectedFaults == .init(truncations: 2))
        }
    }

    @Test func slowRateOneDelaysTheWholeImage() async throws {
        let faults = FaultInjection(slowRate: 1, slowDelay: .milliseconds(300))
        try await withFixtureServer(.init { $0.faults = faults }) { server, client in
            let clock = ContinuousClock()
            let start = clock.now
            let (data, response) = try await client.get(server.imageURL(5, width: 40))
            #expect(clock.now - start >= .milliseconds(300))
            #expect(response.statusCode == 200)
            #expect(Array(data) == (try FixtureImages.jpeg(number: 5, width: 40, height: 40)))
            #expect(server.injectedFaults == .init(slowResponses: 1))
        }
    }

    @Test func noFaultsByDefault() async throws {
        try await withFixtureServer { server, client in
            for n in 1...20 {
                let (_, response) = try await client.get(server.imageURL(n, width: 16))
                #expect(response.statusCode == 200)
            }
            #expect(server.injectedFaults == .init())
        }
    }

    // MARK: - Determinism

    @Test func theSameSeedFailsTheSameAttemptsAndRetriesAreFreshDraws() async throws {
        let faults = FaultInjection(failureRate: 0.3)
        let first = try await failedAttempts(seed: 2026, faults: faults)
        let second = try await failedAttempts(seed: 2026, faults: faults)
        let otherSeed = try await failedAttempts(seed: 2027, faults: faults)

        #expect(first == second)
        #expect(first != otherSeed)
        // 50 draws at 30 %: some, but far from all, first attempts fail.
        let failedFirstAttempts = first.filter { $0.attempt == 0 }
        #expect((5...30).contains(failedFirstAttempts.count))
        // Every failed first attempt was retried; at least one retry went through.
        let failedRetries = first.filter { $0.attempt == 1 }
        #expect(failedRetries.count < failedFirstAttempts.count)
        #expect(Set(failedRetries.map(\.path)).isSubset(of: Set(failedFirstAttempts.map(\.path))))
        // What the client saw is what the pure function predicts.
        let predicted = (1...50).flatMap { n -> [Attempt] in
            let path = "/images/\(n).jpg"
            guard faults.fault(seed: 2026, path: path, attempt: 0) == .failure else { return [] }
            let retry = faults.fault(seed: 2026, path: path, attempt: 1) == .failure
            return [Attempt(path: path, attempt: 0)] + (retry ? [Attempt(path: path, attempt: 1)] : [])
        }
        #expect(first == Set(predicted))
    }

    /// Each request goes out on a fresh connection: URLSession silently retries a request whose
    /// reused keep-alive connection closes without a response, which would turn a reset into a
    /// second attempt the client never sees.
    @Test func countersMatchWhatTheClientSaw() async throws {
        let faults = FaultInjection(failureRate: 0.2, resetRate: 0.1, truncationRate: 0.2)
        let configuration = FixtureServer.Configuration(seed: 99, faults: faults)
        try await withFixtureServer(configuration) { server, client in
            var seen = FaultInjection.Counts()
            var untouched = 0
            for n in 1...40 {
                let whole = try FixtureImages.jpeg(number: n, width: 24, height: 24)
                do {
                    let (data, response) = try await client.get(server.imageURL(n, width: 24), closingConnection: true)
                    if response.statusCode == 500 {
                        seen.failures += 1
                    } else if data.count < whole.count {
                        #expect(Array(data) == Array(whole.prefix(whole.count / 2)))
                        seen.truncations += 1
                    } else {
                        #expect(Array(data) == whole)
                        untouched += 1
                    }
                } catch is URLError {
                    seen.resets += 1
                }
            }
            #expect(server.injectedFaults == seen)
            #expect(seen.failures > 0 && seen.resets > 0 && seen.truncations > 0)
            #expect(seen.total + untouched == 40)
            // Every faulted request was counted once, as usual.
            #expect(server.totalRequestCount == 40)

            server.resetCounters()
            #expect(server.injectedFaults == .init())
        }
    }

    // MARK: - The draw

    @Test func ratesPartitionTheDraws() {
        let faults = FaultInjection(failureRate: 0.1, resetRate: 0.2, truncationRate: 0.3, slowRate: 0.1)
        var counts = FaultInjection.Counts()
        let draws = 20_000
        for attempt in 0..<draws {
            if let kind = faults.fault(seed: 5, path: "/images/\(attempt % 100).jpg", attempt: attempt / 100) {
                counts[kind] += 1
            }
        }
        #expect(abs(Double(counts.failures) / Double(draws) - 0.1) < 0.02)
        #expect(abs(Double(counts.resets) / Double(draws) - 0.2) < 0.02)
        #expect(abs(Double(counts.truncations) / Double(draws) - 0.3) < 0.02)
        #expect(abs(Double(counts.slowResponses) / Double(draws) - 0.1) < 0.02)

        let onlyFailures = FaultInjection(failureRate: 0.5)
        let kinds = Set((0..<1000).compactMap { onlyFailures.fault(seed: 1, path: "/images/1.jpg", attempt: $0) })
        #expect(kinds == [.failure])
        #expect(FaultInjection.none.fault(seed: 1, path: "/images/1.jpg", attempt: 0) == nil)
    }

    @Test func invalidRatesAreRejected() async {
        let full = FaultInjection(failureRate: 0.1, resetRate: 0.2, truncationRate: 0.3, slowRate: 0.4)
        #expect(full.validationFailure == nil)
        #expect(FaultInjection(failureRate: 1).validationFailure == nil)
        let invalid = [
            FaultInjection(failureRate: 1.5),
            FaultInjection(resetRate: -0.1),
            FaultInjection(truncationRate: .nan),
            FaultInjection(failureRate: 0.6, slowRate: 0.6),
            FaultInjection(slowRate: 0.1, slowDelay: .milliseconds(-1)),
        ]
        for faults in invalid {
            #expect(faults.validationFailure != nil)
        }
        await #expect(throws: FixtureServer.Error.self) {
            let server = try await FixtureServer.start(configuration: .init { $0.faults = .init(failureRate: 2) })
            await server.stop()
        }
    }

    // MARK: - Helpers

    /// A request for a path, by its index among the requests for that path.
    private struct Attempt: Hashable {
        let path: String
        let attempt: Int
    }

    /// Fetches images 1...50 once each on a fresh server, retries every one that failed once,
    /// and returns the attempts that got a 500.
    private func failedAttempts(seed: UInt64, faults: FaultInjection) async throws -> Set<Attempt> {
        var failed: Set<Attempt> = []
        try await withFixtureServer(.init(seed: seed, faults: faults)) { server, client in
            var toRetry: [Int] = []
            for n in 1...50 {
                let (_, response) = try await client.get(server.imageURL(n, width: 16))
                if response.statusCode == 500 {
                    failed.insert(Attempt(path: "/images/\(n).jpg", attempt: 0))
                    toRetry.append(n)
                } else {
                    #expect(response.statusCode == 200)
                }
            }
            for n in toRetry {
                let (_, response) = try await client.get(server.imageURL(n, width: 16))
                if response.statusCode == 500 {
                    failed.insert(Attempt(path: "/images/\(n).jpg", attempt: 1))
                }
                #expect(server.requestCount(forPath: "/images/\(n).jpg") == 2)
            }
            #expect(server.injectedFaults.failures == failed.count)
        }
        return failed
    }
}
