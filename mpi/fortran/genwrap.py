#!/usr/bin/env python3
# genwrap.py: the Fortran bindings' C wrappers and the mpi module's
# interfaces, from mpi.def (one line per routine).
#   genwrap.py mpi.def OUT.c OUT-ifaces.f90
# Each Fortran routine MPI_X is the C function mpi_x_ (gfortran's name)
# calling the C library's MPI_X; pmpi_x_ is the same body and mpi_x_ is a
# weak alias of it (the profiling interface, as in C).  KINDs:
#   b       choice buffer (any type); MPI_BOTTOM, MPI_IN_PLACE recognised
#   i       INTEGER in                io      INTEGER out or in-out
#   ia      INTEGER array             ia3     INTEGER ranges(3,*)
#   L       LOGICAL in                Lo      LOGICAL out
#   La      LOGICAL array (1/0, as gfortran's .TRUE./.FALSE.)
#   H       a handle in, H one of comm group dt op errh req info
#   H>      a new handle out          H^      a handle the call may free
#   dta[n]  n datatypes in            req^[n] n requests the call may free
#   st      status out (MPI_STATUS_IGNORE recognised)    sti  status in
#   sta[n]  n statuses out (MPI_STATUSES_IGNORE recognised)
#   ix      an index out (C's 0-based becomes 1-based; MPI_UNDEFINED kept)
#   ixa[n]  *n indices out, likewise
#   so[len] CHARACTER out, blank-padded after the len argument's count
#   si      CHARACTER in (trailing blanks dropped)
#   ai      MPI_Aint from INTEGER     aia[n] n of them     aio  to INTEGER
#   A, Ao, Aa  INTEGER(KIND=MPI_ADDRESS_KIND) in, out, array
#   Ap      an address C returns through a void * (MPI_Win_allocate's
#           baseptr), to INTEGER(KIND=MPI_ADDRESS_KIND)
#   O, Oo   INTEGER(KIND=MPI_OFFSET_KIND) in, out
#   C, Co   INTEGER(KIND=MPI_COUNT_KIND) in, out
#   sz      CHARACTER out from a C string (its length is strlen's)
#   stio    status in and out                wa  weights: MPI_UNWEIGHTED,
#   dtao[n] n datatypes out                      MPI_WEIGHTS_EMPTY known
#   sa, saa CHARACTER arrays, 1-D and (count,*) (hand-written wrappers)
# [n] names the argument that holds the count, or is `commsize' (the
# communicator's size: the remote group's for an intercommunicator) or
# `nbrs' (the most neighbours its topology gives a rank)
#   fn      a procedure (callbacks: hand-written wrappers only)
import sys

HANDLES = {
    'comm': ('MPI_Comm', 'Comm', 'MPIF_COMM'),
    'group': ('MPI_Group', 'Group', 'MPIF_GROUP'),
    'dt': ('MPI_Datatype', 'Type', 'MPIF_TYPE'),
    'op': ('MPI_Op', 'Op', 'MPIF_OP'),
    'errh': ('MPI_Errhandler', 'Errhandler', 'MPIF_ERRH'),
    'req': ('MPI_Request', 'Request', 'MPIF_REQ'),
    'info': ('MPI_Info', 'Info', 'MPIF_INFO'),
    'win': ('MPI_Win', 'Win', 'MPIF_WIN'),
    'file': ('MPI_File', 'File', 'MPIF_FILE'),
    'msg': ('MPI_Message', 'Message', 'MPIF_MSG'),
}


def parse(path):
    routines = []
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        name, hand = line[0], line[0].startswith('*')
        args = []
        for a in line[1:]:
            kind, aname = a.split(':')
            n = None
            if '[' in kind:
                kind, n = kind[:-1].split('[')
            args.append((kind, aname, n))
        routines.append((name.lstrip('*'), hand, args))
    return routines


def count_of(n):
    """The C expression for an array argument's length."""
    if n == 'commsize':
        return 'mpif_comm_size(*comm)'
    if n == 'nbrs':
        return 'mpif_nbrs(*comm)'
    return '*' + n


