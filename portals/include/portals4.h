/* SPDX-License-Identifier: MIT */
/*
 * portals4.h: the Portals 4 application interface (names, types, constants
 * and prototypes of the 4.x specification, SAND2017/SAND2018), so that code
 * written for Portals 4 compiles unchanged.  Written from the specification;
 * values of constants are our own (only the names are the interface).
 * Freestanding: needs only <stdint.h> and <stddef.h>.
 */
#ifndef PORTALS4_H
#define PORTALS4_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- return codes (one error convention for the whole subsystem) ---- */
enum ptl_retvals {
    PTL_OK = 0,
    PTL_ARG_INVALID,
    PTL_CT_NONE_REACHED,
    PTL_EQ_DROPPED,
    PTL_EQ_EMPTY,
    PTL_FAIL,
    PTL_IGNORED,
    PTL_IN_USE,
    PTL_INTERRUPTED,
    PTL_LIST_TOO_LONG,
    PTL_NO_INIT,
    PTL_NO_SPACE,
    PTL_PID_IN_USE,
    PTL_PT_FULL,
    PTL_PT_EQ_NEEDED,
    PTL_PT_IN_USE,
    PTL_ABORTED,
    PTL_STATUS_LAST
};

/* ---- base types ---- */
typedef uint64_t ptl_size_t;
typedef uint32_t ptl_pt_index_t;
typedef uint64_t ptl_match_bits_t;
typedef uint64_t ptl_hdr_data_t;
typedef unsigned int ptl_time_t;          /* milliseconds */
typedef unsigned int ptl_interface_t;
typedef uint32_t ptl_nid_t;
typedef uint32_t ptl_pid_t;
typedef uint32_t ptl_rank_t;
typedef uint32_t ptl_uid_t;
typedef uint32_t ptl_jid_t;
typedef int ptl_sr_value_t;

typedef enum {
    PTL_SR_DROP_COUNT,
    PTL_SR_PERMISSION_VIOLATIONS,
    PTL_SR_OPERATION_VIOLATIONS,
    PTL_SR_LAST
} ptl_sr_index_t;
/* The reference implementation's header spells these two
 * PERMISSIONS/OPERATIONS; both spellings name the same register. */
#define PTL_SR_PERMISSIONS_VIOLATIONS PTL_SR_PERMISSION_VIOLATIONS
#define PTL_SR_OPERATIONS_VIOLATIONS  PTL_SR_OPERATION_VIOLATIONS

/* Handles are 32-bit opaque values (see portals/PROTOCOL.md, "Handles"). */
typedef uint32_t ptl_handle_any_t;
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_ct_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_le_t;
typedef ptl_handle_any_t ptl_handle_me_t;

typedef union {
    ptl_rank_t rank;
    struct {
        ptl_nid_t nid;
        ptl_pid_t pid;
    } phys;
} ptl_process_t;

/* ---- special values ---- */
#define PTL_EQ_NONE        ((ptl_handle_eq_t)0x0fffffffu)
#define PTL_CT_NONE        ((ptl_handle_ct_t)0x0ffffffeu)
#define PTL_INVALID_HANDLE ((ptl_handle_any_t)0xffffffffu)
#define PTL_IFACE_DEFAULT  ((ptl_interface_t)0xffffffffu)
#define PTL_PID_ANY        ((ptl_pid_t)0xffffffffu)
#define PTL_NID_ANY        ((ptl_nid_t)0xffffffffu)
#define PTL_RANK_ANY       ((ptl_rank_t)0xffffffffu)
#define PTL_UID_ANY        ((ptl_uid_t)0xffffffffu)
#define PTL_JID_ANY        ((ptl_jid_t)0xffffffffu)
#define PTL_JID_NONE       ((ptl_jid_t)0)
#define PTL_PT_ANY         ((ptl_pt_index_t)0xffffffffu)
#define PTL_TIME_FOREVER   ((ptl_time_t)0xffffffffu)
#define PTL_CT_NONE_REACHED_TEST ((ptl_size_t)0)
#define PTL_SIZE_MAX       ((ptl_size_t)UINT64_MAX)  /* an MD of all memory */
#define PTL_SIZE_INVALID   PTL_SIZE_MAX
#define PTL_PID_MAX        ((ptl_pid_t)0xfffffffeu)  /* highest real pid */
#define PTL_PROCESS_INVALID \
    ((ptl_process_t){ .phys = { PTL_NID_ANY, PTL_PID_ANY } })

/* ---- generic option ---- */
#define PTL_IOVEC (1u << 0)

