// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — previews of a progressive JPEG from the bytes received so far (libjpeg's buffered-image mode).
#include "CJPEGProgressive.h"

#if __has_include(<jpeglib.h>)
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} lookahead_error_mgr;

// libjpeg's fatal errors longjmp back to `lookahead_jpeg_preview`; its frames are all C.
static void lookahead_error_exit(j_common_ptr cinfo) {
    lookahead_error_mgr *err = (lookahead_error_mgr *)cinfo->err;
    longjmp(err->jump, 1);
}

// Warnings (corrupt data the library works around) are not printed; a preview is a best effort.
static void lookahead_emit_message(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

static void lookahead_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

// Suspends: the bytes so far are all there is.
static boolean lookahead_fill_input_buffer(j_decompress_ptr cinfo) {
    (void)cinfo;
    return FALSE;
}

static void lookahead_skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    if ((size_t)count > src->bytes_in_buffer) count = (long)src->bytes_in_buffer;
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

static void lookahead_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

// One pass: shows the last complete scan, at most `max_target`. `*suspended_at` is set to the scan whose output
// pass ran out of bytes (libjpeg may want the next marker before it lets the newest scan out).
static lookahead_preview_status preview_pass(
    const uint8_t *data,
    size_t size,
    unsigned scale_denom,
    uint64_t max_pixels,
    int max_scans,
    int max_target,
    int *suspended_at,
    uint8_t **pixels,
    lookahead_preview_info *info,
    char *message,
    size_t message_size
) {
    struct jpeg_decompress_struct cinfo;
    lookahead_error_mgr err;
    struct jpeg_source_mgr src;
    // Volatile: set after setjmp and read after a longjmp.
    uint8_t *volatile buffer = NULL;
    volatile lookahead_preview_status status = LOOKAHEAD_PREVIEW_ERROR;

    *pixels = NULL;
    memset(info, 0, sizeof(*info));
    if (message_size > 0) message[0] = 0;
    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = lookahead_error_exit;
    err.pub.emit_message = lookahead_emit_message;
    if (setjmp(err.jump)) {
        if (message_size > 0) {
            char text[JMSG_LENGTH_MAX];
            (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
            snprintf(message, message_size, "%s", text);
        }
        jpeg_destroy_decompress(&cinfo);
        free(buffer);
        return LOOKAHEAD_PREVIEW_ERROR;
    }
    jpeg_create_decompress(&cinfo);
    src.next_input_byte = data;
    src.bytes_in_buffer = size;
    src.init_source = lookahead_init_source;
    src.fill_input_buffer = lookahead_fill_input_buffer;
    src.skip_input_data = lookahead_skip_input_data;
    src.resync_to_restart = jpeg_resync_to_restart;
    src.term_source = lookahead_term_source;
    cinfo.src = &src;

    if (jpeg_read_header(&cinfo, TRUE) != JPEG_HEADER_OK) {
        status = LOOKAHEAD_PREVIEW_NEEDS_MORE;
        goto done;
    }
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    if (!jpeg_has_multiple_scans(&cinfo) || cinfo.jpeg_color_space == JCS_CMYK
        || cinfo.jpeg_color_space == JCS_YCCK) {
        status = LOOKAHEAD_PREVIEW_UNSUPPORTED;
        goto done;
    }
    if (cinfo.image_width == 0 || cinfo.image_height == 0
        || (uint64_t)cinfo.image_width * (uint64_t)cinfo.image_height > max_pixels) {
        status = LOOKAHEAD_PREVIEW_TOO_LARGE;
        goto done;
    }
    cinfo.buffered_image = TRUE;
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    cinfo.scale_denom = scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1;
    if (!jpeg_start_decompress(&cinfo)) {
        status = LOOKAHEAD_PREVIEW_NEEDS_MORE;
        goto done;
    }
    int completed = 0;
    int scans = 0;
    for (;;) {
        int result = jpeg_consume_input(&cinfo);
        if (result == JPEG_SUSPENDED || result == JPEG_REACHED_EOI) break;
        if (result == JPEG_REACHED_SOS && ++scans > max_scans) {
            status = LOOKAHEAD_PREVIEW_TOO_MANY_SCANS;
            goto done;
        }
        if (result == JPEG_SCAN_COMPLETED) completed = cinfo.input_scan_number;
    }
    if (jpeg_input_complete(&cinfo)) completed = cinfo.input_scan_number;
    if (completed > max_target) completed = max_target;
    if (completed < 1) {
        status = LOOKAHEAD_PREVIEW_NEEDS_MORE;
        goto done;
    }
    if (!jpeg_start_output(&cinfo, completed)) {
        status = LOOKAHEAD_PREVIEW_NEEDS_MORE;
        goto done;
    }
    size_t row_bytes = (size_t)cinfo.output_width * 4;
    buffer = malloc(row_bytes * cinfo.output_height);
    if (buffer == NULL) {
        snprintf(message, message_size, "out of memory");
        status = LOOKAHEAD_PREVIEW_ERROR;
        goto done;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = buffer + row_bytes * cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
            *suspended_at = completed;
            free(buffer);
            buffer = NULL;
            status = LOOKAHEAD_PREVIEW_NEEDS_MORE;
            goto done;
        }
    }
    info->out_width = (int)cinfo.output_width;
    info->out_height = (int)cinfo.output_height;
    info->scan = completed;
    *pixels = buffer;
    buffer = NULL;
    status = LOOKAHEAD_PREVIEW_OK;
done:
    // No `jpeg_finish_output`: it would wait for the rest of the scan; destroying ends the decompression.
    jpeg_destroy_decompress(&cinfo);
    return status;
}
#endif

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
) {
#if __has_include(<jpeglib.h>)
    int suspended_at = 0;
    lookahead_preview_status status = preview_pass(
        data, size, scale_denom, max_pixels, max_scans, max_scans, &suspended_at, pixels, info, message,
        message_size);
    if (status == LOOKAHEAD_PREVIEW_NEEDS_MORE && suspended_at > 1) {
        // The newest scan is complete but libjpeg will not let it out before the next marker: show the one before.
        int again = 0;
        status = preview_pass(
            data, size, scale_denom, max_pixels, max_scans, suspended_at - 1, &again, pixels, info, message,
            message_size);
    }
    return status;
#else
    (void)data; (void)size; (void)scale_denom; (void)max_pixels; (void)max_scans; (void)info;
    (void)message; (void)message_size;
    *pixels = NULL;
    return LOOKAHEAD_PREVIEW_UNSUPPORTED;
#endif
}
