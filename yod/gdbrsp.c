/* SPDX-License-Identifier: MIT */
/*
 * gdbrsp.c: framing and packet arguments of the GDB Remote Serial
 * Protocol (gdbrsp.h).  Everything here comes from gdb, or from whoever
 * reached the socket: it is parsed with every length checked, and what
 * is malformed is refused, never guessed at.
 */
#include <string.h>

#include "gdbrsp.h"

enum { R_IDLE, R_DATA, R_SUM };

void rsp_reader_init(struct rsp_reader *r)
{
    memset(r, 0, sizeof(*r));
}

static enum rsp_event finish(struct rsp_reader *r)
{
    int hi = rsp_hexval(r->cs[0]), lo = rsp_hexval(r->cs[1]);

    r->state = R_IDLE;
    r->buf[r->len] = 0;
    if (hi < 0 || lo < 0 || (uint8_t)(hi << 4 | lo) != r->sum || r->over ||
        r->esc)
        return RSP_BAD;
    return RSP_PACKET;
}

/* A payload byte: escapes ('}' then the byte XOR 0x20) undone; the
   checksum is of the bytes as sent. */
static void data(struct rsp_reader *r, uint8_t c)
{
    r->sum = (uint8_t)(r->sum + c);
    if (r->esc) {
        c ^= 0x20;
        r->esc = 0;
    } else if (c == '}') {
        r->esc = 1;
        return;
    }
    if (r->len < RSP_MAX)
        r->buf[r->len++] = (char)c;
    else
        r->over = 1;
}

enum rsp_event rsp_feed(struct rsp_reader *r, uint8_t c)
{
    switch (r->state) {
    case R_IDLE:
        if (c == '$') {
            r->state = R_DATA;
            r->len = 0;
            r->sum = 0;
            r->esc = r->over = 0;
            return RSP_NONE;
        }
        return c == '+' ? RSP_ACK : c == '-' ? RSP_NAK
             : c == RSP_INTERRUPT ? RSP_INTERRUPT_EV : RSP_NONE;
    case R_DATA:
        if (c == '#') {
            r->state = R_SUM;
            r->ncs = 0;
        } else if (c == '$') {          /* a new start: the old one is lost */
            r->len = 0;
            r->sum = 0;
            r->esc = r->over = 0;
        } else {
            data(r, c);
        }
        return RSP_NONE;
    default:
        r->cs[r->ncs++] = (char)c;
        return r->ncs == 2 ? finish(r) : RSP_NONE;
    }
}

static int escaped(uint8_t c)
{
    return c == '$' || c == '#' || c == '}' || c == '*';
}

size_t rsp_frame(char *out, size_t cap, const void *payload, size_t len)
{
    const uint8_t *p = payload;
    static const char hex[] = "0123456789abcdef";
    uint8_t sum = 0;
    size_t n = 0;

    if (cap < 4)
        return 0;
    out[n++] = '$';
    for (size_t i = 0; i < len; i++) {
        uint8_t c = p[i];
        if (n + 2 + 3 > cap)
            return 0;
        if (escaped(c)) {
            out[n++] = '}';
            sum = (uint8_t)(sum + '}');
            c ^= 0x20;
        }
        out[n++] = (char)c;
        sum = (uint8_t)(sum + c);
    }
    if (n + 3 > cap)
        return 0;
    out[n++] = '#';
    out[n++] = hex[sum >> 4];
    out[n++] = hex[sum & 15];
    return n;
}

/* ---- hex ---------------------------------------------------------------- */

int rsp_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int rsp_num(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    int n = 0, d;

    while ((d = rsp_hexval((unsigned char)*s)) >= 0) {
        if (x >> 60)
            return -1;          /* more than 64 bits */
        x = x << 4 | (uint64_t)d;
        s++;
        n++;
    }
    if (!n)
        return -1;
    *v = x;
    *p = s;
    return 0;
}

