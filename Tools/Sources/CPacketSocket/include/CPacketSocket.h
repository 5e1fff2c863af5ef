// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — raw Ethernet frames on one interface, for the web benchmark's link relay: Swift's Glibc module has
// neither `struct sockaddr_ll` nor the `ETH_P_*` constants.
#ifndef LOOKAHEAD_CPACKETSOCKET_H
#define LOOKAHEAD_CPACKETSOCKET_H

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

/// Moves the calling thread into the network namespace the file `path` names (`/run/netns/NAME`): the sockets it
/// opens afterwards belong to that namespace. Returns 0, or -1 with errno set.
int lookahead_enter_network_namespace(const char *path);

/// Deletes the network namespace bound at `path` (`/run/netns/NAME`), as `ip netns delete` does: detaches the
/// mount and removes the file. The namespace ends once no process is in it. Returns 0, or -1 with errno set.
int lookahead_remove_network_namespace(const char *path);

/// `ppoll` with a timeout in nanoseconds, negative for none.
int lookahead_poll(struct pollfd *fds, nfds_t count, long long timeout_nanoseconds);

/// Opens a non-blocking packet socket bound to the interface `name`, receiving every frame that arrives on it but
/// none that it sends. Returns the descriptor, or -1 with errno set.
int lookahead_packet_open(const char *name);

/// Receives one frame into `buffer`; returns its length, 0 for a frame this socket sent (to be ignored), or -1 with
/// errno set (EAGAIN when none is waiting).
ssize_t lookahead_packet_receive(int fd, void *buffer, size_t capacity);

#endif
