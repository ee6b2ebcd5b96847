/* SPDX-License-Identifier: MIT */
/*
 * udppp: UDP ping-pong between two Linux guests, the baseline that
 * tests/bench/pingpong sets beside the nodes' Portals ping-pong
 * (tests/net/pingpong.c).  Same sizes, same rounds per size, same CSV line;
 * built on the host with gcc -static and run by the guests' /init.
 *
 *   udppp [-m MAXBYTES] [-r ROUNDS] ping PEER_IPV4
 *   udppp pong
 *
 * "pong" echoes every datagram on UDP port 7777 back to its sender, and
 * every byte of a TCP connection to port 7777 back on it, until the guest
 * is powered off.  "ping" sends 0 B, then powers of two up to
 * min(MAX, 32 KiB), then 60000 B if MAX >= 60000 (the "60 KB"
 * figure; a UDP datagram cannot carry 64 KiB, and at MTU 1500 a large one
 * travels as IP fragments, as it did there), then from 64 KiB up to MAX
 * by powers of two over one TCP connection (TCP_NODELAY): Linux's own
 * best transport for large messages, so the nodes' large-message figures
 * are set beside what the guests' kernel can really move.  Per size it prints
 * "pp,<bytes>,<rounds>,<half-rtt us>,<MB/s>,<median us>" (the mean over
 * the timed rounds, then the median of their own times, as pingpong does),
 * then "udppp: OK".
 *
 * UDP may lose a datagram (the switch drops frames when the host is busy):
 * a ping without its pong in 50 ms is sent again, and a line
 * "udppp: size S: K pings resent ..." after that size's pp line says so,
 * since each resend inflates its time.  Pings
 * carry the round number in their first (up to 4) bytes, so a late pong of
 * an earlier round is recognised and skipped (a 0-byte one cannot be: after
 * a resend its duplicate may stand in for the next round's pong).  The first and last
 * round of every size compare the pong with the ping byte by byte.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../median.h"

#define PORT            7777
#define BIG             60000   /* the large message */
#define HELLO_LEN       3       /* no measured size: a late hello is skipped */
#define RESEND_MS       50      /* a few times a loaded 60000 B round */
#define MAX_RESENDS     200     /* in a row (10 s): the peer is gone */
#define HELLO_SECS      120     /* the peer boots in parallel */
#define MAX_ROUNDS      100000  /* -r at most */

static int sock;
static uint8_t sbuf[65536], rbuf[65536];
static double rtt[MAX_ROUNDS];
static unsigned long resends;

#define DIE(...) do { fprintf(stderr, "udppp: "); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The same rounds per size as tests/net/pingpong.c. */
static int rounds_for(size_t size, int fixed)
{
    if (fixed)
        return fixed;
    if (size <= 4096)
        return 200;
    return size >= (1u << 20) ? 5 : (int)(800000 / size) + 5;
}

static size_t next_size(size_t size, size_t max)
{
    size_t pow2_top = max < 32768 ? max : 32768;

    if (size == 0)
        return 1;
    if (size * 2 <= pow2_top)
        return size * 2;
    if (size < BIG && max >= BIG)
        return BIG;
    if (size == BIG)
        return max >= 65536 ? 65536 : 0;
    return size * 2 <= max ? size * 2 : 0;      /* 0: done */
}

/* ---- TCP, from 64 KiB ---------------------------------------------------- */

static uint8_t *tbuf_s, *tbuf_r;        /* MAX bytes each */

/* Move `size` bytes out of tbuf_s and the same number back into tbuf_r,
   both at once (the echo starts before the last byte is sent: a socket
   that only wrote would fill both ways and stall). */
static void tcp_round(int fd, size_t size)
{
    size_t sent = 0, got = 0;

    while (got < size) {
        struct pollfd p = { .fd = fd,
                            .events = POLLIN | (sent < size ? POLLOUT : 0) };
        if (poll(&p, 1, 10000) <= 0)
            DIE("TCP round of %zu bytes: no progress in 10 s", size);
        if ((p.revents & POLLOUT) && sent < size) {
            ssize_t n = send(fd, tbuf_s + sent, size - sent, MSG_DONTWAIT);
            if (n < 0 && errno != EAGAIN)
                DIE("send: %s", strerror(errno));
            sent += n > 0 ? (size_t)n : 0;
        }
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = recv(fd, tbuf_r + got, size - got, MSG_DONTWAIT);
            if (n == 0)
                DIE("the peer closed the TCP connection");
            if (n < 0 && errno != EAGAIN)
                DIE("recv: %s", strerror(errno));
            got += n > 0 ? (size_t)n : 0;
        }
    }
}