int rsp_unhex(const char *hex, size_t digits, uint8_t *out)
{
    if (digits & 1)
        return -1;
    for (size_t i = 0; i < digits; i += 2) {
        int hi = rsp_hexval((unsigned char)hex[i]);
        int lo = hi < 0 ? -1 : rsp_hexval((unsigned char)hex[i + 1]);
        if (lo < 0)
            return -1;
        out[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

void rsp_hex(char *out, const void *in, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const uint8_t *p = in;

    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[p[i] >> 4];
        out[2 * i + 1] = hex[p[i] & 15];
    }
    out[2 * n] = 0;
}

/* ---- arguments ------------------------------------------------------------ */

/* A number at *p followed by the character `sep` (0: the end). */
static int num_then(const char **p, uint64_t *v, char sep)
{
    if (rsp_num(p, v) < 0 || **p != sep)
        return -1;
    if (sep)
        (*p)++;
    return 0;
}

int rsp_parse_mem(const char *a, uint64_t *addr, uint64_t *len,
                  const char **data)
{
    if (num_then(&a, addr, ',') < 0)
        return -1;
    if (!data)
        return num_then(&a, len, 0);
    if (num_then(&a, len, ':') < 0)
        return -1;
    *data = a;
    return 0;
}

int rsp_parse_bp(const char *a, uint64_t *type, uint64_t *addr,
                 uint64_t *kind)
{
    if (num_then(&a, type, ',') < 0 || num_then(&a, addr, ',') < 0)
        return -1;
    /* A conditional breakpoint's ";X..." list may follow: not taken. */
    return rsp_num(&a, kind) < 0 || (*a && *a != ';') ? -1 : 0;
}

/* A thread id at *p: advanced past it. */
static int tid_at(const char **p, int64_t *tid)
{
    uint64_t v;

    if (**p == 'p') {           /* multiprocess: p<pid>.<tid> */
        (*p)++;
        if (**p == '-' && (*p)[1] == '1')
            *p += 2;
        else if (rsp_num(p, &v) < 0)
            return -1;
        if (**p != '.') {
            *tid = -1;          /* p<pid>: all its threads */
            return 0;
        }
        (*p)++;
    }
    if (**p == '-' && (*p)[1] == '1') {
        *p += 2;
        *tid = -1;
        return 0;
    }
    if (rsp_num(p, &v) < 0 || v > INT64_MAX)
        return -1;
    *tid = (int64_t)v;
    return 0;
}

int rsp_parse_tid(const char *a, int64_t *tid)
{
    return tid_at(&a, tid) < 0 || *a ? -1 : 0;
}

int rsp_parse_vcont(const char *a, struct rsp_action *act, int max)
{
    int n = 0;

    while (*a) {
        struct rsp_action x = { .tid = -1 };
        uint64_t sig;
        if (*a++ != ';' || n == max)
            return -1;
        x.op = *a++;
        if (x.op == 'C' || x.op == 'S') {
            if (rsp_num(&a, &sig) < 0 || sig == 0 || sig > 255)
                return -1;
            x.sig = (int)sig;
            x.op = x.op == 'C' ? 'c' : 's';
        } else if (x.op != 'c' && x.op != 's') {
            return -1;
        }
        if (*a == ':') {
            a++;
            if (tid_at(&a, &x.tid) < 0)
                return -1;
        }
        act[n++] = x;
    }
    return n ? n : -1;
}

/* Up to the next ':' into dst (len bytes with its NUL). */
static int field(const char **p, char *dst, size_t len)
{
    const char *end = strchr(*p, ':');
    size_t n = end ? (size_t)(end - *p) : 0;

    if (!end || n >= len)
        return -1;
    memcpy(dst, *p, n);
    dst[n] = 0;
    *p = end + 1;
    return 0;
}

int rsp_parse_xfer(const char *a, char *object, size_t olen, char *annex,
                   size_t alen, uint64_t *off, uint64_t *len)
{
    char op[8];

    if (field(&a, object, olen) < 0 || field(&a, op, sizeof(op)) < 0 ||
        strcmp(op, "read") || field(&a, annex, alen) < 0 ||
        num_then(&a, off, ',') < 0 || num_then(&a, len, 0) < 0)
        return -1;
    return 0;
}

size_t rsp_xfer_reply(char *out, size_t cap, const void *doc, size_t size,
                      uint64_t off, uint64_t len)
{
    size_t n = off < size ? size - off : 0;

    if (!cap)
        return 0;
    if (n > len)
        n = len;
    if (n + 1 > cap)
        n = cap - 1;
    out[0] = off + n < size ? 'm' : 'l';
    memcpy(out + 1, (const char *)doc + (n ? off : 0), n);
    return n + 1;
}
