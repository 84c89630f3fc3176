// trackd's page: Now: the live state, starting and stopping a trip, naming the place where the car stands.
import { $, act, cap, distance, dur, el, fail, fillList, km, kmText, now, refuse, rpc, S, say, time, tripDist, unit, unitMetres } from './core.js';
import { alive, isViewer } from './live.js';
import { loadPlaces } from './places.js';
import { mail } from './reports.js';
import { firstRunLive, firstStep, showFirstFix } from './first-run.js';
import { defaults, title } from './app.js';

const QUALITY = { 2: 'DGPS', 3: 'RTK fixed', 4: 'RTK float', 5: 'dead reckoning', 6: 'dead reckoning' };
function quality(f, age) {
  if (!f || !(f.mode >= 2)) return age > 0 && f ? `no fix (for ${Math.round(age)} s)` : 'no fix';
  const parts = [(f.mode === 3 ? '3D' : '2D') + ' fix' + (QUALITY[f.status] ? ' (' + QUALITY[f.status] + ')' : '')];
  if (f.eph != null) parts.push('±' + Math.round(f.eph) + ' m');
  if (f.uSat != null) parts.push(f.uSat + (f.uSat === 1 ? ' satellite' : ' satellites'));
  if (age > 5) parts.push(Math.round(age) + ' s ago');
  return parts.join(', ');
}
function showFix(f, age) {
  const stale = age > 10;
  $('speed').textContent = f && f.speed != null && !stale ? String(Math.round(Math.max(0, f.speed) * 3600 / unitMetres())) : '–';
  $('fix-quality').textContent = quality(f, age);
  S.fix = f;
  if (firstStep() === 3) showFirstFix();
}
function showSource(s) {
  if (!s) return;
  const t = { connected: 'connected', connecting: 'connecting…', lost: 'lost', ended: 'ended' }[s.state] || s.state;
  const dd = $('source-state');
  dd.textContent = t;
  if (s.detail && s.state !== 'connected') dd.append(el('span', 'muted', s.detail));
  if (s.chosen) dd.append(el('span', 'muted', 'found: ' + s.chosen));
  dd.title = [s.detail, s.reason].filter(Boolean).join('\n');
}
function linkText(u) {
  if (!u) return 'off';
  let t = u.state + (u.broker ? ' · ' + u.broker : '');
  if (u.state !== 'connected' && u.detail) t += ': ' + u.detail;
  if (u.backlog_points) t += ` · ${u.backlog_points} points to send`;
  return t;
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
  if (!b.hidden) b.title = 'To ' + mail.to.join(', ');
}

function showStatus(st) {
  const first = !S.st;
  S.st = st;
  showMail();
  if (!S.fixAt || now() - S.fixAt > 2500) showFix(st.last_fix, st.last_fix_age || 0);
  if (S.ended) $('source-state').textContent = 'trackd is not answering';
  else showSource(st.source);
  const m = st.motion;
  $('motion').textContent = !m ? '–' : m.state === 'stationary'
    ? 'parked' + (m.since ? ' since ' + time(m.since) : '') : m.state;
  $('now-odometer').textContent = st.odometer != null ? kmText(st.odometer) + ' ' + unit() : 'not set (Settings)';
  $('uplink').textContent = linkText(st.uplink);
  $('traccar').textContent = linkText(st.osmand);
  $('traccar').hidden = $('traccar-label').hidden = !st.osmand;
  showTrip(st.trip || null);
  if (first) defaults();
  firstRunLive();
}

