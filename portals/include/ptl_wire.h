/* SPDX-License-Identifier: MIT */
/*
 * ptl_wire.h: the Portals-over-Ethernet frame format (portals/PROTOCOL.md is
 * the normative description; this header must agree with it).  All
 * multi-byte fields are little-endian on the wire.
 */
#ifndef PTL_WIRE_H
#define PTL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define PTL_ETHERTYPE     0x88B5
#define PTL_WIRE_VERSION  7
#define PTL_ETH_HLEN      14
#define PTL_WIRE_HLEN     120      /* Portals header after Ethernet */
#define PTL_FRAME_HLEN    (PTL_ETH_HLEN + PTL_WIRE_HLEN)
#define PTL_WIRE_RLEN     24       /* a response record (PTL_WF_RESP) */
#define PTL_WIRE_ALEN     16       /* the authentication trailer
                                      (PTL_WF_AUTH): born, MAC */
#define PTL_FRAME_HMAX    (PTL_FRAME_HLEN + PTL_WIRE_RLEN + PTL_WIRE_ALEN)
#define PTL_MTU_DEFAULT   1500
#define PTL_MTU_MIN       1024     /* an atomic always fits one frame */
#define PTL_MTU_MAX       65000

/* hdr.type */
enum ptl_wire_type {
    PTL_W_PUT = 1,
    PTL_W_GET,
    PTL_W_ATOMIC,
    PTL_W_FETCH,
    PTL_W_SWAP,
    PTL_W_ACK,      /* Portals ACK (target -> initiator), sequenced */
    PTL_W_REPLY,    /* Get/fetch/swap data back, sequenced */
    PTL_W_LACK,     /* link-level acknowledgement only, not sequenced */
    PTL_W_RESET,    /* "the incarnation you sent to is gone", not sequenced */
    PTL_W_NOP,      /* nothing but the link ACK it carries, sequenced: a
                     * process that leaves learns its last ACK arrived */
    PTL_W_TYPE_LAST
};

/* hdr.flags */
#define PTL_WF_NI_MASK   0x03u    /* which of the 4 NIs (see PROTOCOL.md) */
#define PTL_WF_SEQ       0x04u    /* frame carries a sequence number */
#define PTL_WF_RESP      0x08u    /* an ACK rides along: a response record
                                   * follows the header (sequenced only) */
