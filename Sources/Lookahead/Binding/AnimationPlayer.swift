// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Plays an ``AnimatedImage``: a view shows ``image`` and runs ``play()`` while on screen; ``onFrameChange`` tells
/// it to draw the next frame. Time counts only while `play()` runs; a late clock skips frames rather than slowing
/// the animation down.
@MainActor
public final class AnimationPlayer {
    /// The animation played.
    public let animation: AnimatedImage
    /// The index of the frame shown now.
    public private(set) var frameIndex = 0
    /// How far into the animation the frame shown now is: the time played, over every run of ``play()``.
    public private(set) var elapsed = Duration.zero
    /// Called with the frame's image each time the frame changes.
    public var onFrameChange: ((PlatformImage) -> Void)?

    private let clock: any Clock<Duration>

    /// A player at the first frame; `clock` paces it (tests pass one they advance by hand).
    public init(_ animation: AnimatedImage, clock: any Clock<Duration> = ContinuousClock()) {
        self.animation = animation
        self.clock = clock
    }

    /// The image of the frame shown now.
    public var image: PlatformImage { animation.frames[frameIndex].image }

    /// Whether the animation has nothing left to show: one frame, or its last loop has ended.
    public var isFinished: Bool { animation.nextFrameTime(after: elapsed) == nil }

    /// Changes frames as their times come, until the last loop ends or the calling task is cancelled.
    public func play() async {
        await play(on: clock)
    }

    private func play<C: Clock<Duration>>(on clock: C) async {
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
            frameIndex = index
            onFrameChange?(animation.frames[index].image)
        }
    }
}
