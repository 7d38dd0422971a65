"""Checks of the book's text that a reader would trip on, for ./course verify.

In the page sources (quick): no control character (a `\\r` typed as a
carriage return ate the `\\r` of `\\ref` once, and Doxygen printed the rest
as text); no section anchor left as a bare word where a `\\ref` was meant;
every link absolute, with a scheme and a host, and no space in it.

In the built HTML: no Doxygen command word (`\\ref`, `\\snippet`, ...) and no
section anchor in the text a reader sees, outside code.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path

from .chapters import ROOT

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")
LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<url>[^)]*)\)")
AUTOLINK = re.compile(r"<(?P<url>(?:https?|ftp)://[^>]*)>")
GOOD_URL = re.compile(r"^https?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?(/[^\s]*)?$")
# Doxygen's commands that the book's pages use; one of these in the text a
# reader sees means Doxygen did not take it as a command.
COMMAND = re.compile(r"(?<![\w\\])[\\@](ref|snippet|include|image|anchor|section|subsection|subsubsection"
                     r"|dot|enddot|msc|endmsc|htmlonly|endhtmlonly|code|endcode|verbatim|endverbatim)\b")
# Where an anchor's name may stand in a page's source.
ANCHOR_USES = re.compile(r"([\\@](ref|anchor|section|subsection|subsubsection))\s+$|\{#$|#$|\(\"?$")


def prose_lines(text: str):
    """(line number, line without its code spans) for every line outside
    code: fenced, or indented by four spaces (Markdown's code blocks)."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and not line.startswith(("    ", "\t")):
            yield number, CODE_SPAN.sub(lambda m: " " * len(m[0]), line)


def section_anchors(pages: list[Path]) -> set[str]:
    """The anchors of the book's sections, those with a hyphen (ch01-limits):
    a bare page label (ch01) is also the start of an exercise id (ch01.1)."""
    found = set()
    for page in pages:
        found.update(a for a in re.findall(r"\{#([\w-]+)\}|\\anchor\s+([\w-]+)", page.read_text())
                     for a in a if a and "-" in a)
    return found


def source_problems(pages: list[Path] | None = None) -> list[str]:
    """Control characters, anchors left as bare words, and malformed links in the page sources."""
    pages = pages if pages is not None else sorted((ROOT / "chapters").glob("*.md"))
    anchors = section_anchors(pages)
    bare = re.compile(r"(?<![\w#-])(" + "|".join(map(re.escape, sorted(anchors, key=len, reverse=True)))
                      + r")(?![\w-])") if anchors else None
    problems = []
    for page in pages:
        name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
        raw = page.read_bytes().decode("utf-8", errors="replace")  # as stored: read_text() turns \r into \n
        for m in CONTROL.finditer(raw):
            number = raw.count("\n", 0, m.start()) + 1
            problems.append(f"{name}:{number}: a control character (0x{ord(m[0]):02x}) in the text; "
                            "a typed \\r or \\t may have become one")
        text = raw.replace("\r\n", "\n").replace("\r", "\n")
        previous = ""
        for number, line in prose_lines(text):
            for m in LINK.finditer(line):
                if m["url"].startswith("#") and m["url"][1:] in anchors:
                    continue  # a link to a section of the book
                if not m["text"].strip() or not GOOD_URL.match(m["url"].strip()) or m["url"] != m["url"].strip():
                    problems.append(f"{name}:{number}: the link [{m['text']}]({m['url']}) is not an absolute "
                                    "http(s) address with a host, and no spaces")
            for m in AUTOLINK.finditer(line):
                if not GOOD_URL.match(m["url"]):
                    problems.append(f"{name}:{number}: the link <{m['url']}> is not a well-formed address")
            if bare:
                for m in bare.finditer(line):
                    before = line[:m.start()] if line[:m.start()].strip() else previous.rstrip() + " "
                    if not ANCHOR_USES.search(before):
                        problems.append(f"{name}:{number}: the anchor {m[0]} stands as a bare word: "
                                        f"a \\ref lost its command? (write \\ref {m[0]})")
            previous = line
    return problems


class _VisibleText(html.parser.HTMLParser):
    """The text of a page that a reader sees as prose: not code, not scripts."""

    SKIP = {"code", "pre", "script", "style", "tt"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "area", "base", "col", "embed", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # for each open element: whether it hides its text
        self.lines: list[str] = [""]

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append(tag in self.SKIP or "fragment" in classes or "line" in classes)
        self.lines.append("")

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not any(self.stack):
            self.lines[-1] += data


def html_problems(html_dir: Path, anchors: set[str]) -> list[str]:
    """Doxygen command words, section anchors and figures' placeholders in
    the prose of the built pages."""
    problems = []
    bare = re.compile(r"(?<![\w#-])(" + "|".join(map(re.escape, sorted(anchors, key=len, reverse=True)))
                      + r")(?![\w-])") if anchors else None
    for page in sorted(html_dir.glob("*.html")):
        parser = _VisibleText()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        for text in parser.lines:
            for m in COMMAND.finditer(text):
                problems.append(f"{page.name}: Doxygen's command {m[0]} is in the text: {text.strip()[:120]!r}")
            if "{{" in text:
                problems.append(f"{page.name}: a figure's placeholder was not replaced: {text.strip()[:120]!r}")
            if bare:
                for m in bare.finditer(text):
                    problems.append(f"{page.name}: the anchor {m[0]} is in the text, where a link was meant: "
                                    f"{text.strip()[:120]!r}")
    return problems