static int tcp_connect(const struct sockaddr_in *peer)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    if (fd < 0 || connect(fd, (const struct sockaddr *)peer, sizeof *peer))
        DIE("TCP connect to %s: %s", inet_ntoa(peer->sin_addr),
            strerror(errno));
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void tcp_measure(int fd, size_t size, int fixed)
{
    int n = rounds_for(size, fixed);
    double t0 = 0, tr = 0;

    for (size_t i = 0; i < size; i++)
        tbuf_s[i] = (uint8_t)(i * 131 + (i >> 8) + size * 7);
    for (int r = 0; r < n; r++) {
        double t = now_us();
        if (r == 1)
            t0 = t;
        if (r > 1)
            rtt[r - 2] = (t - tr) / 2;
        tr = t;
        tcp_round(fd, size);
        if ((r == 0 || r == n - 1) && memcmp(tbuf_r, tbuf_s, size))
            DIE("TCP size %zu round %d: the echo differs", size, r);
    }
    if (n > 1) {
        double t = now_us(), half = (t - t0) / (n - 1) / 2;
        rtt[n - 2] = (t - tr) / 2;
        printf("pp,%zu,%d,%.1f,%.1f,%.1f\n", size, n, half, size / half,
               bench_median(rtt, n - 1));
        fflush(stdout);
    }
}

/* The TCP echo: one connection at a time, every byte back. */
static void tcp_echo(void)
{
    struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(PORT),
                              .sin_addr.s_addr = htonl(INADDR_ANY) };
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    static uint8_t buf[1 << 16];

    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ls < 0 || bind(ls, (struct sockaddr *)&me, sizeof me) ||
        listen(ls, 1))
        DIE("TCP listen on port %d: %s", PORT, strerror(errno));
    for (;;) {
        int fd = accept(ls, NULL, NULL);
        ssize_t n;

        if (fd < 0)
            continue;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
            for (ssize_t off = 0, w; off < n; off += w)
                if ((w = send(fd, buf + off, (size_t)(n - off), 0)) <= 0)
                    break;
        close(fd);
    }
}

static void fill(size_t size, int round)
{
    for (size_t i = 0; i < size; i++)
        sbuf[i] = (uint8_t)(i * 131 + (i >> 8) + size * 7 +
                            (unsigned)round * 29);
}

/* The round number in the ping's first bytes, as many as fit up to 4
   (little endian: 1 and 2 bytes tell rounds apart modulo 256 and 65536). */
static size_t stamp_len(size_t size)
{
    return size < 4 ? size : 4;
}

static void stamp(size_t size, uint32_t round)
{
    for (size_t i = 0; i < stamp_len(size); i++)
        sbuf[i] = (uint8_t)(round >> (8 * i));
}

/* Waits up to ms for a datagram; returns its length, or -1 on timeout. */
static ssize_t recv_within(int ms)
{
    struct pollfd p = { .fd = sock, .events = POLLIN };
    int n = poll(&p, 1, ms);

    if (n < 0 && errno != EINTR)
        DIE("poll: %s", strerror(errno));
    if (n <= 0)
        return -1;
    ssize_t len = recv(sock, rbuf, sizeof rbuf, 0);
    if (len < 0)
        DIE("recv: %s", strerror(errno));
    return len;
}

static void send_ping(const struct sockaddr_in *to, size_t size)
{
    if (sendto(sock, sbuf, size, 0, (const struct sockaddr *)to,
               sizeof *to) != (ssize_t)size)
        DIE("sendto %zu bytes: %s", size, strerror(errno));
}

/* Is this datagram the pong of `round`?  Others are late pongs of earlier
   rounds or sizes. */
static int is_pong(ssize_t len, size_t size, uint32_t round)
{
    if (len != (ssize_t)size)
        return 0;
    for (size_t i = 0; i < stamp_len(size); i++)
        if (rbuf[i] != (uint8_t)(round >> (8 * i)))
            return 0;
    return 1;
}

static void ping_round(const struct sockaddr_in *peer, size_t size,
                       uint32_t round)
{
    int tries = 0;

    send_ping(peer, size);
    for (;;) {
        ssize_t len = recv_within(RESEND_MS);
        if (len >= 0) {
            if (is_pong(len, size, round))
                return;
            continue;
        }
        if (++tries > MAX_RESENDS)
            DIE("size %zu round %u: no pong after %d resends", size,
                (unsigned)round, MAX_RESENDS);
        resends++;
        send_ping(peer, size);
    }
}

/* The peer boots in parallel: say hello until it echoes. */
static void hello(const struct sockaddr_in *peer)
{
    double give_up = now_us() + HELLO_SECS * 1e6;

    memcpy(sbuf, "hi!", HELLO_LEN);
    for (;;) {
        send_ping(peer, HELLO_LEN);
        ssize_t len = recv_within(RESEND_MS);
        if (len == HELLO_LEN)
            return;
        if (now_us() > give_up)
            DIE("%s did not answer for %d s", inet_ntoa(peer->sin_addr),
                HELLO_SECS);
    }
}

