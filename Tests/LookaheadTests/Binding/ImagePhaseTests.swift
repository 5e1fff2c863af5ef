// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImagePhase: the accessors and the map that turns a phase into the view framework's image.

import Testing

@testable import Lookahead

@Suite struct ImagePhaseTests {
    @Test func mapTransformsOnlyTheImage() {
        let success = ImagePhase<Int>.success(3).map { "image \($0)" }
        #expect(success.image == "image 3")
        #expect(success.error == nil)
        let failure = ImagePhase<Int>.failure(.dataIsEmpty).map { "image \($0)" }
        #expect(failure.image == nil)
        if case .dataIsEmpty = failure.error {} else { Issue.record("expected dataIsEmpty, got \(failure)") }
        let empty = ImagePhase<Int>.empty.map { _ -> String in
            Issue.record("an empty phase has no image to map")
            return ""
        }
        if case .empty = empty {} else { Issue.record("expected empty, got \(empty)") }
    }
}
