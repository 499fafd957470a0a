/**
 * The report's only script (allowed by its hash in the Content Security Policy): filtering trials, sorting and
 * filtering tables, and paging through attempts read from the JSON data blocks. It writes subject-derived text with
 * textContent only, never as HTML.
 */
export const CLIENT_SCRIPT = `(() => {
  const $ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const verdict = document.getElementById('f-verdict');
  const owner = document.getElementById('f-owner');
  const text = document.getElementById('f-text');
  const shown = document.getElementById('f-shown');
  function applyFilter() {
    const v = verdict.value, o = owner.value, t = text.value.trim().toLowerCase();
    let n = 0;
    for (const s of $('section.trial')) {
      const ok = (!v || s.dataset.verdict === v) && (!o || (' ' + s.dataset.owners + ' ').includes(' ' + o + ' ')) &&
        (!t || s.dataset.text.includes(t));
      s.hidden = !ok;
      if (ok) n++;
    }
    for (const li of $('#toc li')) li.hidden = document.getElementById(li.dataset.target).hidden;
    shown.textContent = n + ' shown';
  }
  verdict.addEventListener('change', applyFilter);
  owner.addEventListener('change', applyFilter);
  text.addEventListener('input', applyFilter);

  for (const table of $('table.sortable')) {
    const heads = $('thead th', table);
    heads.forEach((th, col) => th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const dir = th.dataset.dir === 'asc' ? -1 : 1;
      heads.forEach((h) => delete h.dataset.dir);
      th.dataset.dir = dir === 1 ? 'asc' : 'desc';
      const key = (row) => { const c = row.cells[col]; return c ? (c.dataset.sort ?? c.textContent) : ''; };
      const rows = Array.from(body.rows).sort((a, b) => {
        const x = key(a), y = key(b), nx = Number(x), ny = Number(y);
        return dir * (x !== '' && y !== '' && !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y));
      });
      for (const r of rows) body.appendChild(r);
    }));
  }
  for (const input of $('input.table-filter')) {
    input.addEventListener('input', () => {
      const t = input.value.trim().toLowerCase();
      for (const row of $('tbody tr', document.getElementById(input.dataset.table)))
        row.hidden = t !== '' && !row.textContent.toLowerCase().includes(t);
    });
  }

  const PAGE = 50;
  const data = new Map();
  function attemptsOf(tid) {
    if (!data.has(tid)) data.set(tid, JSON.parse(document.getElementById('data-' + tid).textContent));
    return data.get(tid);
  }
  function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
  function renderPage(box, page, focus) {
    const tid = box.dataset.trial, all = attemptsOf(tid), arms = all.arms, rows = all.attempts;
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    page = Math.max(0, Math.min(pages - 1, page));
    box.dataset.page = String(page);
    const list = box.querySelector('.attempt-list');
    list.replaceChildren();
    for (const r of rows.slice(page * PAGE, page * PAGE + PAGE)) {
      const id = tid + '-a' + r[0] + '-' + r[1];
      const item = el('details', 'attempt');
      item.id = id;
      const sum = el('summary');
      const badge = el('span', 'badge v-' + r[2], r[2]);
      const link = el('a', 'ref', arms[r[0]] + '#' + r[1]);
      link.href = '#' + id;
      sum.append(badge, ' ', link, el('span', 'muted', ' · ' + r[3] + ' — '), el('span', 'reason', r[4]));
      item.append(sum);
      const d = r[5];
      if (d) {
        if (d.reply !== null) { item.append(el('h5', '', 'Reply')); item.append(el('pre', 'reply', d.reply)); }
        if (d.criteria.length) {
          const t = el('table', 'criteria');
          const h = t.insertRow(); for (const x of ['criterion', 'result', 'grade', 'why']) h.append(el('th', '', x));
          for (const c of d.criteria) { const tr = t.insertRow(); for (const x of c) tr.append(el('td', '', x)); }
          item.append(t);
        }
        for (const line of d.notes) item.append(el('p', 'note', line));
      } else item.append(el('p', 'muted', 'Full evidence: this trial\\'s Outcome file and its attempts file in the run folder.'));
      if (focus === id) item.open = true;
      list.append(item);
    }
    box.querySelector('.page-label').textContent = 'page ' + (page + 1) + ' of ' + pages + ' (' + rows.length + ' attempts)';
    box.querySelector('.prev').disabled = page === 0;
    box.querySelector('.next').disabled = page >= pages - 1;
  }
  for (const box of $('.attempts')) {
    box.addEventListener('toggle', () => { if (box.open && !box.dataset.page) renderPage(box, 0); });
    box.querySelector('.prev').addEventListener('click', () => renderPage(box, Number(box.dataset.page) - 1));
    box.querySelector('.next').addEventListener('click', () => renderPage(box, Number(box.dataset.page) + 1));
  }
  function openHash() {
    const m = /^#(t-[a-z0-9-]+?)-a(\\d+)-(\\d+)$/.exec(location.hash);
    if (!m) return;
    const box = document.querySelector('.attempts[data-trial="' + m[1] + '"]');
    if (!box) return;
    const rows = attemptsOf(m[1]).attempts;
    const at = rows.findIndex((r) => r[0] === Number(m[2]) && r[1] === Number(m[3]));
    if (at < 0) return;
    box.open = true;
    renderPage(box, Math.floor(at / PAGE), location.hash.slice(1));
    document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }
  window.addEventListener('hashchange', openHash);
  openHash();
  applyFilter();
})();`;

export const STYLE = `
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header.top{background:#fff;border-bottom:1px solid #d0d7de;padding:1rem 2rem;position:sticky;top:0;z-index:2}
header.top h1{margin:0 0 .4rem;font-size:20px}main{padding:1rem 2rem;max-width:1200px}
.filters{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}.filters input{min-width:16rem}
.filters select,.filters input{font:inherit;padding:3px 6px;border:1px solid #d0d7de;border-radius:6px}
.badge{color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600;white-space:nowrap}
.v-PASS{background:#1a7f37}.v-PARTIAL{background:#bf8700}.v-FAIL{background:#cf222e}.v-CONTRADICTED{background:#8250df}
.v-UNKNOWN{background:#8c959f}.v-DISPUTED{background:#0a7ea4}
#toc{columns:2;padding-left:1.2rem}section.trial{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.5rem 1.25rem 1rem;margin:1rem 0}
section.trial h2{font-size:17px;margin:.6rem 0}small,.muted{color:#656d76;font-weight:400}
table{border-collapse:collapse;margin:.5rem 0;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:middle}
th{background:#f6f8fa;font-weight:600}table.sortable th{cursor:pointer;user-select:none}table.sortable th[data-dir=asc]::after{content:" ▲"}table.sortable th[data-dir=desc]::after{content:" ▼"}
.table-wrap{overflow-x:auto}.why{font-weight:500}.warning{color:#9a6700}.error{color:#cf222e}
pre{background:#f6f8fa;padding:6px;overflow:auto;max-height:300px;white-space:pre-wrap;word-break:break-word}
.pins{color:#656d76;font-size:12px}details.attempts>summary{cursor:pointer;font-weight:600;margin:.5rem 0}
details.attempt{border-top:1px solid #eaeef2;padding:2px 0}.pager{display:flex;gap:.5rem;align-items:center;margin:.25rem 0}
.reason{word-break:break-word}svg{vertical-align:middle}.legend span{margin-right:.6rem}
`;
