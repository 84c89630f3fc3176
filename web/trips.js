// trackd's page: Trips: a period's list and a trip added by hand.
import { $, act, day, el, fail, km, num, refuse, rpc, S, say, thisMonth, time, today, tripDist, tripTenths, typedMetres, unit } from './core.js';
import { choices, openDialog } from './now.js';
import { isViewer } from './live.js';
import { loadSuggestions } from './rules.js';

function period() {
  const p = $('period').value;
  return p === 'month' ? ($('period-month').value || thisMonth()) : p;
}

async function loadTrips() {
  const seq = ++S.tripsSeq;
  const list = $('trip-list');
  list.setAttribute('aria-busy', 'true');
  $('period-month').classList.toggle('idle', $('period').value !== 'month');
  loadSuggestions(loadTrips);
  try {
    const trips = await rpc('trips', { period: period(), kind: $('kind-filter').value });
    if (seq === S.tripsSeq) { S.trips = trips; renderTrips(); }
  } catch (e) {
    if (seq === S.tripsSeq) { list.replaceChildren(el('li', 'empty', e.message)); $('trip-summary').textContent = ''; }
    fail(e);
  } finally {
    list.removeAttribute('aria-busy');
  }
}

const toClassify = (t) => t.kind === 'unclassified' && t.state !== 'deleted';
const toConfirm = (t) => t.to_confirm && t.state === 'closed';
function renderTrips() {
  const trips = S.trips || [];
  const list = $('trip-list');
  const first = trips.filter(toClassify).reverse();
  const confirm = trips.filter((t) => !toClassify(t) && toConfirm(t)).reverse();
  const rest = trips.filter((t) => !toClassify(t) && !toConfirm(t)).reverse();
  list.replaceChildren();
  if (!trips.length) list.append(el('li', 'empty', 'No trips in this period.'));
  if (first.length) {
    list.append(el('li', 'head', `To classify (${first.length})`));
    for (const t of first) list.append(tripRow(t));
  }
  if (confirm.length) {
    const head = el('li', 'head with-button');
    head.append(el('span', null, `To confirm (${confirm.length})`));
    if (!isViewer()) {
      const all = el('button', 'confirm-all', `Confirm all ${confirm.length}`);
      all.type = 'button';
      all.id = 'confirm-all';
      all.addEventListener('click', () => act(all, () => confirmTrips(confirm.map((t) => t.id))));
      head.append(all);
    }
    list.append(head);
    for (const t of confirm) list.append(tripRow(t));
  }
  if ((first.length || confirm.length) && rest.length) list.append(el('li', 'head', 'Classified'));
  for (const t of rest) list.append(tripRow(t));
  const counted = trips.filter((t) => t.state !== 'deleted');
  const sum = (k) => counted.filter((t) => !k || t.kind === k).reduce((a, t) => a + tripTenths(t), 0);
  const u = unit();
  const total = (k) => (sum(k) / 10).toFixed(1) + ' ' + u;
  const parts = [`${counted.length} trip${counted.length === 1 ? '' : 's'}`, total()];
  if (sum('business')) parts.push(`business ${total('business')}`);
  if (sum('private')) parts.push(`private ${total('private')}`);
  $('trip-summary').textContent = trips.length ? parts.join(' · ') : '';
}

function badge(t) {
  if (t.state === 'deleted') return el('span', 'badge k-deleted', 'deleted');
  if (t.state === 'open') return el('span', 'badge k-open', 'recording');
  return el('span', 'badge k-' + t.kind, t.commute ? 'commute' : t.kind);
}
function span(t) {
  if (t.start && t.end) return `${time(t.start)}–${time(t.end)}`;
  if (t.start) return `${time(t.start)}–…`;
  return { manual: 'by hand', regular: 'regular trip', unrecorded: 'not recorded', correction: 'correction' }[t.source] || '';
}

