// trackd's page: Now: the live state, starting and stopping a trip, naming the place where the car stands.
import { boardSays, $, act, cap, distance, dur, el, fail, fillList, km, kmText, now, refuse, rpc, S, say, t, time, tripDist, unit, unitMetres } from './core.js';
import { alive, isViewer } from './live.js';
import { loadPlaces } from './places.js';
import { mail } from './reports.js';
import { firstRunLive, firstStep, showFirstFix } from './first-run.js';
import { kindName } from './trips.js';
import { decimal } from './i18n.js';
import { defaults, title } from './app.js';

// A fix's quality (gpsd's status) beyond a plain GPS fix, as a person reads it; undefined for none.
function fixQuality(status) {
  switch (status) {
    case 2: return 'DGPS';
    case 3: return t('RTK fixed');
    case 4: return t('RTK float');
    case 5: case 6: return t('dead reckoning');
    default: return undefined;
  }
}
function quality(f, age) {
  if (!f || !(f.mode >= 2)) return age > 0 && f ? t('no fix (for {seconds} s)', { seconds: Math.round(age) }) : t('no fix');
  const q = fixQuality(f.status);
  const parts = [f.mode === 3 ? (q ? t('3D fix ({quality})', { quality: q }) : t('3D fix'))
    : q ? t('2D fix ({quality})', { quality: q }) : t('2D fix')];
  if (f.eph != null) parts.push('±' + Math.round(f.eph) + ' m');
  if (f.uSat != null) parts.push(f.uSat === 1 ? t('1 satellite') : t('{n} satellites', { n: f.uSat }));
  if (age > 5) parts.push(t('{seconds} s ago', { seconds: Math.round(age) }));
  return parts.join(', ');
}
function showFix(f, age) {
  const stale = age > 10;
  $('speed').textContent = f && f.speed != null && !stale ? String(Math.round(Math.max(0, f.speed) * 3600 / unitMetres())) : '–';
  $('fix-quality').textContent = quality(f, age);
  S.fix = f;
  if (firstStep() === 3) showFirstFix();
}
// The receiver's state (status.source.state) as a person reads it; undefined for one the page does not know.
function sourceState(state) {
  switch (state) {
    case 'connected': return t('connected');
    case 'connecting': return t('connecting…');
    case 'lost': return t('lost');
    case 'ended': return t('ended');
    default: return undefined;
  }
}
function showSource(s) {
  if (!s) return;
  const dd = $('source-state');
  dd.textContent = sourceState(s.state) || s.state;
  if (s.detail && s.state !== 'connected') dd.append(boardSays('muted', s.detail));
  if (s.chosen) dd.append(el('span', 'muted', t('found: {address}', { address: s.chosen })));
}
// An uplink's state (UplinkStatus.State) as a person reads it.
function linkState(state) {
  switch (state) {
    case 'connecting': return t('connecting');
    case 'connected': return t('connected');
    case 'waiting': return t('waiting');
    case 'refused': return t('refused');
    default: return state;
  }
}
function linkText(u) {
  if (!u) return t('off');
  let text = linkState(u.state) + (u.broker ? ' · ' + u.broker : '');
  if (u.state !== 'connected' && u.detail) text += ': ' + u.detail;
  if (u.backlog_points) {
    text += ' · ' + (u.backlog_points === 1 ? t('1 point to send') : t('{n} points to send', { n: decimal(u.backlog_points, 0) }));
  }
  return text;
}

async function refreshStatus() {
  if (S.statusBusy || S.paired === false) return;
  S.statusBusy = true;
  try {
    S.statusAt = now();
    showStatus(await rpc('status'));
    if (S.away) alive();
  } catch (e) {
    if (e.status >= 500) S.away = e.message;
    if (e.status !== 401) fail(e);
  } finally {
    S.statusBusy = false;
  }
}

// The "send by e-mail" button: only when trackd.conf names who gets the report, and for a driver.
function showMail() {
  const mail = S.st && S.st.mail;
  const b = $('mail-report');
  b.hidden = !(mail && Array.isArray(mail.to) && mail.to.length) || isViewer();
  if (!b.hidden) b.title = t('To {recipients}', { recipients: mail.to.join(', ') });
}