def c_wrapper(name, args):
    params, hidden, pre, cargs, post = [], [], [], [], []
    for kind, a, n in args:
        base = 'dt' if kind == 'dta' else kind.rstrip('>^')
        if kind == 'b':
            params.append('void *%s' % a)
            cargs.append('mpif_buf(%s)' % a)
            continue
        if kind in ('so', 'si', 'sz'):
            params.append('char *%s' % a)
            hidden.append('size_t %s_len' % a)
        elif kind in ('A', 'Ao', 'Aa', 'Ap'):
            params.append('MPI_Aint *%s' % a)
        elif kind in ('O', 'Oo'):
            params.append('MPI_Offset *%s' % a)
        elif kind in ('C', 'Co'):
            params.append('MPI_Count *%s' % a)
        else:
            params.append('MPI_Fint *%s' % a)
        if kind in ('i', 'O', 'C'):
            cargs.append('*%s' % a)
        elif kind in ('Oo', 'Co'):
            cargs.append(a)
        elif kind == 'Ap':
            pre.append('void *c_%s = NULL;' % a)
            cargs.append('&c_%s' % a)
            post.append('*%s = (MPI_Aint)(intptr_t)c_%s;' % (a, a))
        elif kind == 'wa':
            cargs.append('mpif_weights(%s)' % a)
        elif kind == 'stio':
            pre.append('MPI_Status s_%s;' % a)
            pre.append('MPI_Status_f2c(%s, &s_%s);' % (a, a))
            cargs.append('&s_%s' % a)
            post.append('MPI_Status_c2f(&s_%s, %s);' % (a, a))
        elif kind == 'sz':
            pre.append('char c_%s[MPI_MAX_INFO_VAL + 1] = "";' % a)
            cargs.append('c_%s' % a)
            post.append('mpif_str_out(%s, %s_len, c_%s, rc == MPI_SUCCESS ? '
                        '(int)strlen(c_%s) : 0);' % (a, a, a, a))
        elif kind == 'dtao':
            pre.append('MPI_Datatype *c_%s = malloc((size_t)(*%s > 0 ? *%s '
                       ': 1) * sizeof *c_%s);' % (a, n, n, a))
            pre.append('if (c_%s == NULL) rc = MPI_ERR_NO_MEM;' % a)
            cargs.append('c_%s' % a)
            post.append('if (rc == MPI_SUCCESS) for (int k = 0; k < *%s; k++)'
                        ' %s[k] = MPI_Type_c2f(c_%s[k]);' % (n, a, a))
            post.append('free(c_%s);' % a)
        elif kind in ('io', 'ia', 'La', 'ix', 'Ao', 'Aa'):
            cargs.append(a)
            if kind == 'ix':
                post.append('if (rc == MPI_SUCCESS && *%s >= 0) *%s += 1;'
                            % (a, a))
        elif kind == 'ia3':
            cargs.append('(int (*)[3])%s' % a)
        elif kind == 'L':
            cargs.append('*%s != 0' % a)
        elif kind == 'Lo':
            cargs.append(a)
            post.append('*%s = *%s ? MPIF_TRUE : MPIF_FALSE;' % (a, a))
        elif kind == 'A':
            cargs.append('*%s' % a)
        elif kind == 'ai':
            cargs.append('(MPI_Aint)*%s' % a)
        elif kind == 'aio':
            pre.append('MPI_Aint c_%s = 0;' % a)
            cargs.append('&c_%s' % a)
            post.append('*%s = (MPI_Fint)c_%s;' % (a, a))
        elif kind == 'aia':
            pre.append('MPI_Aint *c_%s = malloc((size_t)(*%s > 0 ? *%s : 1) '
                       '* sizeof *c_%s);' % (a, n, n, a))
            pre.append('if (c_%s == NULL) rc = MPI_ERR_NO_MEM;' % a)
            pre.append('else for (int k = 0; k < *%s; k++) c_%s[k] = %s[k];'
                       % (n, a, a))
            cargs.append('c_%s' % a)
            post.append('free(c_%s);' % a)
        elif kind == 'ixa':
            cargs.append(a)
            post.append('if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) '
                        '&& *%s != MPI_UNDEFINED) for (int k = 0; k < *%s; '
                        'k++) %s[k] += 1;' % (n, n, a))
        elif kind == 'st':
            pre.append('MPI_Status s_%s;' % a)
            pre.append('int ign_%s = %s == mpi_fortran_status_ignore_;'
                       % (a, a))
            pre.append('if (!ign_%s) MPI_Status_f2c(%s, &s_%s);' % (a, a, a))
            cargs.append('ign_%s ? MPI_STATUS_IGNORE : &s_%s' % (a, a))
            post.append('if (!ign_%s) MPI_Status_c2f(&s_%s, %s);' % (a, a, a))
        elif kind == 'sti':
            pre.append('MPI_Status s_%s;' % a)
            pre.append('MPI_Status_f2c(%s, &s_%s);' % (a, a))
            cargs.append('&s_%s' % a)
        elif kind == 'sta':
            pre.append('int ign_%s = %s == mpi_fortran_statuses_ignore_;'
                       % (a, a))
            pre.append('MPI_Status *s_%s = ign_%s ? MPI_STATUSES_IGNORE : '
                       'malloc((size_t)(*%s > 0 ? *%s : 1) * sizeof *s_%s);'
                       % (a, a, n, n, a))
            pre.append('if (!ign_%s && s_%s == NULL) rc = MPI_ERR_NO_MEM;'
                       % (a, a))
            pre.append('else if (!ign_%s) for (int k = 0; k < *%s; k++) '
                       'MPI_Status_f2c(%s + k * MPIF_STATUS_SIZE, &s_%s[k]);'
                       % (a, n, a, a))
            cargs.append('s_%s' % a)
            post.append('if (!ign_%s && s_%s != NULL) { for (int k = 0; '
                        'k < *%s; k++) MPI_Status_c2f(&s_%s[k], %s + k * '
                        'MPIF_STATUS_SIZE); free(s_%s); }'
                        % (a, a, n, a, a, a))
        elif kind == 'so':
            pre.append('char c_%s[MPI_MAX_INFO_VAL + 1] = "";' % a)
            cargs.append('c_%s' % a)
            post.append('mpif_str_out(%s, %s_len, c_%s, rc == MPI_SUCCESS ? '
                        '*%s : 0);' % (a, a, a, n))
        elif kind == 'si':
            pre.append('char *c_%s = mpif_str_in(%s, %s_len);' % (a, a, a))
            pre.append('if (c_%s == NULL) rc = MPI_ERR_NO_MEM;' % a)
            cargs.append('c_%s' % a)
            post.append('free(c_%s);' % a)
        elif base in HANDLES and n is None:
            ctype, conv, k = HANDLES[base]
            if kind == base:
                cargs.append('MPI_%s_f2c(*%s)' % (conv, a))
            elif kind.endswith('>'):
                pre.append('%s c_%s = (%s)0;' % (ctype, a, ctype))
                cargs.append('&c_%s' % a)
                post.append('*%s = MPI_%s_c2f(c_%s);    /* null if it failed */'
                            % (a, conv, a))
            else:
                pre.append('%s c_%s = MPI_%s_f2c(*%s);' % (ctype, a, conv, a))
                cargs.append('&c_%s' % a)
                post.append('*%s = mpif_update(%s, *%s, (void *)c_%s);'
                            % (a, k, a, a))
        elif base in HANDLES:
            ctype, conv, k = HANDLES[base]
            pre.append('int n_%s = %s;' % (a, count_of(n)))
            pre.append('%s *c_%s = malloc((size_t)(n_%s > 0 ? n_%s : 1) * '
                       'sizeof *c_%s);' % (ctype, a, a, a, a))
            pre.append('if (c_%s == NULL) rc = MPI_ERR_NO_MEM;' % a)
            pre.append('else for (int k = 0; k < n_%s; k++) c_%s[k] = '
                       'MPI_%s_f2c(%s[k]);' % (a, a, conv, a))
            cargs.append('c_%s' % a)
            if kind.endswith('^'):
                post.append('if (c_%s != NULL) for (int k = 0; k < n_%s; k++)'
                            ' %s[k] = mpif_update(%s, %s[k], (void *)c_%s[k]);'
                            % (a, a, a, k, a, a))
            post.append('free(c_%s);' % a)
        else:
            sys.exit('genwrap: %s: unknown kind %s' % (name, kind))
    params.append('MPI_Fint *ierror')
    low = name.lower()
    out = ['void pmpi_%s_(%s)' % (low, ', '.join(params + hidden)), '{',
           '    int rc = MPI_SUCCESS;']
    out += ['    ' + s for s in pre]
    out.append('    if (rc == MPI_SUCCESS)')
    out.append('        rc = MPI_%s(%s);' % (name, ', '.join(cargs)))
    out += ['    ' + s for s in post]
    out += ['    *ierror = rc;', '}',
            'void mpi_%s_(%s) __attribute__((weak, alias("pmpi_%s_")));'
            % (low, ', '.join(params + hidden), low), '']
    return out


