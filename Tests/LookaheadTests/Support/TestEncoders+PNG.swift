// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — PNGs with ancillary chunks (iCCP, cHRM, eXIf, text), written by libspng's encoder.

import Foundation

@testable import Lookahead

#if canImport(CSPNG)
enum TestPNG {
    /// An 8-bit RGBA PNG of `rgba`; `configure` sets chunks on the libspng encoder before the image is written
    /// (returning libspng's status: anything but 0 fails).
    static func encode(
        rgba: [UInt8],
        width: Int,
        height: Int,
        configure: (OpaquePointer) -> Int32 = { _ in 0 }
    ) throws -> Data {
        try ImageEncoders.PNG.encode(Bitmap(width: width, height: height, pixels: rgba), configure: configure)
    }
}
#endif
