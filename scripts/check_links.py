#!/usr/bin/env python3
"""Checks the project's documents: README.md and every Markdown file under docs/.

- Every relative link and image (Markdown or HTML) points at a file or folder that exists.
- Every anchor (`#part`, alone or after a Markdown file) names a heading of that file, by
  GitHub's rules: lower case, spaces to hyphens, punctuation dropped, `-1`, `-2` … for repeats.
- The README stays short: under 200 lines, none over 200 characters.
- Each image in docs/img/ is at most 150 KB.

Links inside code (fenced blocks and `code spans`) are not links and are not checked; web
addresses (http, https, mailto) are not fetched. Before it looks at the documents it checks
itself on a small set of good and broken files, so a checker that stopped finding problems
fails too. Python 3's standard library only.

Usage: python3 scripts/check_links.py [ROOT]   (ROOT defaults to the repository's root)
Exit status 0 when everything holds, 1 otherwise, with one line per problem.
"""

import os
import re
import sys
import tempfile
import unicodedata

README_MAX_LINES = 199
LINE_MAX_CHARS = 200
IMAGE_MAX_BYTES = 150 * 1024

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ATTR = re.compile(r"""<(?:a|img|source)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
HTML_ID = re.compile(r"""<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def slug(text):
    """The anchor GitHub gives a heading whose rendered text is `text`."""
    out = []
    for c in text.lower():
        if c in " -_" or unicodedata.category(c)[0] in "LNM":
            out.append("-" if c == " " else c)
    return "".join(out)


def rendered(heading):
    """A heading's text as GitHub shows it: code without its backticks, links as their text,
    emphasis marks and HTML tags dropped."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", text)


def lines_outside_code(text):
    """(line number, line) for each line not inside a fenced code block."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            continue
        if fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
            continue
        yield n, line


def anchors_of(text):
    """Every anchor a Markdown file offers: its headings' slugs and explicit HTML ids."""
    seen, found = {}, set()
    for _, line in lines_outside_code(text):
        m = HEADING.match(line)
        if m:
            base = slug(rendered(m.group(2)))
            k = seen.get(base, 0)
            seen[base] = k + 1
            found.add(base if k == 0 else f"{base}-{k}")
        found.update(HTML_ID.findall(line))
    return found


def links_of(text):
    """(line number, target) for every link, image and reference definition outside code."""
    for n, line in lines_outside_code(text):
        line = CODE_SPAN.sub("", line)
        targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
        m = REF_DEF.match(line)
        if m:
            targets.append(m.group(1))
        targets += HTML_ATTR.findall(line)
        for t in targets:
            yield n, t[1:-1] if t.startswith("<") and t.endswith(">") else t


def documents(root):
    docs = [os.path.join(root, "README.md")]
    for folder, _, files in os.walk(os.path.join(root, "docs")):
        docs += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".md")]
    return [d for d in docs if os.path.isfile(d)]


def check(root):
    """Every problem found under `root`, one line each."""
    root = os.path.realpath(root)
    problems, anchors = [], {}

    def anchors_in(path):
        if path not in anchors:
            with open(path, encoding="utf-8") as f:
                anchors[path] = anchors_of(f.read())
        return anchors[path]

    for doc in documents(root):
        name = os.path.relpath(doc, root)
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for n, target in links_of(text):
            if SCHEME.match(target):
                continue
            path, _, anchor = target.partition("#")
            path = re.sub(r"\?.*$", "", path)
            if path.startswith("/"):
                file = os.path.join(root, path.lstrip("/"))
            elif path:
                file = os.path.join(os.path.dirname(doc), path)
            else:
                file = doc
            file = os.path.realpath(file)
            if not (file == root or file.startswith(root + os.sep)):
                problems.append(f"{name}:{n}: {target}: points outside the repository")
                continue
            if not os.path.exists(file):
                problems.append(f"{name}:{n}: {target}: no such file or folder")
                continue
            if anchor and file.endswith(".md") and anchor not in anchors_in(file):
                where = "this file" if file == doc else os.path.relpath(file, root)
                problems.append(f"{name}:{n}: {target}: no heading or id \"{anchor}\" in {where}")

    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if len(lines) > README_MAX_LINES:
            problems.append(f"README.md: {len(lines)} lines; keep it under {README_MAX_LINES + 1} (move detail into docs/)")
        for n, line in enumerate(lines, 1):
            if len(line) > LINE_MAX_CHARS:
                problems.append(f"README.md:{n}: {len(line)} characters; at most {LINE_MAX_CHARS} a line")

    img = os.path.join(root, "docs", "img")
    if os.path.isdir(img):
        for f in sorted(os.listdir(img)):
            size = os.path.getsize(os.path.join(img, f))
            if size > IMAGE_MAX_BYTES:
                problems.append(f"docs/img/{f}: {size} bytes; at most {IMAGE_MAX_BYTES} (150 KB)")
    return problems


def self_test():
    """The checker on files made to hold known problems: it must find exactly those."""
    assert slug(rendered("Hosting `dist/`")) == "hosting-dist"
    assert slug(rendered("Share links, files and embedding")) == "share-links-files-and-embedding"
    assert slug(rendered("The `fanout` CLI: run, test")) == "the-fanout-cli-run-test"
    assert slug(rendered("Speeds (0.25× to 64×)")) == "speeds-025-to-64"
    assert slug(rendered("*Emphasis* and [a link](x.md)")) == "emphasis-and-a-link"
    assert slug(rendered("`Ctx::act`, the one dispatch point")) == "ctxact-the-one-dispatch-point"
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "img"))
        files = {
            "README.md": "# Title\n\n## Twice\n\n## Twice\n\n[ok](docs/a.md) [ok](docs/a.md#a-part) [ok](#twice-1)\n"
            "[bad](docs/missing.md)\n[bad](docs/a.md#no-such-part)\n[bad](#twice-2)\n"
            "`[code](nowhere.md)` [web](https://example.com/x.md)\n",
            "docs/a.md": "# A\n\n## A part\n\n![ok](img/x.png) <img src=\"img/y.png\">\n"
            "```\n[in a fence](nowhere.md)\n```\n[ok](../README.md#title) [bad](../nowhere/)\n"
            "[ref]: b.md\n<a id=\"kept\"></a>[ok](#kept)\n",
        }
        for path, text in files.items():
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(root, "docs", "img", "x.png"), "wb") as f:
            f.write(b"\0" * 10)
        found = sorted(check(root))
    expected = sorted([
        "README.md:8: docs/missing.md: no such file or folder",
        "README.md:9: docs/a.md#no-such-part: no heading or id \"no-such-part\" in docs/a.md",
        "README.md:10: #twice-2: no heading or id \"twice-2\" in this file",
        "docs/a.md:5: img/y.png: no such file or folder",
        "docs/a.md:9: ../nowhere/: no such file or folder",
        "docs/a.md:10: b.md: no such file or folder",
    ])
    if found != expected:
        print("check_links: the self-test failed; the checker found:", *found, "but should find:", *expected, sep="\n  ")
        return False
    return True


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if not self_test():
        return 1
    problems = check(root)
    for p in problems:
        print(p)
    docs = len(documents(os.path.realpath(root)))
    if problems:
        print(f"check_links: {len(problems)} problem(s) in {docs} documents")
        return 1
    print(f"check_links: {docs} documents, every relative link and anchor resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
