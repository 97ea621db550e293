#!/usr/bin/env python3
"""Compares the kernels of two builds on the compiler's side: what ptxas reports for every
function (registers, barriers, shared and constant memory, stack frame, spill stores and loads)
and the bytes of every function's code, shared-memory and constant-bank sections in the cubins.
For a change that must not change speed (a restructuring, a rename): identical output means
identical machine code.

Each build: configure with the flags below, build with -j1 (so that ptxas's lines of one
translation unit stay together) and keep the log:
    cmake -S . -B build-res "-DCMAKE_CUDA_FLAGS=-Xptxas -v --keep --keep-dir=$PWD/keep"
    cmake --build build-res -j1 --target msplit test_multisplit msplit_bench ds_gpu > build.log 2>&1
then
    kernel_resources.py OLD/build.log OLD/keep NEW/build.log NEW/keep [--rename old_unit=new_unit]
Exit 0: identical; 1: differences (listed); 2: usage. Anonymous-namespace hashes in mangled
names (they follow the file's path) are masked. ptxas of CUDA 13 no longer prints shared or
constant memory with -v: a function's static shared memory is the size of its .nv.shared section
and its parameter bank is its .nv.constant0 section, both compared here."""
import glob, hashlib, os, re, struct, sys

ANON = re.compile(r'_GLOBAL__N__[0-9a-f]+_')


def norm(name):
    return ANON.sub('_GLOBAL__N__X_', name)


def ptxas_records(log, rename):
    """{(unit, function): {...}} from a make log with ptxas -v output."""
    res, unit, fn = {}, None, None
    for line in open(log, errors='replace'):
        m = re.search(r'Building CUDA object .*/([^/]+)\.cu\.o$', line.strip())
        if m:
            unit = rename.get(m.group(1), m.group(1))
            continue
        m = re.search(r'Function properties for (\S+)', line)
        if m:
            fn = norm(m.group(1))
            res.setdefault((unit, fn), {})
            continue
        m = re.search(r'(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads', line)
        if m and fn:
            res[(unit, fn)]['stack, spill stores, spill loads'] = tuple(int(x) for x in m.groups())
            continue
        m = re.search(r'Used (\d+) registers, used (\d+) barriers(.*)', line)
        if m and fn:
            res[(unit, fn)]['registers'] = int(m.group(1))
            res[(unit, fn)]['barriers, memory'] = (int(m.group(2)), m.group(3).strip(' ,'))
    return res


def cubin_sections(path):
    """{section: (size, sha1)} for the per-function sections of an ELF64 cubin."""
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF' or d[4] != 2:
        raise ValueError(path + ' is not an ELF64 cubin')
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    heads = [struct.unpack_from('<IIQQQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx][4]
    out = {}
    for name, kind, _, _, off, size in heads:
        n = norm(d[names + name:d.index(b'\0', names + name)].decode())
        if n.startswith(('.text.', '.nv.shared.', '.nv.constant0.', '.nv.local.')):
            body = b'' if kind == 8 else d[off:off + size]  # SHT_NOBITS: the size is all there is
            out[n] = (size, hashlib.sha1(body).hexdigest())
    return out


def cubins(keep, rename):
    out = {}
    for f in glob.glob(os.path.join(keep, '*.cubin')):
        unit = os.path.basename(f).split('.')[0]
        if unit.startswith('CMake'):
            continue
        out[rename.get(unit, unit)] = cubin_sections(f)
    return out


def main(argv):
    args = [a for a in argv if not a.startswith('--rename')]
    rename = dict(a.split('=', 1)[1].split('=', 1) for a in argv if a.startswith('--rename='))
    if len(args) != 4:
        print(__doc__)
        return 2
    old_log, old_keep, new_log, new_keep = args
    old, new = ptxas_records(old_log, rename), ptxas_records(new_log, {})
    diffs = 0
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            diffs += 1
            print('ptxas differs: %s %s\n  old %s\n  new %s' % (k[0], k[1], old.get(k), new.get(k)))
    oc, nc = cubins(old_keep, rename), cubins(new_keep, {})
    sections = 0
    for unit in sorted(set(oc) | set(nc)):
        o, n = oc.get(unit, {}), nc.get(unit, {})
        for s in sorted(set(o) | set(n)):
            sections += 1
            if o.get(s) != n.get(s):
                diffs += 1
                print('section differs: %s %s: old %s, new %s' % (unit, s, o.get(s), n.get(s)))
    print('%d ptxas records (old %d), %d sections of %d units compared: %d differences'
          % (len(new), len(old), sections, len(set(oc) | set(nc)), diffs))
    for unit in sorted({u for u, _ in new}):
        fs = [v for (u, _), v in new.items() if u == unit and 'registers' in v]
        if fs:
            print('  %-22s %3d functions, %3d..%3d registers, spill stores <= %d B, stack <= %d B'
                  % (unit, len(fs), min(v['registers'] for v in fs), max(v['registers'] for v in fs),
                     max(v['stack, spill stores, spill loads'][1] for v in fs),
                     max(v['stack, spill stores, spill loads'][0] for v in fs)))
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
