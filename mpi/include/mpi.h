/* SPDX-License-Identifier: MIT */
/*
 * mpi.h: the MPI-3.1 interface for the Q-Kernel MPI over Portals 4, every
 * C binding and constant of the standard (Annex A), with their PMPI_
 * profiling names.  Names, argument types and semantics are the
 * standard's; handle representations and constant values are our own.
 * Handles are pointers to library objects; the predefined ones are
 * addresses in tables.  What a call cannot do on this system (dynamic
 * processes, shared memory beyond one process or host) it reports with
 * the standard's error class: mpi/README.md lists them, and
 * MPI_Get_library_version names them.
 */
#ifndef MPI_H
#define MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION    3
#define MPI_SUBVERSION 1

/* ==== types (MPI-3.1 A.1.2) ==== */

typedef struct mpi_comm_s *MPI_Comm;
typedef struct mpi_group_s *MPI_Group;
typedef struct mpi_dt_s *MPI_Datatype;
typedef struct mpi_op_s *MPI_Op;
typedef struct mpi_req_s *MPI_Request;
typedef struct mpi_errh_s *MPI_Errhandler;
typedef struct mpi_win_s *MPI_Win;
typedef struct mpi_file_s *MPI_File;
typedef struct mpi_info_s *MPI_Info;
typedef struct mpi_msg_s *MPI_Message;
typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef int64_t MPI_Count;
typedef int MPI_Fint;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int mpi_cancelled;          /* private: MPI_Test_cancelled */
    size_t mpi_bytes;           /* private: MPI_Get_count/elements */
} MPI_Status;

/* The mpi_f08 module's TYPE(MPI_Status): C's status word for word. */
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint mpi_private[3];
} MPI_F08_status;

/* ==== callback prototypes (A.1.3) ==== */

typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval,
                                        void *extra, void *attr_in,
                                        void *attr_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval,
                                          void *attr, void *extra);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval,
                                       void *extra, void *attr_in,
                                       void *attr_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval,
                                         void *attr, void *extra);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval,
                                        void *extra, void *attr_in,
                                        void *attr_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval,
                                          void *attr, void *extra);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *code, ...);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *code, ...);
typedef void MPI_File_errhandler_function(MPI_File *file, int *code, ...);
typedef int MPI_Grequest_query_function(void *extra, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra);
typedef int MPI_Grequest_cancel_function(void *extra, int complete);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype,
                                        MPI_Aint *extent, void *extra);
typedef int MPI_Datarep_conversion_function(void *userbuf,
                                            MPI_Datatype datatype, int count,
                                            void *filebuf,
                                            MPI_Offset position, void *extra);
/* deprecated (MPI-2.0, MPI-2.2) and removed (MPI-3.0) names, kept */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
typedef MPI_Comm_errhandler_function MPI_Handler_function;
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;

/* ==== error classes (MPI_SUCCESS is 0, the others distinct) ==== */
enum {
    MPI_SUCCESS = 0, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE,
    MPI_ERR_TAG, MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_REQUEST,
    MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP, MPI_ERR_TOPOLOGY,
    MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN, MPI_ERR_TRUNCATE,
    MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS, MPI_ERR_PENDING,
    MPI_ERR_KEYVAL,
    /* MPI-2 and MPI-3 classes */
    MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_ASSERT, MPI_ERR_BAD_FILE,
    MPI_ERR_BASE, MPI_ERR_CONVERSION, MPI_ERR_DISP, MPI_ERR_DUP_DATAREP,
    MPI_ERR_FILE_EXISTS, MPI_ERR_FILE_IN_USE, MPI_ERR_FILE, MPI_ERR_INFO_KEY,
    MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, MPI_ERR_IO,
    MPI_ERR_LOCKTYPE, MPI_ERR_NAME, MPI_ERR_NO_MEM, MPI_ERR_NOT_SAME,
    MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT, MPI_ERR_QUOTA,
    MPI_ERR_READ_ONLY, MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_CONFLICT,
    MPI_ERR_RMA_RANGE, MPI_ERR_RMA_SHARED, MPI_ERR_RMA_SYNC,
    MPI_ERR_RMA_FLAVOR, MPI_ERR_SERVICE, MPI_ERR_SIZE, MPI_ERR_SPAWN,
    MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_WIN,
    /* the tool information interface's return codes (MPI-3.1 14.3.9) */
    MPI_T_ERR_MEMORY, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_CANNOT_INIT,
    MPI_T_ERR_INVALID, MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_ITEM,
    MPI_T_ERR_INVALID_SESSION, MPI_T_ERR_INVALID_HANDLE,
    MPI_T_ERR_INVALID_NAME, MPI_T_ERR_OUT_OF_HANDLES,
    MPI_T_ERR_OUT_OF_SESSIONS, MPI_T_ERR_CVAR_SET_NOT_NOW,
    MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_PVAR_NO_WRITE,
    MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_ATOMIC,
    MPIX_ERR_NCLASSES           /* private: the number of predefined classes */
};
/* Codes up to MPI_ERR_LASTCODE are the library's (a class is its own
 * code; others name one failure and belong to a class: MPI_Error_class);
 * MPI_Add_error_class/_code hand out codes above it. */
#define MPI_ERR_LASTCODE 0x3ff

/* ==== predefined objects (tables in the library) ==== */
extern struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;
extern struct mpi_group_s mpi_group_empty_;
extern struct mpi_errh_s mpi_errh_fatal_, mpi_errh_return_;
extern struct mpi_info_s mpi_info_env_;
extern struct mpi_msg_s mpi_message_no_proc_;
extern struct mpi_dt_s mpi_dt_char_, mpi_dt_short_, mpi_dt_int_,
    mpi_dt_long_, mpi_dt_unsigned_char_, mpi_dt_unsigned_short_,
    mpi_dt_unsigned_, mpi_dt_unsigned_long_, mpi_dt_float_, mpi_dt_double_,
    mpi_dt_long_double_, mpi_dt_byte_, mpi_dt_packed_,
    mpi_dt_long_long_int_, mpi_dt_unsigned_long_long_, mpi_dt_signed_char_,
    mpi_dt_int8_t_, mpi_dt_int16_t_, mpi_dt_int32_t_, mpi_dt_int64_t_,
    mpi_dt_uint8_t_, mpi_dt_uint16_t_, mpi_dt_uint32_t_, mpi_dt_uint64_t_,
    mpi_dt_wchar_, mpi_dt_c_bool_, mpi_dt_c_float_complex_,
    mpi_dt_c_double_complex_, mpi_dt_c_long_double_complex_,
    mpi_dt_cxx_bool_, mpi_dt_cxx_float_complex_, mpi_dt_cxx_double_complex_,
    mpi_dt_cxx_long_double_complex_, mpi_dt_aint_, mpi_dt_offset_,
    mpi_dt_count_, mpi_dt_integer_, mpi_dt_real_, mpi_dt_double_precision_,
    mpi_dt_complex_, mpi_dt_double_complex_, mpi_dt_logical_,
    mpi_dt_character_, mpi_dt_integer1_, mpi_dt_integer2_, mpi_dt_integer4_,
    mpi_dt_integer8_, mpi_dt_integer16_, mpi_dt_real4_, mpi_dt_real8_,
    mpi_dt_real16_, mpi_dt_complex8_, mpi_dt_complex16_, mpi_dt_complex32_,
    mpi_dt_2real_, mpi_dt_2double_precision_, mpi_dt_2integer_,
    mpi_dt_float_int_, mpi_dt_double_int_, mpi_dt_long_int_, mpi_dt_2int_,
    mpi_dt_short_int_, mpi_dt_long_double_int_, mpi_dt_ub_, mpi_dt_lb_;
extern struct mpi_op_s mpi_op_max_, mpi_op_min_, mpi_op_sum_, mpi_op_prod_,
    mpi_op_land_, mpi_op_band_, mpi_op_lor_, mpi_op_bor_, mpi_op_lxor_,
    mpi_op_bxor_, mpi_op_maxloc_, mpi_op_minloc_, mpi_op_replace_,
    mpi_op_no_op_;

