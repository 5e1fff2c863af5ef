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

    func run() async throws {
        guard let url = URL(string: url) else {
            Self.printError("\(self.url): not a URL")
            throw ExitCode(1)
        }
        let pipeline = ImagePipeline {
            if noDiskCache { $0.diskCache = nil }
        }
        let request = ImageRequest(url: url, thumbnail: thumbnail.map { ThumbnailOptions(maximumPixelSize: $0) })
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
            Self.printError("\(url.absoluteString): \(error)")
            throw ExitCode(1)
        }
    }

    /// Failures go to standard error, so a script's output holds only what was fetched.
    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("lookahead fetch: \(message)\n".utf8))
    }
}
