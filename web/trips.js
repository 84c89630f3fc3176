// trackd's page: Trips: a period's list and a trip added by hand.
import { $, act, COUNTRIES, day, el, fail, km, money, num, refuse, rpc, S, say, t, tenthsText, thisMonth, time, today, tripDist, tripTenths, typedMetres, unit, ruleText } from './core.js';
import { choices, openDialog } from './now.js';
import { isViewer } from './live.js';
import { loadSuggestions } from './rules.js';
import { decimal } from './i18n.js';

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
  if (!trips.length) list.append(el('li', 'empty', t('No trips in this period.')));
  if (first.length) {
    list.append(el('li', 'head', t('To classify ({count})', { count: first.length })));
    for (const trip of first) list.append(tripRow(trip));
  }
  if (confirm.length) {
    const head = el('li', 'head with-button');
    head.append(el('span', null, t('To confirm ({count})', { count: confirm.length })));
    if (!isViewer()) {
      const all = el('button', 'confirm-all', t('Confirm all {count}', { count: confirm.length }));
      all.type = 'button';
      all.id = 'confirm-all';
      all.addEventListener('click', () => act(all, () => confirmTrips(confirm.map((trip) => trip.id))));
      head.append(all);
    }
    list.append(head);
    for (const trip of confirm) list.append(tripRow(trip));
  }
  if ((first.length || confirm.length) && rest.length) list.append(el('li', 'head', t('Classified')));
  for (const trip of rest) list.append(tripRow(trip));
  const counted = trips.filter((trip) => trip.state !== 'deleted');
  const sum = (k) => counted.filter((trip) => !k || trip.kind === k).reduce((a, trip) => a + tripTenths(trip), 0);
  const u = unit();
  const n = counted.length;
  const parts = [n === 1 ? t('1 trip') : t('{n} trips', { n: decimal(n, 0) }), tenthsText(sum()) + ' ' + u];
  if (sum('business')) parts.push(t('business {distance} {unit}', { distance: tenthsText(sum('business')), unit: u }));
  if (sum('private')) parts.push(t('private {distance} {unit}', { distance: tenthsText(sum('private')), unit: u }));
  if (S.currency && S.total) parts.push(money(S.total, S.currency));
  $('trip-summary').textContent = trips.length ? parts.join(' · ') : '';
}

// A trip's kind (business, private, unclassified, or commute) as a person reads it; a kind the page does not know
// as the board wrote it.
function kindName(kind) {
  switch (kind) {
    case 'business': return t('business');
    case 'private': return t('private');
    case 'unclassified': return t('unclassified');
    case 'commute': return t('commute');
    default: return kind;
  }
}
function badge(trip) {
  if (trip.state === 'deleted') return el('span', 'badge k-deleted', t('deleted'));
  if (trip.state === 'open') return el('span', 'badge k-open', t('recording'));
  return el('span', 'badge k-' + trip.kind, kindName(trip.commute ? 'commute' : trip.kind));
}
function span(trip) {
  if (trip.start && trip.end) return `${time(trip.start)}–${time(trip.end)}`;
  if (trip.start) return `${time(trip.start)}–…`;
  switch (trip.source) {
    case 'manual': return t('by hand');
    case 'regular': return t('regular trip');
    case 'unrecorded': return t('not recorded');
    case 'correction': return t('correction');
    default: return '';
  }
}

// "Home → Example Ltd": the named places a trip started and ended at (… for an end without one).
function places(trip) {
  const a = trip.start_place && trip.start_place.name, b = trip.end_place && trip.end_place.name;
  return a || b ? `${a || '…'} → ${b || '…'}` : '';
}