/* ---- null handles, the predefined communicators and group ---- */
#define MPI_COMM_NULL       ((MPI_Comm)0)
#define MPI_COMM_WORLD      (&mpi_comm_world_)
#define MPI_COMM_SELF       (&mpi_comm_self_)
#define MPI_GROUP_NULL      ((MPI_Group)0)
#define MPI_GROUP_EMPTY     (&mpi_group_empty_)
#define MPI_OP_NULL         ((MPI_Op)0)
#define MPI_REQUEST_NULL    ((MPI_Request)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL (&mpi_errh_fatal_)
#define MPI_ERRORS_RETURN    (&mpi_errh_return_)
#define MPI_DATATYPE_NULL   ((MPI_Datatype)0)
#define MPI_INFO_NULL       ((MPI_Info)0)
#define MPI_INFO_ENV        (&mpi_info_env_)
#define MPI_WIN_NULL        ((MPI_Win)0)
#define MPI_FILE_NULL       ((MPI_File)0)
#define MPI_MESSAGE_NULL    ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC (&mpi_message_no_proc_)

/* ---- named predefined datatypes ---- */
/* C */
#define MPI_CHAR               (&mpi_dt_char_)
#define MPI_SHORT              (&mpi_dt_short_)
#define MPI_INT                (&mpi_dt_int_)
#define MPI_LONG               (&mpi_dt_long_)
#define MPI_LONG_LONG_INT      (&mpi_dt_long_long_int_)
#define MPI_LONG_LONG          MPI_LONG_LONG_INT
#define MPI_SIGNED_CHAR        (&mpi_dt_signed_char_)
#define MPI_UNSIGNED_CHAR      (&mpi_dt_unsigned_char_)
#define MPI_UNSIGNED_SHORT     (&mpi_dt_unsigned_short_)
#define MPI_UNSIGNED           (&mpi_dt_unsigned_)
#define MPI_UNSIGNED_LONG      (&mpi_dt_unsigned_long_)
#define MPI_UNSIGNED_LONG_LONG (&mpi_dt_unsigned_long_long_)
#define MPI_FLOAT              (&mpi_dt_float_)
#define MPI_DOUBLE             (&mpi_dt_double_)
#define MPI_LONG_DOUBLE        (&mpi_dt_long_double_)
#define MPI_WCHAR              (&mpi_dt_wchar_)
#define MPI_C_BOOL             (&mpi_dt_c_bool_)
#define MPI_INT8_T             (&mpi_dt_int8_t_)
#define MPI_INT16_T            (&mpi_dt_int16_t_)
#define MPI_INT32_T            (&mpi_dt_int32_t_)
#define MPI_INT64_T            (&mpi_dt_int64_t_)
#define MPI_UINT8_T            (&mpi_dt_uint8_t_)
#define MPI_UINT16_T           (&mpi_dt_uint16_t_)
#define MPI_UINT32_T           (&mpi_dt_uint32_t_)
#define MPI_UINT64_T           (&mpi_dt_uint64_t_)
#define MPI_AINT               (&mpi_dt_aint_)
#define MPI_COUNT              (&mpi_dt_count_)
#define MPI_OFFSET             (&mpi_dt_offset_)
#define MPI_C_COMPLEX          MPI_C_FLOAT_COMPLEX
#define MPI_C_FLOAT_COMPLEX    (&mpi_dt_c_float_complex_)
#define MPI_C_DOUBLE_COMPLEX   (&mpi_dt_c_double_complex_)
#define MPI_C_LONG_DOUBLE_COMPLEX (&mpi_dt_c_long_double_complex_)
#define MPI_BYTE               (&mpi_dt_byte_)
#define MPI_PACKED             (&mpi_dt_packed_)
/* Fortran (gfortran's layouts: default INTEGER, REAL and LOGICAL are 4
 * bytes, .TRUE. is 1) */
#define MPI_INTEGER            (&mpi_dt_integer_)
#define MPI_REAL               (&mpi_dt_real_)
#define MPI_DOUBLE_PRECISION   (&mpi_dt_double_precision_)
#define MPI_COMPLEX            (&mpi_dt_complex_)
#define MPI_LOGICAL            (&mpi_dt_logical_)
#define MPI_CHARACTER          (&mpi_dt_character_)
#define MPI_DOUBLE_COMPLEX     (&mpi_dt_double_complex_)
#define MPI_INTEGER1           (&mpi_dt_integer1_)
#define MPI_INTEGER2           (&mpi_dt_integer2_)
#define MPI_INTEGER4           (&mpi_dt_integer4_)
#define MPI_INTEGER8           (&mpi_dt_integer8_)
#define MPI_INTEGER16          (&mpi_dt_integer16_)
#define MPI_REAL2              MPI_DATATYPE_NULL    /* no REAL(2) */
#define MPI_REAL4              (&mpi_dt_real4_)
#define MPI_REAL8              (&mpi_dt_real8_)
#define MPI_REAL16             (&mpi_dt_real16_)
#define MPI_COMPLEX4           MPI_DATATYPE_NULL    /* no COMPLEX(2) */
#define MPI_COMPLEX8           (&mpi_dt_complex8_)
#define MPI_COMPLEX16          (&mpi_dt_complex16_)
#define MPI_COMPLEX32          (&mpi_dt_complex32_)
/* C++ */
#define MPI_CXX_BOOL           (&mpi_dt_cxx_bool_)
#define MPI_CXX_FLOAT_COMPLEX  (&mpi_dt_cxx_float_complex_)
#define MPI_CXX_DOUBLE_COMPLEX (&mpi_dt_cxx_double_complex_)
#define MPI_CXX_LONG_DOUBLE_COMPLEX (&mpi_dt_cxx_long_double_complex_)
/* pairs for MPI_MAXLOC and MPI_MINLOC */
#define MPI_FLOAT_INT          (&mpi_dt_float_int_)
#define MPI_DOUBLE_INT         (&mpi_dt_double_int_)
#define MPI_LONG_INT           (&mpi_dt_long_int_)
#define MPI_2INT               (&mpi_dt_2int_)
#define MPI_SHORT_INT          (&mpi_dt_short_int_)
#define MPI_LONG_DOUBLE_INT    (&mpi_dt_long_double_int_)
#define MPI_2REAL              (&mpi_dt_2real_)
#define MPI_2DOUBLE_PRECISION  (&mpi_dt_2double_precision_)
#define MPI_2INTEGER           (&mpi_dt_2integer_)
/* bounds markers (removed in MPI-3.0; MPI_Type_create_resized instead) */
#define MPI_UB                 (&mpi_dt_ub_)
#define MPI_LB                 (&mpi_dt_lb_)

/* ---- reduction operations ---- */
#define MPI_MAX     (&mpi_op_max_)
#define MPI_MIN     (&mpi_op_min_)
#define MPI_SUM     (&mpi_op_sum_)
#define MPI_PROD    (&mpi_op_prod_)
#define MPI_LAND    (&mpi_op_land_)
#define MPI_BAND    (&mpi_op_band_)
#define MPI_LOR     (&mpi_op_lor_)
#define MPI_BOR     (&mpi_op_bor_)
#define MPI_LXOR    (&mpi_op_lxor_)
#define MPI_BXOR    (&mpi_op_bxor_)
#define MPI_MAXLOC  (&mpi_op_maxloc_)
#define MPI_MINLOC  (&mpi_op_minloc_)
#define MPI_REPLACE (&mpi_op_replace_)  /* one-sided accumulates only */
#define MPI_NO_OP   (&mpi_op_no_op_)

/* ---- assorted constants ---- */
#define MPI_ANY_SOURCE   (-1)
#define MPI_PROC_NULL    (-2)
#define MPI_ROOT         (-3)
#define MPI_ANY_TAG      (-1)
#define MPI_UNDEFINED    (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_BSEND_OVERHEAD 64
#define MPI_BOTTOM       ((void *)0)
#define MPI_IN_PLACE     ((void *)-1)
#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL    ((char **)0)
#define MPI_ARGVS_NULL   ((char ***)0)
#define MPI_F_STATUS_IGNORE     ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE   ((MPI_Fint *)0)
#define MPI_F08_STATUS_IGNORE   ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)

/* string sizes (each includes the terminating NUL) */
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING   256
#define MPI_MAX_OBJECT_NAME    64
#define MPI_MAX_INFO_KEY       255
#define MPI_MAX_INFO_VAL       1024
#define MPI_MAX_LIBRARY_VERSION_STRING 512
#define MPI_MAX_DATAREP_STRING 128
#define MPI_MAX_PORT_NAME      256

/* predefined attribute keys: communicators (MPI_Comm_get_attr on
 * MPI_COMM_WORLD), windows (MPI_Win_get_attr) */
