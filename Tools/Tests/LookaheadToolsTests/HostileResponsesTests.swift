// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — responses that attack the client, written byte for byte by a raw TCP responder on loopback,
// loaded by a pipeline with a real disk cache on both loaders: each ends in a typed error or in the image with its
// fields made safe, and a failure stores nothing.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(3))) struct HostileResponsesTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-raw-\(UUID().uuidString)"
    )

    /// What one attack came to.
    private struct Outcome {
        var result: Result<ImageResponse, ImagePipeline.Error>
        /// The request heads the responder read, redirects' included.
        var requestHeads: [String]
        /// The entry files left in the disk cache after a flush.
        var entries: [String]

        var loadingError: DataLoadingError? {
            guard case .failure(.dataLoadingFailed(let error)) = result else { return nil }
            return error as? DataLoadingError
        }

        /// A loader's typed error, or a status the pipeline refused.
        var isTypedFailure: Bool {
            if case .failure(.statusCodeUnacceptable) = result { return true }
            return loadingError != nil
        }
    }

    private func load(_ attack: HostileResponse, transport: Transport) async throws -> Outcome {
        let image = try FixtureImages.jpeg(number: 3, width: 32, height: 32)
        let responder = try RawHTTPResponder.start(routes: HostileResponse.routes(image: image))
        defer { responder.stop() }
        let pipeline = ImagePipeline {
            $0.dataLoader = transport.makeLoader()
            $0.diskCache = DiskCache(directory: folder)
            $0.memoryCache = nil
        }
        let result: Result<ImageResponse, ImagePipeline.Error>
        do {
            result = .success(try await pipeline.image(for: responder.url(attack.path)))
        } catch {
            result = .failure(error)
        }
        await pipeline.flush()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Outcome(result: result, requestHeads: responder.requestHeads, entries: files.filter { $0.count == 64 })
    }

    /// A success must be the image, with no field the attack made up and no value holding CR, LF or NUL; a failure
    /// must be a loader's typed error and leave nothing in the disk cache.
    private static func expectTypedErrorOrSafeImage(_ outcome: Outcome, _ attack: HostileResponse) {
        switch outcome.result {
        case .success(let response):
            #expect(response.image.width == 32, "\(attack)")
            let headers = response.httpResponse?.headers ?? [:]
            #expect(headers[HostileResponse.injectedField.lowercased()] == nil, "\(attack): \(headers)")
            for (name, value) in headers {
                #expect(!value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "\(attack): \(name): \(value)")
            }
        case .failure(let error):
            #expect(outcome.isTypedFailure, "\(attack): not a loader's typed error: \(error)")
            #expect(outcome.entries.isEmpty, "\(attack): stored after a failure: \(outcome.entries)")
        }
    }

    @Test(arguments: Transport.allCases, [HostileResponse.carriageReturnInValue, .nulInValue])
    func aCROrNULInAFieldValueNeverReachesTheApp(transport: Transport, attack: HostileResponse) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await load(attack, transport: transport)
        Self.expectTypedErrorOrSafeImage(outcome, attack)
        switch (transport, attack) {
        case (.default, .carriageReturnInValue):
            // libcurl hands the line over whole: the value is kept, its CR made a space.
            let headers = try outcome.result.get().httpResponse?.headers
            #expect(headers?["x-attack"] == "a \(HostileResponse.injectedField): 1", "\(String(describing: headers))")
        case (.default, _):
            // libcurl refuses a NUL anywhere in the head.
            #expect(outcome.loadingError?.underlyingError?.kind == .invalidResponse, "\(outcome.result)")
        default:
            break
        }
    }

    @Test(arguments: Transport.allCases, [HostileResponse.carriageReturnInLocation, .encodedLineBreakInLocation])
    func aLocationWithALineBreakSplitsNoRequest(transport: Transport, attack: HostileResponse) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await load(attack, transport: transport)
        Self.expectTypedErrorOrSafeImage(outcome, attack)
        #expect(outcome.requestHeads.first?.hasPrefix("GET \(attack.path) ") == true)
        if case .success = outcome.result {
            // The redirect was followed with the CR percent-encoded in the target: one line still.
            #expect(outcome.requestHeads.last?.hasPrefix("GET \(HostileResponse.imagePath)%0D") == true)
        }
        for head in outcome.requestHeads {
            let lines = head.components(separatedBy: "\r\n").map { $0.lowercased() }
            #expect(!lines.contains { $0.hasPrefix(HostileResponse.injectedField.lowercased()) }, "\(head)")
            #expect(lines.allSatisfy { !$0.utf8.contains(0x0D) && !$0.utf8.contains(0x0A) }, "\(head.debugDescription)")
        }
    }

    @Test(arguments: Transport.allCases)
    func aFloodOfInterimResponsesEnds(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await load(.interimFlood, transport: transport)
        Self.expectTypedErrorOrSafeImage(outcome, .interimFlood)
        switch transport {
        case .default:
            // 2,500 interim responses count against the 256 fields a response may have.
            #expect(outcome.loadingError == .headersTooLarge, "\(outcome.result)")
        case .urlSession:
            // FoundationNetworking takes the first interim response for the response: refused as a status.
            guard case .failure(.statusCodeUnacceptable(100, _)) = outcome.result else {
                Issue.record("expected status 100 refused, got \(outcome.result)")
                return
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func anHTTP09ReplyIsATypedFailure(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await load(.http09, transport: transport)
        Self.expectTypedErrorOrSafeImage(outcome, .http09)
        #expect(outcome.loadingError != nil, "a body with no status line is no response: \(outcome.result)")
        if transport == .default {
            #expect(outcome.loadingError?.underlyingError?.kind == .invalidResponse, "\(outcome.result)")
        }
    }

    @Test(arguments: Transport.allCases, [HostileResponse.oversizedSetCookie, .oversizedVary])
    func anOversizedFieldIsRefusedFromTheHead(transport: Transport, attack: HostileResponse) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await load(attack, transport: transport)
        #expect(outcome.loadingError == .headersTooLarge, "\(attack): \(outcome.result)")
        #expect(outcome.entries.isEmpty, "\(outcome.entries)")
    }
}
