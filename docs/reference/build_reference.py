#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Builds the API reference and holds it to its rule (the target pksk_reference, the test
docs.reference; docs/reference.md).

Runs Doxygen on the configured Doxyfile, whose WARN_AS_ERROR fails the build on an undocumented
public entity or a broken comment, then reads the XML Doxygen wrote beside the HTML: every
public function that has documentation must also have its Throws and Exception safety
paragraphs, which no Doxygen warning checks. Prints each function that lacks one, with the
header and line, and fails.
Usage: build_reference.py DOXYGEN DOXYFILE XML_DIR (XML_DIR and the html/ beside it are made anew)
"""
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REQUIRED = ("Throws", "Exception safety")


def paragraphs(member: ET.Element) -> set[str]:
    titles = set()
    for section in member.iter("simplesect"):
        if section.get("kind") == "par":
            title = section.find("title")
            if title is not None and title.text:
                titles.add(title.text.strip())
    return titles


def documented(member: ET.Element) -> bool:
    return any("".join(member.find(part).itertext()).strip()
               for part in ("briefdescription", "detaileddescription"))


def lacking(xml_dir: Path) -> list[str]:
    found = []
    seen = set()
    for path in sorted(xml_dir.glob("*.xml")):
        if path.name in ("index.xml", "Doxyfile.xml"):
            continue
        for member in ET.parse(path).iter("memberdef"):
            if member.get("kind") != "function" or member.get("prot") != "public":
                continue
            if not documented(member):
                continue  # Doxygen's WARN_IF_UNDOCUMENTED reports it
            argsstring = member.findtext("argsstring") or ""
            if argsstring.endswith("=delete"):
                continue
            if "->" in argsstring and not (member.findtext("type") or "").strip():
                continue  # a deduction guide: nothing runs, nothing throws
            location = member.find("location")
            where = f"{location.get('file')}:{location.get('line')}"
            missing = [p for p in REQUIRED if p not in paragraphs(member)]
            if missing and where not in seen:
                seen.add(where)
                name = member.findtext("qualifiedname") or member.findtext("name")
                found.append(f"{where}: {name}{argsstring}: no {' and no '.join(missing)} line")
    return found


def main() -> int:
    doxygen, doxyfile, xml_dir = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    # Doxygen leaves the pages of a previous run in place: a header taken out of the input
    # would still be checked, and shown. The output is made anew each time.
    for stale in (xml_dir, xml_dir.parent / "html"):
        shutil.rmtree(stale, ignore_errors=True)
    if subprocess.run([doxygen, doxyfile], cwd=Path(doxyfile).parent).returncode != 0:
        return 1
    problems = lacking(xml_dir)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} public functions lack a Throws or Exception safety line "
              "(docs/reference.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