function tripRow(trip) {
  const li = el('li', 'trip' + (trip.kind === 'unclassified' ? ' unclassified' : '') + (trip.state === 'deleted' ? ' deleted' : '')
    + (toConfirm(trip) ? ' to-confirm' : ''));
  li.dataset.id = trip.id;
  const a = el('a');
  a.href = '#trip/' + trip.id;
  const when = el('span', 'when');
  when.append(el('b', null, day(trip.date)), ' ');
  if (S.changed && S.changed.has(trip.id)) {
    const c = el('span', 'changed', t('changed'));
    c.title = t('Changed after it was written: the trip’s history says what and why');
    when.append(c, ' ');
  }
  when.append(el('span', 'muted', span(trip)));
  const dist = el('span', 'dist', tripDist(trip));
  dist.append(el('small', null, ' ' + unit()));
  // The distance, and under it a business trip's amount.
  const figures = el('span', 'figures');
  figures.append(dist);
  const amount = S.amounts && S.amounts.get(trip.id);
  if (amount != null && trip.state !== 'deleted') figures.append(el('span', 'amount', money(amount, S.currency)));
  const where = places(trip);
  if (where) when.append(el('span', 'places', where));
  const what = el('span', 'what');
  const label = trip.purpose || (trip.regular ? t('regular: {name}', { name: trip.regular }) : '') || trip.destination || '';
  what.append(badge(trip), ' ', label);
  if (!label && trip.kind === 'business' && trip.state !== 'deleted') what.append(el('span', 'warn', t('purpose missing')));
  if (trip.customer) what.append(el('span', 'muted', ' · ' + trip.customer));
  if (toConfirm(trip) && trip.rule) what.append(el('span', 'rule', t('by rule: {rule}', { rule: ruleText(trip.rule.text) })));
  a.append(when, figures, what);
  li.append(a);
  if (toClassify(trip) && trip.state === 'closed' && !isViewer()) li.append(taps(trip));
  if (toConfirm(trip) && !isViewer()) {
    const b = el('button', 'confirm', t('Confirm'));
    b.type = 'button';
    b.setAttribute('aria-label', t('Confirm trip {number}: {kind}, by rule {rule}', {
      number: trip.id, kind: kindName(trip.commute ? 'commute' : trip.kind), rule: trip.rule ? ruleText(trip.rule.text) : '' }));
    b.addEventListener('click', () => act(b, () => confirmTrips([trip.id])));
    const row = el('div', 'taps');
    row.append(b);
    li.append(row);
  }
  return li;
}

// One tap classifies a trip: business, private, and commute where the country's log keeps commutes apart.
const KINDS = [['business', () => t('Business'), { kind: 'business' }], ['private', () => t('Private'), { kind: 'private' }],
  ['commute', () => t('Commute'), { commute: true }]];
function taps(trip) {
  const row = el('div', 'taps');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', t('Classify trip {number}', { number: trip.id }));
  const commute = (COUNTRIES[(S.profile || {}).country] || {}).commute;
  for (const [kind, label, changes] of KINDS) {
    if (kind === 'commute' && !commute) continue;
    const b = el('button', 'tap k-' + kind, label());
    b.type = 'button';
    b.dataset.kind = kind;
    b.setAttribute('aria-label', t('Trip {number}: {kind}', { number: trip.id, kind: kindName(kind) }));
    b.addEventListener('click', () => {
      // A business trip needs its purpose: asked for in the row unless the trip has one.
      if (kind === 'business' && !trip.purpose) {
        const f = purposeForm(trip);
        row.replaceWith(f);
        f.querySelector('input').focus();
      }
      else act(b, () => classify(trip, kind, changes));
    });
    row.append(b);
  }
  return row;
}

