#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Every option a user sets is documented (the test docs.options).

An option added to a public header without a word in docs/ is easy to miss in review and
then invisible to users, so this reads the options from the headers themselves:

  - the data members of pksk::TableOptions (include/pksk/config.hpp) and of
    pksk::BasicQueryOptions (include/pksk/table/query.hpp), parsed from the struct bodies;
  - the members of pksk::Entity<T> pksk reads (`unique`, `ttl`, `indexes`, `compressed`, ...),
    found as the `Entity<T>::name` the headers refer to them by;

and fails unless some page under docs/ names it: `name`, `.name = ...` or `Owner::name` in
backticks, `.name =` in a code block, or a declaration `constexpr ... name =`. It names every option it could not find.

usage: check_options.py SOURCE_DIR
"""
import pathlib
import re
import sys

# A data member's statement: a type, a name, then perhaps a default (`= x` or `{...}`).
MEMBER = re.compile(r"[\w:>)*&\s]\s*(\w+)\s*(?:=.*|\{.*\})?$", re.S)
SKIPPED = ("using ", "friend ", "template", "static ", "return ", "public:", "private:")


def struct_members(header: pathlib.Path, name: str) -> list[str]:
    text = header.read_text()
    match = re.search(r"\bstruct\s+" + name + r"\s*\{", text)
    if not match:
        sys.exit(f"check_options: no struct {name} in {header}")
    depth, start = 1, match.end()
    i = start
    while depth:  # the struct's body, through nested braces
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    body = text[start:i - 1]
    body = re.sub(r"//[^\n]*", "", body)
    # Drop member functions (a body in braces after a parenthesis) so their statements are not
    # read as members.
    body = re.sub(r"\)\s*(?:const\s*|noexcept\s*|override\s*)*\{(?:[^{}]|\{[^{}]*\})*\}", ");", body)
    members = []
    for statement in body.split(";"):
        statement = statement.strip()
        if not statement or statement.startswith(SKIPPED) or statement.endswith(")"):
            continue
        match = MEMBER.search(statement)
        if match:
            members.append(match.group(1))
    if not members:
        sys.exit(f"check_options: no members parsed from {name} in {header}")
    return members


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    include = root / "include" / "pksk"
    options = {
        "TableOptions": struct_members(include / "config.hpp", "TableOptions"),
        "BasicQueryOptions": struct_members(include / "table" / "query.hpp", "BasicQueryOptions"),
    }
    entity = set()
    for header in include.rglob("*.hpp"):
        entity.update(re.findall(r"Entity<T>::(\w+)", header.read_text()))
    options["Entity<T>"] = sorted(entity)
    docs = "\n".join(p.read_text() for p in sorted((root / "docs").glob("*.md")))
    missing = []
    for owner, names in options.items():
        for name in names:
            word = re.escape(name)
            # `name`, `.name = ...`, `Owner::name`, `.name =` in a code block, or an Entity option's
            # declaration (`static constexpr bool name = true;`).
            documented = (re.search(r"`(?:[\w:<>]*::|\.)?" + word + r"(?:\s*=[^`\n]*)?`", docs)
                          or re.search(r"\." + word + r"\s*=", docs)
                          or re.search(r"constexpr [^`\n]*\b" + word + r"\s*=", docs))
            if not documented:
                missing.append(f"{owner}::{name}")
        print(f"{owner}: {len(names)} options: {', '.join(names)}")
    if missing:
        print("not documented in docs/:", ", ".join(missing))
        return 1
    print("every option is documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