function tripRow(t) {
  const li = el('li', 'trip' + (t.kind === 'unclassified' ? ' unclassified' : '') + (t.state === 'deleted' ? ' deleted' : '')
    + (toConfirm(t) ? ' to-confirm' : ''));
  li.dataset.id = t.id;
  const a = el('a');
  a.href = '#trip/' + t.id;
  const when = el('span', 'when');
  when.append(el('b', null, day(t.date)), ' ', el('span', 'muted', span(t)));
  const dist = el('span', 'dist', tripDist(t));
  dist.append(el('small', null, ' ' + unit()));
  const what = el('span', 'what');
  const label = t.purpose || (t.regular ? 'regular: ' + t.regular : '') || t.destination || '';
  what.append(badge(t), ' ', label);
  if (!label && t.kind === 'business' && t.state !== 'deleted') what.append(el('span', 'warn', 'purpose missing'));
  if (t.customer) what.append(el('span', 'muted', ' · ' + t.customer));
  if (toConfirm(t) && t.rule) what.append(el('span', 'rule', 'by rule: ' + t.rule.text));
  a.append(when, dist, what);
  li.append(a);
  if (toConfirm(t) && !isViewer()) {
    const b = el('button', 'confirm', 'Confirm');
    b.type = 'button';
    b.setAttribute('aria-label', `Confirm trip ${t.id}: ${t.commute ? 'commute' : t.kind}, by rule ${t.rule ? t.rule.text : ''}`);
    b.addEventListener('click', () => act(b, () => confirmTrips([t.id])));
    li.append(b);
  }
  return li;
}

// Confirms what rules made of trips: one tap for one trip, or all those listed.
async function confirmTrips(ids) {
  const done = await rpc('confirm', { ids });
  say(done.length === 1 ? `Trip ${done[0].id} confirmed.` : `${done.length} trips confirmed.`);
  const confirmed = new Set(done.map((t) => t.id));
  S.trips = (S.trips || []).map((t) => confirmed.has(t.id) ? done.find((d) => d.id === t.id) : t);
  renderTrips();
}

function openAdd() {
  for (const f of ['distance', 'odometer-end', 'start', 'end', 'purpose', 'customer', 'destination', 'detour', 'reason']) $('add-' + f).value = '';
  $('add-regular').value = '';
  $('add-kind').value = 'business';
  $('add-date').value = today();
  $('add-date').max = today();
  openDialog($('add-dialog'));
  choices();
}
function regularChosen() {
  const r = (S.regulars || []).find((x) => x.name === $('add-regular').value);
  if (!r) return;
  $('add-kind').value = r.kind;
  for (const f of ['purpose', 'customer', 'destination']) $('add-' + f).value = r[f] || '';
  $('add-distance').placeholder = km(r.distance_m);
}
const seconds = (v) => { if (!v) return null; const [h, m] = v.split(':').map(Number); return h * 3600 + m * 60; };

async function saveAdd() {
  const date = $('add-date').value;
  if (!date) refuse('Give the date of the trip.');
  const p = { date };
  const regName = $('add-regular').value;
  const reg = (S.regulars || []).find((x) => x.name === regName);
  if (regName) p.regular = regName;
  const d = num($('add-distance').value), o = num($('add-odometer-end').value);
  if (d != null && o != null) refuse('Give the distance or the odometer at the end, not both.');
  if (d != null) { if (d <= 0) refuse('The distance must be more than 0.'); p.distance_m = Math.round(typedMetres(d)); }
  if (o != null) p.odometer_end = typedMetres(o) / 1000;
  if (!regName && d == null && o == null) refuse(`Say how far: the distance in ${unit()}, or the odometer at the end.`);
  const s = seconds($('add-start').value), e = seconds($('add-end').value);
  if (s != null) p.start_second = s;
  if (e != null) p.end_second = e;
  // A commute is a private trip between home and work (the Fahrtenbuch's own column).
  const kind = $('add-kind').value;
  if (kind === 'commute') { p.kind = 'private'; p.commute = true; } else if (!reg || reg.kind !== kind) p.kind = kind;
  for (const f of ['purpose', 'customer', 'destination']) {
    const v = $('add-' + f).value.trim();
    if (v && (!reg || reg[f] !== v)) p[f] = v;
  }
  const detour = $('add-detour').value.trim();
  if (detour) p.detour = detour;
  const reason = $('add-reason').value.trim();
  if (reason) p.reason = reason;
  const t = await rpc('add', p);
  $('add-dialog').close();
  say(`Trip ${t.id} added: ${tripDist(t)} ${unit()} on ${day(t.date)}.`);
  loadTrips();
}

export { period, loadTrips, toClassify, toConfirm, confirmTrips, renderTrips, badge, span, tripRow, openAdd, regularChosen, seconds, saveAdd };
