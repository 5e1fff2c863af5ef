// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the chafa headers for Swift, with the glib helpers Swift cannot call directly.
#ifndef LOOKAHEAD_CCHAFA_SHIM_H
#define LOOKAHEAD_CCHAFA_SHIM_H

#include <chafa.h>

/// Frees a GString and its characters (g_string_free is a macro in some glib versions).
static inline void lookahead_gstring_free(GString *string) { g_string_free(string, TRUE); }

#endif
