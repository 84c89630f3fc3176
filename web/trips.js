// trackd's page: Trips: a period's list and a trip added by hand.
import { $, act, COUNTRIES, day, el, fail, km, money, num, refuse, rpc, S, say, thisMonth, time, today, tripDist, tripTenths, typedMetres, unit } from './core.js';
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
    const o = await rpc('trips.overview', { period: period(), kind: $('kind-filter').value });
    if (seq === S.tripsSeq) { keepOverview(o); renderTrips(); }
  } catch (e) {
    if (seq === S.tripsSeq) { list.replaceChildren(el('li', 'empty', e.message)); $('trip-summary').textContent = ''; }
    fail(e);
  } finally {
    list.removeAttribute('aria-busy');
  }
}

// The list and what it marks: the trips a person changed after they were written, each business trip's amount.
function keepOverview(o) {
  S.trips = o.trips;
  S.changed = new Set(o.changed || []);
  const a = o.allowance;
  S.amounts = new Map(a ? a.amounts.filter((x) => x.amount != null).map((x) => [x.trip, x.amount]) : []);
  S.currency = a ? a.currency : null;
  S.total = a ? a.total : null;
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
  if (S.currency && S.total) parts.push(money(S.total, S.currency));
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

// "Home → Example Ltd": the named places a trip started and ended at (… for an end without one).
function places(t) {
  const a = t.start_place && t.start_place.name, b = t.end_place && t.end_place.name;
  return a || b ? `${a || '…'} → ${b || '…'}` : '';
}

function tripRow(t) {
  const li = el('li', 'trip' + (t.kind === 'unclassified' ? ' unclassified' : '') + (t.state === 'deleted' ? ' deleted' : '')
    + (toConfirm(t) ? ' to-confirm' : ''));
  li.dataset.id = t.id;
  const a = el('a');
  a.href = '#trip/' + t.id;
  const when = el('span', 'when');
  when.append(el('b', null, day(t.date)), ' ');
  if (S.changed && S.changed.has(t.id)) {
    const c = el('span', 'changed', 'changed');
    c.title = 'Changed after it was written: the trip’s history says what and why';
    when.append(c, ' ');
  }
  when.append(el('span', 'muted', span(t)));
  const dist = el('span', 'dist', tripDist(t));
  dist.append(el('small', null, ' ' + unit()));
  // The distance, and under it a business trip's amount.
  const figures = el('span', 'figures');
  figures.append(dist);
  const amount = S.amounts && S.amounts.get(t.id);
  if (amount != null && t.state !== 'deleted') figures.append(el('span', 'amount', money(amount, S.currency)));
  const where = places(t);
  if (where) when.append(el('span', 'places', where));
  const what = el('span', 'what');
  const label = t.purpose || (t.regular ? 'regular: ' + t.regular : '') || t.destination || '';
  what.append(badge(t), ' ', label);
  if (!label && t.kind === 'business' && t.state !== 'deleted') what.append(el('span', 'warn', 'purpose missing'));
  if (t.customer) what.append(el('span', 'muted', ' · ' + t.customer));
  if (toConfirm(t) && t.rule) what.append(el('span', 'rule', 'by rule: ' + t.rule.text));
  a.append(when, figures, what);
  li.append(a);
  if (toClassify(t) && t.state === 'closed' && !isViewer()) li.append(taps(t));
  if (toConfirm(t) && !isViewer()) {
    const b = el('button', 'confirm', 'Confirm');
    b.type = 'button';
    b.setAttribute('aria-label', `Confirm trip ${t.id}: ${t.commute ? 'commute' : t.kind}, by rule ${t.rule ? t.rule.text : ''}`);
    b.addEventListener('click', () => act(b, () => confirmTrips([t.id])));
    const row = el('div', 'taps');
    row.append(b);
    li.append(row);
  }
  return li;
}

// One tap classifies a trip: business, private, and commute where the country's log keeps commutes apart.
const KINDS = [['business', 'Business', { kind: 'business' }], ['private', 'Private', { kind: 'private' }],
  ['commute', 'Commute', { commute: true }]];
function taps(t) {
  const row = el('div', 'taps');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', `Classify trip ${t.id}`);
  const commute = (COUNTRIES[(S.profile || {}).country] || {}).commute;
  for (const [kind, label, changes] of KINDS) {
    if (kind === 'commute' && !commute) continue;
    const b = el('button', 'tap k-' + kind, label);
    b.type = 'button';
    b.dataset.kind = kind;
    b.setAttribute('aria-label', `Trip ${t.id}: ${label.toLowerCase()}`);
    b.addEventListener('click', () => {
      // A business trip needs its purpose: asked for in the row unless the trip has one.
      if (kind === 'business' && !t.purpose) {
        const f = purposeForm(t);
        row.replaceWith(f);
        f.querySelector('input').focus();
      }
      else act(b, () => classify(t, kind, changes));
    });
    row.append(b);
  }
  return row;
}

// The purpose of a business trip tapped in the list: the one last given for a trip to the same place, if any, to
// confirm or change; saved with a second tap (or Enter).
function purposeForm(t) {
  const f = el('form', 'taps purpose');
  const id = 'tap-purpose-' + t.id;
  const label = el('label', 'sr-only', `Purpose of trip ${t.id}`);
  label.htmlFor = id;
  const input = el('input');
  input.id = id;
  input.setAttribute('list', 'dl-purpose');
  input.autocomplete = 'off';
  input.placeholder = 'Purpose';
  input.value = lastPurpose(t);
  const save = el('button', 'tap k-business', 'Save business');
  save.type = 'submit';
  const cancel = el('button', 'tap', 'Cancel');
  cancel.type = 'button';
  cancel.addEventListener('click', () => renderTrips());
  f.append(label, input, save, cancel);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    act(save, () => {
      const purpose = input.value.trim();
      if (!purpose) refuse('Give the trip’s purpose: a business trip needs one.');
      return classify(t, 'business', { kind: 'business', purpose });
    });
  });
  choices();
  return f;
}
function lastPurpose(t) {
  const to = t.end_place && t.end_place.id;
  if (to == null) return '';
  const same = (S.trips || []).filter((x) => x.id !== t.id && x.kind === 'business' && x.purpose && x.end_place && x.end_place.id === to);
  return same.length ? same[same.length - 1].purpose : '';
}

