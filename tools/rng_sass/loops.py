#!/usr/bin/env python3
"""Lists the backward branches (loops) of a SASS listing made by sass.sh
and counts each loop body with count.py's classes: loops.py file.sass"""
import re, subprocess, sys, os
f = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
for line in open(f):
    m = re.match(r'([0-9a-f]+) .*BRA (0x[0-9a-f]+)', line)
    if m and int(m.group(2), 16) < int(m.group(1), 16):
        out = subprocess.run([sys.executable, os.path.join(here, 'count.py'), f, m.group(2)[2:], m.group(1)],
                             capture_output=True, text=True).stdout.strip()
        print('loop %s..%s: %s' % (m.group(2), m.group(1), out))
