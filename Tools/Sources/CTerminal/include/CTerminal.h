// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — terminal control the gallery needs from C: the window size (ioctl is variadic), raw mode, and
// restoring the terminal from a crash signal handler, where only async-signal-safe calls are allowed.
#ifndef LOOKAHEAD_CTERMINAL_H
#define LOOKAHEAD_CTERMINAL_H

/// Writes the window size of the terminal on `fd` in character cells; returns 0, or -1 when `fd` is not a terminal.
int lookahead_terminal_size(int fd, int *columns, int *rows);

/// Saves the terminal settings of `fd` and switches it to raw input (no echo, no line buffering, no signals from
/// keys, output processing kept). Returns 0, or -1 when `fd` is not a terminal.
int lookahead_terminal_enter_raw(int fd);

/// Restores the settings saved by `lookahead_terminal_enter_raw` and writes the restore sequence set with
/// `lookahead_terminal_set_restore_sequence` to standard output. Async-signal-safe; does nothing the second time.
void lookahead_terminal_restore(void);

/// The bytes that put the screen back (leave the alternate screen, show the cursor, stop mouse reports), at most
/// 255 bytes. Call before `lookahead_terminal_install_crash_handlers`.
void lookahead_terminal_set_restore_sequence(const char *sequence);

/// On SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP: restore the terminal, then die of the same signal.
void lookahead_terminal_install_crash_handlers(void);

/// The columns a terminal gives the Unicode scalar `scalar`: the C library's `wcwidth` (0, 1, 2, or -1 for a
/// control or unknown character). Takes the current `LC_CTYPE`, which must be a UTF-8 locale.
int lookahead_wcwidth(unsigned int scalar);

#endif
