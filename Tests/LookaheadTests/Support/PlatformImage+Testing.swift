// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — bitmaps as the pipeline's image, on every platform (a Bitmap here, a UIImage or NSImage there).

@testable import Lookahead

extension Bitmap {
    /// The bitmap as the pipeline's image on this platform, through the `PixelImage` seam.
    var platformImage: PlatformImage { PlatformImage.make(from: self) }
}
