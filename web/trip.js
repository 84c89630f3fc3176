// trackd's page: One trip: its detail, map and history, edited or deleted.
import { $, day, dl, dur, el, fail, fmt, km, kmText, refuse, rpc, S, say, tripDist, unit } from './core.js';
import { span } from './trips.js';
import { title } from './app.js';

const ROUTE = { withheld: 'No route: private trips keep no positions in privacy mode.', erased: 'The route of this trip was erased.' };
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
  title('Trip ' + id);
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
  const t = S.detail && S.detail.trip;
  if (!t) return;
  await rpc('confirm', { ids: [t.id] });
  say(`Trip ${t.id} confirmed.`);
  await loadDetail(t.id);
}

function renderDetail(d) {
  const t = d.trip;
  title(`Trip ${t.id}`);
  // The map: only trips with a route have one.
  const img = $('trip-map'), note = $('trip-map-note');
  const reason = t.route ? ROUTE[t.route] : t.source !== 'gps' ? 'Entered by hand: no route.' : !t.date ? 'No map yet: the trip has no fix.' : '';
  if (reason) {
    img.hidden = true; img.removeAttribute('src');
    note.textContent = reason; note.hidden = false;
  } else {
    const src = `/api/trips/${t.id}/map.svg`;
    img.alt = `Route of trip ${t.id}`;
    if (img.getAttribute('src') !== src) { note.hidden = true; img.hidden = false; img.src = src; }
  }
  const place = (p) => p ? p.name + (p.address ? ', ' + p.address : '') : null;
  const odo = (v) => v != null ? kmText(v) : '?';
  const u = unit();
  const secs = t.start && t.end ? (Date.parse(t.end) - Date.parse(t.start)) / 1000 : null;
  let distText = tripDist(t) + ' ' + u;
  if (t.measured_distance_m != null && t.calibration_factor && t.calibration_factor !== 1) {
    distText += ` (measured ${km(t.measured_distance_m)} ${u} × ${t.calibration_factor})`;
  }
  dl($('detail-facts'), [
    ['State', t.state === 'deleted' ? 'deleted: ' + (t.deletion_reason || '') : t.state === 'open' ? 'being recorded' : null, 'warn'],
    ['Date', day(t.date)],
    ['Time', t.start ? span(t) + (secs != null ? ` (${dur(secs)})` : '') : null],
    ['Distance', distText],
    ['Odometer', t.odometer_start != null || t.odometer_end != null ? `${odo(t.odometer_start)} → ${odo(t.odometer_end)} ${u}` : null],
    ['From', place(t.start_place)],
    ['To', place(t.end_place)],
    ['Kind', t.commute ? 'private (commute: home–work)' : t.kind],
    ['Purpose', t.purpose],
    ['Customer', t.customer],
    ['Destination', t.destination],
    ['Detour', t.detour],
    ['Regular trip', t.regular],
    ['Rule', t.rule ? t.rule.text + (t.to_confirm ? ' (to confirm)' : ', confirmed') : null, t.to_confirm ? 'warn' : null],
    ['Source', { gps: 'GPS', manual: 'entered by hand', regular: 'from a regular trip', unrecorded: 'odometer gap', correction: 'odometer correction' }[t.source] || t.source],
    ['Track', d.track_points ? `${d.track_points} point${d.track_points === 1 ? '' : 's'}` + (d.segments > 1 ? ` in ${d.segments} pieces` : '') : null],
    ['Gaps', t.gaps ? `${t.gaps}, ${Math.round(t.bridged_s || 0)} s and ${km(t.bridged_m)} ${u} bridged` : null],
    ['Ended', t.end_reason && t.end_reason !== 'stopped' ? t.end_reason : null],
  ]);
  $('detail-confirm').hidden = !(t.to_confirm && t.state === 'closed');
  // History, oldest first as the log keeps it.
  const h = $('trip-history');
  h.replaceChildren();
  for (const r of d.revisions || []) {
    const li = el('li');
    const what = el('span', 'what');
    what.append(el('b', null, r.field.replace(/_/g, ' ')), ': ');
    if (r.old != null && r.new != null) what.append(`${r.old} → ${r.new}`);
    else if (r.new != null) what.append(String(r.new));
    else if (r.old != null) what.append(`cleared (was ${r.old})`);
    const meta = [fmt('full', r.time), r.user].filter(Boolean).join(' · ');
    li.append(what, el('span', 'meta', meta + (r.reason ? ` · “${r.reason}”` : '')));
    h.append(li);
  }
  if (!h.children.length) h.append(el('li', 'empty', 'No changes since it was recorded.'));
  const ev = $('trip-events');
  ev.replaceChildren();
  for (const e of d.events || []) {
    const li = el('li');
    li.append(el('span', 'what', e.kind.replace(/-/g, ' ') + (e.detail ? ': ' + e.detail : '')), el('span', 'meta', e.time ? fmt('full', e.time) : 'before the first fix'));
    ev.append(li);
  }
  ev.hidden = $('events-head').hidden = !ev.children.length;
  // The forms.
  const gone = t.state === 'deleted';
  $('edit-form').hidden = gone;
  $('delete-form').hidden = gone;
  $('edit-kind').value = t.commute ? 'commute' : t.kind;
  for (const f of ['purpose', 'customer', 'destination', 'detour']) $('edit-' + f).value = t[f] || '';
  placeSelect($('edit-start-place'), t.start_place);
  placeSelect($('edit-end-place'), t.end_place);
}

