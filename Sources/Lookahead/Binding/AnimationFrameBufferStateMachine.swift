// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import DequeModule

/// The bookkeeping of a player's frame buffer (``AnimationFrameBuffer``): the frames decoded ahead of the one shown,
/// within a byte limit, what the sequential reader decodes next, and the frame the player waits for.
package struct AnimationFrameBufferStateMachine {
    /// A decoded frame ready to show.
    package struct Buffered {
        package var index: Int
        package var image: PlatformImage
        package var cost: Int
    }

    /// One step of the reader: decode frame `index` (reopening the data first when `restarts`), and keep it when
    /// `keeps` (else it only builds the canvas for a later frame).
    package struct Step: Equatable, Sendable {
        package var index: Int
        package var restarts: Bool
        package var keeps: Bool
    }

    /// What the player gets when it asks for a frame.
    package enum Take {
        case frame(PlatformImage)
        /// Not decoded yet: the buffer hands it over when it is (``stepFinished(_:_:)``).
        case wait
        /// The data ends before this frame.
        case ended
    }

    package let frameCount: Int
    package let byteLimit: Int
    /// What one decoded frame costs: every frame has the poster's size.
    package let frameCost: Int
    package private(set) var frames: Deque<Buffered> = []
    package private(set) var byteCount = 0
    /// The most bytes the buffer held at once.
    package private(set) var peakByteCount = 0
    /// The frame the player asks for next: the buffer fills from it.
    package private(set) var wanted: Int
    /// The frame the player waits for, if any.
    package private(set) var waiting: Int?
    /// The frame the reader decodes next.
    package private(set) var readerIndex = 0
    package private(set) var isDecoding = false
    /// Where the data ended early: no frame from here on decodes.
    package private(set) var end: Int?
    /// A frame larger than the room left was decoded: the buffer fills again once the player takes a frame.
    private var isFull = false

    /// A buffer for a player that shows frame `shown` now.
    package init(frameCount: Int, byteLimit: Int, frameCost: Int, shown: Int) {
        self.frameCount = frameCount
        self.frameCost = max(1, frameCost)
        self.byteLimit = max(byteLimit, self.frameCost)
        self.wanted = (shown + 1) % frameCount
    }

    /// The player moves to frame `index`: it is handed over if decoded, and the frames before it are dropped.
    package mutating func take(_ index: Int) -> Take {
        if let end, index >= end { return .ended }
        isFull = false
        if frames.contains(where: { $0.index == index }) {
            while let first = frames.first, first.index != index { drop() }
            let frame = drop()
            wanted = (index + 1) % frameCount
            return .frame(frame.image)
        }
        while !frames.isEmpty { drop() }
        wanted = index
        waiting = index
        return .wait
    }

    /// The next step of the reader, if the buffer has room and no step runs; marks it running.
    package mutating func nextStep() -> Step? {
        guard !isDecoding, !isFull, end == nil else { return nil }
        let target = nextToBuffer
        let hasRoom = frames.count < min(frameCount - 1, byteLimit / frameCost)
        guard waiting != nil || hasRoom else { return nil }
        let restarts = readerIndex > target
        let index = restarts ? 0 : readerIndex
        isDecoding = true
        return Step(index: index, restarts: restarts, keeps: index == target)
    }

    /// How a step ended.
    package enum Outcome {
        /// The frame changed the canvas only (``Step/keeps`` was false).
        case skipped
        case decoded(PlatformImage)
        /// The data ended before the frame, or the frame did not decode.
        case ended
    }

    /// A step ended. Returns the frame for the waiting player, or `.ended` when that frame will never come.
    package mutating func stepFinished(_ step: Step, _ outcome: Outcome) -> Take? {
        isDecoding = false
        if case .ended = outcome {
            end = step.index
            frames.removeAll { $0.index >= step.index }
            byteCount = frames.reduce(0) { $0 + $1.cost }
            guard let waiting, waiting >= step.index else { return nil }
            self.waiting = nil
            return .ended
        }
        readerIndex = step.index + 1
        // A skipped frame only built the canvas; a decoded one may be for a player that moved on meanwhile.
        guard case .decoded(let image) = outcome, step.keeps, step.index == nextToBuffer else { return nil }
        if waiting == step.index {
            waiting = nil
            wanted = (step.index + 1) % frameCount
            return .frame(image)
        }
        let cost = image.decodedCost
        guard byteCount + cost <= byteLimit else {
            isFull = true  // larger than the others: decoded again when the player asks for it
            return nil
        }
        frames.append(Buffered(index: step.index, image: image, cost: cost))
        byteCount += cost
        peakByteCount = max(peakByteCount, byteCount)
        return nil
    }

    /// The frame the buffer holds next: the one after its last, else the one the player asks for.
    private var nextToBuffer: Int { frames.last.map { ($0.index + 1) % frameCount } ?? wanted }

    /// Drops every frame (the player stopped).
    package mutating func removeAll() {
        frames.removeAll()
        byteCount = 0
        waiting = nil
    }

    @discardableResult
    private mutating func drop() -> Buffered {
        let frame = frames.removeFirst()
        byteCount -= frame.cost
        return frame
    }
}
