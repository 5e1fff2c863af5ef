// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench decode --photos`: real camera photos to 256-pixel thumbnails, CPU time per
// image, against vipsthumbnail, Pillow (draft + LANCZOS), tjbench and libjpeg-turbo's 1/8-scale decode alone.

import CJPEGEncoder
import Foundation
import Lookahead

#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds per image of each contender on one JPEG; `nil` where a peer is not installed.
struct ThumbnailFigures {
    let name: String
    let width: Int
    let height: Int
    /// Lookahead's thumbnail decode (`ImageDecoders.decode` with `ThumbnailOptions(maximumPixelSize:)`).
    let lookahead: Double
    /// The size Lookahead's thumbnail came out at.
    let thumbnail: (width: Int, height: Int)
    /// libjpeg-turbo's decode alone at 1/8 scale to BGR, as tjbench runs it, in this process.
    let decodeEighth: Double
    /// libjpeg-turbo's decode alone to RGBA at the DCT scale Lookahead uses (n/8), in this process: the floor of
    /// Lookahead's thumbnail, which adds the resampling and its own checks.
    let decodeSameScale: Double
    /// The n of that n/8 scale.
    let eighths: Int
    /// tjbench's own 1/8-scale decode figure, its wall time per frame times its CPU share.
    let tjbench: Double?
    /// tjbench's figure at Lookahead's n/8 scale: the same decode work as Lookahead's (a photo whose 1/8 scale
    /// falls short of the thumbnail is decoded at a larger scale).
    let tjbenchSameScale: Double?
    let vips: Double?
    let pillow: Double?
}

extension ThumbnailFigures {
    /// tjbench at Lookahead's DCT scale: its 1/8 figure when that is the scale.
    var tjbenchAtOwnScale: Double? { eighths == 1 ? tjbench : tjbenchSameScale }
}

enum PhotoThumbnailBenchmark {
    static let defaultFolder = "/usr/share/backgrounds/mate/nature"

    /// The JPEG files of a folder, sorted by name.
    static func photos(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg") }.sorted()
            .map { folder + "/" + $0 }
    }