function showStatus(st) {
  const first = !S.st;
  S.st = st;
  showMail();
  if (!S.fixAt || now() - S.fixAt > 2500) showFix(st.last_fix, st.last_fix_age || 0);
  if (S.ended) $('source-state').textContent = t('trackd is not answering');
  else showSource(st.source);
  const m = st.motion;
  $('motion').textContent = !m ? '–' : m.state === 'stationary'
    ? (m.since ? t('parked since {time}', { time: time(m.since) }) : t('parked')) : motionState(m.state);
  $('now-odometer').textContent = st.odometer != null ? kmText(st.odometer) + ' ' + unit() : t('not set (Settings)');
  $('uplink').textContent = linkText(st.uplink);
  $('traccar').textContent = linkText(st.osmand);
  $('traccar').hidden = $('traccar-label').hidden = !st.osmand;
  showTrip(st.trip || null);
  if (first) defaults();
  firstRunLive();
}

// The car's motion (status.motion.state) other than standing, as a person reads it.
function motionState(state) {
  switch (state) {
    case 'moving': return t('moving');
    case 'unknown': return t('unknown');
    default: return state;
  }
}

function showTrip(trip) {
  const run = !!trip;
  const state = $('trip-state');
  state.textContent = run ? kindName(trip.kind) : t('none');
  state.className = 'badge k-' + (run ? trip.kind : 'none');
  $('trip-card').classList.toggle('idle', !run);
  $('trip-no').textContent = run ? t('No. {number}', { number: trip.number }) : '';
  S.kmBase = run ? trip.distance_m || 0 : null;
  $('trip-km').textContent = km(S.kmBase);
  S.durBase = run && trip.duration != null ? trip.duration : null;
  S.durAt = now();
  $('start-row').hidden = run;
  $('stop-row').hidden = !run;
  $('stop-details').hidden = !(run && trip.kind === 'business' && trip.purpose);
  if (!run) {
    S.tripNo = null; S.tripInfo = null;
  } else if (trip.number !== S.tripNo) {
    S.tripNo = trip.number; S.tripInfo = null; S.tripInfoAt = 0;
  }
  if (run && trip.purpose !== undefined && S.tripInfo) S.tripInfo.purpose = trip.purpose;
  if (run && (!S.tripInfo || (!S.tripInfo.start_place && now() - S.tripInfoAt > 30000))) loadTripInfo(trip.number);
  showAbout(trip);
  tick();
}
// The running trip's distance is trackd's alone (the page never adds kilometres of its own): while a trip runs,
// fixes bring a fresh look at status at most every two seconds.
function freshTripDistance() {
  if (S.kmBase == null || (S.statusAt && now() - S.statusAt < 2000) || document.hidden) return;
  refreshStatus();
}

// The running trip as the log has it: where it started, its purpose and customer.
async function loadTripInfo(n) {
  if (S.tripInfoAt && now() - S.tripInfoAt < 5000) return;
  S.tripInfoAt = now();
  try {
    const d = await rpc('show', { id: n });
    if (S.tripNo === n) { S.tripInfo = d.trip; showAbout(S.st && S.st.trip); }
  } catch (e) { if (e.status !== 401) fail(e); }
}
function showAbout(trip) {
  const p = $('trip-about');
  const i = S.tripInfo || {};
  const from = (trip && trip.start_place) || i.start_place;
  const bits = [];
  if (trip && from && from.name) bits.push(t('from {place}', { place: from.name }));
  const purpose = (trip && trip.purpose) || i.purpose;
  if (trip && purpose) bits.push(purpose);
  if (trip && i.customer) bits.push(i.customer);
  p.textContent = cap(bits.join(' · '));
  p.hidden = !bits.length;
}

function tick() {
  const trip = S.st && S.st.trip;
  const d = $('trip-duration');
  if (S.durBase != null) d.textContent = dur(S.durBase + (now() - S.durAt) / 1000);
  else d.textContent = trip ? t('waiting for a fix') : '0:00:00';
  // Words in place of the figure (a long word in Estonian or German) at a size they fit at.
  d.classList.toggle('words', S.durBase == null && !!trip);
  if (S.fixAt && S.fix && now() - S.fixAt > 5000) showFix(S.fix, (now() - S.fixAt) / 1000);
}

function start(kind, btn) {
  act(btn, async () => {
    const trip = await rpc('start', { kind });
    say(kind === 'business' ? t('Business trip {number} started.', { number: trip.id })
      : t('Private trip {number} started.', { number: trip.id }));
    await refreshStatus();
  });
}

function stopClicked() {
  const trip = S.st && S.st.trip;
  if (trip && trip.kind === 'business' && !(trip.purpose || (S.tripInfo && S.tripInfo.purpose))) return openStop();
  act($('stop'), () => stopTrip(null, null));
}