#define MPI_TAG_UB          0
#define MPI_HOST            1
#define MPI_IO              2
#define MPI_WTIME_IS_GLOBAL 3
#define MPI_LASTUSEDCODE    4
#define MPI_UNIVERSE_SIZE   5
#define MPI_APPNUM          6
#define MPI_WIN_BASE          10
#define MPI_WIN_SIZE          11
#define MPI_WIN_DISP_UNIT     12
#define MPI_WIN_CREATE_FLAVOR 13
#define MPI_WIN_MODEL         14

/* results of comparisons; topologies; split types */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3
#define MPI_GRAPH      1
#define MPI_CART       2
#define MPI_DIST_GRAPH 3
#define MPI_UNWEIGHTED     ((int *)1)
#define MPI_WEIGHTS_EMPTY  ((int *)2)
#define MPI_COMM_TYPE_SHARED 1

#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

/* predefined attribute functions */
#define MPI_NULL_COPY_FN        ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN      ((MPI_Delete_function *)0)
#define MPI_COMM_NULL_COPY_FN   ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_WIN_NULL_COPY_FN    ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN  ((MPI_Win_delete_attr_function *)0)
#define MPI_TYPE_NULL_COPY_FN   ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_COMM_DUP_FN         MPI_DUP_FN
#define MPI_CONVERSION_FN_NULL  ((MPI_Datarep_conversion_function *)0)
int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra, void *attr_in,
               void *attr_out, int *flag);
int MPI_WIN_DUP_FN(MPI_Win oldwin, int keyval, void *extra, void *attr_in,
                   void *attr_out, int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int keyval, void *extra,
                    void *attr_in, void *attr_out, int *flag);

/* datatype constructors (MPI_Type_get_envelope) */
enum {
    MPI_COMBINER_NAMED, MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS,
    MPI_COMBINER_VECTOR, MPI_COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HVECTOR,
    MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED_INTEGER,
    MPI_COMBINER_HINDEXED, MPI_COMBINER_INDEXED_BLOCK,
    MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT_INTEGER,
    MPI_COMBINER_STRUCT, MPI_COMBINER_SUBARRAY, MPI_COMBINER_DARRAY,
    MPI_COMBINER_F90_REAL, MPI_COMBINER_F90_COMPLEX,
    MPI_COMBINER_F90_INTEGER, MPI_COMBINER_RESIZED
};
#define MPI_ORDER_C              56
#define MPI_ORDER_FORTRAN        57
#define MPI_DISTRIBUTE_BLOCK     121
#define MPI_DISTRIBUTE_CYCLIC    122
#define MPI_DISTRIBUTE_NONE      123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
/* MPI_Type_match_size */
#define MPI_TYPECLASS_REAL    1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* one-sided: window flavors and models, lock types, asserts */
#define MPI_WIN_FLAVOR_CREATE   1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC  3
#define MPI_WIN_FLAVOR_SHARED   4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED  2
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED    235
#define MPI_MODE_NOCHECK   1024
#define MPI_MODE_NOSTORE   2048
#define MPI_MODE_NOPUT     4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* MPI-IO: access modes, seek positions */
#define MPI_MODE_CREATE          1
#define MPI_MODE_RDONLY          2
#define MPI_MODE_WRONLY          4
#define MPI_MODE_RDWR            8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN     32
#define MPI_MODE_EXCL            64
#define MPI_MODE_APPEND          128
#define MPI_MODE_SEQUENTIAL      256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)

/* ---- the tool information interface (14.3) ---- */
typedef struct mpi_t_enum_s *MPI_T_enum;
typedef struct mpi_t_cvar_s *MPI_T_cvar_handle;
typedef struct mpi_t_pvar_s *MPI_T_pvar_handle;
typedef struct mpi_t_session_s *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL         ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL  ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL  ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES  ((MPI_T_pvar_handle)-1)
enum {
    MPI_T_VERBOSITY_USER_BASIC, MPI_T_VERBOSITY_USER_DETAIL,
    MPI_T_VERBOSITY_USER_ALL, MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL,
    MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP,
    MPI_T_BIND_MPI_OP, MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO
};
enum {
    MPI_T_SCOPE_CONSTANT, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL,
    MPI_T_SCOPE_GROUP, MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL,
    MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE, MPI_T_PVAR_CLASS_TIMER,
    MPI_T_PVAR_CLASS_GENERIC
};

/* ==== 3 point-to-point communication ==== */
int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
             MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
             MPI_Comm comm, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count);
int MPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm);
int MPI_Buffer_attach(void *buf, int size);
int MPI_Buffer_detach(void *bufaddr, int *size);
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
              MPI_Comm comm, MPI_Request *req);
int MPI_Wait(MPI_Request *req, MPI_Status *status);
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status);
int MPI_Request_free(MPI_Request *req);
int MPI_Waitany(int count, MPI_Request *reqs, int *index,
                MPI_Status *status);
int MPI_Testany(int count, MPI_Request *reqs, int *index, int *flag,
                MPI_Status *status);
int MPI_Waitall(int count, MPI_Request *reqs, MPI_Status *statuses);
int MPI_Testall(int count, MPI_Request *reqs, int *flag,
                MPI_Status *statuses);
int MPI_Waitsome(int incount, MPI_Request *reqs, int *outcount,
                 int *indices, MPI_Status *statuses);
int MPI_Testsome(int incount, MPI_Request *reqs, int *outcount,
                 int *indices, MPI_Status *statuses);
int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Message *message, MPI_Status *status);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
              MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
               MPI_Request *req);
int MPI_Cancel(MPI_Request *req);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Recv_init(void *buf, int count, MPI_Datatype dt, int source,
                  int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Start(MPI_Request *req);
int MPI_Startall(int count, MPI_Request *reqs);
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status);

/* ==== 4 datatypes ==== */
int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newt);
int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                    MPI_Datatype *newt);
int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride,
                            MPI_Datatype old, MPI_Datatype *newt);
int MPI_Type_indexed(int count, const int *blocklens, const int *displs,
                     MPI_Datatype old, MPI_Datatype *newt);
int MPI_Type_create_hindexed(int count, const int *blocklens,
                             const MPI_Aint *displs, MPI_Datatype old,
                             MPI_Datatype *newt);
int MPI_Type_create_indexed_block(int count, int blocklen,
                                  const int *displs, MPI_Datatype old,
                                  MPI_Datatype *newt);
int MPI_Type_create_hindexed_block(int count, int blocklen,
                                   const MPI_Aint *displs, MPI_Datatype old,
                                   MPI_Datatype *newt);
int MPI_Type_create_struct(int count, const int *blocklens,
                           const MPI_Aint *displs,
                           const MPI_Datatype *types, MPI_Datatype *newt);
int MPI_Type_create_subarray(int ndims, const int *sizes,
                             const int *subsizes, const int *starts,
                             int order, MPI_Datatype old,
                             MPI_Datatype *newt);
int MPI_Type_create_darray(int size, int rank, int ndims,
                           const int *gsizes, const int *distribs,
                           const int *dargs, const int *psizes, int order,
                           MPI_Datatype old, MPI_Datatype *newt);
int MPI_Get_address(const void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
int MPI_Type_size(MPI_Datatype dt, int *size);
int MPI_Type_size_x(MPI_Datatype dt, MPI_Count *size);
int MPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb,
                          MPI_Count *extent);
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newt);
int MPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb,
                             MPI_Aint *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype dt, MPI_Count *lb,
                               MPI_Count *extent);
int MPI_Type_commit(MPI_Datatype *dt);
int MPI_Type_dup(MPI_Datatype dt, MPI_Datatype *newt);
int MPI_Type_free(MPI_Datatype *dt);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt,
                       MPI_Count *count);
int MPI_Type_get_envelope(MPI_Datatype dt, int *num_integers,
                          int *num_addresses, int *num_datatypes,
                          int *combiner);
int MPI_Type_get_contents(MPI_Datatype dt, int max_integers,
                          int max_addresses, int max_datatypes,
                          int *integers, MPI_Aint *addresses,
                          MPI_Datatype *datatypes);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
             int outsize, int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
               int outcount, MPI_Datatype dt, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size);
int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                      MPI_Datatype dt, void *outbuf, MPI_Aint outsize,
                      MPI_Aint *position);
int MPI_Unpack_external(const char *datarep, const void *inbuf,
                        MPI_Aint insize, MPI_Aint *position, void *outbuf,
                        int outcount, MPI_Datatype dt);
int MPI_Pack_external_size(const char *datarep, int incount,
                           MPI_Datatype dt, MPI_Aint *size);

/* ==== 5 collective communication ==== */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root,
              MPI_Comm comm);