typedef struct {
    void *iov_base;
    ptl_size_t iov_len;
} ptl_iovec_t;

/* ---- network interfaces ---- */
#define PTL_NI_MATCHING    (1u << 0)
#define PTL_NI_NO_MATCHING (1u << 1)
#define PTL_NI_LOGICAL     (1u << 2)
#define PTL_NI_PHYSICAL    (1u << 3)
#define PTL_NI_INIT_OPTIONS_MASK \
    (PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_LOGICAL | PTL_NI_PHYSICAL)

/* ni_limits_t.features */
#define PTL_TARGET_BIND_INACCESSIBLE (1u << 0)
#define PTL_TOTAL_DATA_ORDERING      (1u << 1)
#define PTL_COHERENT_ATOMICS         (1u << 2)

typedef struct {
    int max_entries;
    int max_unexpected_headers;
    int max_mds;
    int max_cts;
    int max_eqs;
    int max_pt_index;
    int max_iovecs;
    int max_list_size;
    int max_triggered_ops;
    ptl_size_t max_msg_size;
    ptl_size_t max_atomic_size;
    ptl_size_t max_fetch_atomic_size;
    ptl_size_t max_waw_ordered_size;
    ptl_size_t max_war_ordered_size;
    ptl_size_t max_volatile_size;
    unsigned int features;
} ptl_ni_limits_t;

/* ---- portal table ---- */
#define PTL_PT_ONLY_USE_ONCE   (1u << 0)
#define PTL_PT_ONLY_TRUNCATE   (1u << 1)
#define PTL_PT_FLOWCTRL        (1u << 2)
#define PTL_PT_MATCH_UNORDERED (1u << 3)
#define PTL_PT_ALLOC_DISABLED  (1u << 4)
#define PTL_PT_ALLOC_OPTIONS_MASK \
    (PTL_PT_ONLY_USE_ONCE | PTL_PT_ONLY_TRUNCATE | PTL_PT_FLOWCTRL | \
     PTL_PT_MATCH_UNORDERED | PTL_PT_ALLOC_DISABLED)

/* ---- memory descriptors ---- */
#define PTL_MD_EVENT_SUCCESS_DISABLE (1u << 1)
#define PTL_MD_EVENT_SEND_DISABLE    (1u << 2)
#define PTL_MD_EVENT_CT_SEND         (1u << 3)
#define PTL_MD_EVENT_CT_REPLY        (1u << 4)
#define PTL_MD_EVENT_CT_ACK          (1u << 5)
#define PTL_MD_EVENT_CT_BYTES        (1u << 6)
#define PTL_MD_UNORDERED             (1u << 7)
#define PTL_MD_VOLATILE              (1u << 8)
#define PTL_MD_UNRELIABLE            (1u << 9)
#define PTL_MD_OPTIONS_MASK \
    (PTL_IOVEC | PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_SEND_DISABLE | \
     PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_REPLY | PTL_MD_EVENT_CT_ACK | \
     PTL_MD_EVENT_CT_BYTES | PTL_MD_UNORDERED | PTL_MD_VOLATILE | \
     PTL_MD_UNRELIABLE)

typedef struct {
    void *start;
    ptl_size_t length;
    unsigned int options;
    ptl_handle_eq_t eq_handle;
    ptl_handle_ct_t ct_handle;
} ptl_md_t;

/* ---- list entries (LE: non-matching NI) and match entries (ME) ---- */
typedef enum {
    PTL_PRIORITY_LIST,
    PTL_OVERFLOW_LIST
} ptl_list_t;

typedef enum {
    PTL_SEARCH_ONLY,
    PTL_SEARCH_DELETE
} ptl_search_op_t;

/* ME and LE share option bits; an LE simply has no matching fields. */
#define PTL_ME_OP_PUT                 (1u << 1)
#define PTL_ME_OP_GET                 (1u << 2)
#define PTL_ME_MANAGE_LOCAL           (1u << 3)
#define PTL_ME_NO_TRUNCATE            (1u << 4)
#define PTL_ME_USE_ONCE               (1u << 5)
#define PTL_ME_MAY_ALIGN              (1u << 6)
#define PTL_ME_IS_ACCESSIBLE          (1u << 7)
#define PTL_ME_EVENT_COMM_DISABLE     (1u << 8)
#define PTL_ME_EVENT_FLOWCTRL_DISABLE (1u << 9)
#define PTL_ME_EVENT_SUCCESS_DISABLE  (1u << 10)
#define PTL_ME_EVENT_OVER_DISABLE     (1u << 11)
#define PTL_ME_EVENT_UNLINK_DISABLE   (1u << 12)
#define PTL_ME_EVENT_LINK_DISABLE     (1u << 13)
#define PTL_ME_EVENT_CT_COMM          (1u << 14)
#define PTL_ME_EVENT_CT_OVERFLOW      (1u << 15)
#define PTL_ME_EVENT_CT_BYTES         (1u << 16)
#define PTL_ME_UNEXPECTED_HDR_DISABLE (1u << 17)
#define PTL_ME_LOCAL_INC_UH_RLENGTH   (1u << 18)

