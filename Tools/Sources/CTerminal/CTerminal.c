// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — terminal control for the gallery; see CTerminal.h.
#define _XOPEN_SOURCE 700  // wcwidth
#include "CTerminal.h"

#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

static struct termios saved_settings;
static int saved_fd = -1;
static volatile sig_atomic_t restored = 1;
static char restore_sequence[256];
static size_t restore_length = 0;

int lookahead_terminal_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) {
        return -1;
    }
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

int lookahead_terminal_enter_raw(int fd) {
    struct termios raw;
    if (tcgetattr(fd, &saved_settings) != 0) {
        return -1;
    }
    raw = saved_settings;
    raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_cflag |= CS8;
    raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSAFLUSH, &raw) != 0) {
        return -1;
    }
    saved_fd = fd;
    restored = 0;
    return 0;
}

void lookahead_terminal_restore(void) {
    if (restored) {
        return;
    }
    restored = 1;
    if (restore_length > 0) {
        ssize_t ignored = write(STDOUT_FILENO, restore_sequence, restore_length);
        (void)ignored;
    }
    if (saved_fd >= 0) {
        tcsetattr(saved_fd, TCSAFLUSH, &saved_settings);
    }
}

void lookahead_terminal_set_restore_sequence(const char *sequence) {
    size_t length = strlen(sequence);
    if (length >= sizeof(restore_sequence)) {
        length = sizeof(restore_sequence) - 1;
    }
    memcpy(restore_sequence, sequence, length);
    restore_sequence[length] = 0;
    restore_length = length;
}

static void crash_handler(int signal_number) {
    lookahead_terminal_restore();
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
}

void lookahead_terminal_install_crash_handlers(void) {
    static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = crash_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    for (size_t index = 0; index < sizeof(signals) / sizeof(signals[0]); index++) {
        sigaction(signals[index], &action, NULL);
    }
}

int lookahead_wcwidth(unsigned int scalar) {
    return wcwidth((wchar_t)scalar);
}