function showTrip(t) {
  const run = !!t;
  const state = $('trip-state');
  state.textContent = run ? t.kind : 'none';
  state.className = 'badge k-' + (run ? t.kind : 'none');
  $('trip-card').classList.toggle('idle', !run);
  $('trip-no').textContent = run ? 'No. ' + t.number : '';
  S.kmBase = run ? t.distance_m || 0 : null;
  $('trip-km').textContent = km(S.kmBase);
  S.durBase = run && t.duration != null ? t.duration : null;
  S.durAt = now();
  $('start-row').hidden = run;
  $('stop-row').hidden = !run;
  $('stop-details').hidden = !(run && t.kind === 'business' && t.purpose);
  if (!run) {
    S.tripNo = null; S.tripInfo = null;
  } else if (t.number !== S.tripNo) {
    S.tripNo = t.number; S.tripInfo = null; S.tripInfoAt = 0;
  }
  if (run && t.purpose !== undefined && S.tripInfo) S.tripInfo.purpose = t.purpose;
  if (run && (!S.tripInfo || (!S.tripInfo.start_place && now() - S.tripInfoAt > 30000))) loadTripInfo(t.number);
  showAbout(t);
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
function showAbout(t) {
  const p = $('trip-about');
  const i = S.tripInfo || {};
  const from = (t && t.start_place) || i.start_place;
  const bits = [];
  if (t && from && from.name) bits.push('from ' + from.name);
  const purpose = (t && t.purpose) || i.purpose;
  if (t && purpose) bits.push(purpose);
  if (t && i.customer) bits.push(i.customer);
  p.textContent = cap(bits.join(' · '));
  p.hidden = !bits.length;
}

function tick() {
  const t = S.st && S.st.trip;
  if (S.durBase != null) $('trip-duration').textContent = dur(S.durBase + (now() - S.durAt) / 1000);
  else $('trip-duration').textContent = t ? 'waiting for a fix' : '0:00:00';
  if (S.fixAt && S.fix && now() - S.fixAt > 5000) showFix(S.fix, (now() - S.fixAt) / 1000);
}

function start(kind, btn) {
  act(btn, async () => {
    const t = await rpc('start', { kind });
    say(`${cap(kind)} trip ${t.id} started.`);
    await refreshStatus();
  });
}

function stopClicked() {
  const t = S.st && S.st.trip;
  if (t && t.kind === 'business' && !(t.purpose || (S.tripInfo && S.tripInfo.purpose))) return openStop();
  act($('stop'), () => stopTrip(null, null));
}

async function stopTrip(purpose, customer) {
  // Given with the stop, they are the entry as it is written (an edit afterwards would be a change to it).
  const p = {};
  if (purpose) p.purpose = purpose;
  if (customer) p.customer = customer;
  const r = await rpc('stop', p);
  const extra = purpose || customer ? ' Purpose and customer saved.' : '';
  say(`Trip ${r.id} stopped: ${tripDist(r)} ${unit()}.${extra}`);
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
  sel.replaceChildren(new Option('None: enter it here', ''));
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
  const t = (S.st && S.st.trip) || {};
  const i = S.tripInfo || {};
  $('stop-about').textContent = t.number ? `Trip ${t.number} · ${km(S.kmBase)} ${unit()} so far` : '';
  $('stop-purpose').value = t.purpose || i.purpose || '';
  $('stop-customer').value = i.customer || '';
  openDialog($('stop-dialog'));
  $('stop-purpose').focus();
  choices().then(() => {
    const pl = placeHere();
    if (!pl) return;
    if (!$('stop-purpose').value && pl.purpose) $('stop-purpose').value = pl.purpose;
    if (!$('stop-customer').value && pl.customer) $('stop-customer').value = pl.customer;
    $('stop-about').textContent += ` · at ${pl.name}`;
  });
}

// The naming dialog: at the car (here) or at a suggestion's position.
let placeAt = null, placeRadius = null;
function openPlace(at, title, about, radius) {
  placeAt = at;
  placeRadius = radius || null;
  for (const f of ['name', 'address', 'customer', 'purpose', 'kind']) $('place-' + f).value = '';
  $('place-title').textContent = title || 'Name this place';
  $('place-about').textContent = about || 'Where the car stands now (where it parked).';
  openDialog($('place-dialog'));
  $('place-name').focus();
  choices();
}

async function savePlace() {
  const name = $('place-name').value.trim();
  if (!name) refuse('Give the place a name.');
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
  say(`“${r.place ? r.place.name : name}” saved.` + (named ? ` ${named} earlier trip${named === 1 ? '' : 's'} got its name.` : ''));
  if (S.screen === 'places') loadPlaces();
}

export { QUALITY, quality, showFix, showSource, linkText, refreshStatus, showMail, showStatus, showTrip, freshTripDistance, loadTripInfo, showAbout, tick, start, stopClicked, stopTrip, placeHere, loadChoices, choices, openDialog, openStop, placeAt, placeRadius, openPlace, savePlace };