#define PTL_LE_OP_PUT                 PTL_ME_OP_PUT
#define PTL_LE_OP_GET                 PTL_ME_OP_GET
#define PTL_LE_USE_ONCE               PTL_ME_USE_ONCE
#define PTL_LE_IS_ACCESSIBLE          PTL_ME_IS_ACCESSIBLE
#define PTL_LE_EVENT_COMM_DISABLE     PTL_ME_EVENT_COMM_DISABLE
#define PTL_LE_EVENT_FLOWCTRL_DISABLE PTL_ME_EVENT_FLOWCTRL_DISABLE
#define PTL_LE_EVENT_SUCCESS_DISABLE  PTL_ME_EVENT_SUCCESS_DISABLE
#define PTL_LE_EVENT_OVER_DISABLE     PTL_ME_EVENT_OVER_DISABLE
#define PTL_LE_EVENT_UNLINK_DISABLE   PTL_ME_EVENT_UNLINK_DISABLE
#define PTL_LE_EVENT_LINK_DISABLE     PTL_ME_EVENT_LINK_DISABLE
#define PTL_LE_EVENT_CT_COMM          PTL_ME_EVENT_CT_COMM
#define PTL_LE_EVENT_CT_OVERFLOW      PTL_ME_EVENT_CT_OVERFLOW
#define PTL_LE_EVENT_CT_BYTES         PTL_ME_EVENT_CT_BYTES
#define PTL_LE_UNEXPECTED_HDR_DISABLE PTL_ME_UNEXPECTED_HDR_DISABLE

/* Every option bit an append accepts (the reference implementation's
 * names); others are refused with PTL_ARG_INVALID. */
#define PTL_ME_APPEND_OPTIONS_MASK ((1u << 19) - 1)
#define PTL_LE_APPEND_OPTIONS_MASK \
    (PTL_IOVEC | PTL_LE_OP_PUT | PTL_LE_OP_GET | PTL_LE_USE_ONCE | \
     PTL_LE_IS_ACCESSIBLE | PTL_LE_EVENT_COMM_DISABLE | \
     PTL_LE_EVENT_FLOWCTRL_DISABLE | PTL_LE_EVENT_SUCCESS_DISABLE | \
     PTL_LE_EVENT_OVER_DISABLE | PTL_LE_EVENT_UNLINK_DISABLE | \
     PTL_LE_EVENT_LINK_DISABLE | PTL_LE_EVENT_CT_COMM | \
     PTL_LE_EVENT_CT_OVERFLOW | PTL_LE_EVENT_CT_BYTES | \
     PTL_LE_UNEXPECTED_HDR_DISABLE)

typedef struct {
    void *start;
    ptl_size_t length;
    ptl_handle_ct_t ct_handle;
    ptl_uid_t uid;
    unsigned int options;
} ptl_le_t;

typedef struct {
    void *start;
    ptl_size_t length;
    ptl_handle_ct_t ct_handle;
    ptl_uid_t uid;
    unsigned int options;
    ptl_process_t match_id;
    ptl_match_bits_t match_bits;
    ptl_match_bits_t ignore_bits;
    ptl_size_t min_free;
} ptl_me_t;

/* ---- data movement ---- */
typedef enum {
    PTL_NO_ACK_REQ,
    PTL_ACK_REQ,
    PTL_CT_ACK_REQ,
    PTL_OC_ACK_REQ
} ptl_ack_req_t;

typedef enum {
    PTL_MIN,
    PTL_MAX,
    PTL_SUM,
    PTL_PROD,
    PTL_LOR,
    PTL_LAND,
    PTL_BOR,
    PTL_BAND,
    PTL_LXOR,
    PTL_BXOR,
    PTL_SWAP,
    PTL_CSWAP,
    PTL_CSWAP_NE,
    PTL_CSWAP_LE,
    PTL_CSWAP_LT,
    PTL_CSWAP_GE,
    PTL_CSWAP_GT,
    PTL_MSWAP,
    PTL_OP_LAST
} ptl_op_t;

