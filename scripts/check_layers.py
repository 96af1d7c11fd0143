#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Checks the layering of pksk's headers (include/pksk), so that a review need not.

Reads every #include "..." under include/pksk (in every #if branch: a header's includes are
checked whatever the configuration), resolves it against the including file's folder and checks:

(a) private folders stay private: a detail/ or impl/ folder belongs to the top-level folder it
    is in (include/pksk/<folder>), and only files of that folder include from it.
    include/pksk/detail/ is the library-wide private helpers, open to every file.
(b) the top-level folders are layered: a folder includes only itself, the folders below it in
    LAYERS, include/pksk/detail/ and the base headers, so no two folders include each other
    (cycles are reported as cycles too, naming the folders). The root-level headers are either
    umbrellas, above everything, which no folder includes, or base headers, below everything,
    which include only base headers and include/pksk/detail/.

Prints each violation as `file:line: includes X: reason` and exits 1 if there are any.
Registered as the ctest test layers.check (tests/CMakeLists.txt).
Usage: check_layers.py [include-dir]  (default: the include/ beside this script's folder)
"""
import pathlib
import re
import sys

# The top-level folders, lowest first. A folder may include those before it in this list
# (and itself); those on one line are peers, which include neither each other nor above.
# The same order is in the layer comment of include/pksk/pksk.hpp.
LAYERS = [
    ["reflect"],
    ["values"],
    ["key"],
    ["blob"],  # the stores of blob members' values; codec/ reads and names their objects
    ["codec"],
    ["expr"],
    ["model"],
    ["backend"],
    ["extensions"],
    ["table"],
    ["maintenance"],
    ["sqlite", "dynamodb"],
]

# The library-wide private helpers: below every folder, usable by all.
LIBRARY_DETAIL = "detail"

# Root-level headers that gather others for the user: above everything, no folder includes one.
UMBRELLA_HEADERS = {
    "pksk.hpp",  # the core
    "sqlite.hpp",  # the core and the SQLite backend
    "dynamodb.hpp",  # the core and the DynamoDB backend
    "backend.hpp",  # the Backend concept and what a backend author needs
    "src.hpp",  # the separate-compilation source
    "entity_code.hpp",  # an entity's compiled code in separate compilation
}

# Root-level headers beneath everything: they include only each other, include/pksk/detail/
# and standard or third-party headers.
BASE_HEADERS = {"error.hpp", "config.hpp", "value.hpp", "version.hpp"}

# Files allowed to include another folder's private headers, each with the reason.
PRIVATE_INCLUDE_EXEMPTIONS = {
    "src.hpp": "the separate-compilation source: it includes every impl/*.ipp by design, "
    "to compile pksk's code once (PKSK_SEPARATE_COMPILATION)",
}

PRIVATE_FOLDERS = ("detail", "impl")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def rank_of():
    rank = {}
    for index, peers in enumerate(LAYERS):
        for folder in peers:
            rank[folder] = index
    return rank


def top(rel):
    """The top-level folder of a path relative to include/pksk, or None at the root."""
    return rel.parts[0] if len(rel.parts) > 1 else None


def private_owner(rel):
    """The top-level folder whose detail/ or impl/ holds this file, "" for the library's own
    detail/, None for a file in no private folder."""
    for i, part in enumerate(rel.parts[:-1]):
        if part in PRIVATE_FOLDERS:
            return "" if i == 0 else rel.parts[0]
    return None


def find_cycles(graph):
    """Strongly connected components with more than one folder (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                result.append(set(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return result


def main(argv):
    include_dir = pathlib.Path(argv[1] if len(argv) > 1 else
                               pathlib.Path(__file__).resolve().parent.parent / "include")
    root = (include_dir / "pksk").resolve()
    if not root.is_dir():
        print(f"check_layers.py: no {root}", file=sys.stderr)
        return 2
    rank = rank_of()
    violations = []
    edges = []  # (from folder, to folder, file, line, included)

    def report(path, line, included, reason):
        violations.append(f"{path}:{line}: includes {included}: {reason}")

    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".hpp", ".ipp"))
    for path in files:
        rel = path.relative_to(root)
        shown = f"include/pksk/{rel.as_posix()}"
        folder = top(rel)
        if folder is None and rel.name not in UMBRELLA_HEADERS | BASE_HEADERS:
            report(shown, 1, "-", "a root-level header must be listed in check_layers.py as an "
                   "umbrella or a base header")
        if folder is not None and folder != LIBRARY_DETAIL and folder not in rank:
            report(shown, 1, "-", f"folder {folder}/ is not placed in LAYERS in check_layers.py")
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(text)
            if not match:
                continue
            written = match.group(1)
            target = (path.parent / written).resolve()
            if not target.is_file():
                report(shown, number, written, "no such file")
                continue
            try:
                target_rel = target.relative_to(root)
            except ValueError:
                continue  # outside include/pksk: not ours to layer
            included = target_rel.as_posix()
            target_folder = top(target_rel)

            # (a) another folder's detail/ or impl/.
            owner = private_owner(target_rel)
            if owner and owner != folder and rel.as_posix() not in PRIVATE_INCLUDE_EXEMPTIONS:
                report(shown, number, included,
                       f"{owner}/'s private headers are for {owner}/ only; move what is shared "
                       f"to a public header of {owner}/ or to include/pksk/detail/")

            # (b) the layers.
            if folder is None and rel.name in BASE_HEADERS:
                if target_folder is None and target_rel.name not in BASE_HEADERS:
                    report(shown, number, included,
                           "a base header includes only base headers and include/pksk/detail/")
                elif target_folder is not None and target_folder != LIBRARY_DETAIL:
                    report(shown, number, included,
                           "a base header includes only base headers and include/pksk/detail/")
                continue
            if folder is None:
                continue  # an umbrella: above everything
            if target_folder is None:
                if target_rel.name in UMBRELLA_HEADERS:
                    report(shown, number, included,
                           "umbrella headers are above every folder; include what it gathers")
                continue
            if target_folder == LIBRARY_DETAIL or target_folder == folder:
                continue
            if folder == LIBRARY_DETAIL:
                report(shown, number, included,
                       "include/pksk/detail/ is below every folder and includes none")
                continue
            edges.append((folder, target_folder, shown, number, included))
            if target_folder in rank and folder in rank and rank[target_folder] >= rank[folder]:
                where = "a peer of" if rank[target_folder] == rank[folder] else "above"
                report(shown, number, included,
                       f"{target_folder}/ is {where} {folder}/ in the layer order "
                       "(LAYERS in scripts/check_layers.py)")

    graph = {}
    for source, dest, *_ in edges:
        graph.setdefault(source, set()).add(dest)
    for component in find_cycles(graph):
        names = " <-> ".join(sorted(component))
        for source, dest, shown, number, included in edges:
            if source in component and dest in component:
                report(shown, number, included, f"folder cycle {names}")

    for violation in violations:
        print(violation)
    if violations:
        print(f"check_layers.py: {len(violations)} layering violation(s) in {root}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
