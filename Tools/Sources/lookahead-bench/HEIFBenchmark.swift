// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench heif`: a 12-megapixel HEIC (and AVIF) made from a camera photo, to a 256-pixel
// thumbnail, against heif-convert and vipsthumbnail, CPU time per image, in one run.

import ArgumentParser
import Foundation
import Lookahead

#if canImport(Glibc)
import Glibc
#endif

struct HEIFBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heif",
        abstract:
            "12 MP HEIC/AVIF → 256 px thumbnail: Lookahead vs heif-convert (full decode + JPEG) and vipsthumbnail (CPU)."
    )

    @Option(help: "The camera photo the HEIC is made from (upscaled to 4032×3024, an iPhone's 12 MP).")
    var photo = PhotoThumbnailBenchmark.defaultFolder + "/Wood.jpg"

    @Option(help: "Measured runs per contender (the median is reported).")
    var runs = 7

    @Option(help: "The thumbnail's longest side in pixels.")
    var side = 256

    func run() throws {
        guard let heifEnc = which("heif-enc") else {
            throw ValidationError("heif-enc not found: apt-get install libheif-examples (scripts/bootstrap does)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-bench-heif-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("lookahead-bench heif — CPU time per image, median of \(runs) runs; peers as child processes")
        print("load before: \(uptimeLine())")

        // The source: the photo upscaled to 4032×3024 with Lookahead's resampler, written as PNG for heif-enc.
        let original = try ImageDecoders.decode(Data(contentsOf: URL(fileURLWithPath: photo)), context: .init()).get()
        let large = try ImageProcessors.Resize(width: 4032, height: 3024, crop: true, upscale: true)
            .process(original.image)
        let png = folder.appendingPathComponent("source.png")
        try ImageEncoders.PNG.encode(large).write(to: png)
        let variants: [(name: String, file: String, arguments: [String])] = [
            ("HEIC, 320 px thumbnail inside (as iPhones write)", "thumb.heic", ["-q", "80", "-t", "320"]),
            ("HEIC, no thumbnail", "plain.heic", ["-q", "80"]),
            ("AVIF, no thumbnail", "plain.avif", ["-q", "60"]),
        ]
        print("source: \(photo) upscaled to \(large.width)×\(large.height); thumbnail longest side \(side) px")
        print("")
        print("file                                               KiB   Lookahead   full decode   heif-convert    vips")
        for variant in variants {
            try measure(variant, heifEnc: heifEnc, source: png, scratch: folder)
        }
        print("")
        print("load after: \(uptimeLine())")
    }

    /// Encodes one variant with heif-enc, then times its thumbnail against a full decode, heif-convert and vips:
    /// prints its row and figure.
    private func measure(
        _ variant: (name: String, file: String, arguments: [String]),
        heifEnc: String,
        source png: URL,
        scratch folder: URL
    ) throws {
        let path = folder.appendingPathComponent(variant.file).path
        try runCommand(heifEnc, variant.arguments + ["-o", path, png.path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: side))
        let thumbnail = try ImageDecoders.decode(data, context: context).get().image
        let medians = interleavedCPUMedians(
            runs: runs,
            [
                { blackHole(try! ImageDecoders.decode(data, context: context).get()) },
                { blackHole(try! ImageDecoders.HEIF().decode(data, context: .init())) },
            ]
        )
        let convert = heifConvertCPU(path, scratch: folder)
        let vips = vipsCPU(path, scratch: folder)
        func ms(_ value: Double?) -> String { value.map { String(format: "%9.1f", $0 * 1e3) } ?? "      n/a" }
        print(
            variant.name.padding(toLength: 48, withPad: " ", startingAt: 0)
                + String(format: "%6d", data.count / 1024) + "   " + ms(medians[0]) + "   " + ms(medians[1])
                + "     " + ms(convert) + "   " + ms(vips)
                + "   (\(thumbnail.width)×\(thumbnail.height))"
        )
        let peers = [("heif-convert to JPEG", convert), ("vipsthumbnail", vips), ("our full decode", medians[1])]
        BenchFigure(
            id: "heif-\(variant.file.replacingOccurrences(of: ".", with: "-"))",
            title: "12 MP \(variant.name) → \(side) px thumbnail, CPU per image",
            unit: "ms",
            lookahead: medians[0] * 1e3,
            peers: peers.compactMap { name, value in value.map { .init(name: name, value: $0 * 1e3) } },
            goal: "faster than heif-convert",
            goalMet: convert.map { medians[0] < $0 },
            note: loadNote()
        ).print()
    }

    /// heif-convert's CPU seconds for one file to JPEG (it has no thumbnail mode: a full decode and a 12 MP JPEG).
    private func heifConvertCPU(_ path: String, scratch: URL) -> Double? {
        guard let heifConvert = which("heif-convert") else { return nil }
        let output = scratch.appendingPathComponent("converted.jpg").path
        var samples: [Double] = []
        for _ in 0..<max(1, min(runs, 5)) {
            let before = childrenCPU()
            guard (try? runCommand(heifConvert, ["-q", "90", path, output])) != nil else { return nil }
            samples.append(childrenCPU() - before)
        }
        return samples.sorted()[samples.count / 2]
    }

    /// vipsthumbnail's CPU seconds for one file, when libvips (with its HEIF loader) is installed.
    private func vipsCPU(_ path: String, scratch: URL) -> Double? {
        guard let vipsthumbnail = which("vipsthumbnail") else { return nil }
        var samples: [Double] = []
        for _ in 0..<max(1, min(runs, 5)) {
            let before = childrenCPU()
            let output = scratch.appendingPathComponent("vips-%s.jpg").path
            guard (try? runCommand(vipsthumbnail, ["-s", "\(side)", "-o", output, path])) != nil else { return nil }
            samples.append(childrenCPU() - before)
        }
        return samples.sorted()[samples.count / 2]
    }
}
