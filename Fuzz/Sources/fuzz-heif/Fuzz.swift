// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — the HEIF decoder (HEIC and AVIF through libheif).

import FuzzSupport
import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecoding(with: ImageDecoders.HEIF(), start, count)
}