typedef enum {
    PTL_INT8_T,
    PTL_UINT8_T,
    PTL_INT16_T,
    PTL_UINT16_T,
    PTL_INT32_T,
    PTL_UINT32_T,
    PTL_INT64_T,
    PTL_UINT64_T,
    PTL_FLOAT,
    PTL_FLOAT_COMPLEX,
    PTL_DOUBLE,
    PTL_DOUBLE_COMPLEX,
    PTL_LONG_DOUBLE,
    PTL_LONG_DOUBLE_COMPLEX,
    PTL_DATATYPE_LAST
} ptl_datatype_t;

/* ---- events ---- */
typedef enum {
    PTL_EVENT_GET,
    PTL_EVENT_GET_OVERFLOW,
    PTL_EVENT_PUT,
    PTL_EVENT_PUT_OVERFLOW,
    PTL_EVENT_ATOMIC,
    PTL_EVENT_ATOMIC_OVERFLOW,
    PTL_EVENT_FETCH_ATOMIC,
    PTL_EVENT_FETCH_ATOMIC_OVERFLOW,
    PTL_EVENT_REPLY,
    PTL_EVENT_SEND,
    PTL_EVENT_ACK,
    PTL_EVENT_PT_DISABLED,
    PTL_EVENT_LINK,
    PTL_EVENT_AUTO_UNLINK,
    PTL_EVENT_AUTO_FREE,
    PTL_EVENT_SEARCH
} ptl_event_kind_t;

typedef enum {
    PTL_NI_OK,
    PTL_NI_UNDELIVERABLE,
    PTL_NI_PT_DISABLED,
    PTL_NI_DROPPED,
    PTL_NI_PERM_VIOLATION,
    PTL_NI_OP_VIOLATION,
    PTL_NI_SEGV,
    PTL_NI_NO_MATCH,
    PTL_NI_TARGET_INVALID
} ptl_ni_fail_t;

typedef struct {
    void *start;
    void *user_ptr;
    ptl_hdr_data_t hdr_data;
    ptl_match_bits_t match_bits;
    ptl_size_t rlength;
    ptl_size_t mlength;
    ptl_size_t remote_offset;
    ptl_uid_t uid;
    ptl_process_t initiator;
    ptl_event_kind_t type;
    ptl_list_t ptl_list;
    ptl_pt_index_t pt_index;
    ptl_ni_fail_t ni_fail_type;
    ptl_op_t atomic_operation;
    ptl_datatype_t atomic_type;
} ptl_event_t;

typedef struct {
    ptl_size_t success;
    ptl_size_t failure;
} ptl_ct_event_t;

/* ---- functions ---- */
int PtlInit(void);
void PtlFini(void);
void PtlAbort(void);

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid,
              const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle);
int PtlNIFini(ptl_handle_ni_t ni_handle);
int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t status_register,
                ptl_sr_value_t *status);
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle);
int PtlSetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
              const ptl_process_t *mapping);
int PtlGetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
              ptl_process_t *mapping, ptl_size_t *actual_map_size);
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid);
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t *id);
int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t *id);
int PtlGetJid(ptl_handle_ni_t ni_handle, ptl_jid_t *jid);
int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2);

int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options,
               ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t *pt_index);
int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);
int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t *md,
              ptl_handle_md_t *md_handle);
int PtlMDRelease(ptl_handle_md_t md_handle);

int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_le_t *le, ptl_list_t ptl_list, void *user_ptr,
                ptl_handle_le_t *le_handle);
int PtlLEUnlink(ptl_handle_le_t le_handle);
int PtlLESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_le_t *le, ptl_search_op_t ptl_search_op,
                void *user_ptr);
int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_me_t *me, ptl_list_t ptl_list, void *user_ptr,
                ptl_handle_me_t *me_handle);
int PtlMEUnlink(ptl_handle_me_t me_handle);
int PtlMESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_me_t *me, ptl_search_op_t ptl_search_op,
                void *user_ptr);

int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset,
           ptl_size_t length, ptl_ack_req_t ack_req, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
           ptl_size_t remote_offset, void *user_ptr,
           ptl_hdr_data_t hdr_data);
int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset,
           ptl_size_t length, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
           ptl_size_t remote_offset, void *user_ptr);
int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset,
              ptl_size_t length, ptl_ack_req_t ack_req,
              ptl_process_t target_id, ptl_pt_index_t pt_index,
              ptl_match_bits_t match_bits, ptl_size_t remote_offset,
              void *user_ptr, ptl_hdr_data_t hdr_data, ptl_op_t operation,
              ptl_datatype_t datatype);
