// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — raw Ethernet frames on one interface; see CPacketSocket.h.
#define _GNU_SOURCE  // setns, ppoll
#include "CPacketSocket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

int lookahead_packet_open(const char *name) {
    unsigned int index = if_nametoindex(name);
    if (index == 0) return -1;
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
    if (fd < 0) return -1;
    struct sockaddr_ll address;
    memset(&address, 0, sizeof address);
    address.sll_family = AF_PACKET;
    address.sll_protocol = htons(ETH_P_ALL);
    address.sll_ifindex = (int)index;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    // Linux 4.20 and later drop the frames this socket sends before they reach it; older kernels deliver them, and
    // lookahead_packet_receive tells them apart by their packet type.
    int on = 1;
    (void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &on, sizeof on);
    return fd;
}

ssize_t lookahead_packet_receive(int fd, void *buffer, size_t capacity) {
    struct sockaddr_ll from;
    socklen_t length = sizeof from;
    ssize_t count = recvfrom(fd, buffer, capacity, 0, (struct sockaddr *)&from, &length);
    if (count > 0 && from.sll_pkttype == PACKET_OUTGOING) return 0;
    return count;
}

int lookahead_enter_network_namespace(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = setns(fd, CLONE_NEWNET);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

int lookahead_remove_network_namespace(const char *path) {
    if (umount2(path, MNT_DETACH) != 0 && errno != EINVAL) return -1;
    return unlink(path);
}

int lookahead_poll(struct pollfd *fds, nfds_t count, long long timeout_nanoseconds) {
    if (timeout_nanoseconds < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = {
        .tv_sec = (time_t)(timeout_nanoseconds / 1000000000LL),
        .tv_nsec = (long)(timeout_nanoseconds % 1000000000LL),
    };
    return ppoll(fds, count, &timeout, NULL);
}
