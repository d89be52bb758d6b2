#!/usr/bin/env python3
"""Count the SASS instructions of one path through a loop, by class.
usage: count.py file.sass START END [SKIP_FROM:SKIP_TO ...]
START..END (hex, inclusive) is the loop body (END its back-edge branch);
each SKIP_FROM:SKIP_TO (hex, SKIP_TO exclusive) is a cold block left out.
Classes: imad (IMAD*: the FMA-heavy pipe), fp32 (FFMA/FMUL/FADD/FMNMX/FSEL),
alu (integer/logic), conv (I2F*/F2I*), mufu, mem (LD/ST), ctrl, other."""
import re, sys
lines = [l.split(None, 1) for l in open(sys.argv[1]) if l.strip()]
start, end = int(sys.argv[2], 16), int(sys.argv[3], 16)
skips = [tuple(int(x, 16) for x in s.split(':')) for s in sys.argv[4:]]
cls = {}
n = 0
for addr, ins in lines:
    a = int(addr, 16)
    if a < start or a > end or any(f <= a < t for f, t in skips): continue
    op = re.sub(r'^@!?U?P\w+\s+', '', ins).split()[0]
    base = op.split('.')[0]
    if base in ('BSSY', 'BSYNC', 'NOP'): continue
    if base.startswith('IMAD') and op not in ('IMAD.MOV.U32', 'IMAD.IADD', 'IMAD.SHL.U32', 'IMAD.X', 'IMAD.U32'): c = 'imad'
    elif base in ('FFMA', 'FMUL', 'FADD', 'FMNMX', 'FSEL', 'HFMA2', 'FSETP'): c = 'fp32'
    elif base in ('I2F', 'I2FP', 'F2I', 'F2F', 'F2FP'): c = 'conv'
    elif base == 'MUFU': c = 'mufu'
    elif base in ('STG', 'LDG', 'LDS', 'STS', 'LDC', 'SHFL'): c = 'mem'
    elif base in ('BRA', 'EXIT', 'CALL', 'RET'): c = 'ctrl'
    elif base.startswith('U') or base in ('S2R', 'S2UR', 'ULDC'): c = 'uniform'
    else: c = 'alu'
    cls[c] = cls.get(c, 0) + 1
    n += 1
print(n, ' '.join(f'{k}={v}' for k, v in sorted(cls.items())))