int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
                   ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
                   ptl_size_t length, ptl_process_t target_id,
                   ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                   ptl_size_t remote_offset, void *user_ptr,
                   ptl_hdr_data_t hdr_data, ptl_op_t operation,
                   ptl_datatype_t datatype);
int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
            ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
            ptl_size_t length, ptl_process_t target_id,
            ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
            ptl_size_t remote_offset, void *user_ptr, ptl_hdr_data_t hdr_data,
            const void *operand, ptl_op_t operation, ptl_datatype_t datatype);
int PtlAtomicSync(void);
int PtlStartBundle(ptl_handle_ni_t ni_handle);
int PtlEndBundle(ptl_handle_ni_t ni_handle);

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count,
               ptl_handle_eq_t *eq_handle);
int PtlEQFree(ptl_handle_eq_t eq_handle);
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event);
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event);
int PtlEQPoll(const ptl_handle_eq_t *eq_handles, unsigned int size,
              ptl_time_t timeout, ptl_event_t *event, unsigned int *which);

int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t *ct_handle);
int PtlCTFree(ptl_handle_ct_t ct_handle);
int PtlCTCancelTriggered(ptl_handle_ct_t ct_handle);
int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t *event);
int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test,
              ptl_ct_event_t *event);
int PtlCTPoll(const ptl_handle_ct_t *ct_handles, const ptl_size_t *tests,
              unsigned int size, ptl_time_t timeout, ptl_ct_event_t *event,
              unsigned int *which);
int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct);
int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment);

int PtlTriggeredPut(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                    ptl_size_t length, ptl_ack_req_t ack_req,
                    ptl_process_t target_id, ptl_pt_index_t pt_index,
                    ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                    void *user_ptr, ptl_hdr_data_t hdr_data,
                    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);
int PtlTriggeredGet(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                    ptl_size_t length, ptl_process_t target_id,
                    ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                    ptl_size_t remote_offset, void *user_ptr,
                    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);
int PtlTriggeredAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                       ptl_size_t length, ptl_ack_req_t ack_req,
                       ptl_process_t target_id, ptl_pt_index_t pt_index,
                       ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                       void *user_ptr, ptl_hdr_data_t hdr_data,
                       ptl_op_t operation, ptl_datatype_t datatype,
                       ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);
int PtlTriggeredFetchAtomic(ptl_handle_md_t get_md_handle,
                            ptl_size_t local_get_offset,
                            ptl_handle_md_t put_md_handle,
                            ptl_size_t local_put_offset, ptl_size_t length,
                            ptl_process_t target_id, ptl_pt_index_t pt_index,
                            ptl_match_bits_t match_bits,
                            ptl_size_t remote_offset, void *user_ptr,
                            ptl_hdr_data_t hdr_data, ptl_op_t operation,
                            ptl_datatype_t datatype,
                            ptl_handle_ct_t trig_ct_handle,
                            ptl_size_t threshold);
int PtlTriggeredSwap(ptl_handle_md_t get_md_handle,
                     ptl_size_t local_get_offset,
                     ptl_handle_md_t put_md_handle,
                     ptl_size_t local_put_offset, ptl_size_t length,
                     ptl_process_t target_id, ptl_pt_index_t pt_index,
                     ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                     void *user_ptr, ptl_hdr_data_t hdr_data,
                     const void *operand, ptl_op_t operation,
                     ptl_datatype_t datatype, ptl_handle_ct_t trig_ct_handle,
                     ptl_size_t threshold);
int PtlTriggeredCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment,
                      ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);
int PtlTriggeredCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct,
                      ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);
int PtlTriggeredMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                         const ptl_me_t *me, ptl_list_t ptl_list,
                         void *user_ptr, ptl_handle_me_t *me_handle,
                         ptl_handle_ct_t trig_ct_handle,
                         ptl_size_t threshold);
int PtlTriggeredMEUnlink(ptl_handle_me_t me_handle,
                         ptl_handle_ct_t trig_ct_handle,
                         ptl_size_t threshold);
int PtlTriggeredLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                         const ptl_le_t *le, ptl_list_t ptl_list,
                         void *user_ptr, ptl_handle_le_t *le_handle,
                         ptl_handle_ct_t trig_ct_handle,
                         ptl_size_t threshold);
int PtlTriggeredLEUnlink(ptl_handle_le_t le_handle,
                         ptl_handle_ct_t trig_ct_handle,
                         ptl_size_t threshold);

#ifdef __cplusplus
}
#endif

#endif /* PORTALS4_H */
