// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — DiskCacheContent: whether the disk cache keeps downloaded bytes, processed images, or both.

/// What the disk cache keeps of a request. Set it with ``ImagePipeline/Configuration/diskCacheContent``.
///
/// A list of thumbnails from large originals fills a cache with originals: a 500 MB cache holds about 160 photos of
/// 3 MB, where their 256-pixel thumbnails would number in the tens of thousands, and each is decoded again from the
/// original on every cold start. Storing the final image instead keeps the cache small and the next launch fast;
/// keeping the original serves every other size of the same URL without a download.
public enum DiskCacheContent: Sendable, Hashable {
    /// The downloaded bytes, whatever the request; every size and processing of a URL shares one entry. The default.
    case originalData
    /// For a request with a thumbnail or processors: its final image, encoded (JPEG when opaque, PNG with
    /// transparency) under the request's own key, read back before anything is downloaded or decoded; its
    /// original bytes are not kept. For a request with neither, the downloaded bytes. As Nuke's `.automatic`.
    case automatic
    /// Both: the downloaded bytes of every request, and the final image of a request with a thumbnail or
    /// processors.
    case all
}