FTYPE = {
    'i': 'integer', 'io': 'integer', 'ia': 'integer, dimension(*)',
    'ia3': 'integer, dimension(3,*)', 'L': 'logical', 'Lo': 'logical',
    'La': 'logical, dimension(*)', 'st': 'integer, dimension(MPI_STATUS_SIZE)',
    'sti': 'integer, dimension(MPI_STATUS_SIZE)',
    'sta': 'integer, dimension(MPI_STATUS_SIZE,*)', 'ix': 'integer',
    'ixa': 'integer, dimension(*)', 'so': 'character(len=*)',
    'si': 'character(len=*)', 'ai': 'integer', 'aia': 'integer, dimension(*)',
    'aio': 'integer', 'A': 'integer(kind=MPI_ADDRESS_KIND)',
    'Ao': 'integer(kind=MPI_ADDRESS_KIND)',
    'Aa': 'integer(kind=MPI_ADDRESS_KIND), dimension(*)', 'fn': 'external',
    'Ap': 'integer(kind=MPI_ADDRESS_KIND)',
    'O': 'integer(kind=MPI_OFFSET_KIND)', 'Oo': 'integer(kind=MPI_OFFSET_KIND)',
    'C': 'integer(kind=MPI_COUNT_KIND)', 'Co': 'integer(kind=MPI_COUNT_KIND)',
    'sz': 'character(len=*)', 'stio': 'integer, dimension(MPI_STATUS_SIZE)',
    'wa': 'integer, dimension(*)', 'dtao': 'integer, dimension(*)',
    'sa': 'character(len=*), dimension(*)',
    'saa': 'character(len=*), dimension(count,*)',
}


