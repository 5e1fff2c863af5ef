// Lookahead bench — `lookahead-bench decode`: a 12-megapixel JPEG to a 256-pixel thumbnail against vipsthumbnail
// and Pillow, and PNG decoding against Pillow, measured in one run.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

struct DecodeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "12 MP JPEG → 256 px thumbnail: Lookahead vs vipsthumbnail vs Pillow; PNG decode vs Pillow."
    )

    @Option(help: "Measured runs per scenario (the median is reported).")
    var runs = 11

    @Option(help: "Files per batch for the command-line comparisons (amortises process start-up).")
    var batch = 20

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-bench-decode-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let jpeg = Data(try FixtureImages.jpeg(number: 7, width: 4000, height: 3000, quality: 90))
        let jpegFiles = try (0..<batch).map { index -> String in
            let path = folder.appendingPathComponent("photo-\(index).jpg").path
            try jpeg.write(to: URL(fileURLWithPath: path))
            return path
        }
        let rgba = Bitmap(width: 1600, height: 1200, red: 0, green: 0, blue: 0)
        let png = try ImageEncoders.PNG.encode(Self.photoLike(rgba))
        let pngPath = folder.appendingPathComponent("image.png").path
        try png.write(to: URL(fileURLWithPath: pngPath))

        print(
            "lookahead-bench decode — median of \(runs) runs; command-line figures are per image over batches of \(batch)"
        )
        print("")
        print("JPEG 4000×3000 (\(jpeg.count / 1024) KiB) → thumbnail, longest side 256 px")
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: 256))
        let inProcess = measure("Lookahead, in process", operations: 1, runs: runs, warmUp: 2) {
            blackHole(try! ImageDecoders.decode(jpeg, context: context).get())
        }
        let thumbnail = try ImageDecoders.decode(jpeg, context: context).get().image
        print(row(inProcess, unit: "ms", scale: 1e3) + "   → \(thumbnail.width)×\(thumbnail.height)")

        let ownCommand = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("lookahead").path
        var ours: Measurement?
        if FileManager.default.isExecutableFile(atPath: ownCommand) {
            ours = commandMeasurement("Lookahead, `lookahead decode --thumbnail 256`", perRun: batch) {
                try runCommand(ownCommand, ["decode", "--thumbnail", "256"] + jpegFiles)
            }
            print(row(ours!, unit: "ms", scale: 1e3))
        } else {
            print("  (build the `lookahead` product to time it as a command: \(ownCommand) is missing)")
        }
        var vips: Measurement?
        if let vipsthumbnail = which("vipsthumbnail") {
            vips = commandMeasurement("vipsthumbnail -s 256", perRun: batch) {
                try runCommand(vipsthumbnail, ["-s", "256", "-o", folder.path + "/%s-vips.v"] + jpegFiles)
            }
            print(row(vips!, unit: "ms", scale: 1e3))
        } else {
            print("  vipsthumbnail not found (apt-get install libvips-tools)")
        }
        let pillowJPEG = pillow(
            """
            im = Image.open(path); im.draft('RGB', (256, 256)); im.thumbnail((256, 256), Image.LANCZOS)
            """,
            path: jpegFiles[0]
        )
        if let pillowJPEG {
            print(row(pillowJPEG, unit: "ms", scale: 1e3) + "   (draft + thumbnail, in process)")
        }
        print("")
        if let vips, let ours {
            print(
                String(
                    format: "  → as commands, Lookahead takes %.2f× the time of vipsthumbnail",
                    ours.median / vips.median
                )
            )
        }
        if let vips {
            print(
                String(
                    format: "  → in process, Lookahead takes %.2f× the time of vipsthumbnail's per-image command time",
                    inProcess.median / vips.median
                )
            )
        }
        if let pillowJPEG {
            print(
                String(
                    format: "  → in process, Lookahead takes %.2f× the time of Pillow",
                    inProcess.median / pillowJPEG.median
                )
            )
        }

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

    private func commandMeasurement(_ name: String, perRun: Int, _ body: () throws -> Void) -> Measurement {
        measure(name, operations: perRun, runs: max(3, runs / 2), warmUp: 1) { try! body() }
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
        guard let python = which("python3"), let output = try? capture(python, ["-c", script, path]) else {
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
