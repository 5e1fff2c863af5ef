// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Dispatch

/// Decodes an animation's frames a few ahead of the one a player shows, on a decoding queue (never Swift's
/// cooperative pool: the readers block in C), within ``AnimatedImage/frameBufferByteLimit``.
package final class AnimationFrameBuffer: Sendable {
    private typealias Machine = AnimationFrameBufferStateMachine

    private struct State {
        var machine: Machine
        /// The reader of one play, here while no step uses it.
        var frames: AnimatedImage.FrameIterator?
        var waiter: CheckedContinuation<Delivery?, Never>?
        var isClosed = false
    }

    /// A frame handed to the player, and whether it waited for it.
    private struct Delivery: Sendable {
        var frame: AnimatedImage.Frame
        var isLate: Bool
    }

    /// Where the steps run: a concurrent queue shared by every buffer (each buffer runs one step at a time).
    package typealias Scheduler = @Sendable (@escaping @Sendable () -> Void) -> Void

    private static let queue = DispatchQueue(
        label: "Lookahead.AnimationFrames",
        qos: .userInitiated,
        attributes: .concurrent
    )

    private let animation: AnimatedImage
    private let state: Locked<State>
    private let schedule: Scheduler

    /// A buffer for a player showing frame `shown`; it starts decoding the frames after it at once.
    package init(_ animation: AnimatedImage, shown: Int, schedule: Scheduler? = nil) {
        self.animation = animation
        self.schedule = schedule ?? { Self.queue.async(execute: $0) }
        let machine = Machine(
            frameCount: animation.frameCount,
            byteLimit: animation.frameBufferByteLimit,
            frameCost: animation.poster.decodedCost,
            shown: shown
        )
        state = Locked(State(machine: machine))
        fill()
    }

    /// The bytes of frames held now, and the most held at once.
    package var byteCount: (now: Int, peak: Int) {
        state.withLock { ($0.machine.byteCount, $0.machine.peakByteCount) }
    }

    /// Frame `index`, at once if decoded (`isLate` false), else once it is; the frames before it are dropped. `nil`
    /// when the data ends before it, or the task is cancelled.
    package func frame(at index: Int) async -> (image: PlatformImage, isLate: Bool)? {
        let delivery = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let answer = state.withLock { state -> Machine.Take in
                    guard !state.isClosed else { return .ended }
                    let take = state.machine.take(index)
                    if case .wait = take { state.waiter = continuation }
                    return take
                }
                switch answer {
                case .frame(let image): continuation.resume(returning: Self.delivery(image, isLate: false))
                case .ended: continuation.resume(returning: nil)
                case .wait: break
                }
                fill()
            }
        } onCancel: {
            close()
        }
        return delivery.map { ($0.frame.image, $0.isLate) }
    }

    /// Drops every frame and the reader; a waiting player gets `nil`.
    package func close() {
        let waiter = state.withLock { state in
            state.isClosed = true
            state.machine.removeAll()
            state.frames = nil
            return state.waiter.take()
        }
        waiter?.resume(returning: nil)
    }

    /// Starts a run of steps if the buffer has room and none runs.
    private func fill() {
        guard let step = state.withLock({ $0.isClosed ? nil : $0.machine.nextStep() }) else { return }
        schedule { [self] in run(from: step) }
    }

    /// Runs steps until the buffer is full: the reader leaves the lock for each decode, and comes back after it.
    private func run(from first: Machine.Step) {
        var step: Machine.Step? = first
        while let current = step {
            var frames = state.withLock { $0.frames.take() } ?? animation.makeFrameIterator()
            if current.restarts { frames = animation.makeFrameIterator() }
            let outcome = Self.perform(current, with: &frames)
            typealias Finished = (Machine.Step?, Machine.Take?, CheckedContinuation<Delivery?, Never>?)
            let (next, delivery, waiter) = state.withLock { state -> Finished in
                guard !state.isClosed else { return (nil, nil, state.waiter.take()) }
                state.frames = frames
                let delivery = state.machine.stepFinished(current, outcome)
                return (state.machine.nextStep(), delivery, delivery == nil ? nil : state.waiter.take())
            }
            switch delivery {
            case .frame(let image): waiter?.resume(returning: Self.delivery(image, isLate: true))
            case .ended, .wait, nil: waiter?.resume(returning: nil)
            }
            step = next
        }
    }

    private static func delivery(_ image: PlatformImage, isLate: Bool) -> Delivery {
        Delivery(frame: AnimatedImage.Frame(image: image, duration: .zero), isLate: isLate)
    }

    private static func perform(
        _ step: Machine.Step,
        with frames: inout AnimatedImage.FrameIterator
    ) -> Machine.Outcome {
        do throws(ImageDecodingError) {
            if !step.keeps { return try frames.skip() ? .skipped : .ended }
            return try frames.next().map { .decoded($0.image) } ?? .ended
        } catch {
            return .ended
        }
    }
}
