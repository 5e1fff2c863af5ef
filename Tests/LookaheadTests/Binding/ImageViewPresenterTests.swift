// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageViewPresenter: placeholder, image, failure image, and when an image fades in.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ImageViewPresenterTests {
    var presenter = ImageViewPresenter()
    let options = ImageLoadingOptions(
        pipeline: ImagePipeline { $0.diskCache = nil },
        placeholder: Bitmap(width: 1, height: 1, red: 0, green: 0, blue: 0).platformImage,
        failureImage: Bitmap(width: 2, height: 2, red: 0, green: 0, blue: 0).platformImage,
        transition: .fadeIn(duration: 0.3)
    )
    let image = Bitmap(width: 7, height: 7, red: 0, green: 0, blue: 0).platformImage
    let a = ImageRequest(url: URL(string: "https://example.com/a.jpg"))
    let b = ImageRequest(url: URL(string: "https://example.com/b.jpg"))

    /// What the presenter hands the view: "7x7 fading", "1x1", "nil", or "unchanged".
    private mutating func show(_ state: ImageSlot.State, _ options: ImageLoadingOptions? = nil) -> String {
        guard let display = presenter.present(state, options: options ?? self.options) else { return "unchanged" }
        let label = display.image.map { "\($0.pixelWidth)x\($0.pixelHeight)" } ?? "nil"
        return display.transition.isAnimated ? "\(label) fading" : label
    }

    @Test mutating func anImageThatReplacesItsOwnPlaceholderFadesIn() {
        #expect(show(.loading(a)) == "1x1")
        #expect(show(.loaded(image, a, nil)) == "7x7 fading")  // network
        #expect(show(.loading(b)) == "1x1")
        #expect(show(.loaded(image, b, .disk)) == "7x7 fading")
    }

    @Test mutating func aDeferredLoadFoundInMemoryAfterThePlaceholderShowedFadesToo() {
        #expect(show(.loading(a)) == "1x1")
        #expect(show(.loaded(image, a, .memory)) == "7x7 fading")
    }

    @Test mutating func aMemoryHitAtConfigurationShowsAtOnce() {
        #expect(show(.loaded(image, a, .memory)) == "7x7")
        #expect(show(.loading(b)) == "1x1")
        // An image for another request than the placeholder's never fades (and the loader never shows one).
        #expect(show(.loaded(image, a, nil)) == "7x7")
    }

    @Test mutating func theSameStateTwiceIsShownOnce() {
        #expect(show(.loading(a)) == "1x1")
        #expect(show(.loading(a)) == "unchanged")
        #expect(show(.loaded(image, a, nil)) == "7x7 fading")
        #expect(show(.loaded(image, a, nil)) == "unchanged")
        #expect(show(.empty) == "1x1")
        #expect(show(.empty) == "unchanged")
    }

    @Test mutating func aFailureShowsTheFailureImageOrElseThePlaceholder() {
        #expect(show(.loading(a)) == "1x1")
        #expect(show(.failed(.dataIsEmpty, a)) == "2x2")
        var options = options
        options.failureImage = nil
        #expect(show(.loading(b), options) == "1x1")
        #expect(show(.failed(.dataIsEmpty, b), options) == "1x1")
        options.placeholder = nil
        #expect(show(.loading(a), options) == "nil")
    }

    @Test mutating func noTransitionMeansNoFade() {
        var options = options
        options.transition = .none
        #expect(show(.loading(a), options) == "1x1")
        #expect(show(.loaded(image, a, nil), options) == "7x7")
    }

    @Test mutating func keepingTheCurrentImageShowsNoPlaceholderAndTheNewImageTransitions() {
        var options = options
        options.keepsCurrentImageWhileLoading = true
        #expect(show(.loading(a), options) == "1x1")  // nothing shown yet: the placeholder
        #expect(show(.loaded(image, a, nil), options) == "7x7 fading")
        #expect(show(.loading(b), options) == "unchanged")  // a's image stays while b loads
        #expect(show(.loaded(image, b, nil), options) == "7x7 fading")
        #expect(show(.loading(a), options) == "unchanged")
        #expect(show(.failed(.dataIsEmpty, a), options) == "2x2")
        #expect(show(.empty, options) == "1x1")  // no request: the placeholder
    }

    @Test func theFadeLengthIsWhatEveryPlatformViewAnimates() {
        #expect(ImageTransition.fadeIn(duration: 0.25).fadeDuration == 0.25)
        #expect(ImageTransition.fadeIn(duration: 0).fadeDuration == nil)
        #expect(ImageTransition.none.fadeDuration == nil)
        #expect(ImageTransition.custom { _, _ in }.fadeDuration == nil)
        #expect(ImageTransition.custom { _, _ in }.isAnimated)
        #expect(!ImageTransition.fadeIn(duration: 0).isAnimated)
    }
}
