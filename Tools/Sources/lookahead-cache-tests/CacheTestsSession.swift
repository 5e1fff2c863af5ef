// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// lookahead-cache-tests — one pipeline per test, each with its own disk cache folder, and the loads sent to them.

import Foundation
import Lookahead
import Synchronization

/// A command from the driver script.
struct CacheTestsCommandLine: Decodable {
    var seq: Int
    var command: String
    var test: String
    var path: String?
    var url: String?
    var headers: [[String]]?
    var options: [String]?
}

/// The answer to one command. `outcome`: `response` (a status, its fields and a body), `status` (the pipeline failed
/// with an HTTP status: its fields, no body), `error` (any other failure: what a browser shows as a network error).
struct CacheTestsAnswer: Encodable {
    var seq: Int
    var outcome = "done"
    var status: Int?
    var headers: [String: String]?
    /// The body as the path saw it, base64: the bytes for `data`, the first row's red channel for `image`.
    var body: String?
    /// The length of what `data(for:)` returned, or the bytes of the decoded image's pixels.
    var bodyLength: Int?
    var cacheType: String?
    var error: String?
}

/// The pipelines of the tests running now.
final class CacheTestsSession: Sendable {
    private struct Test {
        var pipeline: ImagePipeline
        var folder: URL
        var decodes: Bool
    }

    private let failureBackoff: Bool
    private let tests = Mutex<[String: Test]>([:])
    /// Answers are written whole, one at a time.
    private let output = Mutex(())

    init(failureBackoff: Bool) {
        self.failureBackoff = failureBackoff
    }

    func handle(_ line: String) async {
        guard let command = try? JSONDecoder().decode(CacheTestsCommandLine.self, from: Data(line.utf8)) else {
            FileHandle.standardError.write(Data("lookahead-cache-tests: not a command: \(line)\n".utf8))
            return
        }
        var answer = CacheTestsAnswer(seq: command.seq)
        switch command.command {
        case "open": open(command.test, decodes: command.path == "image")
        case "load": answer = await load(command)
        case "close": await close(command.test)
        default: answer.outcome = "error"; answer.error = "unknown command \(command.command)"
        }
        write(answer)
    }

    func closeAll() async {
        for id in tests.withLock({ Array($0.keys) }) { await close(id) }
    }

    private func open(_ id: String, decodes: Bool) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-cache-tests-\(UUID().uuidString)", isDirectory: true)
        let failureBackoff = failureBackoff
        let pipeline = ImagePipeline {
            $0.diskCache = DiskCache(directory: folder)
            $0.diskCachePolicy = .httpSemantics
            // The image path keeps decoded images in memory while their responses are fresh.
            $0.memoryCache = decodes ? MemoryCache() : nil
            $0.memoryCacheFollowsHTTPFreshness = true
            if !failureBackoff { $0.failureBackoff = nil }
        }
        tests.withLock { $0[id] = Test(pipeline: pipeline, folder: folder, decodes: decodes) }
    }

    private func close(_ id: String) async {
        guard let test = tests.withLock({ $0.removeValue(forKey: id) }) else { return }
        await test.pipeline.flush()
        test.pipeline.invalidate()
        try? FileManager.default.removeItem(at: test.folder)
    }

    private func load(_ command: CacheTestsCommandLine) async -> CacheTestsAnswer {
        var answer = CacheTestsAnswer(seq: command.seq)
        guard let test = tests.withLock({ $0[command.test] }), let url = command.url.flatMap(URL.init(string:)) else {
            answer.outcome = "error"
            answer.error = "no open test \(command.test), or no URL"
            return answer
        }
        var request = ImageRequest(url: url, options: Self.options(command.options ?? []))
        // Fields of the same name are joined as fetch() joins them.
        var headers: [String: String] = [:]
        for field in command.headers ?? [] where field.count == 2 {
            headers[field[0]] = headers[field[0]].map { "\($0), \(field[1])" } ?? field[1]
        }
        request.headers = headers
        do {
            if test.decodes {
                let response = try await test.pipeline.image(for: request)
                answer.fill(response.httpResponse, cacheType: response.cacheType, body: Self.firstRow(response.image))
                answer.bodyLength = response.image.cost
            } else {
                let response = try await test.pipeline.data(for: request)
                answer.fill(response.httpResponse, cacheType: response.cacheType, body: response.data)
            }
        } catch .statusCodeUnacceptable(let status, let response) {
            answer.outcome = "status"
            answer.status = status
            answer.headers = response?.headers ?? [:]
        } catch {
            answer.outcome = "error"
            answer.error = "\(error)"
        }
        return answer
    }

    /// The request options of fetch()'s cache modes that have one.
    private static func options(_ names: [String]) -> ImageRequest.Options {
        names.reduce(into: []) { options, name in
            switch name {
            case "reload": options.insert(.reloadIgnoringCachedData)
            case "no-store": options.formUnion([.reloadIgnoringCachedData, .disableDiskCacheWrites])
            case "force-cache": options.insert(.returnCacheDataElseLoad)
            case "only-if-cached": options.insert(.returnCacheDataDontLoad)
            default: break
            }
        }
    }

    /// The red channel of the image's first row: the script draws each byte of a body as one grey pixel.
    private static func firstRow(_ image: PlatformImage) -> Data {
        Data((0..<image.width).map { image[$0, 0].red })
    }

    private func write(_ answer: CacheTestsAnswer) {
        guard var line = try? JSONEncoder().encode(answer) else { return }
        line.append(UInt8(ascii: "\n"))
        output.withLock { _ in FileHandle.standardOutput.write(line) }
    }
}

extension CacheTestsAnswer {
    fileprivate mutating func fill(_ response: HTTPResponseInfo?, cacheType: ImageResponse.CacheType?, body: Data) {
        outcome = "response"
        status = response?.statusCode ?? 200
        headers = response?.headers ?? [:]
        self.body = body.base64EncodedString()
        bodyLength = body.count
        self.cacheType = cacheType.map { $0 == .memory ? "memory" : "disk" }
    }
}
