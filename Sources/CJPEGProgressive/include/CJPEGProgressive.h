// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — previews of a progressive JPEG from the bytes received so far (libjpeg's buffered-image mode).
#ifndef LOOKAHEAD_CJPEGPROGRESSIVE_H
#define LOOKAHEAD_CJPEGPROGRESSIVE_H
#include <stddef.h>
#include <stdint.h>

/// What `lookahead_jpeg_preview` returns.
typedef enum {
    /// A preview was decoded: `*pixels` holds `out_width * out_height * 4` RGBA bytes (free it with `free`).
    LOOKAHEAD_PREVIEW_OK = 0,
    /// Not enough data yet: no header, or no scan complete.
    LOOKAHEAD_PREVIEW_NEEDS_MORE = 1,
    /// Not a progressive JPEG, or one this preview path does not handle (CMYK): no previews for this image.
    LOOKAHEAD_PREVIEW_UNSUPPORTED = 2,
    /// The header declares more pixels than allowed.
    LOOKAHEAD_PREVIEW_TOO_LARGE = 3,
    /// More scans than allowed before the data ends.
    LOOKAHEAD_PREVIEW_TOO_MANY_SCANS = 4,
    /// libjpeg reported an error; `message` says which.
    LOOKAHEAD_PREVIEW_ERROR = 5,
} lookahead_preview_status;

/// The sizes of a preview.
typedef struct {
    /// The size the header declares.
    int width;
    int height;
    /// The size of the preview (after DCT scaling by 1/`scale_denom`).
    int out_width;
    int out_height;
    /// The scan shown (1 is the first).
    int scan;
} lookahead_preview_info;

/// Decodes the last complete scan of the progressive JPEG in `data` (the bytes received so far) into RGBA,
/// scaled by 1/`scale_denom` (1, 2, 4 or 8). Stateless: the bytes are read from the start each time, through a
/// suspending source manager, so a truncated body is "not yet", never an error. libjpeg's fatal errors come back
/// through `setjmp` here, never through Swift frames. `max_pixels` is checked against the header before any
/// allocation; `max_scans` bounds the work.
lookahead_preview_status lookahead_jpeg_preview(
    const uint8_t *data,
    size_t size,
    unsigned scale_denom,
    uint64_t max_pixels,
    int max_scans,
    uint8_t **pixels,
    lookahead_preview_info *info,
    char *message,
    size_t message_size
);
#endif
