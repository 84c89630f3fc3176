// trackd's page: One trip: its detail, map and history, edited or deleted.
import { boardSays, $, day, dl, dur, el, fail, fmt, km, kmText, refuse, rpc, S, say, t, tripDist, unit, ruleText } from './core.js';
import { kindName, span } from './trips.js';
import { decimal } from './i18n.js';
import { title } from './app.js';

// Why a GPS trip has no route (the trip's `route`), in the page's language when it is shown.
const ROUTE = {
  withheld: () => t('No route: private trips keep no positions in privacy mode.'),
  erased: () => t('The route of this trip was erased.'),
};
async function loadDetail(id) {
  const sec = $('trip-detail');
  if (sec.dataset.id !== String(id)) {
    sec.dataset.id = id;
    S.detail = null;
    $('detail-facts').replaceChildren();
    $('trip-history').replaceChildren();
    $('trip-map').hidden = true;
    $('trip-map').removeAttribute('src');
    $('trip-map-note').hidden = true;
    $('edit-reason').value = '';
    $('delete-reason').value = '';
  }
  title(t('Trip {number}', { number: id }));
  try {
    const [d] = await Promise.all([rpc('show', { id }), S.places ? null : rpc('place.list').then((p) => { S.places = p; })]);
    if (sec.dataset.id !== String(id)) return;
    S.detail = d;
    renderDetail(d);
  } catch (e) {
    if (sec.dataset.id === String(id)) $('detail-facts').replaceChildren(el('dd', 'muted', e.message));
    fail(e);
  }
}

// Confirms what a rule made of the trip shown.
async function confirmDetail() {
  const trip = S.detail && S.detail.trip;
  if (!trip) return;
  await rpc('confirm', { ids: [trip.id] });
  say(t('Trip {number} confirmed.', { number: trip.id }));
  await loadDetail(trip.id);
}

// A calibration factor as the page's language writes it: up to six decimals, none trailing.
const factorText = (x) => decimal(x, 6, false).replace(/0+$/, '').replace(/[.,]$/, '');
// What a trip's source says (the trip's `source`), as a person reads it.
function sourceName(source) {
  switch (source) {
    case 'gps': return 'GPS';
    case 'manual': return t('entered by hand');
    case 'regular': return t('from a regular trip');
    case 'unrecorded': return t('odometer gap');
    case 'correction': return t('odometer correction');
    default: return source;
  }
}
// Why a GPS trip ended (the trip's `end_reason`, other than a stop), as a person reads it.
function endName(reason) {
  switch (reason) {
    case 'shutdown': return t('shutdown');
    case 'power-lost': return t('power-lost');
    case 'resumed': return t('resumed');
    case 'ignition-off': return t('ignition-off');
    default: return reason;
  }
}
// A changed field of the trip's history (a revision's `field`), as a person reads it.
function fieldName(field) {
  switch (field) {
    case 'kind': return t('kind');
    case 'purpose': return t('purpose');
    case 'customer': return t('customer');
    case 'destination': return t('destination');
    case 'commute': return t('commute');
    case 'detour': return t('detour');
    case 'start_place': return t('start place');
    case 'end_place': return t('end place');
    case 'confirmed': return t('confirmed');
    case 'entry': return t('entry');
    case 'state': return t('state');
    default: return field.replace(/_/g, ' ');
  }
}
// A value of the trip's history as a person reads it: a kind or a yes/no in the page's language, the entry trackd
// wrote as it wrote it (its own words), anything else as it was typed.
function historyValue(field, value) {
  if (value == null) return '';
  if (field === 'kind' || field === 'state') return kindName(String(value)) || String(value);
  if (field === 'confirmed' || field === 'commute') {
    return value === 'yes' || value === 'true' || value === '1' ? t('yes') : value === 'no' || value === 'false' || value === '0' ? t('no') : String(value);
  }
  if (field === 'entry') return boardSays(null, String(value));
  return String(value);
}
// What happened during the trip (an event's `kind`), as a person reads it.
function eventName(kind) {
  switch (kind) {
    case 'idle-alert': return t('idle alert');
    case 'fix-lost': return t('fix lost');
    case 'fix-regained': return t('fix regained');
    case 'gap': return t('gap');
    case 'power-lost': return t('power lost');
    case 'resumed': return t('resumed');
    case 'started': return t('started');
    case 'stopped': return t('stopped');
    case 'error': return t('error');
    default: return kind.replace(/-/g, ' ');
  }
}

