/* SPDX-License-Identifier: MIT */
/*
 * gdbrsp.h: the GDB Remote Serial Protocol as yod speaks it to gdb (the
 * GDB manual, appendix "Remote Protocol"): framing ($payload#checksum,
 * acknowledgements, the interrupt byte, escapes) and the arguments of
 * the packets yod serves.  Pure functions, no I/O (gdbserver.c does
 * that); every one refuses malformed input with -1, never reads past
 * what it was given (tests/unit/test_gdbrsp.c).
 */
#ifndef YOD_GDBRSP_H
#define YOD_GDBRSP_H

#include <stddef.h>
#include <stdint.h>

#define RSP_MAX         4096    /* payload bytes a packet may have (the
                                   PacketSize yod announces, in hex) */
#define RSP_INTERRUPT   0x03    /* Ctrl-C outside a packet */

enum rsp_event {
    RSP_NONE,                   /* nothing complete yet */
    RSP_PACKET,                 /* buf holds a packet's payload */
    RSP_ACK, RSP_NAK,           /* '+', '-' */
    RSP_INTERRUPT_EV,           /* the interrupt byte */
    RSP_BAD,                    /* a bad checksum or an overlong packet:
                                   answer '-' (gdb sends it again) */
};

/* Bytes from gdb become packets one byte at a time. */
struct rsp_reader {
    int state;
    uint8_t sum;                /* of the payload as sent (escaped) */
    int esc;                    /* the last byte was '}' */
    int over;                   /* longer than RSP_MAX: refused */
    int ncs;
    char cs[2];
    size_t len;
    char buf[RSP_MAX + 1];      /* the payload, escapes undone, NUL */
};

void rsp_reader_init(struct rsp_reader *r);
enum rsp_event rsp_feed(struct rsp_reader *r, uint8_t c);

/* "$" payload (escaped) "#" checksum into out; its length, 0 if it
   does not fit in cap. */
size_t rsp_frame(char *out, size_t cap, const void *payload, size_t len);

/* Hex: one digit's value or -1; a number of at least one digit at *p
   (advanced past it; -1 if none or more than 64 bits); n bytes from 2n
   digits (-1 on any other character); n bytes as 2n digits. */
int rsp_hexval(int c);
int rsp_num(const char **p, uint64_t *v);
int rsp_unhex(const char *hex, size_t digits, uint8_t *out);
void rsp_hex(char *out, const void *in, size_t n);

/* Arguments.  Each takes what follows the packet's letter(s) and gives
   0, or -1 if it is malformed or does not end where it must. */
/* m, M, X: "addr,len", then for M and X ":" and the data (*data). */
int rsp_parse_mem(const char *a, uint64_t *addr, uint64_t *len,
                  const char **data);
/* Z, z: "type,addr,kind". */
int rsp_parse_bp(const char *a, uint64_t *type, uint64_t *addr,
                 uint64_t *kind);
/* A thread id: "-1" all, "0" any, hex; "p<pid>.<tid>" too. */
int rsp_parse_tid(const char *a, int64_t *tid);

/* vCont: ";action[:thread]" ..., action c, s, Cxx or Sxx. */
struct rsp_action {
    char op;                    /* 'c' or 's' */
    int sig;                    /* C, S: the signal; else 0 */
    int64_t tid;                /* -1: every thread without an action */
};
#define RSP_ACTIONS 16
int rsp_parse_vcont(const char *a, struct rsp_action *act, int max);

/* qXfer: "object:read:annex:offset,length" (object and annex copied). */
int rsp_parse_xfer(const char *a, char *object, size_t olen, char *annex,
                   size_t alen, uint64_t *off, uint64_t *len);
/* A qXfer answer: "m" and up to len bytes of doc from off, or "l" and the
   last of them; its length in out (cap bytes). */
size_t rsp_xfer_reply(char *out, size_t cap, const void *doc, size_t size,
                      uint64_t off, uint64_t len);

#endif
