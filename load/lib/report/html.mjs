/** report.html: report.md's text rendered by a small markdown pass, with the SVG plots inline. */

/** @typedef {import('../types.d.ts').Chart} Chart */

/** @param {string} s */
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** @param {string} s */
const inline = (s) =>
  esc(s)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');

/** @param {string} r a markdown table row */
const cells = (r) =>
  r
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());

/**
 * A markdown table (header, separator, rows) as HTML.
 * @param {string[]} rows
 */
function table(rows) {
  const [head = '', , ...body] = rows;
  return [
    '<table><thead><tr>',
    ...cells(head).map((c) => `<th>${inline(c)}</th>`),
    '</tr></thead><tbody>',
    ...body.flatMap((r) => ['<tr>', ...cells(r).map((c) => `<td>${inline(c)}</td>`), '</tr>']),
    '</tbody></table>',
  ];
}

/**
 * What report.md contains, up to its Plots section: headings, tables, list items, paragraphs.
 * @param {string} mdText
 * @returns {string[]}
 */
function body(mdText) {
  const lines = mdText.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## Plots')) break;
    const h = /^(#{1,3}) (.*)$/.exec(line);
    if (h) {
      out.push(`<h${h[1]?.length}>${inline(h[2] ?? '')}</h${h[1]?.length}>`);
    } else if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i]?.startsWith('|')) rows.push(lines[i++] ?? '');
      i--;
      out.push(...table(rows));
    } else if (line.startsWith('- ')) {
      out.push(`<ul><li>${inline(line.slice(2))}</li></ul>`);
    } else if (line.trim()) {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  return out;
}

/**
 * @param {string} mdText
 * @param {(Chart & { svg: string })[]} charts
 */
export function renderHtml(mdText, charts) {
  const out = body(mdText);
  out.push('<h2>Plots</h2>');
  for (const c of charts) out.push(`<figure>${c.svg}<figcaption>${esc(c.caption)}</figcaption></figure>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pqid load report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1rem 0}th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3}td:first-child,td:nth-child(2),td:nth-child(3){text-align:left}
code{background:#f5f5f5;padding:0 3px}figure{margin:1.5rem 0}figcaption{font-size:13px;color:#555}
</style></head><body>
${out.join('\n')}
</body></html>
`;
}
