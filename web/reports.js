// trackd's page: Reports: the month's report, the log's chain verified, the report mailed.
import { $, act, el, fail, monthTitle, rpc, S, say, thisMonth } from './core.js';

// Whether the board's policy lets this page frame its own report (frame-src, else child-src, else default-src).
function framesAllowed() {
  if (!S.csp) return true;
  const dirs = {};
  for (const part of S.csp.split(';')) {
    const [k, ...v] = part.trim().split(/\s+/);
    if (k) dirs[k.toLowerCase()] = v;
  }
  const v = dirs['frame-src'] || dirs['child-src'] || dirs['default-src'];
  return !v || v.includes("'self'") || v.includes('*');
}

function showReport() {
  const month = $('report-month').value || thisMonth();
  const q = `period=${encodeURIComponent(month)}&kind=all`;
  for (const f of ['csv', 'gpx', 'geojson', 'html']) $('download-' + f).href = `/api/export?${q}&format=${f}`;
  const src = `/api/export?${q}&format=html&inline=1`;
  const frame = $('report-frame'), framed = framesAllowed();
  frame.hidden = !framed;
  $('report-note').hidden = framed;
  if (framed && frame.getAttribute('src') !== src) frame.src = src;
  $('open-report').href = src;
  $('mail-report').textContent = `Send ${monthTitle(month)} by e-mail`;
}

async function verify() {
  const out = $('verify-verdict');
  out.className = 'verdict';
  out.textContent = 'Checking the log…';
  try {
    const v = await rpc('verify');
    const problems = v.problems || [];
    out.replaceChildren();
    out.className = 'verdict ' + (v.intact ? 'intact' : 'broken');
    if (v.intact) {
      out.append(el('b', null, 'Intact. '), `${v.chain_records} records, ${v.trips} trips and ${v.revisions} changes check out.`);
    } else {
      const p = problems[0];
      out.append(el('b', null, 'Broken. '), p ? `${p.record}: ${p.detail}` : 'The chain does not check out.');
      if (problems.length > 1) out.append(` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`);
    }
    const head = el('span', 'head');
    head.append('Chain head ', el('code', null, v.head || 'none yet (the log is empty)'));
    out.append(head);
  } catch (e) {
    out.textContent = e.message;
    fail(e);
  }
}

async function mail(btn) {
  const month = $('report-month').value || thisMonth();
  await act(btn, async () => {
    say(`Sending ${monthTitle(month)}…`);
    const r = await rpc('report.mail', { month });
    const to = r && Array.isArray(r.recipients) && r.recipients.length ? ' to ' + r.recipients.join(', ') : '';
    say(`The report of ${monthTitle(month)} was sent${to}.`);
  });
}

export { framesAllowed, showReport, verify, mail };
