#!/usr/bin/env python3
# genpmpi.py: mpi.h's PMPI_ prototypes from its MPI_ ones (the profiling
# interface: every MPI_X is also PMPI_X, with the same type).  Rewrites
# the part of mpi/include/mpi.h between the "PMPI_ names" markers:
#   mpi/genpmpi.py mpi/include/mpi.h
# Run it after adding a call; tests/mpi/check-api fails while they differ.
import re
import sys

BEGIN = '/* ==== 3 point-to-point communication ==== */'
END = '/* ==== end of MPI_ names ==== */'
PBEGIN = '/* ==== the profiling interface: every MPI_X is also PMPI_X ==== */'
PEND = '/* ==== end of PMPI_ names ==== */'


def prototypes(text):
    """The declarations between BEGIN and END, each as its lines."""
    body = text[text.index(BEGIN):text.index(END)]
    decls, cur = [], []
    for line in body.split('\n'):
        if not cur and (not line or line.startswith(('/*', ' *', '#'))):
            continue
        cur.append(line)
        if line.rstrip().endswith(';'):
            decls.append(cur)
            cur = []
    return decls


def profiled(decl):
    first = re.sub(r'\bMPI_(\w+)\(', r'PMPI_\1(', decl[0], count=1)
    return [first] + [' ' + line for line in decl[1:]]


def main():
    path = sys.argv[1]
    text = open(path).read()
    out = [PBEGIN]
    for d in prototypes(text):
        out += profiled(d)
    out.append(PEND)
    start, end = text.index(PBEGIN), text.index(PEND) + len(PEND)
    new = text[:start] + '\n'.join(out) + text[end:]
    if new != text:
        open(path, 'w').write(new)


if __name__ == '__main__':
    main()
