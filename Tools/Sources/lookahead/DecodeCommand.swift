// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead CLI — `lookahead decode FILE…`: format, decoded size and time, or the typed error.

import ArgumentParser
import Foundation
import Lookahead

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract:
            "Decode files; print the format, the upright decoded size and the time, or the error. Exits 1 if any failed."
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Option(help: "Decode as a thumbnail whose longer side is at most this many pixels.")
    var thumbnail: Int?

    @Option(help: "The largest pixel count a header may declare.")
    var maximumPixelCount = 64 << 20

    func run() throws {
        var failures = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                print("\(file): cannot read the file")
                failures += 1
                continue
            }
            let context = ImageDecodingContext(
                thumbnail: thumbnail.map { ThumbnailOptions(maximumPixelSize: $0) },
                maximumPixelCount: maximumPixelCount
            )
            let clock = ContinuousClock()
            let start = clock.now
            switch ImageDecoders.decode(data, context: context) {
            case .success(let decoded):
                let elapsed = start.duration(to: clock.now)
                print(
                    "\(file): \(decoded.codec) \(decoded.image.width)×\(decoded.image.height) in \(elapsed.formattedMilliseconds)"
                )
            case .failure(let error):
                print("\(file): \(error)")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

extension Duration {
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        return String(format: "%.2f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
