#!/usr/bin/env python3
"""Doxygen input filter for chapters/*.md (see FILTER_PATTERNS in Doxyfile.in).

Passes a chapter page through unchanged and appends what keeps the book in
order without anyone maintaining it by hand: the introduction gets the list of
chapters (as \\subpage entries, which also orders the sidebar), and every
chapter gets links to the previous and the next one. Appending keeps Doxygen's
line numbers right for warnings.
"""

import re
import sys
from pathlib import Path

LABEL = re.compile(r"^#\s+(?P<title>.+?)\s*\{#(?P<label>[\w-]+)\}\s*$")


def title_and_label(page: Path) -> tuple[str, str]:
    first = page.read_text().splitlines()[0]
    m = LABEL.match(first)
    if not m:
        sys.exit(f"{page}:1: a chapter page must start with '# Title {{#chNN}}'")
    return m["title"], m["label"]


def main() -> None:
    page = Path(sys.argv[1]).resolve()
    text = page.read_text()
    pages = sorted(page.parent.glob("[0-9][0-9]-*.md"))
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if page not in pages:
        return
    index = pages.index(page)
    if index == 0:
        sys.stdout.write("\n")
        for chapter in pages[1:]:
            title, label = title_and_label(chapter)
            sys.stdout.write(f"- \\ref {label} \"{chapter.name[:2]} · {title}\"\n")
        return
    links = []
    for neighbour, arrow in ((index - 1, "prev"), (index + 1, "next")):
        if 0 <= neighbour < len(pages):
            title, label = title_and_label(pages[neighbour])
            if neighbour == 0:
                label = "index"
            number = pages[neighbour].name[:2]
            text = f"← {number} · {title}" if arrow == "prev" else f"{number} · {title} →"
            links.append(f'<span class="{arrow}">\\ref {label} "{text}"</span>')
        else:
            links.append("<span></span>")
    sys.stdout.write('\n<div class="chapter-nav">' + "".join(links) + "</div>\n")


if __name__ == "__main__":
    main()