    /// Measures every contender on each file; `side` is the thumbnail's longest side.
    static func measure(files: [String], side: Int, runs: Int, batch: Int, scratch: URL) throws -> [ThumbnailFigures] {
        let pillow = pillowCPU(files: files, side: side, runs: runs)
        var figures: [ThumbnailFigures] = []
        for (index, file) in files.enumerated() {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: side))
            let image = try ImageDecoders.decode(data, context: context).get().image
            let (width, height) = jpegSize(data)
            let eighths = smallestEighths(width: width, height: height, covering: (image.width, image.height))
            // The three in-process contenders alternate run by run, so load changes touch them alike.
            let medians = interleavedCPUMedians(
                runs: runs,
                [
                    { blackHole(try! ImageDecoders.decode(data, context: context).get()) },
                    { blackHole(decodeEighth(data)) },
                    { blackHole(decodeRGBA(data, eighths: eighths)) },
                ]
            )
            let (ours, eighth, sameScale) = (medians[0], medians[1], medians[2])
            figures.append(
                ThumbnailFigures(
                    name: URL(fileURLWithPath: file).lastPathComponent,
                    width: width,
                    height: height,
                    lookahead: ours,
                    thumbnail: (image.width, image.height),
                    decodeEighth: eighth,
                    decodeSameScale: sameScale,
                    eighths: eighths,
                    tjbench: tjbenchCPU(file: file, pixels: width * height, eighths: 1),
                    tjbenchSameScale: eighths == 1
                        ? nil : tjbenchCPU(file: file, pixels: width * height, eighths: eighths),
                    vips: vipsCPU(file: file, side: side, batch: batch, scratch: scratch),
                    pillow: pillow?[index]
                )
            )
        }
        return figures
    }

    /// Prints one row per photo and the overall ratios (sums of CPU time per image).
    static func report(_ figures: [ThumbnailFigures], figureID: String, subject: String) {
        printRows(figures)
        let totals = Totals(figures)
        printOverall(figures, totals)
        let count = Double(max(figures.count, 1))
        var peers: [BenchFigure.Peer] = [
            .init(
                name: totals.tjbench == nil ? "1/8-scale decode alone" : "tjbench -scale 1/8",
                value: (totals.tjbench ?? totals.eighth) / count * 1e3
            ),
            .init(name: "decode alone at Lookahead's n/8 scale", value: totals.sameScale / count * 1e3),
        ]
        if let own = totals.tjbenchOwnScale {
            peers.insert(.init(name: "tjbench at Lookahead's n/8 scale", value: own / count * 1e3), at: 0)
        }
        if let vips = totals.vips { peers.append(.init(name: "vipsthumbnail", value: vips / count * 1e3)) }
        if let pillow = totals.pillow {
            peers.append(.init(name: "Pillow draft + LANCZOS", value: pillow / count * 1e3))
        }
        let ours = totals.ours
        BenchFigure(
            id: figureID,
            title: "\(subject.prefix(1).uppercased() + subject.dropFirst()) → 256 px thumbnail, CPU per image",
            unit: "ms",
            lookahead: ours / count * 1e3,
            peers: peers,
            goal: "≤ 1.05× tjbench's decode at the same DCT scale; faster than Pillow and vips",
            goalMet: ours <= 1.05 * (totals.tjbenchOwnScale ?? totals.sameScale) && ours < (totals.pillow ?? .infinity)
                && ours < (totals.vips ?? .infinity),
            note: "Lookahead slower than Pillow on \(totals.slowerThanPillow) of \(figures.count); " + loadNote()
        ).print()
    }

    /// Sums of CPU seconds per image over the photos; `nil` for a contender missing on some photo.
    private struct Totals {
        var ours: Double
        var eighth: Double
        var sameScale: Double
        var tjbench: Double?
        var tjbenchOwnScale: Double?
        var vips: Double?
        var pillow: Double?
        /// Photos on which Lookahead took longer than Pillow.
        var slowerThanPillow: Int

        init(_ figures: [ThumbnailFigures]) {
            func total(_ values: [Double?]) -> Double? {
                values.contains { $0 == nil } ? nil : values.compactMap { $0 }.reduce(0, +)
            }
            ours = figures.map(\.lookahead).reduce(0, +)
            eighth = figures.map(\.decodeEighth).reduce(0, +)
            sameScale = figures.map(\.decodeSameScale).reduce(0, +)
            tjbench = total(figures.map(\.tjbench))
            tjbenchOwnScale = total(figures.map(\.tjbenchAtOwnScale))
            vips = total(figures.map(\.vips))
            pillow = total(figures.map(\.pillow))
            slowerThanPillow = figures.filter { figure in figure.pillow.map { figure.lookahead > $0 } ?? false }.count
        }
    }

    /// Milliseconds, in a column of 7; n/a for none.
    private static func ms(_ value: Double?) -> String { value.map { String(format: "%7.2f", $0 * 1e3) } ?? "    n/a" }

    /// Lookahead's time over a contender's, in a column of 7; n/a for none.
    private static func ratio(_ ours: Double, _ peer: Double?) -> String {
        peer.map { String(format: "%6.2f×", ours / $0) } ?? "    n/a"
    }

    /// The table: one row per photo.
    private static func printRows(_ figures: [ThumbnailFigures]) {
        print(
            "photo               size        thumb     Lookahead  1/8 dec  tjbench    vips   Pillow"
                + "   ÷1/8dec  ÷tjbench   ÷vips  ÷Pillow   n/8  dec n/8  ÷dec n/8  tjb n/8  ÷tjb n/8"
        )
        for figure in figures {
            let name = figure.name.padding(toLength: 18, withPad: " ", startingAt: 0)
            let size = "\(figure.width)×\(figure.height)".padding(toLength: 11, withPad: " ", startingAt: 0)
            let thumb = "\(figure.thumbnail.width)×\(figure.thumbnail.height)"
                .padding(toLength: 9, withPad: " ", startingAt: 0)
            print(
                "\(name)  \(size) \(thumb) \(ms(figure.lookahead))  \(ms(figure.decodeEighth))  "
                    + "\(ms(figure.tjbench))  \(ms(figure.vips))  \(ms(figure.pillow))   "
                    + "\(ratio(figure.lookahead, figure.decodeEighth))  \(ratio(figure.lookahead, figure.tjbench))  "
                    + "\(ratio(figure.lookahead, figure.vips))  \(ratio(figure.lookahead, figure.pillow))   "
                    + "\(figure.eighths)/8  \(ms(figure.decodeSameScale))   \(ratio(figure.lookahead, figure.decodeSameScale))"
                    + "  \(ms(figure.tjbenchAtOwnScale))   \(ratio(figure.lookahead, figure.tjbenchAtOwnScale))"
            )
        }
    }

    /// The overall lines: sums, ratios, and on how many photos Lookahead is slower.
    private static func printOverall(_ figures: [ThumbnailFigures], _ totals: Totals) {
        let ours = totals.ours
        print(
            "overall (sum of CPU ms per image): Lookahead \(ms(ours)), 1/8 decode \(ms(totals.eighth)), "
                + "tjbench \(ms(totals.tjbench)), vips \(ms(totals.vips)), Pillow \(ms(totals.pillow))"
        )
        print(
            "overall ratios: ÷1/8 decode \(ratio(ours, totals.eighth)), ÷tjbench \(ratio(ours, totals.tjbench)), "
                + "÷vips \(ratio(ours, totals.vips)), ÷Pillow \(ratio(ours, totals.pillow))"
        )
        print(
            "  the decode alone at Lookahead's own DCT scale, to RGBA: \(ms(totals.sameScale)) ms; Lookahead takes "
                + "\(ratio(ours, totals.sameScale)) of it"
        )
        print(
            "  tjbench at Lookahead's own DCT scale: \(ms(totals.tjbenchOwnScale)) ms; Lookahead takes "
                + "\(ratio(ours, totals.tjbenchOwnScale)) of it (the goal's measure; ÷tjbench above is at 1/8 for every "
                + "photo)"
        )
        print(
            "  Lookahead is slower than Pillow on \(totals.slowerThanPillow) of \(figures.count), slower than vips on "
                + "\(figures.filter { f in f.vips.map { f.lookahead > $0 } ?? false }.count)"
        )
    }

    // MARK: - Contenders

    /// The width and height in a JPEG header.
    static func jpegSize(_ data: Data) -> (Int, Int) {
        guard let handle = tjInitDecompress() else { return (0, 0) }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        _ = data.withUnsafeBytes { raw in
            tjDecompressHeader3(
                handle,
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt(raw.count),
                &width,
                &height,
                &subsampling,
                &colorspace
            )
        }
        return (Int(width), Int(height))
    }

    /// libjpeg-turbo alone: a 1/8-scale decode to BGR, what `tjbench -scale 1/8` times. Returns the pixel bytes.
    static func decodeEighth(_ data: Data) -> Int {
        decodeScaled(data, eighths: 1, format: TJPF_BGR, flags: 0)
    }

    /// The smallest n (1…8) whose n/8 DCT scale of a `width` × `height` image still covers a thumbnail size.
    static func smallestEighths(width: Int, height: Int, covering target: (Int, Int)) -> Int {
        (1...8).first { n in (width * n + 7) / 8 >= target.0 && (height * n + 7) / 8 >= target.1 } ?? 8
    }

    /// libjpeg-turbo alone: a decode at n/8 scale to RGBA into an uninitialised buffer, as Lookahead decodes.
    static func decodeRGBA(_ data: Data, eighths: Int) -> Int {
        decodeScaled(data, eighths: eighths, format: TJPF_RGBA, flags: Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS))
    }

    /// A TurboJPEG decode at n/8 scale into an uninitialised buffer of `format` pixels; returns its byte count.
    private static func decodeScaled(_ data: Data, eighths: Int, format: TJPF, flags: Int32) -> Int {
        guard let handle = tjInitDecompress() else { return 0 }
        defer { tjDestroy(handle) }
        let (width, height) = jpegSize(data)
        let outWidth = (width * eighths + 7) / 8
        let outHeight = (height * eighths + 7) / 8
        let bytesPerPixel = format == TJPF_BGR ? 3 : 4
        let pixels = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * bytesPerPixel) { buffer, count in
            _ = data.withUnsafeBytes { raw in
                tjDecompress2(
                    handle,
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    UInt(raw.count),
                    buffer.baseAddress,
                    Int32(outWidth),
                    Int32(outWidth * bytesPerPixel),
                    Int32(outHeight),
                    Int32(format.rawValue),
                    flags
                )
            }
            count = buffer.count
        }
        return pixels.count
    }

    /// tjbench's n/8 decode of one file, in CPU seconds per frame: its frames per second (from its throughput,
    /// which counts the full-size pixels) give wall time per frame, scaled by the CPU share it got. It writes no
    /// image next to the photo.
    static func tjbenchCPU(file: String, pixels: Int, eighths: Int) -> Double? {
        guard let tjbench = which("tjbench") else { return nil }
        let clock = ContinuousClock()
        let before = childrenCPU()
        let start = clock.now
        guard
            let output = try? capture(
                tjbench,
                [file, "-scale", "\(eighths)/8", "-benchtime", "1", "-warmup", "0.3", "-quiet", "-nowrite"]
            )
        else { return nil }
        let wall = (clock.now - start).seconds
        let cpu = childrenCPU() - before
        // The last line: format, colourspace, subsampling, width, height, N/A, N/A, decompression Mpixels/s.
        guard let line = output.split(separator: "\n").last(where: { $0.contains("YCbCr") || $0.contains("Gray") }),
            let perf = line.split(separator: " ").last.flatMap({ Double($0) }), perf > 0
        else { return nil }
        let wallPerFrame = Double(pixels) / (perf * 1e6)
        return wallPerFrame * min(1, cpu / wall)
    }

    /// vipsthumbnail's CPU seconds per image: a batch of copies minus a single file, to leave out start-up.
    static func vipsCPU(file: String, side: Int, batch: Int, scratch: URL) -> Double? {
        guard let vipsthumbnail = which("vipsthumbnail") else { return nil }
        let copies = (0..<max(2, batch)).map { scratch.appendingPathComponent("vips-\($0).jpg").path }
        for copy in copies {
            try? FileManager.default.removeItem(atPath: copy)
            try? FileManager.default.copyItem(atPath: file, toPath: copy)
        }
        func cpu(_ files: [String]) -> Double? {
            let before = childrenCPU()
            guard (try? runCommand(vipsthumbnail, ["-s", "\(side)", "-o", scratch.path + "/%s-t.jpg"] + files)) != nil
            else { return nil }
            return childrenCPU() - before
        }
        var samples: [Double] = []
        for _ in 0..<3 {
            guard let one = cpu([copies[0]]), let many = cpu(copies) else { return nil }
            samples.append(max(0, many - one) / Double(copies.count - 1))
        }
        return samples.sorted()[1]
    }

    /// Pillow's CPU seconds per image (`time.process_time`), median of `runs`, for each file in one process.
    static func pillowCPU(files: [String], side: Int, runs: Int) -> [Double]? {
        let script = """
            import sys, time
            from PIL import Image
            def once(path):
                im = Image.open(path); im.draft('RGB', (\(side), \(side))); im.thumbnail((\(side), \(side)), Image.LANCZOS)
            for path in sys.argv[1:]:
                for _ in range(2): once(path)
                times = []
                for _ in range(\(runs)):
                    start = time.process_time(); once(path); times.append(time.process_time() - start)
                times.sort()
                print(times[len(times) // 2])
            """
        guard let python = pythonWithPillow, let output = try? capture(python, ["-c", script] + files) else {
            return nil
        }
        let values = output.split(separator: "\n").compactMap { Double($0) }
        return values.count == files.count ? values : nil
    }
}

/// The median CPU time of this thread per call of each body, over `runs` rounds that call every body once in
/// turn, after two warm-up rounds.
func interleavedCPUMedians(runs: Int, _ bodies: [() -> Void]) -> [Double] {
    for _ in 0..<2 { for body in bodies { body() } }
    var samples = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<max(1, runs) {
        for (index, body) in bodies.enumerated() {
            let start = threadCPU()
            body()
            samples[index].append(threadCPU() - start)
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}

/// CPU seconds this thread has used.
func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU seconds (user + system) used by this process's finished children.
func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}