function renderDetail(d) {
  const trip = d.trip;
  title(t('Trip {number}', { number: trip.id }));
  // The map: only trips with a route have one.
  const img = $('trip-map'), note = $('trip-map-note');
  const reason = trip.route ? ROUTE[trip.route] && ROUTE[trip.route]() : trip.source !== 'gps' ? t('Entered by hand: no route.')
    : !trip.date ? t('No map yet: the trip has no fix.') : '';
  if (reason) {
    img.hidden = true; img.removeAttribute('src');
    note.textContent = reason; note.hidden = false;
  } else {
    const src = `/api/trips/${trip.id}/map.svg`;
    img.alt = t('Route of trip {number}', { number: trip.id });
    if (img.getAttribute('src') !== src) { note.hidden = true; img.hidden = false; img.src = src; }
  }
  const place = (p) => p ? p.name + (p.address ? ', ' + p.address : '') : null;
  const odo = (v) => v != null ? kmText(v) : '?';
  const u = unit();
  const secs = trip.start && trip.end ? (Date.parse(trip.end) - Date.parse(trip.start)) / 1000 : null;
  let distText = tripDist(trip) + ' ' + u;
  if (trip.measured_distance_m != null && trip.calibration_factor && trip.calibration_factor !== 1) {
    distText = t('{distance} {unit} (measured {measured} {unit} × {factor})', {
      distance: tripDist(trip), unit: u, measured: km(trip.measured_distance_m), factor: factorText(trip.calibration_factor) });
  }
  const points = d.track_points === 1 ? t('1 point') : t('{n} points', { n: decimal(d.track_points || 0, 0) });
  dl($('detail-facts'), [
    [t('State'), trip.state === 'deleted' ? t('deleted: {reason}', { reason: trip.deletion_reason || '' })
      : trip.state === 'open' ? t('being recorded') : null, 'warn'],
    [t('Date'), day(trip.date)],
    [t('Time'), trip.start ? span(trip) + (secs != null ? ` (${dur(secs)})` : '') : null],
    [t('Distance'), distText],
    [t('Odometer'), trip.odometer_start != null || trip.odometer_end != null ? `${odo(trip.odometer_start)} → ${odo(trip.odometer_end)} ${u}` : null],
    [t('From'), place(trip.start_place)],
    [t('To'), place(trip.end_place)],
    [t('Kind'), trip.commute ? t('private (commute: home–work)') : kindName(trip.kind)],
    [t('Purpose'), trip.purpose],
    [t('Customer'), trip.customer],
    [t('Destination'), trip.destination],
    [t('Detour'), trip.detour],
    [t('Regular trip'), trip.regular],
    [t('Rule'), trip.rule ? (trip.to_confirm ? t('{rule} (to confirm)', { rule: ruleText(trip.rule.text) }) : t('{rule}, confirmed', { rule: ruleText(trip.rule.text) })) : null,
      trip.to_confirm ? 'warn' : null],
    [t('Source'), sourceName(trip.source)],
    [t('Track'), d.track_points ? (d.segments > 1 ? t('{points} in {n} pieces', { points, n: d.segments }) : points) : null],
    [t('Gaps'), trip.gaps ? t('{gaps}, {seconds} s and {distance} {unit} bridged',
      { gaps: trip.gaps, seconds: Math.round(trip.bridged_s || 0), distance: km(trip.bridged_m), unit: u }) : null],
    [t('Ended'), trip.end_reason && trip.end_reason !== 'stopped' ? endName(trip.end_reason) : null],
  ]);
  $('detail-confirm').hidden = !(trip.to_confirm && trip.state === 'closed');
  // History, oldest first as the log keeps it.
  const h = $('trip-history');
  h.replaceChildren();
  for (const r of d.revisions || []) {
    const li = el('li');
    const what = el('span', 'what');
    what.append(el('b', null, fieldName(r.field)), ': ');
    const old = historyValue(r.field, r.old), now = historyValue(r.field, r.new);
    if (r.old != null && r.new != null) what.append(old, ' → ', now);
    else if (r.new != null) what.append(now);
    else if (r.old != null) what.append(t('cleared (was {old})', { old: old.textContent || old }));
    const meta = [fmt('full', r.time), r.user].filter(Boolean).join(' · ');
    li.append(what, el('span', 'meta', meta + (r.reason ? ` · “${r.reason}”` : '')));
    h.append(li);
  }
  if (!h.children.length) h.append(el('li', 'empty', t('No changes since it was recorded.')));
  const ev = $('trip-events');
  ev.replaceChildren();
  for (const e of d.events || []) {
    const li = el('li');
    const what = el('span', 'what', eventName(e.kind) + (e.detail ? ': ' : ''));
    if (e.detail) what.append(boardSays(null, e.detail));
    li.append(what,
      el('span', 'meta', e.time ? fmt('full', e.time) : t('before the first fix')));
    ev.append(li);
  }
  ev.hidden = $('events-head').hidden = !ev.children.length;
  // The forms.
  const gone = trip.state === 'deleted';
  $('edit-form').hidden = gone;
  $('delete-form').hidden = gone;
  $('edit-kind').value = trip.commute ? 'commute' : trip.kind;
  for (const f of ['purpose', 'customer', 'destination', 'detour']) $('edit-' + f).value = trip[f] || '';
  placeSelect($('edit-start-place'), trip.start_place);
  placeSelect($('edit-end-place'), trip.end_place);
}

