// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
