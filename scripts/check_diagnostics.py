#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Checks that every compile-time diagnostic rule of pksk has a compile-fail case.

A rule is a class or function template declared in a `namespace diagnostics { ... }` block of a
header under include/pksk (pksk/detail/diagnose.hpp says why they are templates). A rule has a
case when tests/compile_fail/CompileFail.cmake registers a case with that rule, or when a
registered case's `// expect...:` lines name it (the cases whose error each compiler words its
own way). Prints every rule with its header and case (`--list`), or only the rules without a
case, and exits 1 if there are any besides those in UNTESTABLE.
Registered as the ctest test diagnostics.cases (tests/CMakeLists.txt).
Usage: check_diagnostics.py [--list] [repository-root]  (default: this script's parent folder)
"""
import pathlib
import re
import sys

# Rules that no compile-fail case can reach, each with the reason.
UNTESTABLE = {
    "compressed_member_needs_zstd_h_install_libzstd_and_link_pksk_zstd":
        "reported only where <zstd.h> is not installed; the compile-fail cases compile with "
        "pksk's precompiled headers on a machine that has it",
}

BLOCK = re.compile(r"namespace (?:pksk::)?diagnostics \{(.*?)\}\s*// namespace (?:pksk::)?diagnostics", re.S)
RULE = re.compile(r"template\s*<[^;{}]*>\s*(?:struct|void)\s+(\w+)")
CASE = re.compile(r'"(\w+)\|(\w*)"')
SINGLE_CASE = re.compile(r'pksk_add_compile_fail\(\s*(\w+)\s+\S+\s+"pksk::diagnostics::(\w+)<"')


def rules(include: pathlib.Path) -> dict[str, str]:
    found = {}
    for header in sorted(include.rglob("*.hpp")):
        for block in BLOCK.finditer(header.read_text()):
            for rule in RULE.finditer(re.sub(r"//[^\n]*", "", block.group(1))):
                found.setdefault(rule.group(1), str(header.relative_to(include.parent)))
    return found


def cases(compile_fail: pathlib.Path) -> dict[str, list[str]]:
    """Rule -> the cases that show it."""
    shown: dict[str, list[str]] = {}
    text = (compile_fail / "CompileFail.cmake").read_text()
    listed = re.search(r"foreach\(case IN ITEMS(.*?)\)", text, re.S)
    for name, rule in CASE.findall(listed.group(1) if listed else ""):
        source = compile_fail / f"{name}.cpp"
        if not source.exists():
            print(f"{source}: registered in CompileFail.cmake but missing")
            continue
        named = {rule} if rule else set()
        for line in source.read_text().splitlines():
            if line.startswith("// expect"):
                named.update(re.findall(r"\w+", line))
        for word in named:
            shown.setdefault(word, []).append(name)
    # The cases registered one by one, for the options the list above cannot give.
    for name, rule in SINGLE_CASE.findall(text):
        shown.setdefault(rule, []).append(name)
    return shown


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--list"]
    root = pathlib.Path(args[0]) if args else pathlib.Path(__file__).resolve().parent.parent
    all_rules = rules(root / "include" / "pksk")
    shown = cases(root / "tests" / "compile_fail")
    missing = []
    for rule, header in all_rules.items():
        if rule in shown:
            if "--list" in sys.argv:
                print(f"{rule}  ({header}): {', '.join(sorted(shown[rule]))}")
        elif rule in UNTESTABLE:
            print(f"{rule}  ({header}): no case: {UNTESTABLE[rule]}")
        else:
            missing.append(f"{header}: diagnostics::{rule} has no case in tests/compile_fail/")
    for line in missing:
        print(line)
    print(f"{len(all_rules)} rules, {len(missing)} without a compile-fail case")
    return 1 if missing or not all_rules else 0


if __name__ == "__main__":
    sys.exit(main())