int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype,
                void *rbuf, const int *rcounts, const int *displs,
                MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype,
                void *rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm);
int MPI_Scatterv(const void *sbuf, const int *scounts, const int *displs,
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int *rcounts, const int *displs,
                   MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                  MPI_Datatype stype, void *rbuf, const int *rcounts,
                  const int *rdispls, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                  const MPI_Datatype *stypes, void *rbuf,
                  const int *rcounts, const int *rdispls,
                  const MPI_Datatype *rtypes, MPI_Comm comm);
int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, int root, MPI_Comm comm);
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                     MPI_Datatype dt, MPI_Op op);
int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
             MPI_Op op, MPI_Comm comm);
int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, MPI_Comm comm);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req);
int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root,
               MPI_Comm comm, MPI_Request *req);
int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype,
                void *rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request *req);
int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, const int *rcounts, const int *displs,
                 MPI_Datatype rtype, int root, MPI_Comm comm,
                 MPI_Request *req);
int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req);
int MPI_Iscatterv(const void *sbuf, const int *scounts, const int *displs,
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req);
int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req);
int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int *rcounts, const int *displs,
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req);
int MPI_Ialltoallv(const void *sbuf, const int *scounts,
                   const int *sdispls, MPI_Datatype stype, void *rbuf,
                   const int *rcounts, const int *rdispls,
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoallw(const void *sbuf, const int *scounts,
                   const int *sdispls, const MPI_Datatype *stypes,
                   void *rbuf, const int *rcounts, const int *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm comm,
                   MPI_Request *req);
int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req);
int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req);
int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm, MPI_Request *req);

/* ==== 6 groups, contexts, communicators and caching ==== */
int MPI_Group_size(MPI_Group g, int *size);
int MPI_Group_rank(MPI_Group g, int *rank);
int MPI_Group_translate_ranks(MPI_Group g1, int n, const int *ranks1,
                              MPI_Group g2, int *ranks2);
int MPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *g);
int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int MPI_Group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out);
int MPI_Group_excl(MPI_Group g, int n, const int *ranks, MPI_Group *out);
int MPI_Group_range_incl(MPI_Group g, int n, int ranges[][3],
                         MPI_Group *out);
int MPI_Group_range_excl(MPI_Group g, int n, int ranges[][3],
                         MPI_Group *out);
int MPI_Group_free(MPI_Group *g);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int *result);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newc);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newc);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newc, MPI_Request *req);
int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newc);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag,
                          MPI_Comm *newc);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newc);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                        MPI_Info info, MPI_Comm *newc);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *g);
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer,
                         int remote_leader, int tag, MPI_Comm *newc);
int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newc);
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval,
                           void *extra);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy,
                          MPI_Win_delete_attr_function *del, int *keyval,
                          void *extra);
int MPI_Win_free_keyval(int *keyval);
int MPI_Win_set_attr(MPI_Win win, int keyval, void *value);
int MPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag);
int MPI_Win_delete_attr(MPI_Win win, int keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval,
                           void *extra);
int MPI_Type_free_keyval(int *keyval);
int MPI_Type_set_attr(MPI_Datatype dt, int keyval, void *value);
int MPI_Type_get_attr(MPI_Datatype dt, int keyval, void *value, int *flag);
int MPI_Type_delete_attr(MPI_Datatype dt, int keyval);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int MPI_Type_set_name(MPI_Datatype dt, const char *name);
int MPI_Type_get_name(MPI_Datatype dt, char *name, int *resultlen);
int MPI_Win_set_name(MPI_Win win, const char *name);
int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen);
/* deprecated (MPI-2.0), kept: the MPI_Comm_*_keyval/_attr calls */
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
                      int *keyval, void *extra);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *value);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* ==== 7 process topologies ==== */
int MPI_Cart_create(MPI_Comm comm, int ndims, const int *dims,
                    const int *periods, int reorder, MPI_Comm *newc);
int MPI_Dims_create(int nnodes, int ndims, int *dims);
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int *index,
                     const int *edges, int reorder, MPI_Comm *newc);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
                                   const int *sources,
                                   const int *sourceweights, int outdegree,
                                   const int *destinations,
                                   const int *destweights, MPI_Info info,
                                   int reorder, MPI_Comm *newc);
int MPI_Dist_graph_create(MPI_Comm comm, int n, const int *sources,
                          const int *degrees, const int *destinations,
                          const int *weights, MPI_Info info, int reorder,
                          MPI_Comm *newc);
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int *index,
                  int *edges);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int *dims, int *periods,
                 int *coords);
int MPI_Cart_rank(MPI_Comm comm, const int *coords, int *rank);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int *coords);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *n);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxn,
                        int *neighbors);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                   int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int *sources,
                             int *sourceweights, int maxoutdegree,
                             int *destinations, int *destweights);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source,
                   int *dest);
int MPI_Cart_sub(MPI_Comm comm, const int *remain_dims, MPI_Comm *newc);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int *dims,
                 const int *periods, int *newrank);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int *index,
                  const int *edges, int *newrank);
int MPI_Neighbor_allgather(const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sbuf, int scount,
                            MPI_Datatype stype, void *rbuf,
                            const int *rcounts, const int *displs,
                            MPI_Datatype rtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                          void *rbuf, int rcount, MPI_Datatype rtype,
                          MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sbuf, const int *scounts,
                           const int *sdispls, MPI_Datatype stype,
                           void *rbuf, const int *rcounts,
                           const int *rdispls, MPI_Datatype rtype,
                           MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sbuf, const int *scounts,
                           const MPI_Aint *sdispls,
                           const MPI_Datatype *stypes, void *rbuf,
                           const int *rcounts, const MPI_Aint *rdispls,
                           const MPI_Datatype *rtypes, MPI_Comm comm);
int MPI_Ineighbor_allgather(const void *sbuf, int scount,
                            MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *req);
int MPI_Ineighbor_allgatherv(const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs,
                             MPI_Datatype rtype, MPI_Comm comm,
                             MPI_Request *req);
int MPI_Ineighbor_alltoall(const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm,
                           MPI_Request *req);
int MPI_Ineighbor_alltoallv(const void *sbuf, const int *scounts,
                            const int *sdispls, MPI_Datatype stype,
                            void *rbuf, const int *rcounts,
                            const int *rdispls, MPI_Datatype rtype,
                            MPI_Comm comm, MPI_Request *req);
int MPI_Ineighbor_alltoallw(const void *sbuf, const int *scounts,
                            const MPI_Aint *sdispls,
                            const MPI_Datatype *stypes, void *rbuf,
                            const int *rcounts, const MPI_Aint *rdispls,
                            const MPI_Datatype *rtypes, MPI_Comm comm,
                            MPI_Request *req);

/* ==== 8 MPI environmental management ==== */
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                               MPI_Errhandler *eh);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
                              MPI_Errhandler *eh);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *eh);
int MPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                               MPI_Errhandler *eh);
int MPI_File_set_errhandler(MPI_File fh, MPI_Errhandler eh);
int MPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *eh);
int MPI_Errhandler_free(MPI_Errhandler *eh);
int MPI_Error_string(int code, char *string, int *resultlen);
int MPI_Error_class(int code, int *errclass);
int MPI_Add_error_class(int *errclass);
int MPI_Add_error_code(int errclass, int *code);
int MPI_Add_error_string(int code, const char *string);
int MPI_Comm_call_errhandler(MPI_Comm comm, int code);
int MPI_Win_call_errhandler(MPI_Win win, int code);
int MPI_File_call_errhandler(MPI_File fh, int code);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Abort(MPI_Comm comm, int code);
int MPI_Finalized(int *flag);

/* ==== 9 the info object ==== */
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                 int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                          int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);

/* ==== 10 process creation and management (mpi/README.md: no free
 * nodes to spawn on and no ports: these fail with their classes) ==== */
int MPI_Comm_spawn(const char *command, char **argv, int maxprocs,
                   MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm *intercomm, int *errcodes);
int MPI_Comm_get_parent(MPI_Comm *parent);
int MPI_Comm_spawn_multiple(int count, char **commands, char ***argvs,
                            const int *maxprocs, const MPI_Info *infos,
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int *errcodes);
int MPI_Open_port(MPI_Info info, char *port_name);
int MPI_Close_port(const char *port_name);
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *newc);
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newc);
int MPI_Publish_name(const char *service_name, MPI_Info info,
                     const char *port_name);
int MPI_Unpublish_name(const char *service_name, MPI_Info info,
                       const char *port_name);
