// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench decode`: camera photos and a synthetic 12-megapixel JPEG to 256-pixel
// thumbnails against vipsthumbnail, Pillow and tjbench, and PNG decoding against Pillow, measured in one run.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

struct DecodeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract:
            "Photos → 256 px thumbnails: Lookahead vs vipsthumbnail, Pillow, tjbench (CPU time); PNG decode vs Pillow."
    )

    @Option(help: "Measured runs per scenario (the median is reported).")
    var runs = 15

    @Option(help: "Files per batch for the command-line comparisons (amortises process start-up).")
    var batch = 10

    @Option(help: "A folder of camera JPEGs to thumbnail (default: mate-backgrounds' nature photos when installed).")
    var photos: String?

    @Option(help: "The thumbnail's longest side in pixels.")
    var side = 256

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-bench-decode-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print(
            "lookahead-bench decode — CPU time per image, median of \(runs) runs; vipsthumbnail per image over batches"
        )
        print(
            "of \(batch) minus one (start-up left out); Pillow draft + thumbnail LANCZOS in one Python process; tjbench"
        )
        print(
            "(Debian's libjpeg-turbo-progs) -scale 1/8; \"1/8 dec\" is libjpeg-turbo's 1/8 decode alone in this process"
        )
        print("load before: \(uptimeLine())")
        print("")
        try cameraPhotos(scratch: folder)
        print("")
        try syntheticJPEG(scratch: folder)
        try png(scratch: folder)
        print("load after: \(uptimeLine())")
    }

    /// The camera photos of `--photos` → thumbnails, against the contenders.
    private func cameraPhotos(scratch folder: URL) throws {
        let photoFolder = photos ?? PhotoThumbnailBenchmark.defaultFolder
        let photoFiles = PhotoThumbnailBenchmark.photos(in: photoFolder)
        guard !photoFiles.isEmpty else {
            print("No photos in \(photoFolder) (apt-get install mate-backgrounds, or pass --photos DIR)")
            return
        }
        print("Camera photos in \(photoFolder) → thumbnail, longest side \(side) px (CPU ms per image)")
        PhotoThumbnailBenchmark.report(
            try PhotoThumbnailBenchmark.measure(
                files: photoFiles,
                side: side,
                runs: runs,
                batch: batch,
                scratch: folder
            ),
            figureID: "thumbnail-photos",
            subject: "\(photoFiles.count) camera photos"
        )
    }

    /// A synthetic 12-megapixel JPEG → thumbnail, against the contenders.
    private func syntheticJPEG(scratch folder: URL) throws {
        let jpeg = Data(try FixtureImages.jpeg(number: 7, width: 4000, height: 3000, quality: 90))
        let jpegPath = folder.appendingPathComponent("synthetic-12mp.jpg").path
        try jpeg.write(to: URL(fileURLWithPath: jpegPath))
        print("Synthetic JPEG 4000×3000 q90 (\(jpeg.count / 1024) KiB) → thumbnail, longest side \(side) px")
        PhotoThumbnailBenchmark.report(
            try PhotoThumbnailBenchmark.measure(
                files: [jpegPath],
                side: side,
                runs: runs,
                batch: batch,
                scratch: folder
            ),
            figureID: "thumbnail-synthetic-12mp",
            subject: "a synthetic 4000×3000 JPEG"
        )
    }

    /// A full PNG decode, against Pillow's.
    private func png(scratch folder: URL) throws {
        let rgba = Bitmap(width: 1600, height: 1200, red: 0, green: 0, blue: 0)
        let png = try ImageEncoders.PNG.encode(Self.photoLike(rgba))
        let pngPath = folder.appendingPathComponent("image.png").path
        try png.write(to: URL(fileURLWithPath: pngPath))
        print("")
        print("PNG 1600×1200 RGBA (\(png.count / 1024) KiB), full decode")
        let pngOurs = measure("Lookahead (libspng), in process", operations: 1, runs: runs, warmUp: 2) {
            blackHole(try! ImageDecoders.PNG().decode(png, context: .init()))
        }
        print(row(pngOurs, unit: "ms", scale: 1e3))
        if let pillowPNG = pillow("im = Image.open(path); im.load()", path: pngPath) {
            print(row(pillowPNG, unit: "ms", scale: 1e3) + "   (open + load, in process)")
            print(String(format: "  → Lookahead takes %.2f× the time of Pillow", pngOurs.median / pillowPNG.median))
        }
    }

    /// A photo-like RGBA image (smooth gradients and noise) so PNG compression is realistic.
    private static func photoLike(_ size: Bitmap) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var state: UInt32 = 1
        for y in 0..<size.height {
            for x in 0..<size.width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28)
                let offset = (y * size.width + x) * 4
                pixels[offset] = UInt8((x * 255 / size.width + noise) & 0xFF)
                pixels[offset + 1] = UInt8((y * 255 / size.height + noise) & 0xFF)
                pixels[offset + 2] = UInt8(((x + y) * 127 / (size.width + size.height)) & 0xFF)
                pixels[offset + 3] = 255
            }
        }
        return Bitmap(width: size.width, height: size.height, pixels: pixels)
    }

    /// Times a Pillow snippet in one Python process: median seconds per call, or `nil` without Pillow.
    private func pillow(_ snippet: String, path: String) -> Measurement? {
        let script = """
            import sys, time
            from PIL import Image
            path = sys.argv[1]
            def once():
                \(snippet)
            for _ in range(2): once()
            times = []
            for _ in range(\(runs)):
                start = time.perf_counter(); once(); times.append(time.perf_counter() - start)
            print(" ".join(str(t) for t in times))
            """
        guard let python = pythonWithPillow, let output = try? capture(python, ["-c", script, path]) else {
            print("  Pillow not available (pip install pillow)")
            return nil
        }
        let samples = output.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard !samples.isEmpty else { return nil }
        return Measurement(
            name: "Pillow \(snippet.contains("draft") ? "(libjpeg draft)" : "")",
            secondsPerOperation: samples
        )
    }
}

/// The full path of a command on PATH.
func which(_ command: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(directory)/\(command)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// A Python 3 that imports Pillow: the first python3 on PATH that does, else the system's (where Debian's
/// python3-pil installs, which scripts/bench installs; a python3 of pyenv or a virtual environment on PATH does not
/// see it). `nil` when none does.
let pythonWithPillow: String? = {
    let candidates = [which("python3"), "/usr/bin/python3"].compactMap { $0 }
    return candidates.first { (try? capture($0, ["-c", "import PIL"])) != nil }
}()

/// Runs a command to completion; throws when it fails.
func runCommand(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ExitCode(process.terminationStatus) }
}

/// Runs a command and returns its standard output.
func capture(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ExitCode(process.terminationStatus) }
    return String(decoding: data, as: UTF8.self)
}
