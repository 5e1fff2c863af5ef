// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — after decoding: store network data that decoded, remove disk data that did not, and say so.

import Foundation

extension ImagePipeline {
    /// Acts on a decode's outcome for the data's disk cache entry, and reports a failure. A failure that says
    /// nothing about the data (too many pixels for this pipeline, a cancellation) leaves the entry alone.
    func settleDiskCacheEntry(
        _ loaded: TaskGraph.LoadedData,
        for request: ImageRequest,
        after outcome: Result<Void, Error>
    ) {
        switch outcome {
        case .success:
            loaded.diskCacheTicket?.accept()
        case .failure(let error):
            guard let url = request.url else { return }
            configuration.eventHandler?(.decodingFailed(url, error))
            guard error.meansTheDataIsNotAnImage, loaded.diskCacheTicket?.reject() == true else { return }
            configuration.eventHandler?(.diskCacheEntryRemoved(url, reason: error))
        }
    }

    /// For data-only requests: loaded data must pass the structural check (a decoder recognises it and it is
    /// complete), else the request fails with that error; network data is stored in the disk cache only once it
    /// passes. Disk data passed the check, or a decode, before it was stored.
    func acceptWithoutDecoding(_ loaded: TaskGraph.LoadedData) -> Result<Void, Error> {
        guard loaded.cacheType != .disk else { return .success(()) }
        let verdict = ImageDecoders.validateStructure(loaded.response.data, decoders: configuration.decoders)
        if case .success = verdict { loaded.diskCacheTicket?.accept() }
        return verdict
    }
}

extension ImagePipelineError {
    /// `true` when decoding showed the data itself is bad (no decoder recognises it, or the decoder failed on it).
    var meansTheDataIsNotAnImage: Bool {
        switch self {
        case .noDecoder, .decodingFailed: true
        default: false
        }
    }
}
