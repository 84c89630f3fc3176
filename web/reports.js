// trackd's page: Reports: the month's report, the log's chain verified, the report mailed.
import { $, act, el, fail, monthTitle, rpc, S, say, t, thisMonth } from './core.js';
import { decimal } from './i18n.js';

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
  $('mail-report').textContent = t('Send {month} by e-mail', { month: monthTitle(month) });
}

async function verify() {
  const out = $('verify-verdict');
  out.className = 'verdict';
  out.textContent = t('Checking the log…');
  try {
    const v = await rpc('verify');
    const problems = v.problems || [];
    out.replaceChildren();
    out.className = 'verdict ' + (v.intact ? 'intact' : 'broken');
    if (v.intact) {
      out.append(el('b', null, t('Intact.') + ' '), t('{records}, {trips} and {changes} check out.', {
        records: v.chain_records === 1 ? t('1 record') : t('{n} records', { n: decimal(v.chain_records, 0) }),
        trips: v.trips === 1 ? t('1 trip') : t('{n} trips', { n: decimal(v.trips, 0) }),
        changes: v.revisions === 1 ? t('1 change') : t('{n} changes', { n: decimal(v.revisions, 0) }),
      }));
    } else {
      const p = problems[0];
      out.append(el('b', null, t('Broken.') + ' '), p ? `${p.record}: ${p.detail}` : t('The chain does not check out.'));
      if (problems.length > 1) {
        out.append(' ' + (problems.length === 2 ? t('(and 1 more problem)')
          : t('(and {n} more problems)', { n: problems.length - 1 })));
      }
    }
    const head = el('span', 'head');
    head.append(t('Chain head') + ' ', el('code', null, v.head || t('none yet (the log is empty)')));
    out.append(head);
  } catch (e) {
    out.textContent = e.message;
    fail(e);
  }
}

async function mail(btn) {
  const month = $('report-month').value || thisMonth();
  await act(btn, async () => {
    say(t('Sending {month}…', { month: monthTitle(month) }));
    const r = await rpc('report.mail', { month });
    say(r && Array.isArray(r.recipients) && r.recipients.length
      ? t('The report of {month} was sent to {recipients}.', { month: monthTitle(month), recipients: r.recipients.join(', ') })
      : t('The report of {month} was sent.', { month: monthTitle(month) }));
  });
}

export { framesAllowed, showReport, verify, mail };