// The purpose of a business trip tapped in the list: the one last given for a trip to the same place, if any, to
// confirm or change; saved with a second tap (or Enter).
function purposeForm(trip) {
  const f = el('form', 'taps purpose');
  const id = 'tap-purpose-' + trip.id;
  const label = el('label', 'sr-only', t('Purpose of trip {number}', { number: trip.id }));
  label.htmlFor = id;
  const input = el('input');
  input.id = id;
  input.setAttribute('list', 'dl-purpose');
  input.autocomplete = 'off';
  input.placeholder = t('Purpose');
  input.value = lastPurpose(trip);
  const save = el('button', 'tap k-business', t('Save business'));
  save.type = 'submit';
  const cancel = el('button', 'tap', t('Cancel'));
  cancel.type = 'button';
  cancel.addEventListener('click', () => renderTrips());
  f.append(label, input, save, cancel);
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    act(save, () => {
      const purpose = input.value.trim();
      if (!purpose) refuse(t('Give the trip’s purpose: a business trip needs one.'));
      return classify(trip, 'business', { kind: 'business', purpose });
    });
  });
  choices();
  return f;
}
function lastPurpose(trip) {
  const to = trip.end_place && trip.end_place.id;
  if (to == null) return '';
  const same = (S.trips || []).filter((x) => x.id !== trip.id && x.kind === 'business' && x.purpose && x.end_place && x.end_place.id === to);
  return same.length ? same[same.length - 1].purpose : '';
}

async function classify(trip, kind, changes) {
  const done = await rpc('edit', { id: trip.id, changes, reason: 'classified with one tap on the page' });
  await loadTrips();
  // The undo puts back what the tap changed: the kind, and a purpose given with it.
  const back = { kind: 'unclassified' };
  if ('purpose' in changes) back.purpose = trip.purpose || '';
  say(t('Trip {number}: {kind}.', { number: done.id, kind: kindName(kind) }), 'ok', async () => {
    await rpc('edit', { id: trip.id, changes: back, reason: 'one tap undone on the page' });
    say(t('Trip {number} is to classify again.', { number: trip.id }));
    await loadTrips();
  });
}

// Confirms what rules made of trips: one tap for one trip, or all those listed; undone with the message's Undo.
async function confirmTrips(ids) {
  const done = await rpc('confirm', { ids });
  const which = done.map((trip) => trip.id);
  const text = done.length === 1 ? t('Trip {number} confirmed.', { number: done[0].id })
    : t('{n} trips confirmed.', { n: done.length });
  say(text, 'ok', done.length ? async () => {
    const back = await rpc('confirm', { ids: which, undo: true });
    say(back.length === 1 ? t('Trip {number} is to confirm again.', { number: back[0].id })
      : t('{n} trips are to confirm again.', { n: back.length }));
    await loadTrips();
  } : null);
  const confirmed = new Set(which);
  S.trips = (S.trips || []).map((trip) => confirmed.has(trip.id) ? done.find((d) => d.id === trip.id) : trip);
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
  $('add-distance').placeholder = km(r.distance_m, false);
}
const seconds = (v) => { if (!v) return null; const [h, m] = v.split(':').map(Number); return h * 3600 + m * 60; };

async function saveAdd() {
  const date = $('add-date').value;
  if (!date) refuse(t('Give the date of the trip.'));
  const p = { date };
  const regName = $('add-regular').value;
  const reg = (S.regulars || []).find((x) => x.name === regName);
  if (regName) p.regular = regName;
  const d = num($('add-distance').value), o = num($('add-odometer-end').value);
  if (d != null && o != null) refuse(t('Give the distance or the odometer at the end, not both.'));
  if (d != null) { if (d <= 0) refuse(t('The distance must be more than 0.')); p.distance_m = Math.round(typedMetres(d)); }
  if (o != null) p.odometer_end = typedMetres(o) / 1000;
  if (!regName && d == null && o == null) refuse(t('Say how far: the distance in {unit}, or the odometer at the end.', { unit: unit() }));
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
  const trip = await rpc('add', p);
  $('add-dialog').close();
  say(t('Trip {number} added: {distance} {unit} on {date}.', { number: trip.id, distance: tripDist(trip), unit: unit(), date: day(trip.date) }));
  loadTrips();
}

export { period, loadTrips, keepOverview, kindName, places, taps, purposeForm, lastPurpose, classify, toClassify, toConfirm, confirmTrips, renderTrips, badge, span, tripRow, openAdd, regularChosen, seconds, saveAdd };