function placeSelect(sel, cur) {
  sel.replaceChildren(new Option(cur ? cur.name : t('No place'), ''));
  if (cur) sel.append(new Option(t('No place (clear it)'), '-'));
  for (const p of S.places || []) if (!cur || p.id !== cur.id) sel.append(new Option(p.name, String(p.id)));
}

async function saveEdit() {
  const d = S.detail;
  if (!d) refuse(t('The trip is still loading.'));
  const trip = d.trip;
  const changes = {};
  const kind = $('edit-kind').value;
  if (kind === 'commute') {
    if (!trip.commute) changes.commute = true;
  } else {
    if (kind !== trip.kind) changes.kind = kind;
    if (trip.commute) changes.commute = false;
  }
  for (const f of ['purpose', 'customer', 'destination', 'detour']) {
    const v = $('edit-' + f).value.trim();
    if (v !== (trip[f] || '')) changes[f] = v;
  }
  for (const [f, id] of [['start_place', 'edit-start-place'], ['end_place', 'edit-end-place']]) {
    const v = $(id).value;
    if (v) changes[f] = v === '-' ? '' : v;
  }
  if (!Object.keys(changes).length) refuse(t('Nothing to change: change a field first.'));
  const reason = $('edit-reason').value.trim();
  if (!reason) refuse(t('Say why you change it: the reason is kept in the trip’s history.'));
  await rpc('edit', { id: trip.id, changes, reason });
  $('edit-reason').value = '';
  say(t('Trip {number} changed.', { number: trip.id }));
  await loadDetail(trip.id);
}

async function deleteTrip() {
  const d = S.detail;
  if (!d) refuse(t('The trip is still loading.'));
  const reason = $('delete-reason').value.trim();
  if (!reason) refuse(t('Say why the trip is deleted: the reason is kept in the log.'));
  const trip = await rpc('delete', { id: d.trip.id, reason });
  $('delete-reason').value = '';
  say(t('Trip {number} deleted. It stays in the log, marked deleted.', { number: trip.id }));
  await loadDetail(trip.id);
}

// The map's failure: the board says why in its JSON.
async function mapFailed() {
  const img = $('trip-map');
  const src = img.getAttribute('src');
  if (!src) return;
  img.hidden = true;
  const note = $('trip-map-note');
  note.hidden = false;
  note.textContent = t('Loading the map failed.');
  try {
    const r = await fetch(src, { credentials: 'same-origin' });
    const j = await r.json().catch(() => null);
    const m = j && j.error && j.error.message;
    note.textContent = m && m !== 'Not Found' ? m : t('No map: the board has none for this trip ({status}).', { status: r.status });
  } catch (e) {
    note.textContent = t('The map could not be loaded: the board did not answer.');
  }
}

export { confirmDetail, ROUTE, loadDetail, renderDetail, placeSelect, saveEdit, deleteTrip, mapFailed };
