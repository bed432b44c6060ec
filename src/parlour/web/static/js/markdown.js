/* A tiny Markdown converter for the rules texts: headings, paragraphs, nested
 lists, block quotes, fenced code, tables, **bold**, *italic*, `code`, links.
 Everything is HTML-escaped first: the output is safe to put in innerHTML. */
function esc(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function inline(text) {
  const codes = [];
  let out = esc(text).replace(/`([^`]+)`/g, function (_, code) {
    codes.push("<code>" + code + "</code>");
    return "\u0000" + (codes.length - 1) + "\u0000";
  });
  out = out
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, function (_, label, url) {
      const safe = /^(https?:|\/|#|mailto:)/.test(url) ? url : "#";
      return '<a href="' + safe + '" rel="noopener">' + label + "</a>";
    })
    .replace(/\*\*([^*]+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__([^_]+?)__/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?!\*)/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_([^_\s][^_]*?)_(?![_\w])/g, "$1<em>$2</em>");
  return out.replace(/\u0000(\d+)\u0000/g, function (_, n) { return codes[+n]; });
}

const LIST = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function indentOf(line) {
  return line.match(/^\s*/)[0].length;
}

function isBlockStart(line, next) {
  return FENCE.test(line) || HEADING.test(line) || /^\s*>/.test(line) || LIST.test(line) ||
    (/^\s*\|/.test(line) && next !== undefined && TABLE_SEP.test(next));
}

function cells(row) {
  let r = row.trim();
  if (r.startsWith("|")) r = r.slice(1);
  if (r.endsWith("|")) r = r.slice(0, -1);
  return r.split("|").map(function (c) { return c.trim(); });
}

function blocks(lines, headingShift) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    if (FENCE.test(line)) {
      const body = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i])) body.push(lines[i++]);
      i++;
      out.push("<pre><code>" + esc(body.join("\n")) + "</code></pre>");
      continue;
    }
    const h = line.match(HEADING);
    if (h) {
      const level = Math.min(6, h[1].length + headingShift);
      out.push("<h" + level + ">" + inline(h[2]) + "</h" + level + ">");
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) body.push(lines[i++].replace(/^\s*>\s?/, ""));
      out.push("<blockquote>" + blocks(body, headingShift) + "</blockquote>");
      continue;
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(cells(lines[i++]));
      out.push('<div class="table-wrap"><table><thead><tr>' +
        head.map(function (c) { return "<th>" + inline(c) + "</th>"; }).join("") +
        "</tr></thead><tbody>" +
        rows.map(function (r) {
          return "<tr>" + r.map(function (c) { return "<td>" + inline(c) + "</td>"; }).join("") + "</tr>";
        }).join("") + "</tbody></table></div>");
      continue;
    }
    const li = line.match(LIST);
    if (li) {
      const base = li[1].length;
      const ordered = /\d/.test(li[2]);
      const start = ordered ? parseInt(li[2], 10) : 1;
      const items = [];
      while (i < lines.length) {
        const m = lines[i].match(LIST);
        if (!m || m[1].length !== base || /\d/.test(m[2]) !== ordered) break;
        const contentIndent = m[0].length - m[3].length;
        const body = [m[3]];
        i++;
        while (i < lines.length) {
          const l = lines[i];
          if (!l.trim()) {
            // a blank line continues the item only if indented text follows
            if (i + 1 < lines.length && lines[i + 1].trim() && indentOf(lines[i + 1]) > base) {
              body.push("");
              i++;
              continue;
            }
            break;
          }
          if (indentOf(l) > base) {
            body.push(l.slice(Math.min(contentIndent, indentOf(l))));
            i++;
            continue;
          }
          if (LIST.test(l) || isBlockStart(l, lines[i + 1])) break;
          body.push(l.trim()); // lazy continuation
          i++;
        }
        let html = blocks(body, headingShift);
        const single = html.match(/^<p>([\s\S]*?)<\/p>(.*)$/s);
        if (single && single[1].indexOf("<p>") < 0) html = single[1] + single[2];
        items.push("<li>" + html + "</li>");
      }
      const tag = ordered ? "ol" : "ul";
      out.push("<" + tag + (ordered && start !== 1 ? ' start="' + start + '"' : "") + ">" + items.join("") + "</" + tag + ">");
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !(para.length && isBlockStart(lines[i], lines[i + 1]))) {
      para.push(lines[i].trim());
      i++;
    }
    out.push("<p>" + inline(para.join(" ")) + "</p>");
  }
  return out.join("\n");
}

/** The HTML of Markdown ``src``, its headings ``headingShift`` levels lower. */
export function markdown(src, headingShift) {
  return blocks(String(src || "").replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n"), headingShift || 0);
}