int MPI_Lookup_name(const char *service_name, MPI_Info info,
                    char *port_name);
int MPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_join(int fd, MPI_Comm *intercomm);

/* ==== 11 one-sided communications ==== */
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                         int *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info);
int MPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int target,
            MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win);
int MPI_Get(void *obuf, int ocount, MPI_Datatype otype, int target,
            MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win);
int MPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                   int target, MPI_Aint tdisp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                       void *rbuf, int rcount, MPI_Datatype rtype,
                       int target, MPI_Aint tdisp, int tcount,
                       MPI_Datatype ttype, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype dt,
                     int target, MPI_Aint tdisp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf,
                         MPI_Datatype dt, int target, MPI_Aint tdisp,
                         MPI_Win win);
int MPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int target,
             MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win,
             MPI_Request *req);
int MPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int target,
             MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win,
             MPI_Request *req);
int MPI_Raccumulate(const void *obuf, int ocount, MPI_Datatype otype,
                    int target, MPI_Aint tdisp, int tcount,
                    MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                    MPI_Request *req);
int MPI_Rget_accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                        void *rbuf, int rcount, MPI_Datatype rtype,
                        int target, MPI_Aint tdisp, int tcount,
                        MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                        MPI_Request *req);
int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);

/* ==== 12 external interfaces ==== */
int MPI_Grequest_start(MPI_Grequest_query_function *query,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel, void *extra,
                       MPI_Request *req);
int MPI_Grequest_complete(MPI_Request req);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype dt, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype dt,
                              MPI_Count count);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);

/* ==== 13 I/O ==== */
int MPI_File_open(MPI_Comm comm, const char *filename, int amode,
                  MPI_Info info, MPI_File *fh);
int MPI_File_close(MPI_File *fh);
int MPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_get_info(MPI_File fh, MPI_Info *info);
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                      MPI_Datatype filetype, const char *datarep,
                      MPI_Info info);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                      MPI_Datatype *filetype, char *datarep);
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                     MPI_Datatype dt, MPI_Status *status);
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                         int count, MPI_Datatype dt, MPI_Status *status);
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                      int count, MPI_Datatype dt, MPI_Status *status);
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                          int count, MPI_Datatype dt, MPI_Status *status);
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype dt, MPI_Request *req);
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
                       int count, MPI_Datatype dt, MPI_Request *req);
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                          int count, MPI_Datatype dt, MPI_Request *req);
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                           int count, MPI_Datatype dt, MPI_Request *req);
int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                  MPI_Status *status);
int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                      MPI_Status *status);
int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype dt,
                   MPI_Status *status);
int MPI_File_write_all(MPI_File fh, const void *buf, int count,
                       MPI_Datatype dt, MPI_Status *status);
int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                   MPI_Request *req);
int MPI_File_iwrite(MPI_File fh, const void *buf, int count,
                    MPI_Datatype dt, MPI_Request *req);
int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                       MPI_Request *req);
int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                        MPI_Datatype dt, MPI_Request *req);
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                             MPI_Offset *disp);
int MPI_File_read_shared(MPI_File fh, void *buf, int count,
                         MPI_Datatype dt, MPI_Status *status);
int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
                          MPI_Datatype dt, MPI_Status *status);
int MPI_File_iread_shared(MPI_File fh, void *buf, int count,
                          MPI_Datatype dt, MPI_Request *req);
int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype dt, MPI_Request *req);
int MPI_File_read_ordered(MPI_File fh, void *buf, int count,
                          MPI_Datatype dt, MPI_Status *status);
int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                           MPI_Datatype dt, MPI_Status *status);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
                               int count, MPI_Datatype dt);
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
                                const void *buf, int count,
                                MPI_Datatype dt);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf,
                              MPI_Status *status);
int MPI_File_read_all_begin(MPI_File fh, void *buf, int count,
                            MPI_Datatype dt);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                             MPI_Datatype dt);
int MPI_File_write_all_end(MPI_File fh, const void *buf,
                           MPI_Status *status);
int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                MPI_Datatype dt);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                 MPI_Datatype dt);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf,
                               MPI_Status *status);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype dt,
                             MPI_Aint *extent);
int MPI_Register_datarep(const char *datarep,
                         MPI_Datarep_conversion_function *read_fn,
                         MPI_Datarep_conversion_function *write_fn,
                         MPI_Datarep_extent_function *extent_fn,
                         void *extra);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
int MPI_File_sync(MPI_File fh);

/* ==== 14 tool support ==== */
int MPI_Pcontrol(const int level, ...);
int MPI_T_init_thread(int required, int *provided);
int MPI_T_finalize(void);
int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                        int *name_len);
int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                        char *name, int *name_len);
int MPI_T_cvar_get_num(int *num_cvar);
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                        int *verbosity, MPI_Datatype *datatype,
                        MPI_T_enum *enumtype, char *desc, int *desc_len,
                        int *bind, int *scope);
int MPI_T_cvar_get_index(const char *name, int *cvar_index);
int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                            MPI_T_cvar_handle *handle, int *count);
int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int MPI_T_pvar_get_num(int *num_pvar);
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                        int *verbosity, int *var_class,
                        MPI_Datatype *datatype, MPI_T_enum *enumtype,
                        char *desc, int *desc_len, int *bind, int *readonly,
                        int *continuous, int *atomic);
int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                            void *obj_handle, MPI_T_pvar_handle *handle,
                            int *count);
int MPI_T_pvar_handle_free(MPI_T_pvar_session session,
                           MPI_T_pvar_handle *handle);
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                    void *buf);
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     const void *buf);
int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_readreset(MPI_T_pvar_session session,
                         MPI_T_pvar_handle handle, void *buf);
int MPI_T_category_get_num(int *num_cat);
int MPI_T_category_get_info(int cat_index, char *name, int *name_len,
                            char *desc, int *desc_len, int *num_cvars,
                            int *num_pvars, int *num_categories);
int MPI_T_category_get_index(const char *name, int *cat_index);
int MPI_T_category_get_cvars(int cat_index, int len, int *indices);
int MPI_T_category_get_pvars(int cat_index, int len, int *indices);
int MPI_T_category_get_categories(int cat_index, int len, int *indices);
int MPI_T_category_changed(int *stamp);

/* ==== 17 language bindings ==== */
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newt);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newt);
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newt);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *dt);
/* Fortran handles (mpi/fortran/f2c.c): a Fortran handle is an INTEGER
 * index into a table per kind; MPI_X_c2f gives a C handle its index (the
 * same one every time), MPI_X_f2c the handle back (an index that names
 * nothing gives the kind's null handle). */
MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
MPI_Group MPI_Group_f2c(MPI_Fint group);
MPI_Fint MPI_Group_c2f(MPI_Group group);
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
MPI_Op MPI_Op_f2c(MPI_Fint op);
MPI_Fint MPI_Op_c2f(MPI_Op op);
MPI_Request MPI_Request_f2c(MPI_Fint request);
MPI_Fint MPI_Request_c2f(MPI_Request request);
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
MPI_Info MPI_Info_f2c(MPI_Fint info);
MPI_Fint MPI_Info_c2f(MPI_Info info);
MPI_Win MPI_Win_f2c(MPI_Fint win);
MPI_Fint MPI_Win_c2f(MPI_Win win);
MPI_File MPI_File_f2c(MPI_Fint file);
MPI_Fint MPI_File_c2f(MPI_File file);
MPI_Message MPI_Message_f2c(MPI_Fint message);
MPI_Fint MPI_Message_c2f(MPI_Message message);
int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);

/* ==== removed in MPI-3.0, kept for the MPI-1 programs that call them ==== */
int MPI_Address(void *location, MPI_Aint *address);
int MPI_Type_extent(MPI_Datatype dt, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype dt, MPI_Aint *lb);
int MPI_Type_ub(MPI_Datatype dt, MPI_Aint *ub);
int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride,
                     MPI_Datatype old, MPI_Datatype *newt);
int MPI_Type_hindexed(int count, int *blocklens, MPI_Aint *displs,
                      MPI_Datatype old, MPI_Datatype *newt);
int MPI_Type_struct(int count, int *blocklens, MPI_Aint *displs,
                    MPI_Datatype *types, MPI_Datatype *newt);
int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh);

/* ==== MPI-4.0's MPI_Count forms of the common calls (counts past
 * INT_MAX are MPI_ERR_COUNT: every message here fits Portals' 4 GiB) ==== */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm);
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
               int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Request *req);
int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root,
                MPI_Comm comm);
int MPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                    MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                 MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm);
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype dt,
                    MPI_Count *count);
int MPI_Type_size_c(MPI_Datatype dt, MPI_Count *size);
int MPI_Type_get_extent_c(MPI_Datatype dt, MPI_Count *lb,
                          MPI_Count *extent);

/* ==== end of MPI_ names ==== */

/* ==== the profiling interface: every MPI_X is also PMPI_X ==== */
int PMPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm);
int PMPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
              MPI_Comm comm, MPI_Status *status);
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count);
int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm);
int PMPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm);
int PMPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm);
int PMPI_Buffer_attach(void *buf, int size);
int PMPI_Buffer_detach(void *bufaddr, int *size);
int PMPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
               MPI_Comm comm, MPI_Request *req);
int PMPI_Wait(MPI_Request *req, MPI_Status *status);
int PMPI_Test(MPI_Request *req, int *flag, MPI_Status *status);
int PMPI_Request_free(MPI_Request *req);
int PMPI_Waitany(int count, MPI_Request *reqs, int *index,
                 MPI_Status *status);
int PMPI_Testany(int count, MPI_Request *reqs, int *index, int *flag,
                 MPI_Status *status);
int PMPI_Waitall(int count, MPI_Request *reqs, MPI_Status *statuses);
int PMPI_Testall(int count, MPI_Request *reqs, int *flag,
                 MPI_Status *statuses);
int PMPI_Waitsome(int incount, MPI_Request *reqs, int *outcount,
                  int *indices, MPI_Status *statuses);
int PMPI_Testsome(int incount, MPI_Request *reqs, int *outcount,
                  int *indices, MPI_Status *statuses);
int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Status *status);
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                 MPI_Message *message, MPI_Status *status);
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                MPI_Status *status);
int PMPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
               MPI_Status *status);
int PMPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
                MPI_Request *req);
int PMPI_Cancel(MPI_Request *req);
int PMPI_Test_cancelled(const MPI_Status *status, int *flag);
int PMPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Recv_init(void *buf, int count, MPI_Datatype dt, int source,
                   int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Start(MPI_Request *req);
int PMPI_Startall(int count, MPI_Request *reqs);
int PMPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                  int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                  int source, int rtag, MPI_Comm comm, MPI_Status *status);
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                          int stag, int source, int rtag, MPI_Comm comm,
                          MPI_Status *status);
int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                     MPI_Datatype *newt);
int PMPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride,
                             MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Type_indexed(int count, const int *blocklens, const int *displs,
                      MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Type_create_hindexed(int count, const int *blocklens,
                              const MPI_Aint *displs, MPI_Datatype old,
                              MPI_Datatype *newt);
int PMPI_Type_create_indexed_block(int count, int blocklen,
                                   const int *displs, MPI_Datatype old,
                                   MPI_Datatype *newt);
int PMPI_Type_create_hindexed_block(int count, int blocklen,
                                    const MPI_Aint *displs, MPI_Datatype old,
                                    MPI_Datatype *newt);
int PMPI_Type_create_struct(int count, const int *blocklens,
                            const MPI_Aint *displs,
                            const MPI_Datatype *types, MPI_Datatype *newt);
int PMPI_Type_create_subarray(int ndims, const int *sizes,
                              const int *subsizes, const int *starts,
                              int order, MPI_Datatype old,
                              MPI_Datatype *newt);
int PMPI_Type_create_darray(int size, int rank, int ndims,
                            const int *gsizes, const int *distribs,
                            const int *dargs, const int *psizes, int order,
                            MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Get_address(const void *location, MPI_Aint *address);
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
int PMPI_Type_size(MPI_Datatype dt, int *size);
int PMPI_Type_size_x(MPI_Datatype dt, MPI_Count *size);
int PMPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent);
int PMPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb,
                           MPI_Count *extent);
int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newt);
int PMPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb,
                              MPI_Aint *extent);
int PMPI_Type_get_true_extent_x(MPI_Datatype dt, MPI_Count *lb,
                                MPI_Count *extent);
int PMPI_Type_commit(MPI_Datatype *dt);
int PMPI_Type_dup(MPI_Datatype dt, MPI_Datatype *newt);
int PMPI_Type_free(MPI_Datatype *dt);
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count);
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt,
                        MPI_Count *count);
int PMPI_Type_get_envelope(MPI_Datatype dt, int *num_integers,
                           int *num_addresses, int *num_datatypes,
                           int *combiner);
int PMPI_Type_get_contents(MPI_Datatype dt, int max_integers,
                           int max_addresses, int max_datatypes,
                           int *integers, MPI_Aint *addresses,
                           MPI_Datatype *datatypes);
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
              int outsize, int *position, MPI_Comm comm);
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                int outcount, MPI_Datatype dt, MPI_Comm comm);
int PMPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size);
int PMPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                       MPI_Datatype dt, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position);
int PMPI_Unpack_external(const char *datarep, const void *inbuf,
                         MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype dt);
int PMPI_Pack_external_size(const char *datarep, int incount,
                            MPI_Datatype dt, MPI_Aint *size);
int PMPI_Barrier(MPI_Comm comm);
int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root,
               MPI_Comm comm);
int PMPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
int PMPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, const int *rcounts, const int *displs,
                 MPI_Datatype rtype, int root, MPI_Comm comm);
int PMPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm);
int PMPI_Scatterv(const void *sbuf, const int *scounts, const int *displs,
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm);
int PMPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int *rcounts, const int *displs,
                    MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                   MPI_Datatype stype, void *rbuf, const int *rcounts,
                   const int *rdispls, MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                   const MPI_Datatype *stypes, void *rbuf,
                   const int *rcounts, const int *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm comm);
int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm comm);
int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int PMPI_Op_free(MPI_Op *op);
int PMPI_Op_commutative(MPI_Op op, int *commute);
int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                      MPI_Datatype dt, MPI_Op op);
int PMPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int PMPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, MPI_Comm comm);
int PMPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm);
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *req);
int PMPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root,
                MPI_Comm comm, MPI_Request *req);
int PMPI_Igather(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req);
int PMPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, const int *rcounts, const int *displs,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req);
int PMPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, int root,
                  MPI_Comm comm, MPI_Request *req);
int PMPI_Iscatterv(const void *sbuf, const int *scounts, const int *displs,
                   MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, int root, MPI_Comm comm,
                   MPI_Request *req);
int PMPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                    MPI_Request *req);
int PMPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                     void *rbuf, const int *rcounts, const int *displs,
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int PMPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req);
int PMPI_Ialltoallv(const void *sbuf, const int *scounts,
                    const int *sdispls, MPI_Datatype stype, void *rbuf,
                    const int *rcounts, const int *rdispls,
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int PMPI_Ialltoallw(const void *sbuf, const int *scounts,
                    const int *sdispls, const MPI_Datatype *stypes,
                    void *rbuf, const int *rcounts, const int *rdispls,
                    const MPI_Datatype *rtypes, MPI_Comm comm,
                    MPI_Request *req);
int PMPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *req);
int PMPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                    MPI_Op op, MPI_Comm comm, MPI_Request *req);
int PMPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                               MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                               MPI_Request *req);
int PMPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                         MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                         MPI_Request *req);
int PMPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, MPI_Comm comm, MPI_Request *req);
int PMPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                 MPI_Op op, MPI_Comm comm, MPI_Request *req);
int PMPI_Group_size(MPI_Group g, int *size);
int PMPI_Group_rank(MPI_Group g, int *rank);
int PMPI_Group_translate_ranks(MPI_Group g1, int n, const int *ranks1,
                               MPI_Group g2, int *ranks2);
int PMPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result);
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *g);
int PMPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int PMPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int PMPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *out);
int PMPI_Group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out);
int PMPI_Group_excl(MPI_Group g, int n, const int *ranks, MPI_Group *out);
int PMPI_Group_range_incl(MPI_Group g, int n, int ranges[][3],
                          MPI_Group *out);
int PMPI_Group_range_excl(MPI_Group g, int n, int ranges[][3],
                          MPI_Group *out);
int PMPI_Group_free(MPI_Group *g);
int PMPI_Comm_size(MPI_Comm comm, int *size);
int PMPI_Comm_rank(MPI_Comm comm, int *rank);
int PMPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int *result);
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newc);
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newc);
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newc, MPI_Request *req);
int PMPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newc);
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag,
                           MPI_Comm *newc);
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newc);
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                         MPI_Info info, MPI_Comm *newc);
int PMPI_Comm_free(MPI_Comm *comm);
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info);
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag);
int PMPI_Comm_remote_size(MPI_Comm comm, int *size);
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *g);
int PMPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer,
                          int remote_leader, int tag, MPI_Comm *newc);
int PMPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newc);
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                            MPI_Comm_delete_attr_function *del, int *keyval,
                            void *extra);
int PMPI_Comm_free_keyval(int *keyval);
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value);
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag);
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy,
                           MPI_Win_delete_attr_function *del, int *keyval,
                           void *extra);
int PMPI_Win_free_keyval(int *keyval);
int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value);
int PMPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag);
int PMPI_Win_delete_attr(MPI_Win win, int keyval);
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                            MPI_Type_delete_attr_function *del, int *keyval,
                            void *extra);
int PMPI_Type_free_keyval(int *keyval);
int PMPI_Type_set_attr(MPI_Datatype dt, int keyval, void *value);
int PMPI_Type_get_attr(MPI_Datatype dt, int keyval, void *value, int *flag);
int PMPI_Type_delete_attr(MPI_Datatype dt, int keyval);
int PMPI_Comm_set_name(MPI_Comm comm, const char *name);
int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int PMPI_Type_set_name(MPI_Datatype dt, const char *name);
int PMPI_Type_get_name(MPI_Datatype dt, char *name, int *resultlen);
int PMPI_Win_set_name(MPI_Win win, const char *name);
int PMPI_Win_get_name(MPI_Win win, char *name, int *resultlen);
int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
                       int *keyval, void *extra);
int PMPI_Keyval_free(int *keyval);
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value);
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag);
int PMPI_Attr_delete(MPI_Comm comm, int keyval);
int PMPI_Cart_create(MPI_Comm comm, int ndims, const int *dims,
                     const int *periods, int reorder, MPI_Comm *newc);
int PMPI_Dims_create(int nnodes, int ndims, int *dims);
int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int *index,
                      const int *edges, int reorder, MPI_Comm *newc);
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
                                    const int *sources,
                                    const int *sourceweights, int outdegree,
                                    const int *destinations,
                                    const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *newc);
int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int *sources,
                           const int *degrees, const int *destinations,
                           const int *weights, MPI_Info info, int reorder,
                           MPI_Comm *newc);
int PMPI_Topo_test(MPI_Comm comm, int *status);
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int *index,
                   int *edges);
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims);
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int *dims, int *periods,
                  int *coords);
int PMPI_Cart_rank(MPI_Comm comm, const int *coords, int *rank);
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int *coords);
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *n);
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxn,
                         int *neighbors);
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                    int *outdegree, int *weighted);
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int *sources,
                              int *sourceweights, int maxoutdegree,
                              int *destinations, int *destweights);
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source,
                    int *dest);
int PMPI_Cart_sub(MPI_Comm comm, const int *remain_dims, MPI_Comm *newc);
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int *dims,
                  const int *periods, int *newrank);
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int *index,
                   const int *edges, int *newrank);
int PMPI_Neighbor_allgather(const void *sbuf, int scount,
                            MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Neighbor_allgatherv(const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs,
                             MPI_Datatype rtype, MPI_Comm comm);
int PMPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype,
                           MPI_Comm comm);
int PMPI_Neighbor_alltoallv(const void *sbuf, const int *scounts,
                            const int *sdispls, MPI_Datatype stype,
                            void *rbuf, const int *rcounts,
                            const int *rdispls, MPI_Datatype rtype,
                            MPI_Comm comm);
int PMPI_Neighbor_alltoallw(const void *sbuf, const int *scounts,
                            const MPI_Aint *sdispls,
                            const MPI_Datatype *stypes, void *rbuf,
                            const int *rcounts, const MPI_Aint *rdispls,
                            const MPI_Datatype *rtypes, MPI_Comm comm);
int PMPI_Ineighbor_allgather(const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm,
                             MPI_Request *req);
int PMPI_Ineighbor_allgatherv(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf,
                              const int *rcounts, const int *displs,
                              MPI_Datatype rtype, MPI_Comm comm,
                              MPI_Request *req);
int PMPI_Ineighbor_alltoall(const void *sbuf, int scount,
                            MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *req);
int PMPI_Ineighbor_alltoallv(const void *sbuf, const int *scounts,
                             const int *sdispls, MPI_Datatype stype,
                             void *rbuf, const int *rcounts,
                             const int *rdispls, MPI_Datatype rtype,
                             MPI_Comm comm, MPI_Request *req);
int PMPI_Ineighbor_alltoallw(const void *sbuf, const int *scounts,
                             const MPI_Aint *sdispls,
                             const MPI_Datatype *stypes, void *rbuf,
                             const int *rcounts, const MPI_Aint *rdispls,
                             const MPI_Datatype *rtypes, MPI_Comm comm,
                             MPI_Request *req);
int PMPI_Get_version(int *version, int *subversion);
int PMPI_Get_library_version(char *version, int *resultlen);
int PMPI_Get_processor_name(char *name, int *resultlen);
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int PMPI_Free_mem(void *base);
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *eh);
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh);
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh);
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
                               MPI_Errhandler *eh);
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh);
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *eh);
int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                                MPI_Errhandler *eh);
int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler eh);
int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *eh);
int PMPI_Errhandler_free(MPI_Errhandler *eh);
int PMPI_Error_string(int code, char *string, int *resultlen);
int PMPI_Error_class(int code, int *errclass);
int PMPI_Add_error_class(int *errclass);
int PMPI_Add_error_code(int errclass, int *code);
int PMPI_Add_error_string(int code, const char *string);
int PMPI_Comm_call_errhandler(MPI_Comm comm, int code);
int PMPI_Win_call_errhandler(MPI_Win win, int code);
int PMPI_File_call_errhandler(MPI_File fh, int code);
double PMPI_Wtime(void);
double PMPI_Wtick(void);
int PMPI_Init(int *argc, char ***argv);
int PMPI_Finalize(void);
int PMPI_Initialized(int *flag);
int PMPI_Abort(MPI_Comm comm, int code);
int PMPI_Finalized(int *flag);
int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
int PMPI_Info_delete(MPI_Info info, const char *key);
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                  int *flag);
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                           int *flag);
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int PMPI_Info_free(MPI_Info *info);
int PMPI_Comm_spawn(const char *command, char **argv, int maxprocs,
                    MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int *errcodes);
int PMPI_Comm_get_parent(MPI_Comm *parent);
int PMPI_Comm_spawn_multiple(int count, char **commands, char ***argvs,
                             const int *maxprocs, const MPI_Info *infos,
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int *errcodes);
int PMPI_Open_port(MPI_Info info, char *port_name);
int PMPI_Close_port(const char *port_name);
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newc);
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                      MPI_Comm comm, MPI_Comm *newc);
int PMPI_Publish_name(const char *service_name, MPI_Info info,
                      const char *port_name);
int PMPI_Unpublish_name(const char *service_name, MPI_Info info,
                        const char *port_name);
int PMPI_Lookup_name(const char *service_name, MPI_Info info,
                     char *port_name);
int PMPI_Comm_disconnect(MPI_Comm *comm);
int PMPI_Comm_join(int fd, MPI_Comm *intercomm);
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, MPI_Win *win);
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win);
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win);
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                          int *disp_unit, void *baseptr);
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int PMPI_Win_detach(MPI_Win win, const void *base);
int PMPI_Win_free(MPI_Win *win);
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group);
int PMPI_Win_set_info(MPI_Win win, MPI_Info info);
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info);
int PMPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int target,
             MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win);
int PMPI_Get(void *obuf, int ocount, MPI_Datatype otype, int target,
             MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win);
int PMPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                    int target, MPI_Aint tdisp, int tcount,
                    MPI_Datatype ttype, MPI_Op op, MPI_Win win);
int PMPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                        void *rbuf, int rcount, MPI_Datatype rtype,
                        int target, MPI_Aint tdisp, int tcount,
                        MPI_Datatype ttype, MPI_Op op, MPI_Win win);
int PMPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype dt,
                      int target, MPI_Aint tdisp, MPI_Op op, MPI_Win win);
int PMPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf,
                          MPI_Datatype dt, int target, MPI_Aint tdisp,
                          MPI_Win win);
int PMPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int target,
              MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win,
              MPI_Request *req);
int PMPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int target,
              MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win,
              MPI_Request *req);
int PMPI_Raccumulate(const void *obuf, int ocount, MPI_Datatype otype,
                     int target, MPI_Aint tdisp, int tcount,
                     MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                     MPI_Request *req);