static void measure(const struct sockaddr_in *peer, size_t size, int fixed)
{
    int n = rounds_for(size, fixed);
    unsigned long resends_before = resends;
    double t0 = 0, tr = 0;

    fill(size, 0);
    for (int r = 0; r < n; r++) {
        int check = r == 0 || r == n - 1;
        double t = now_us();
        if (r == 1)
            t0 = t;             /* round 0 warms up */
        if (r > 1)
            rtt[r - 2] = (t - tr) / 2;
        tr = t;
        if (check)
            fill(size, r);
        stamp(size, (uint32_t)r);
        ping_round(peer, size, (uint32_t)r);
        if (check && memcmp(rbuf, sbuf, size))
            DIE("size %zu round %d: the pong differs from the ping", size,
                r);
    }
    if (n > 1) {
        double t = now_us(), half = (t - t0) / (n - 1) / 2;
        rtt[n - 2] = (t - tr) / 2;
        printf("pp,%zu,%d,%.1f,%.1f,%.1f\n", size, n, half, size / half,
               bench_median(rtt, n - 1));
    }
    if (resends > resends_before)
        printf("udppp: size %zu: %lu pings resent after %d ms without a "
               "pong (lost or late); the waits are in its time\n", size,
               resends - resends_before, RESEND_MS);
    fflush(stdout);
}

static int ping(const char *ip, size_t max, int fixed)
{
    struct sockaddr_in peer = { .sin_family = AF_INET,
                                .sin_port = htons(PORT) };

    if (!inet_aton(ip, &peer.sin_addr))
        DIE("%s is not an IPv4 address", ip);
    hello(&peer);
    while (recv_within(50) >= 0)
        ;                       /* echoes of repeated hellos */
    for (size_t size = 0; size <= BIG; size = next_size(size, max)) {
        measure(&peer, size, fixed);
        if (next_size(size, max) == 0)
            break;
    }
    if (max >= 65536) {
        int fd = tcp_connect(&peer);

        if (!(tbuf_s = malloc(max)) || !(tbuf_r = malloc(max)))
            DIE("no memory for two %zu-byte buffers", max);
        for (size_t size = 65536; size && size <= max;
             size = next_size(size, max))
            tcp_measure(fd, size, fixed);
        close(fd);
    }
    printf("udppp: OK\n");
    return 0;
}

static int pong(void)
{
    if (fork() == 0) {
        tcp_echo();
        return 0;
    }
    for (;;) {
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        ssize_t len = recvfrom(sock, rbuf, sizeof rbuf, 0,
                               (struct sockaddr *)&from, &fl);
        if (len < 0)
            DIE("recvfrom: %s", strerror(errno));
        if (sendto(sock, rbuf, (size_t)len, 0, (struct sockaddr *)&from,
                   fl) != len)
            DIE("sendto %zd bytes: %s", len, strerror(errno));
    }
}

/* The answerer listens on PORT; the pinger takes any port. */
static void open_socket(int listen)
{
    struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(PORT),
                              .sin_addr.s_addr = htonl(INADDR_ANY) };
    int bufsz = 1 << 20;

    sock = socket(AF_INET, SOCK_DGRAM, 0);
    if (sock < 0)
        DIE("socket: %s", strerror(errno));
    /* Room for a few 60000-byte datagrams either way. */
    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof bufsz);
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof bufsz);
    if (listen && bind(sock, (struct sockaddr *)&me, sizeof me))
        DIE("bind to UDP port %d: %s", PORT, strerror(errno));
}

static void usage(void)
{
    fprintf(stderr, "usage: udppp [-m MAXBYTES] [-r ROUNDS] ping PEER_IPV4\n"
            "       udppp pong\n");
    exit(2);
}

int main(int argc, char **argv)
{
    size_t max = 65536;
    int fixed = 0, i;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-m") && i + 1 < argc)
            max = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            fixed = atoi(argv[++i]);
        else
            usage();
    }
    if (fixed < 0 || fixed > MAX_ROUNDS)
        DIE("-r %d: rounds must be 0 (by size) to %d", fixed, MAX_ROUNDS);
    if (i < argc && !strcmp(argv[i], "pong") && argc - i == 1) {
        open_socket(1);
        return pong();
    }
    if (i < argc && !strcmp(argv[i], "ping") && argc - i == 2) {
        open_socket(0);
        return ping(argv[i + 1], max, fixed);
    }
    usage();
    return 2;
}