function placeSelect(sel, cur) {
  sel.replaceChildren(new Option(cur ? cur.name : 'No place', ''));
  if (cur) sel.append(new Option('No place (clear it)', '-'));
  for (const p of S.places || []) if (!cur || p.id !== cur.id) sel.append(new Option(p.name, String(p.id)));
}

async function saveEdit() {
  const d = S.detail;
  if (!d) refuse('The trip is still loading.');
  const t = d.trip;
  const changes = {};
  const kind = $('edit-kind').value;
  if (kind === 'commute') {
    if (!t.commute) changes.commute = true;
  } else {
    if (kind !== t.kind) changes.kind = kind;
    if (t.commute) changes.commute = false;
  }
  for (const f of ['purpose', 'customer', 'destination', 'detour']) {
    const v = $('edit-' + f).value.trim();
    if (v !== (t[f] || '')) changes[f] = v;
  }
  for (const [f, id] of [['start_place', 'edit-start-place'], ['end_place', 'edit-end-place']]) {
    const v = $(id).value;
    if (v) changes[f] = v === '-' ? '' : v;
  }
  if (!Object.keys(changes).length) refuse('Nothing to change: change a field first.');
  const reason = $('edit-reason').value.trim();
  if (!reason) refuse('Say why you change it: the reason is kept in the trip’s history.');
  await rpc('edit', { id: t.id, changes, reason });
  $('edit-reason').value = '';
  say(`Trip ${t.id} changed.`);
  await loadDetail(t.id);
}

async function deleteTrip() {
  const d = S.detail;
  if (!d) refuse('The trip is still loading.');
  const reason = $('delete-reason').value.trim();
  if (!reason) refuse('Say why the trip is deleted: the reason is kept in the log.');
  const t = await rpc('delete', { id: d.trip.id, reason });
  $('delete-reason').value = '';
  say(`Trip ${t.id} deleted. It stays in the log, marked deleted.`);
  await loadDetail(t.id);
}

// The map's failure: the board says why in its JSON.
async function mapFailed() {
  const img = $('trip-map');
  const src = img.getAttribute('src');
  if (!src) return;
  img.hidden = true;
  const note = $('trip-map-note');
  note.hidden = false;
  note.textContent = 'Loading the map failed.';
  try {
    const r = await fetch(src, { credentials: 'same-origin' });
    const j = await r.json().catch(() => null);
    const m = j && j.error && j.error.message;
    note.textContent = m && m !== 'Not Found' ? m : `No map: the board has none for this trip (${r.status}).`;
  } catch (e) {
    note.textContent = 'The map could not be loaded: the board did not answer.';
  }
}

export { confirmDetail, ROUTE, loadDetail, renderDetail, placeSelect, saveEdit, deleteTrip, mapFailed };
