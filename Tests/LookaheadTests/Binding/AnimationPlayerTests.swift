// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — AnimationPlayer: frames change at their times on the injected clock, late clocks skip frames,
// a cancelled run continues where it stopped, and the last loop stops on its last frame.

import Testing

@testable import Lookahead

@MainActor
@Suite(.timeLimit(.minutes(1))) struct AnimationPlayerTests {
    let clock = SteppingClock()

    /// Frames of 100, 200 and 100 ms; frame `i` is `i + 1` pixels wide, so an image tells which frame it is.
    func animation(loopCount: Int) -> AnimatedImage {
        .numbered([100, 200, 100], loopCount: loopCount)
    }

    /// Waits until the player sleeps for the `count`th time, that is, until it has handled the time so far.
    func waitForSleep(_ count: Int) async {
        await clock.sleeps.wait { $0 >= count }
    }

    /// The widths of the frames a player changed to.
    final class FrameLog {
        var widths: [Int] = []
    }

    /// A player of `animation(loopCount:)`, playing in a task and asleep until its first frame change.
    func start(loopCount: Int) async -> (player: AnimationPlayer, run: Task<Void, Never>, log: FrameLog) {
        let player = AnimationPlayer(animation(loopCount: loopCount), clock: clock)
        let log = FrameLog()
        player.onFrameChange = { log.widths.append($0.pixelWidth) }
        let run = Task { await player.play() }
        await waitForSleep(1)
        return (player, run, log)
    }

    @Test func framesChangeAtTheirTimesAndTheLastLoopStopsOnItsLastFrame() async {
        let (player, run, log) = await start(loopCount: 1)
        #expect(player.frameIndex == 0)
        clock.advance(by: .milliseconds(99))
        #expect(player.frameIndex == 0)
        clock.advance(by: .milliseconds(1))
        await waitForSleep(2)
        #expect(player.frameIndex == 1)
        clock.advance(by: .milliseconds(200))
        await run.value  // one loop: the third frame is the last, and stays
        #expect(log.widths == [2, 3])
        #expect(player.frameIndex == 2)
        #expect(player.isFinished)
    }

    @Test func aLateClockSkipsFramesInsteadOfSlowingDown() async {
        let (player, run, log) = await start(loopCount: 0)
        clock.advance(by: .milliseconds(350))  // past the second frame, into the third
        await waitForSleep(2)
        #expect(log.widths == [3])
        clock.advance(by: .milliseconds(50))  // 400 ms: the second loop's first frame
        await waitForSleep(3)
        #expect(log.widths == [3, 1])
        #expect(player.elapsed == .milliseconds(400))
        run.cancel()
        await run.value
    }

    @Test func aCancelledRunContinuesFromTheFrameItShowed() async {
        let (player, first, _) = await start(loopCount: 0)
        clock.advance(by: .milliseconds(100))
        await waitForSleep(2)
        first.cancel()
        await first.value
        #expect(player.frameIndex == 1)
        clock.advance(by: .seconds(5))  // off screen: no time passes for the animation
        let second = Task { await player.play() }
        await waitForSleep(3)
        #expect(player.frameIndex == 1)
        clock.advance(by: .milliseconds(200))
        await waitForSleep(4)
        #expect(player.frameIndex == 2)
        second.cancel()
        await second.value
    }

    @Test func aPlayThatEndedHasNothingToPlay() async {
        let (player, run, _) = await start(loopCount: 1)
        clock.advance(by: .milliseconds(400))
        await run.value
        #expect(player.isFinished)
        let sleeps = clock.sleeps.value
        await player.play()  // returns at once, without sleeping
        #expect(clock.sleeps.value == sleeps)
    }

}
