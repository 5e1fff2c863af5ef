// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — FakeImageView: an ImageDisplaying view that records what it was told to show.

@testable import Lookahead

/// Records every image it is told to show, by size, and whether it was to fade in.
@MainActor
final class FakeImageView: ImageDisplaying {
    struct Shown: Equatable, Sendable, CustomStringConvertible {
        var image: String
        var fades: Bool
        var description: String { fades ? "\(image) fading" : image }
    }

    var lookaheadBinding: ImageViewBinding?
    let shown = AsyncCondition<[Shown]>([])

    func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        let label = image.map { "\($0.pixelWidth)x\($0.pixelHeight)" } ?? "nil"
        shown.update { $0.append(Shown(image: label, fades: transition.isAnimated)) }
    }

    /// Each time the view's activity indicator was shown (`true`) or hidden.
    var activity: [Bool] = []

    func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        activity.append(isVisible)
    }

    /// What the view showed, as labels: "1x1", "11x8 fading".
    var labels: [String] { shown.value.map(\.description) }
}