async function stopTrip(purpose, customer) {
  // Given with the stop, they are the entry as it is written (an edit afterwards would be a change to it).
  const p = {};
  if (purpose) p.purpose = purpose;
  if (customer) p.customer = customer;
  const r = await rpc('stop', p);
  const a = { number: r.id, distance: tripDist(r), unit: unit() };
  say(purpose || customer ? t('Trip {number} stopped: {distance} {unit}. Purpose and customer saved.', a)
    : t('Trip {number} stopped: {distance} {unit}.', a));
  await refreshStatus();
}

// The named place nearest the car, if the car stands inside it.
function placeHere() {
  const p = S.st && S.st.last_position;
  if (!p || p.lat == null || !S.places) return null;
  let best = null, bestD = Infinity;
  for (const pl of S.places) {
    const d = distance({ latitude: p.lat, longitude: p.lon }, pl.position);
    if (d <= (pl.radius_m || 50) + 25 && d < bestD) { best = pl; bestD = d; }
  }
  return best;
}

async function loadChoices() {
  const [pl, rg] = await Promise.all([rpc('place.list'), rpc('regular.list')]);
  S.places = pl; S.regulars = rg;
  const trips = S.trips || [];
  const all = [...rg, ...pl, ...trips];
  fillList('dl-purpose', all.map((x) => x.purpose));
  fillList('dl-customer', all.map((x) => x.customer));
  fillList('dl-destination', [...rg.map((x) => x.destination), ...pl.map((x) => x.name), ...trips.map((x) => x.destination)]);
  const sel = $('add-regular');
  const keep = sel.value;
  sel.replaceChildren(new Option(t('None: enter it here'), ''));
  for (const r of rg) sel.append(new Option(`${r.name} · ${km(r.distance_m)} ${unit()}${r.purpose ? ' · ' + r.purpose : ''}`, r.name));
  sel.value = keep;
}
const choices = () => loadChoices().catch((e) => { if (e.status !== 401) fail(e); });

function openDialog(d) {
  const m = d.querySelector('.dlg-msg');
  if (m) m.hidden = true;
  if (!d.open) d.showModal();
}

function openStop() {
  const trip = (S.st && S.st.trip) || {};
  const i = S.tripInfo || {};
  $('stop-about').textContent = trip.number
    ? t('Trip {number} · {distance} {unit} so far', { number: trip.number, distance: km(S.kmBase), unit: unit() }) : '';
  $('stop-purpose').value = trip.purpose || i.purpose || '';
  $('stop-customer').value = i.customer || '';
  openDialog($('stop-dialog'));
  $('stop-purpose').focus();
  choices().then(() => {
    const pl = placeHere();
    if (!pl) return;
    if (!$('stop-purpose').value && pl.purpose) $('stop-purpose').value = pl.purpose;
    if (!$('stop-customer').value && pl.customer) $('stop-customer').value = pl.customer;
    $('stop-about').textContent += ' · ' + t('at {place}', { place: pl.name });
  });
}

// The naming dialog: at the car (here) or at a suggestion's position.
let placeAt = null, placeRadius = null;
function openPlace(at, title, about, radius) {
  placeAt = at;
  placeRadius = radius || null;
  for (const f of ['name', 'address', 'customer', 'purpose', 'kind']) $('place-' + f).value = '';
  $('place-title').textContent = title || t('Name this place');
  $('place-about').textContent = about || t('Where the car stands now (where it parked).');
  openDialog($('place-dialog'));
  $('place-name').focus();
  choices();
}

async function savePlace() {
  const name = $('place-name').value.trim();
  if (!name) refuse(t('Give the place a name.'));
  const p = { name };
  for (const f of ['address', 'customer', 'purpose', 'kind']) {
    const v = $('place-' + f).value.trim();
    if (v) p[f] = v;
  }
  if (placeAt) p.position = placeAt; else p.here = true;
  if (placeRadius) p.radius_m = placeRadius;
  const r = await rpc('place.add', p);
  const named = new Set([...(r.starts_named || []), ...(r.ends_named || [])]).size;
  $('place-dialog').close();
  S.places = null;
  const saved = r.place ? r.place.name : name;
  say(!named ? t('“{name}” saved.', { name: saved })
    : named === 1 ? t('“{name}” saved. 1 earlier trip got its name.', { name: saved })
      : t('“{name}” saved. {n} earlier trips got its name.', { name: saved, n: named }));
  if (S.screen === 'places') loadPlaces();
}

export { fixQuality, quality, sourceState, showFix, showSource, linkState, linkText, motionState, refreshStatus, showMail, showStatus, showTrip, freshTripDistance, loadTripInfo, showAbout, tick, start, stopClicked, stopTrip, placeHere, loadChoices, choices, openDialog, openStop, placeAt, placeRadius, openPlace, savePlace };
