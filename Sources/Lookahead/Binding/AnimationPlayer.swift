// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Plays an ``AnimatedImage``: a view shows ``image`` and runs ``play()`` while on screen; ``onFrameChange`` tells
/// it to draw the next frame. Time counts only while `play()` runs; a late frame is skipped, not waited for.
@MainActor
public final class AnimationPlayer {
    /// The animation played.
    public let animation: AnimatedImage
    /// The index of the frame shown now.
    public private(set) var frameIndex = 0
    /// The image of the frame shown now.
    public private(set) var image: PlatformImage
    /// How far into the animation the frame shown now is: the time played, over every run of ``play()``.
    public private(set) var elapsed = Duration.zero
    /// Frames not on screen at their time: skipped, or shown late because they were not decoded yet.
    public private(set) var missedFrameCount = 0
    /// Called with the frame's image each time the frame changes.
    public var onFrameChange: ((PlatformImage) -> Void)?

    private let clock: any Clock<Duration>
    private let schedule: AnimationFrameBuffer.Scheduler?
    /// Set when a frame does not decode: the animation stays on the frame before it.
    private var hasEnded = false
    /// The buffer of the current run of ``play()``, for benchmarks and tests.
    package private(set) var frameBuffer: AnimationFrameBuffer?

    /// A player at the first frame; `clock` paces it (tests pass one they advance by hand).
    public convenience init(_ animation: AnimatedImage, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(animation, clock: clock, schedule: nil)
    }

    /// A player whose frames are decoded where `schedule` runs them (tests).
    package init(_ animation: AnimatedImage, clock: any Clock<Duration>, schedule: AnimationFrameBuffer.Scheduler?) {
        self.animation = animation
        self.image = animation.poster
        self.clock = clock
        self.schedule = schedule
    }

    /// Whether the animation has nothing left to show: its last loop has ended, or a frame did not decode.
    public var isFinished: Bool { hasEnded || animation.nextFrameTime(after: elapsed) == nil }

    /// Changes frames as their times come, until the last loop ends or the calling task is cancelled.
    public func play() async {
        guard !isFinished else { return }
        let buffer = AnimationFrameBuffer(animation, shown: frameIndex, schedule: schedule)
        frameBuffer = buffer
        defer {
            buffer.close()
            frameBuffer = nil
        }
        await play(on: clock, from: buffer)
    }

    private func play<C: Clock<Duration>>(on clock: C, from buffer: AnimationFrameBuffer) async {
        let start = clock.now.advanced(by: .zero - elapsed)  // continues where the last run stopped
        while let next = animation.nextFrameTime(after: elapsed) {
            do {
                try await clock.sleep(until: start.advanced(by: next), tolerance: nil)
            } catch {
                return  // cancelled
            }
            elapsed = max(next, start.duration(to: clock.now))
            let index = animation.frameIndex(at: elapsed)
            guard index != frameIndex else { continue }
            missedFrameCount += (index - frameIndex - 1 + animation.frameCount) % animation.frameCount
            guard let frame = await buffer.frame(at: index) else {
                hasEnded = !Task.isCancelled
                return
            }
            if frame.isLate { missedFrameCount += 1 }
            frameIndex = index
            image = frame.image
            onFrameChange?(frame.image)
        }
    }
}
