#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Doxygen INPUT_FILTER: shows Doxygen pksk's plain `//` comments as documentation.

The headers keep ordinary `//` comments (no Doxygen markup in the code), so this filter turns,
on the way into Doxygen only:
- the comment block right after `#pragma once` into the file's documentation, and puts the
  file and what its public namespaces declare in the group of its folder
  (docs/reference/groups.dox), so that the reference has a page per folder;
- a block of whole-line `//` comments directly above a declaration (no blank line between;
  a template head, or a `#define`, counts as the declaration's first line) into `///`;
- a trailing `// ...` after a member or an enumerator (`int x;  // ...`), and the comment lines
  aligned under it, into `///<`;
- the lines `Throws:` and `Exception safety:` into paragraphs of those names.
Doxygen's command characters are escaped outside `code spans`, so that a key template such as
`CUSTOMER#{id}` or `std::optional<T>` is text, not markup. Line count is kept (one line out per
line in), so Doxygen's warnings point at the header's own lines.
Usage (as Doxygen calls it): comment_filter.py HEADER, writes the filtered header to stdout.
"""
import re
import sys
from pathlib import PurePosixPath

FULL = re.compile(r"^(\s*)//(?![/!])\s?(.*)$")
# A trailing comment after code that ends a member or an enumerator: `...;  // text`.
TRAILING = re.compile(r"^(.*?[;,])(\s+)//(?![/!])\s?(.*)$")
OPEN_NAMESPACE = re.compile(r"^namespace ([\w:]+) \{$")
CLOSE_NAMESPACE = re.compile(r"^\}  // namespace ([\w:]+)$")
FOREIGN_SPECIALISATION = re.compile(r"^struct boost::[\w:]+<.*> : .*\{\};$")
NOT_DOCS = ("NOLINT", "clang-format", "namespace", "SPDX-License-Identifier")
ESCAPE = {"\\": "\\\\", "@": "\\@", "<": "\\<", ">": "\\>", "&": "\\&", "#": "\\#", "%": "\\%",
          "$": "\\$"}
# `Throws:` and `Exception safety:` open a paragraph of that title (the aliases in Doxyfile.in),
# at the start of a line or after a sentence (where a reflow of the comment put them).
PARAGRAPHS = re.compile(r"(?:^|(?<=[.;:)] ))(Throws|Exception safety):\s*")
PARAGRAPH_ALIASES = {"Throws": "@pksk_throws ", "Exception safety": "@pksk_exception_safety "}


def escape(text: str) -> str:
    """Escapes Doxygen's command characters outside backtick code spans."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):  # even parts are outside code spans
        parts[i] = "".join(ESCAPE.get(c, c) for c in parts[i])
        # `::name` not after a name is Doxygen's explicit link (`Entity<T>::ttl`): text here.
        parts[i] = re.sub(r"(?<!\w)::", r"\\::", parts[i])
    return "`".join(parts)


def doc_text(text: str) -> str:
    pieces = PARAGRAPHS.split(text)  # text, title, text, title, text...
    out = escape(pieces[0])
    for title, rest in zip(pieces[1::2], pieces[2::2]):
        out += PARAGRAPH_ALIASES[title] + escape(rest)
    return out


def code_before_comment(line: str) -> bool:
    """Whether `line` has no quote left open before its trailing `//` (not a URL in a string)."""
    match = TRAILING.match(line)
    return bool(match) and match.group(1).count('"') % 2 == 0 and "'" not in match.group(1)


def is_declaration(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith("#define "):
        return True  # a macro the header offers (PKSK_VERSION)
    if not stripped or stripped.startswith(("//", "#", "}", "namespace ")):
        return False
    return stripped not in ("public:", "private:", "protected:")


def group_of(path: str) -> str:
    parts = PurePosixPath(path).parts
    index = max(i for i, part in enumerate(parts) if part == "pksk")
    folder = parts[index + 1:-1]
    return "pksk_" + folder[0] if folder else "pksk_root"


def filter_lines(lines: list[str], group: str) -> list[str]:
    out = list(lines)
    n = len(lines)
    i = 0
    trailing_column = None  # the column of the previous line's trailing comment, if any
    while i < n:
        line = lines[i]
        full = FULL.match(line)
        if full and any(full.group(2).startswith(word) for word in NOT_DOCS):
            i += 1
            continue
        if full and trailing_column is not None and len(full.group(1)) == trailing_column:
            out[i] = f"{full.group(1)}///< {doc_text(full.group(2))}"
            i += 1
            continue
        trailing_column = None
        if full:
            start = i
            while i < n and (m := FULL.match(lines[i])) and m.group(1) == full.group(1):
                i += 1
            file_comment = start == 2 and lines[1].strip() == "#pragma once"
            if file_comment or (i < n and is_declaration(lines[i])):
                for j in range(start, i):
                    m = FULL.match(lines[j])
                    out[j] = f"{m.group(1)}/// {doc_text(m.group(2))}".rstrip()
            if file_comment:
                # The licence line and `#pragma once`, which Doxygen has no use for, make room
                # for the file's commands, so that every later line keeps its number.
                out[0] = ""
                out[1] = "/// @file"
                out[i - 1] += f" @ingroup {group}"
            continue
        if code_before_comment(line):
            m = TRAILING.match(line)
            if not any(m.group(3).startswith(word) for word in NOT_DOCS):
                out[i] = f"{m.group(1)}{m.group(2)}///< {doc_text(m.group(3))}"
                trailing_column = len(m.group(1)) + len(m.group(2))
        i += 1
    # A specialisation of another library's template at namespace scope
    # (boost::system::is_error_code_enum<pksk::errc>) names a namespace Doxygen never saw, which
    # it reports as an internal inconsistency: it is not pksk's to document, and is left out.
    for j in range(1, len(out)):
        if FOREIGN_SPECIALISATION.match(lines[j]) and lines[j - 1].strip() == "template <>":
            out[j - 1] = out[j] = ""
    # What each public namespace block declares goes into the group (a group opened outside a
    # namespace would not take the namespace's members); on the same lines, so none moves.
    for j, line in enumerate(out):
        if (m := OPEN_NAMESPACE.match(line)) and "detail" not in m.group(1):
            out[j] = f"{line} /** @addtogroup {group} */ /** @{{ */"
        elif (m := CLOSE_NAMESPACE.match(line)) and "detail" not in m.group(1):
            out[j] = f"/** @}} */ {line}"
    return out


def main() -> int:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    group = group_of(path)
    out = filter_lines(lines, group)
    text = "\n".join(out)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
