// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead CLI — `lookahead fetch URL`: load through the whole pipeline and report what happened.

import ArgumentParser
import Foundation
import Lookahead

struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load an image URL through the pipeline (disk cache, network, decoding) and print the result."
    )

    @Argument(help: "The image URL.")
    var url: String

    @Option(help: "Decode as a thumbnail whose longer side is at most this many pixels.")
    var thumbnail: Int?

    @Flag(help: "Do not use the disk cache.")
    var noDiskCache = false

    @Option(help: "Save the decoded image as PNG.")
    var out: String?

    @Option(name: .customLong("header"), help: "A header field sent with the download, as 'Name: value' (repeatable).")
    var headers: [String] = []

    func run() async throws {
        guard let url = URL(string: url) else {
            Self.printError("\(self.url): not a URL")
            throw ExitCode(1)
        }
        let pipeline = ImagePipeline {
            if noDiskCache { $0.diskCache = nil }
        }
        var request = ImageRequest(url: url, thumbnail: thumbnail.map { ThumbnailOptions(maximumPixelSize: $0) })
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                Self.printError("\(header): a header is 'Name: value'")
                throw ExitCode(1)
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            request.headers[name] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result: Result<ImageResponse, ImagePipeline.Error>
        do {
            result = .success(try await pipeline.image(for: request))
        } catch {
            result = .failure(error)
        }
        let elapsed = start.duration(to: clock.now)
        // The disk cache writes in the background: wait for it, or the entry is lost when the program exits.
        await pipeline.flush()
        switch result {
        case .success(let response):
            let source = response.cacheType.map { "\($0) cache" } ?? "network"
            let status = response.httpResponse.map { " (HTTP \($0.statusCode))" } ?? ""
            print(
                "\(url.absoluteString): \(response.image.width)×\(response.image.height) from the \(source)\(status) "
                    + "in \(elapsed.formattedMilliseconds)"
            )
            if let out {
                try ImageEncoders.PNG.encode(response.image).write(to: URL(fileURLWithPath: out))
                print("saved \(out)")
            }
        case .failure(let error):
            Self.printError("\(url.absoluteString): \(Self.describe(error.reason)): \(error)")
            if let retryAfter = error.retryAfter { Self.printError("the server asks to retry after \(retryAfter)") }
            throw ExitCode(1)
        }
    }

    /// The error's kind, as an app would tell them apart.
    private static func describe(_ reason: ImagePipeline.Error.Reason) -> String {
        switch reason {
        case .cancelled: "cancelled"
        case .unreachable(let kind?): "unreachable (\(kind.rawValue))"
        case .unreachable(nil): "unreachable"
        case .serverError(let status): "server error \(status)"
        case .invalidImage: "invalid image"
        case .notLoadable: "not loadable"
        }
    }

    /// Failures go to standard error, so a script's output holds only what was fetched.
    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("lookahead fetch: \(message)\n".utf8))
    }
}