#define PTL_WF_GAP       0x10u    /* LACK only: sent at once because a new
                                   * frame arrived beyond a gap (a loss
                                   * signal; a duplicate's LACK lacks it) */
#define PTL_WF_RNR       0x20u    /* LACK only (version 6): the receiver
                                   * refused frame `ack` for want of a
                                   * message slot and took nothing after
                                   * it; it is alive (PROTOCOL.md, 3) */
#define PTL_WF_AUTH      0x40u    /* version 6: the sender's incarnation
                                   * and a MAC under the cluster's
                                   * transport key follow the header and
                                   * the response record (PROTOCOL.md,
                                   * 2.3) */

/* An ACK's flags: the ACK frame's ack_req byte, a response record's
 * flags byte.  Any other bit is refused. */
#define PTL_WACK_DISABLED 0x01u   /* the entry that matched has ACK_DISABLE:
                                   * post and count no ACK (version 5) */

/* ptl_wire_parse's answer for a Portals frame of another wire version
 * (h->version and h->src_nid are then filled in), and what a host says
 * about it, with (nid, their version, PTL_WIRE_VERSION). */
#define PTL_WIRE_EVERSION (-2)
#define PTL_WIRE_REFUSED_FMT "refused a frame from nid %u speaking Portals " \
    "wire version %u; this node speaks %u: run one build on every station"


/* The ACK a frame carries besides its own message (PTL_WF_RESP). */
struct ptl_wresp {
    uint32_t msg_id;
    uint8_t fail_type, ptl_list, flags;   /* flags: PTL_WACK_* */
    uint64_t mlength, remote_offset;
};

/* The decoded header. */
struct ptl_whdr {
    uint8_t version, type, flags;
    uint8_t ack_req;        /* PUT/ATOMIC: ptl_ack_req_t; ACK: PTL_WACK_* */
    uint32_t csum;
    uint32_t src_nid, src_pid, dst_nid, dst_pid;
    uint32_t epoch, dst_epoch;
    uint32_t seq, ack;
    uint32_t msg_id, pt_index, uid, jid, src_rank;
    uint64_t match_bits, hdr_data, remote_offset, rlength, mlength;
    uint64_t frag_off;
    uint32_t frag_len;
    uint32_t total;         /* payload bytes of the whole message */
    uint8_t atomic_op, atomic_type, fail_type, ptl_list;
    uint64_t sack;          /* LACK: bit i set = frame ack + i received
                             * (sent in match_bits' place) */
    struct ptl_wresp resp;  /* with PTL_WF_RESP */
    uint64_t born, mac;     /* with PTL_WF_AUTH: when the sender's
                             * incarnation began (ns, its realtime clock),
                             * and the frame's MAC */
};

/* Streaming frame checksum (see PROTOCOL.md "Checksum"). */
struct ptl_csum {
    uint64_t h;
    uint8_t part[8];
    unsigned npart;
};

void ptl_csum_init(struct ptl_csum *c, uint64_t total_len);
void ptl_csum_add(struct ptl_csum *c, const void *p, size_t len);
uint32_t ptl_csum_final(struct ptl_csum *c);

/* Derive the locally administered MAC for a nid: 02:50:xx:xx:xx:xx with the
 * nid in the last four bytes, big-endian. */
void ptl_wire_nid_mac(uint32_t nid, uint8_t mac[6]);
/* nid of a MAC made by ptl_wire_nid_mac; returns -1 if it is not one. */
int ptl_wire_mac_nid(const uint8_t mac[6], uint32_t *nid);

/* Bytes before the payload in a frame with these header flags. */
static inline size_t ptl_wire_hlen(uint8_t flags)
{
    return PTL_FRAME_HLEN + (flags & PTL_WF_RESP ? PTL_WIRE_RLEN : 0) +
           (flags & PTL_WF_AUTH ? PTL_WIRE_ALEN : 0);
}
/* Write the Ethernet + Portals header (ptl_wire_hlen(h->flags) bytes: with
 * PTL_WF_RESP the response record, with PTL_WF_AUTH the trailer too) for
 * h, with a checksum field of csum. */
void ptl_wire_encode(uint8_t *out, const struct ptl_whdr *h, uint32_t csum);
/* A frame's MAC (PTL_WF_AUTH, PROTOCOL.md 2.3): SipHash-2-4 under key
 * (k0, k1) of everything after the Ethernet header up to the MAC field
 * (header, response record, born), the checksum field taken as zero. */
uint64_t ptl_wire_mac(const uint64_t key[2], const uint8_t *frame,
                      uint8_t flags);
/* Does the frame (parsed into h) carry the right MAC under key? */
int ptl_wire_signed(const uint64_t key[2], const uint8_t *frame,
                    const struct ptl_whdr *h);
/* Encode h with PTL_WF_AUTH and its MAC under key, born as given: the
 * header of an authenticated frame, checksum field zero. */
void ptl_wire_encode_auth(uint8_t *out, struct ptl_whdr *h,
                          const uint64_t key[2], uint64_t born);
/* Parse and check a received frame: ethertype, version, type, lengths and,
 * unless skip_csum, the checksum.  On success returns 0, fills h and points
 * *payload at h->frag_len bytes inside frame; PTL_WIRE_EVERSION for a
 * Portals frame of another version, -1 for anything else wrong. */
int ptl_wire_parse(const void *frame, size_t len, struct ptl_whdr *h,
                   const uint8_t **payload, int skip_csum);
/* The RESET that answers frame h, sent to an incarnation of ours that no
 * longer exists (PROTOCOL.md, "Incarnations"): its bytes (at most
 * PTL_FRAME_HMAX) with the checksum in out, signed under key if key is
 * not NULL (only when h itself was signed: a station without the key
 * must not get us to sign for it); 0 if h must not be answered (it knew
 * no incarnation of ours, or it is itself a LACK or RESET). */
size_t ptl_wire_reset(const struct ptl_whdr *h, uint8_t *out,
                      const uint64_t *key);
/* The checksum check ptl_wire_parse skipped: 0 if the frame (len bytes,
 * parsed into h) carries the right one. */
int ptl_wire_check_csum(const void *frame, size_t len,
                        const struct ptl_whdr *h);

#endif /* PTL_WIRE_H */
