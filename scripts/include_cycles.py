#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/include_cycles.py [DIR ...]   (default: the hypervisor's sources)
# The circles of the include graph, by module: a module is a .c and its .h (hv/sched.c
# and hv/sched.h are hv/sched), and module A depends on B when a file of A includes B's
# header ("..." includes, resolved as the build does: against the file's folder, the
# top and arch/*/include). Prints each strongly connected component of more than one
# module, largest first, and the number of them; exits 1 when there is one. A layer that
# names a higher one (hv/ calling net/ by name) shows up as such a circle.
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ["hv", "boot", "net", "drivers", "lib", "arch/x86", "arch/arm64"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(dirs):
    for d in dirs:
        for root, _, files in os.walk(os.path.join(TOP, d)):
            for f in files:
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(root, f), TOP)


def resolve(src, name):
    arch = "arch/arm64" if src.startswith("arch/arm64") else "arch/x86"
    for base in (os.path.dirname(src), "", arch + "/include"):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(TOP, p)):
            return p
    return None


def module(path):
    return os.path.splitext(path)[0]


def graph(dirs):
    edges = {}
    for src in sources(dirs):
        with open(os.path.join(TOP, src), errors="replace") as f:
            text = f.read()
        a = module(src)
        edges.setdefault(a, set())
        for name in INCLUDE.findall(text):
            p = resolve(src, name)
            if p and p.endswith(".h") and module(p) != a:
                edges[a].add(module(p))
    return edges


def components(edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    c = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        c.append(w)
                        if w == v:
                            break
                    out.append(sorted(c))
    return out


def main():
    dirs = sys.argv[1:] or DIRS
    circles = sorted((c for c in components(graph(dirs)) if len(c) > 1), key=len, reverse=True)
    for c in circles:
        print(f"{len(c)} modules: {' '.join(c)}")
    print(f"{len(circles)} circles")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
