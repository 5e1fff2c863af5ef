// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench animation`: a 200-frame GIF and WebP played through the pipeline and
// AnimationPlayer in real time, frames decoded into the player's bounded buffer, against every frame decoded up front.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization

struct AnimationBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animation",
        abstract: "Peak memory of an animation played with a bounded frame buffer vs every frame decoded up front."
    )

    @Option(help: "Frames per animation.")
    var frames = 200

    @Option(help: "The animation's width and height in pixels.")
    var side = 480

    @Option(help: "How long each frame shows, in milliseconds.")
    var delay = 40

    func run() async throws {
        print("lookahead-bench animation — \(frames) frames of \(side)×\(side), \(delay) ms each, played once in real")
        print("time; peak = the most resident memory not backed by files (RSS less shared pages, sampled every 2 ms")
        print("on a thread of its own) over what the process held before the file was loaded. \"All-frames\" decodes")
        print("every frame up front (the animation's frame iterator into an array), then shows them at the same rate.")
        print("load before: \(uptimeLine())")
        let pictures = AnimationEncoder.variedFrames(count: frames, side: side)
        let files: [(String, [UInt8])] = [
            ("gif", AnimationEncoder.gif(frames: pictures, width: side, height: side, delayMilliseconds: delay)),
            ("webp", AnimationEncoder.webp(frames: pictures, width: side, height: side, delayMilliseconds: delay)),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-bench-anim-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (format, bytes) in files {
            let url = folder.appendingPathComponent("animation.\(format)")
            try Data(bytes).write(to: url)
            let buffered = try await playBuffered(url)
            let allFrames = try await playAllFrames(url)
            let ratio = Double(buffered.peak) / Double(max(1, allFrames.peak))
            print(
                "animation: peak \(mebibytes(buffered.peak)) MiB for \(frames) frames, all-frames peak "
                    + "\(mebibytes(allFrames.peak)) MiB, ratio \(String(format: "%.3f", ratio)), missed "
                    + "\(buffered.missed) of \(buffered.due) frames"
            )
            print(
                "  \(format): \(bytes.count / 1024) KiB encoded; all-frames missed \(allFrames.missed) of "
                    + "\(allFrames.due); the buffer's bound \(mebibytes(buffered.bufferBound)) MiB"
            )
        }
        print("load after: \(uptimeLine())")
    }

    private func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

    /// What one play showed: the peak over the baseline, the frames due and those missed, the buffer's bound.
    struct Play {
        var peak: Int
        var due: Int
        var missed: Int
        var bufferBound = 0
    }

    /// Loads the file through a fresh pipeline and plays it once with ``AnimationPlayer``.
    private func playBuffered(_ url: URL) async throws -> Play {
        let sampler = PeakSampler()
        let pipeline = Self.pipeline(memoryCache: MemoryCache(costLimit: 64 << 20))
        let response = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        guard let animation = response.animation else {
            throw ValidationError("\(url.lastPathComponent) is not animated")
        }
        let missed = await Self.play(animation)
        let peak = sampler.stop()
        return Play(peak: peak, due: animation.frameCount, missed: missed, bufferBound: animation.frameBufferByteLimit)
    }

    /// A pipeline that reads local files, without a disk cache.
    private static func pipeline(memoryCache: MemoryCache?) -> ImagePipeline {
        var options = DataLoaderOptions()
        options.allowsLocalFiles = true
        return ImagePipeline {
            $0.dataLoader = DefaultDataLoader(options: options)
            $0.diskCache = nil
            $0.memoryCache = memoryCache
        }
    }

    /// Plays the animation's first loop on the main actor in real time; returns the frames missed.
    @MainActor
    private static func play(_ animation: AnimatedImage) async -> Int {
        let player = AnimationPlayer(animation)
        let run = Task { await player.play() }
        // Stops just before the second loop's first frame is due.
        try? await Task.sleep(for: animation.duration - .milliseconds(1))
        run.cancel()
        await run.value
        return player.missedFrameCount + (animation.frameCount - 1 - player.frameIndex)
    }

    /// Loads the file through a fresh pipeline, decodes every frame up front, and shows them at their times.
    private func playAllFrames(_ url: URL) async throws -> Play {
        let sampler = PeakSampler()
        let pipeline = Self.pipeline(memoryCache: nil)
        let response = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        guard let animation = response.animation else {
            throw ValidationError("\(url.lastPathComponent) is not animated")
        }
        var iterator = animation.makeFrameIterator()
        var decoded: [AnimatedImage.Frame] = []
        while let frame = try iterator.next() { decoded.append(frame) }
        let clock = ContinuousClock()
        let start = clock.now
        var missed = 0
        var due = Duration.zero
        for frame in decoded {
            if clock.now > start + due + .milliseconds(5) { missed += 1 }
            blackHole(frame.image.width)
            due += frame.duration
            try await clock.sleep(until: start + due - .milliseconds(1))
        }
        let peak = sampler.stop()
        blackHole(decoded.count)
        return Play(peak: peak, due: decoded.count, missed: missed)
    }
}

/// Samples this process's anonymous resident memory every 2 ms on a thread of its own, from a baseline taken (after
/// giving free heap memory back) when it starts.
private final class PeakSampler: Sendable {
    private let baseline: Int
    private let peak = Atomic<Int>(0)
    private let isStopped = Atomic<Bool>(false)

    init() {
        ResidentMemory.trim()
        baseline = ResidentMemory.anonymousBytes() ?? 0
        let thread = Thread { [self] in
            while !isStopped.load(ordering: .acquiring) {
                let now = ResidentMemory.anonymousBytes() ?? 0
                _ = peak.max(now, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        thread.start()
    }

    /// Stops sampling; the peak over the baseline, in bytes.
    func stop() -> Int {
        let last = ResidentMemory.anonymousBytes() ?? 0
        isStopped.store(true, ordering: .releasing)
        return max(0, max(peak.load(ordering: .relaxed), last) - baseline)
    }
}