async function classify(t, kind, changes) {
  const done = await rpc('edit', { id: t.id, changes, reason: 'classified with one tap on the page' });
  await loadTrips();
  // The undo puts back what the tap changed: the kind, and a purpose given with it.
  const back = { kind: 'unclassified' };
  if ('purpose' in changes) back.purpose = t.purpose || '';
  say(`Trip ${done.id}: ${kind}.`, 'ok', async () => {
    await rpc('edit', { id: t.id, changes: back, reason: 'one tap undone on the page' });
    say(`Trip ${t.id} is to classify again.`);
    await loadTrips();
  });
}

// Confirms what rules made of trips: one tap for one trip, or all those listed; undone with the message's Undo.
async function confirmTrips(ids) {
  const done = await rpc('confirm', { ids });
  const which = done.map((t) => t.id);
  const text = done.length === 1 ? `Trip ${done[0].id} confirmed.` : `${done.length} trips confirmed.`;
  say(text, 'ok', done.length ? async () => {
    const back = await rpc('confirm', { ids: which, undo: true });
    say(back.length === 1 ? `Trip ${back[0].id} is to confirm again.` : `${back.length} trips are to confirm again.`);
    await loadTrips();
  } : null);
  const confirmed = new Set(which);
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

export { period, loadTrips, keepOverview, places, taps, purposeForm, lastPurpose, classify, toClassify, toConfirm, confirmTrips, renderTrips, badge, span, tripRow, openAdd, regularChosen, seconds, saveAdd };