def f_interface(prefix, name, args):
    names = [a for _, a, _ in args] + ['ierror']
    # the argument list, continued with & so no line passes 132 columns
    head, lines = 'subroutine %s_%s(' % (prefix, name.upper()), []
    for a in names:
        if len(head) + len(a) > 70:
            lines.append(head + ' &')
            head = '    '
        head += a + (', ' if a != 'ierror' else ')')
    out = lines + [head, '  import :: MPI_STATUS_SIZE, MPI_ADDRESS_KIND, '
                   'MPI_OFFSET_KIND, MPI_COUNT_KIND', '  implicit none']
    for kind, a, n in args:
        base = 'dt' if kind == 'dta' else kind.rstrip('>^')
        if kind == 'dtao':
            out.append('  integer, dimension(*) :: %s' % a)
        elif kind == 'b':
            out.append('  !GCC$ ATTRIBUTES NO_ARG_CHECK :: %s' % a)
            out.append('  type(*), dimension(*) :: %s' % a)
        elif kind == 'fn':
            out.append('  external :: %s' % a)
        elif base in HANDLES:
            out.append('  integer%s :: %s' % (', dimension(*)' if n else '', a))
        else:
            out.append('  %s :: %s' % (FTYPE[kind], a))
    out += ['  integer :: ierror', 'end subroutine %s_%s' % (prefix,
                                                             name.upper())]
    return out


def main():
    routines = parse(sys.argv[1])
    c = ['/* Made by mpi/fortran/genwrap.py from mpi.def: do not edit. */',
         '#include <stdint.h>', '#include <stdlib.h>', '#include <string.h>',
         '#include "fmpi.h"', '']
    f = ['! Made by mpi/fortran/genwrap.py from mpi.def: do not edit.',
         'interface']
    for name, hand, args in routines:
        if not hand:
            c += c_wrapper(name, args)
        for prefix in ('MPI', 'PMPI'):
            f += f_interface(prefix, name, args)
    f.append('end interface')
    open(sys.argv[2], 'w').write('\n'.join(c) + '\n')
    open(sys.argv[3], 'w').write('\n'.join(f) + '\n')


main()
