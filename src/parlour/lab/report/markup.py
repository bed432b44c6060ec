"""The report as a page: its blocks (headings, text, lists, images, tables) rendered as HTML or Markdown.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias


@dataclass
class Heading:
    level: int
    text: str
    anchor: str | None = None
    """The heading's id, for the table of contents' links."""


@dataclass
class Contents:
    """A table of contents: (level, text, anchor) of each heading it links to."""

    entries: list[tuple[int, str, str]]


@dataclass
class Text:
    text: str
    warning: bool = False


@dataclass
class List:
    items: list[str]


@dataclass
class Image:
    file: str
    alt: str


@dataclass
class Link:
    text: str
    href: str


Cell: TypeAlias = "str | Link"


@dataclass
class Table:
    headers: list[str]
    rows: Sequence[Sequence[Cell]]
    words: bool = False
    """Cells of words rather than figures: aligned left, as text is read."""


Block: TypeAlias = "Heading | Text | List | Image | Table | Contents"


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #bbb; }
p { max-width: 52rem; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.8rem 0 1.2rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; }
table.words td, table.words th { text-align: left; vertical-align: top; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5rem 0; }
p.warning { background: #fff4e0; border-left: 4px solid #e08a00; padding: 0.5rem 0.8rem; }
nav.contents ul { list-style: none; padding-left: 0; columns: 2; max-width: 60rem; }
nav.contents li.level3 { padding-left: 1.2rem; font-size: 0.92rem; }
ul.summary { max-width: 56rem; line-height: 1.5; background: #f4f8ff; border: 1px solid #c8d8f0; padding: 0.8rem 2rem; }
"""


def html_page(blocks: Sequence[Block]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>Parlour lab report</title>", f"<style>{_STYLE}</style>", "</head>", "<body>"]
    for block in blocks:
        if isinstance(block, Heading):
            anchor = "" if block.anchor is None else f' id="{html.escape(block.anchor)}"'
            parts.append(f"<h{block.level}{anchor}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, Contents):
            parts.append('<nav class="contents"><ul>' + "".join(
                f'<li class="level{level}"><a href="#{html.escape(anchor)}">{html.escape(text)}</a></li>'
                for level, text, anchor in block.entries) + "</ul></nav>")
        elif isinstance(block, Text):
            parts.append(f'<p class="warning">{html.escape(block.text)}</p>' if block.warning
                         else f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, List):
            parts.append('<ul class="summary">' + "".join(f"<li>{html.escape(item)}</li>" for item in block.items)
                         + "</ul>")
        elif isinstance(block, Image):
            parts.append(f'<img src="{html.escape(block.file)}" alt="{html.escape(block.alt)}">')
        else:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in block.headers)
            body = "".join("<tr>" + "".join(f"<td>{_html_cell(c)}</td>" for c in row) + "</tr>" for row in block.rows)
            table = '<table class="words">' if block.words else "<table>"
            parts.append(f"{table}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _html_cell(cell: Cell) -> str:
    if isinstance(cell, Link):
        return f'<a href="{html.escape(cell.href)}">{html.escape(cell.text)}</a>'
    return html.escape(cell)


def markdown_page(blocks: Sequence[Block]) -> str:
    def cell(content: Cell) -> str:
        text = f"[{content.text}]({content.href})" if isinstance(content, Link) else content
        return text.replace("|", "\\|")

    parts = []
    for block in blocks:
        if isinstance(block, Heading):
            anchor = "" if block.anchor is None else f'<a id="{block.anchor}"></a>\n'
            parts.append(anchor + "#" * block.level + " " + block.text)
        elif isinstance(block, Contents):
            parts.append("\n".join("  " * (level - 2) + f"- [{text}](#{anchor})"
                                    for level, text, anchor in block.entries))
        elif isinstance(block, Text):
            parts.append(f"> **{block.text}**" if block.warning else block.text)
        elif isinstance(block, List):
            parts.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, Image):
            parts.append(f"![{block.alt}]({block.file})")
        else:
            lines = ["| " + " | ".join(cell(h) or " " for h in block.headers) + " |",
                     "|" + "|".join("---" for _ in block.headers) + "|"]
            lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in block.rows]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
