#!/usr/bin/env python3
"""bigdata.py OUT.bin OUT.h [BYTES]: the pseudo-random data of
tests/yod/bigdata.c (always the same bytes: seed 1) and a header with its
size, CRC-32 and path."""
import os
import random
import sys
import zlib

out_bin, out_h = sys.argv[1], sys.argv[2]
size = int(sys.argv[3]) if len(sys.argv) > 3 else 8 << 20
data = random.Random(1).randbytes(size)
with open(out_bin, 'wb') as f:
    f.write(data)
with open(out_h, 'w') as f:
    f.write('#define BIGDATA_BYTES %d\n#define BIGDATA_CRC 0x%08xu\n'
            '#define BIGDATA_BIN "%s"\n'
            % (size, zlib.crc32(data), os.path.abspath(out_bin)))
