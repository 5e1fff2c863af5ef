// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead CLI — `lookahead decode FILE…`: format, decoded size and time, or the typed error.

import ArgumentParser
import Foundation
import Lookahead

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract:
            "Decode files; print the format, the upright decoded size, the time, the EXIF orientation and the colour "
            + "profile, or the error. Exits 1 if any failed."
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
                var line =
                    "\(file): \(decoded.codec) \(decoded.image.width)×\(decoded.image.height) in \(elapsed.formattedMilliseconds)"
                if let metadata = ImageDecoders.metadata(of: data) { line += Self.describe(metadata) }
                print(line)
            case .failure(let error):
                print("\(file): \(error)")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// " · orientation 6 (right) · Display P3 → sRGB", or " · untagged (sRGB)".
    static func describe(_ metadata: ImageMetadata) -> String {
        var text = ""
        if metadata.orientation != .up {
            text += " · orientation \(metadata.orientation.rawValue) (\(metadata.orientation))"
        }
        switch (metadata.colorProfile, metadata.isConvertedToSRGB) {
        case (let profile?, true): text += " · \(profile) → sRGB"
        case (let profile?, false): text += " · \(profile)"
        case (nil, _): text += " · untagged (sRGB)"
        }
        return text
    }
}

extension Duration {
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        return String(format: "%.2f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