int PMPI_Rget_accumulate(const void *obuf, int ocount, MPI_Datatype otype,
                         void *rbuf, int rcount, MPI_Datatype rtype,
                         int target, MPI_Aint tdisp, int tcount,
                         MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                         MPI_Request *req);
int PMPI_Win_fence(int assert, MPI_Win win);
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int PMPI_Win_complete(MPI_Win win);
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int PMPI_Win_wait(MPI_Win win);
int PMPI_Win_test(MPI_Win win, int *flag);
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int PMPI_Win_lock_all(int assert, MPI_Win win);
int PMPI_Win_unlock(int rank, MPI_Win win);
int PMPI_Win_unlock_all(MPI_Win win);
int PMPI_Win_flush(int rank, MPI_Win win);
int PMPI_Win_flush_all(MPI_Win win);
int PMPI_Win_flush_local(int rank, MPI_Win win);
int PMPI_Win_flush_local_all(MPI_Win win);
int PMPI_Win_sync(MPI_Win win);
int PMPI_Grequest_start(MPI_Grequest_query_function *query,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel, void *extra,
                        MPI_Request *req);
int PMPI_Grequest_complete(MPI_Request req);
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype dt, int count);
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype dt,
                               MPI_Count count);
int PMPI_Status_set_cancelled(MPI_Status *status, int flag);
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int PMPI_Query_thread(int *provided);
int PMPI_Is_thread_main(int *flag);
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode,
                   MPI_Info info, MPI_File *fh);
int PMPI_File_close(MPI_File *fh);
int PMPI_File_delete(const char *filename, MPI_Info info);
int PMPI_File_set_size(MPI_File fh, MPI_Offset size);
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size);
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size);
int PMPI_File_get_group(MPI_File fh, MPI_Group *group);
int PMPI_File_get_amode(MPI_File fh, int *amode);
int PMPI_File_set_info(MPI_File fh, MPI_Info info);
int PMPI_File_get_info(MPI_File fh, MPI_Info *info);
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                       MPI_Datatype filetype, const char *datarep,
                       MPI_Info info);
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep);
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype dt, MPI_Status *status);
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                          int count, MPI_Datatype dt, MPI_Status *status);
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                       int count, MPI_Datatype dt, MPI_Status *status);
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                           int count, MPI_Datatype dt, MPI_Status *status);
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                       MPI_Datatype dt, MPI_Request *req);
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
                        int count, MPI_Datatype dt, MPI_Request *req);
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                           int count, MPI_Datatype dt, MPI_Request *req);
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                            int count, MPI_Datatype dt, MPI_Request *req);
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                   MPI_Status *status);
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                       MPI_Status *status);
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype dt,
                    MPI_Status *status);
int PMPI_File_write_all(MPI_File fh, const void *buf, int count,
                        MPI_Datatype dt, MPI_Status *status);
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                    MPI_Request *req);
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count,
                     MPI_Datatype dt, MPI_Request *req);
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                        MPI_Request *req);
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                         MPI_Datatype dt, MPI_Request *req);
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                              MPI_Offset *disp);
int PMPI_File_read_shared(MPI_File fh, void *buf, int count,
                          MPI_Datatype dt, MPI_Status *status);
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype dt, MPI_Status *status);
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count,
                           MPI_Datatype dt, MPI_Request *req);
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                            MPI_Datatype dt, MPI_Request *req);
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count,
                           MPI_Datatype dt, MPI_Status *status);
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                            MPI_Datatype dt, MPI_Status *status);
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
                                int count, MPI_Datatype dt);
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
                                 const void *buf, int count,
                                 MPI_Datatype dt);
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf,
                               MPI_Status *status);
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count,
                             MPI_Datatype dt);
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                              MPI_Datatype dt);
int PMPI_File_write_all_end(MPI_File fh, const void *buf,
                            MPI_Status *status);
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                 MPI_Datatype dt);
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                  MPI_Datatype dt);
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf,
                                MPI_Status *status);
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype dt,
                              MPI_Aint *extent);
int PMPI_Register_datarep(const char *datarep,
                          MPI_Datarep_conversion_function *read_fn,
                          MPI_Datarep_conversion_function *write_fn,
                          MPI_Datarep_extent_function *extent_fn,
                          void *extra);
int PMPI_File_set_atomicity(MPI_File fh, int flag);
int PMPI_File_get_atomicity(MPI_File fh, int *flag);
int PMPI_File_sync(MPI_File fh);
int PMPI_Pcontrol(const int level, ...);
int PMPI_T_init_thread(int required, int *provided);
int PMPI_T_finalize(void);
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                         int *name_len);
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                         char *name, int *name_len);
int PMPI_T_cvar_get_num(int *num_cvar);
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                         int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope);
int PMPI_T_cvar_get_index(const char *name, int *cvar_index);
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                             MPI_T_cvar_handle *handle, int *count);
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int PMPI_T_pvar_get_num(int *num_pvar);
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                         int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic);
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session);
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session);
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                             void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count);
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                            MPI_T_pvar_handle *handle);
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf);
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                      const void *buf);
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf);
int PMPI_T_category_get_num(int *num_cat);
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len,
                             char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories);
int PMPI_T_category_get_index(const char *name, int *cat_index);
int PMPI_T_category_get_cvars(int cat_index, int len, int *indices);
int PMPI_T_category_get_pvars(int cat_index, int len, int *indices);
int PMPI_T_category_get_categories(int cat_index, int len, int *indices);
int PMPI_T_category_changed(int *stamp);
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newt);
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newt);
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newt);
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *dt);
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm);
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm);
MPI_Group PMPI_Group_f2c(MPI_Fint group);
MPI_Fint PMPI_Group_c2f(MPI_Group group);
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype);
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype);
MPI_Op PMPI_Op_f2c(MPI_Fint op);
MPI_Fint PMPI_Op_c2f(MPI_Op op);
MPI_Request PMPI_Request_f2c(MPI_Fint request);
MPI_Fint PMPI_Request_c2f(MPI_Request request);
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler);
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler);
MPI_Info PMPI_Info_f2c(MPI_Fint info);
MPI_Fint PMPI_Info_c2f(MPI_Info info);
MPI_Win PMPI_Win_f2c(MPI_Fint win);
MPI_Fint PMPI_Win_c2f(MPI_Win win);
MPI_File PMPI_File_f2c(MPI_Fint file);
MPI_Fint PMPI_File_c2f(MPI_File file);
MPI_Message PMPI_Message_f2c(MPI_Fint message);
MPI_Fint PMPI_Message_c2f(MPI_Message message);
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
int PMPI_Address(void *location, MPI_Aint *address);
int PMPI_Type_extent(MPI_Datatype dt, MPI_Aint *extent);
int PMPI_Type_lb(MPI_Datatype dt, MPI_Aint *lb);
int PMPI_Type_ub(MPI_Datatype dt, MPI_Aint *ub);
int PMPI_Type_hvector(int count, int blocklen, MPI_Aint stride,
                      MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Type_hindexed(int count, int *blocklens, MPI_Aint *displs,
                       MPI_Datatype old, MPI_Datatype *newt);
int PMPI_Type_struct(int count, int *blocklens, MPI_Aint *displs,
                     MPI_Datatype *types, MPI_Datatype *newt);
int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh);
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh);
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh);
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm);
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Status *status);
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                 int tag, MPI_Comm comm, MPI_Request *req);
int PMPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root,
                 MPI_Comm comm);
int PMPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                  MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm);
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype dt,
                     MPI_Count *count);
int PMPI_Type_size_c(MPI_Datatype dt, MPI_Count *size);
int PMPI_Type_get_extent_c(MPI_Datatype dt, MPI_Count *lb,
                           MPI_Count *extent);
/* ==== end of PMPI_ names ==== */

/* ---- not standard: statistics for tests (MPI_T has them too) ---- */
int MPIX_Flowctl_count(void);    /* PT-disable recoveries so far */
int MPIX_Tcoll_count(void);      /* triggered Ibcast/Iallreduce started */
int MPIX_Fetch_count(void);      /* long messages fetched by PtlGet */
int MPIX_Long_dropped_count(void); /* long data that found no receive */
int MPIX_Unexpected_count(void); /* eager messages copied out of overflow */
int MPIX_Single_copy_count(void); /* long messages copied from a rank of
                                     this node's memory (SMARTMAP) */

#ifdef __cplusplus
}
#endif

#endif /* MPI_H */
