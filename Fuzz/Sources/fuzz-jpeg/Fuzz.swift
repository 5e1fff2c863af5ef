// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — the JPEG decoder.

import FuzzSupport
import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzDecoding(with: ImageDecoders.JPEG(), start, count)
}
