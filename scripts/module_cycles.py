#!/usr/bin/env python3
"""Finds circles in the module import graph of Rust crates.

    python3 scripts/module_cycles.py crates/engine/src crates/table/src
    python3 scripts/module_cycles.py --known protocol,store crates/server/src

For each crate's `src` folder, every module (a file: `record.rs` is `record`,
`arena/stats.rs` is `arena::stats`, folded into its top module `arena`) is a node, and
every path `crate::NAME` it writes (in `use` lines, `use crate::{a, b}` groups and paths
in the code) an edge to the module NAME; a name the crate root re-exports (`pub use
rng::{seeded, GameRng}` in lib.rs) leads to the module it comes from. Prints each
circle (a strongly connected component of more than one module) and exits 1 if there is
one, but for circles named with `--known A,B` (each exactly those modules), which are
reported as known and left.
"""

import re
import sys
from pathlib import Path

PATH = re.compile(r"\bcrate::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)", re.S)
REEXPORT = re.compile(r"pub use ([a-z_][a-z0-9_]*)::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)", re.S)


def names(group):
    """The first segment of each path of `{a, b::c, d as e}` or of a single name."""
    if not group.startswith("{"):
        return [group]
    return [p.strip().split("::")[0].split(" ")[0] for p in group[1:-1].split(",") if p.strip()]


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def graph(src):
    root = src / "lib.rs" if (src / "lib.rs").exists() else src / "main.rs"
    modules = {p.relative_to(src).parts[0].removesuffix(".rs") for p in src.rglob("*.rs")}
    modules -= {"lib", "main"}
    reexported = {}
    for module, group in REEXPORT.findall(strip_comments(root.read_text())):
        for name in names(group):
            reexported[name] = module
    edges = {m: set() for m in modules}
    for path in src.rglob("*.rs"):
        module = path.relative_to(src).parts[0].removesuffix(".rs")
        if module not in modules:
            continue
        for group in PATH.findall(strip_comments(path.read_text())):
            for name in names(group):
                target = name if name in modules else reexported.get(name)
                if target and target != module:
                    edges[module].add(target)
    return edges


def circles(edges):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main(args):
    known = []
    while args[:1] == ["--known"]:
        known.append(sorted(args[1].split(",")))
        args = args[2:]
    failed = False
    for folder in args:
        edges = graph(Path(folder))
        count = sum(len(e) for e in edges.values())
        print(f"{folder}: {len(edges)} modules, {count} edges")
        for component in circles(edges):
            if component in known:
                print(f"  known circle among {', '.join(component)}")
            else:
                failed = True
                print(f"  circle among {', '.join(component)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
