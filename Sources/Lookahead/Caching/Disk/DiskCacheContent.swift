// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// What the disk cache keeps of a request. Set it with ``ImagePipeline/Configuration/diskCacheContent``.
public enum DiskCacheContent: Sendable, Hashable {
    /// The downloaded bytes, whatever the request; every size and processing of a URL shares one entry. The default.
    case originalData
    /// For a request with a thumbnail or processors, its final image, encoded (JPEG, or PNG with transparency) under
    /// the request's own key, without the original; for a request with neither, the downloaded bytes.
    case automatic
    /// Both: the downloaded bytes of every request, and the final image of a request with a thumbnail or processors.
    case all
}
