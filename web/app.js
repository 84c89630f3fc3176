// trackd's page for the driver: plain ES2020, no framework. Everything comes from this board's /api.
'use strict';
(() => {
const $ = (id) => document.getElementById(id);
const now = () => performance.now();

// What the page knows.
const S = {
  me: null, paired: null, tz: undefined, profile: null,
  st: null, fixAt: 0, durBase: null, durAt: 0, tripNo: null, tripInfo: null, tripInfoAt: 0,
  es: null, ended: null, statusBusy: false,
  places: null, regulars: null, trips: null, tripsSeq: 0, detail: null, screen: 'now', step: 0,
};

// ---------- talking to the board ----------

class Fail extends Error {
  constructor(message, code, status) { super(message); this.code = code; this.status = status; }
}

async function api(url, body) {
  // The board refuses changes whose Origin is not its own. The page is served with Referrer-Policy: same-origin;
  // each request says so too, so that its Origin is sent whatever policy a browser or an extension applies.
  const init = { credentials: 'same-origin', referrerPolicy: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new Fail('The board did not answer. Check that this device is on the car’s network, then try again.');
  }
  if (url === '/api/me') S.csp = res.headers.get('Content-Security-Policy');
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  const err = data && data.error;
  if (!res.ok || err) {
    const f = new Fail((err && err.message) || `The board answered “${res.status} ${res.statusText}”.`.replace(' ”', '”'),
      err && err.code, res.status);
    if (res.status === 401) unpaired(f.message);
    throw f;
  }
  if (!data || typeof data !== 'object') throw new Fail('The board sent an answer this page cannot read.');
  return 'result' in data ? data.result : data;
}
const rpc = (method, params) => api('/api/rpc/' + method, params || {});

// ---------- the message area ----------

let sayTimer = 0, saidAt = 0;
function say(text, kind) {
  saidAt = now();
  kind = kind || 'ok';
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  $('message-bar').className = 'message-bar ' + kind;
  $('message-bar').hidden = false;
  clearTimeout(sayTimer);
  if (kind === 'ok') sayTimer = setTimeout(hush, 10000);
  const d = document.querySelector('dialog[open] .dlg-msg');
  if (d) { d.textContent = text; d.className = 'dlg-msg ' + kind; d.hidden = false; }
}
function hush() { $('message-bar').hidden = true; }
function fail(e) {
  if (e instanceof Fail) say(e.message, 'error');
  else say('Something went wrong on this page: ' + ((e && e.message) || e) + '. Reload it and try again.', 'error');
}
// Runs a user's action: the button is disabled meanwhile (no double taps), every failure is said.
async function act(btn, fn) {
  if (btn) { if (btn.disabled) return; btn.disabled = true; }
  try { await fn(); } catch (e) { fail(e); } finally { if (btn) btn.disabled = false; }
}
// A failure of the user's input, said before anything is sent.
const refuse = (text) => { throw new Fail(text); };

// ---------- small helpers ----------

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
const pad = (n) => String(n).padStart(2, '0');
// Distances as the profile's user reads them: kilometres, or miles for a UK or US profile or one that says so
// (LogProfile.distanceUnit: the profile's own unit, else its country's). The log keeps metres.
const MILE = 1609.344;
// The countries trackd knows the rules of (Country.swift; the country selects in index.html offer the same): the unit
// their tax office counts in and the currency their allowance is paid in.
const COUNTRIES = {
  EE: { unit: 'km', currency: '€' }, DE: { unit: 'km', currency: '€' },
  UK: { unit: 'mi', currency: '£' }, US: { unit: 'mi', currency: '$' },
};
const unit = () => {
  const p = S.profile || {};
  return p.unit || (COUNTRIES[p.country] || {}).unit || 'km';
};
const unitMetres = () => unit() === 'mi' ? MILE : 1000;
const speedUnit = () => unit() === 'mi' ? 'mph' : 'km/h';
// Tenths of the unit, rounded half away from zero as the reports round them.
const tenths = (m) => { const x = (m || 0) / unitMetres() * 10; return Math.sign(x) * Math.round(Math.abs(x)); };
const km = (m) => (tenths(m) / 10).toFixed(1);
// A trip's tenths as the reports print them (LogTrip.reportedTenths): with both odometer readings (kilometres in the
// protocol) each is rounded and the distance is their difference, so that rows chain; else its distance.
const tripTenths = (t) => t.odometer_start != null && t.odometer_end != null
  ? tenths(t.odometer_end * 1000) - tenths(t.odometer_start * 1000) : tenths(t.distance_m);
const tripDist = (t) => (tripTenths(t) / 10).toFixed(1);
// A reading in kilometres (the protocol's odometer values) in the unit, with digit grouping.
const kmText = (k) => (Math.round(Number(k) * 1000 / unitMetres() * 10) / 10)
  .toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
// A figure typed in the unit, in metres.
const typedMetres = (v) => v * unitMetres();
// The unit's labels on the page (the speedometer, the trip's distance, the forms).
function showUnits() {
  for (const e of document.querySelectorAll('[data-unit]')) e.textContent = e.dataset.unit === 'speed' ? speedUnit() : unit();
}
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
function dur(s) {
  s = Math.max(0, Math.floor(s || 0));
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s % 3600 / 60))}:${pad(s % 60)}`;
}
function num(v) {
  v = String(v || '').trim().replace(/\s/g, '').replace(',', '.');
  if (!v) return null;
  const n = Number(v);
  if (!isFinite(n)) refuse(`“${v}” is not a number.`);
  return n;
}
const fmts = {};
const FMT = {
  time: { hour: 'numeric', minute: '2-digit' },
  full: { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  ymd: { year: 'numeric', month: '2-digit', day: '2-digit' },
};
function fmt(kind, d) {
  // No time at all (an event logged before the first fix has none: the board may have no clock).
  if (d === null || d === undefined || d === '') return '';
  const key = kind + '|' + (S.tz || '');
  let f = fmts[key];
  if (!f) {
    const loc = kind === 'ymd' ? 'en-CA' : undefined;
    try { f = new Intl.DateTimeFormat(loc, Object.assign({ timeZone: S.tz }, FMT[kind])); }
    catch (e) { f = new Intl.DateTimeFormat(loc, FMT[kind]); }
    fmts[key] = f;
  }
  return f.format(d instanceof Date ? d : new Date(d));
}
const time = (iso) => iso ? fmt('time', iso) : '';
// A log date (YYYY-MM-DD, already local) as "Sun 22 Nov".
function day(date) {
  if (!date) return 'No date yet';
  const [y, m, d] = date.split('-').map(Number);
  const o = { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (y !== Number(today().slice(0, 4))) o.year = 'numeric';
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(undefined, o);
}
function monthTitle(ym) {
  const [y, m] = String(ym).split('-').map(Number);
  if (!y || !m) return ym;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
// trackd's "today": its GPS time when it has a fix, in the profile's time zone.
function today() {
  const f = S.st && S.st.last_fix && S.st.last_fix.time;
  return fmt('ymd', f ? new Date(f) : new Date());
}
const thisMonth = () => today().slice(0, 7);
function distance(a, b) {
  const r = Math.PI / 180, la = a.latitude * r, lb = b.latitude * r;
  const x = Math.sin((lb - la) / 2) ** 2 + Math.cos(la) * Math.cos(lb) * Math.sin((b.longitude - a.longitude) * r / 2) ** 2;
  return 12742000 * Math.asin(Math.sqrt(x));
}
function fillList(id, values) {
  const list = $(id);
  const seen = new Set();
  list.replaceChildren();
  for (const v of values) {
    if (!v || seen.has(v)) continue;
    seen.add(v);
    const o = document.createElement('option');
    o.value = v;
    list.append(o);
  }
}
function dl(target, rows) {
  target.replaceChildren();
  for (const [k, v, cls] of rows) {
    if (v == null || v === '') continue;
    target.append(el('dt', null, k), el('dd', cls, v));
  }
}

// ---------- the role ----------

const isViewer = () => S.me && S.me.role === 'viewer';
function applyRole() {
  const viewer = isViewer();
  document.body.classList.toggle('viewer', viewer);
  document.body.classList.add('known');
  for (const c of document.querySelectorAll('[data-change] input, [data-change] select, [data-change] button, button[data-change]')) {
    c.disabled = viewer;
  }
  // (A select has no read-only state: a viewer's is disabled.)
  for (const c of document.querySelectorAll('[data-edit]')) {
    if (c.tagName === 'SELECT') c.disabled = viewer; else c.readOnly = viewer;
  }
  showMail();
  showDevice();
}

function unpaired(sentence) {
  S.paired = false;
  if (S.es) { S.es.close(); S.es = null; }
  document.body.classList.add('unpaired');
  $('unpaired').hidden = false;
  $('unpaired-text').textContent = sentence;
  live('down', 'Not paired');
  say(sentence, 'error');
}

// ---------- the live feed ----------

function live(state, text) {
  const l = $('live');
  l.className = 'live is-' + state;
  l.textContent = text || { live: 'Live', wait: 'Connecting…', down: 'trackd is not answering…' }[state];
}

function connect() {
  if (S.paired === false || document.hidden) return;
  if (S.es) S.es.close();
  const es = new EventSource('/api/events');
  S.es = es;
  es.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (x) { return; }
    if (m && typeof m.method === 'string') onEvent(m.method, m.params || {});
  };
  es.onerror = () => {
    if (S.es !== es) return;
    if (es.readyState === EventSource.CLOSED) {
      // The board refused the feed (not paired any more?) or is away: ask again in a while.
      S.es = null;
      live('down', S.ended ? 'trackd is not answering…' : 'No live data');
      setTimeout(() => { if (!S.es) { connect(); checkMe(); } }, 5000);
    } else {
      live(S.ended ? 'down' : 'wait', S.ended ? 'trackd is not answering…' : 'Reconnecting…');
    }
  };
}

// trackd answers again: what was said about its absence goes.
function alive() {
  if (S.ended) {
    S.ended = null;
    refreshStatus();
  }
  const m = $('message').textContent;
  if (m.startsWith('trackd is not answering') || m === S.away) hush();
  S.away = null;
  live('live');
}

function onEvent(method, p) {
  switch (method) {
    case 'fix':
      alive();
      S.fixAt = now();
      showFix(p, 0);
      freshTripDistance();
      if (p.speed > 3 && S.st && S.st.motion && S.st.motion.state !== 'moving') $('motion').textContent = 'moving';
      break;
    case 'source':
      alive();
      showSource(p);
      refreshStatus();
      break;
    case 'trip':
      alive();
      showTrip(p.change === 'ended' ? null : p);
      refreshStatus();
      if (S.screen === 'trips') loadTrips();
      break;
    case 'obd':
      // The adapter and its car at each change: kept with the status, shown live by the first run.
      alive();
      if (S.st) S.st.obd = p;
      if (firstStep() === 3) showAdapter();
      break;
    case 'alert':
      say(`The car has stood still since ${time(p.stationary_since)} while trip ${p.trip} runs: stop it if the trip is over.`, 'warn');
      break;
    case 'lagged':
      refreshStatus();
      break;
    case 'superseded':
      // This device follows the car in a newer page (or tab): this one stops, until it is shown again.
      if (S.es) { S.es.close(); S.es = null; }
      live('down', 'Live in another page');
      break;
    case 'ended': {
      const first = !S.ended;
      S.ended = p.message || 'the connection to trackd ended';
      live('down');
      $('source-state').textContent = 'trackd is not answering';
      $('speed').textContent = '–';
      if (first) say('trackd is not answering: ' + S.ended, 'error');
      break;
    }
  }
}

// ---------- Now ----------

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
  const r = await rpc('stop', purpose ? { purpose } : {});
  const changes = {};
  if (purpose && r.purpose !== purpose) changes.purpose = purpose;
  if (customer && r.customer !== customer) changes.customer = customer;
  let extra = '';
  if (Object.keys(changes).length) {
    await rpc('edit', { id: r.id, changes, reason: 'given when the trip was stopped' });
    extra = ' Purpose and customer saved.';
  }
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

// ---------- Trips ----------

function period() {
  const p = $('period').value;
  return p === 'month' ? ($('period-month').value || thisMonth()) : p;
}

async function loadTrips() {
  const seq = ++S.tripsSeq;
  const list = $('trip-list');
  list.setAttribute('aria-busy', 'true');
  $('period-month').classList.toggle('idle', $('period').value !== 'month');
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
function renderTrips() {
  const trips = S.trips || [];
  const list = $('trip-list');
  const first = trips.filter(toClassify).reverse();
  const rest = trips.filter((t) => !toClassify(t)).reverse();
  list.replaceChildren();
  if (!trips.length) list.append(el('li', 'empty', 'No trips in this period.'));
  if (first.length) {
    list.append(el('li', 'head', `To classify (${first.length})`));
    for (const t of first) list.append(tripRow(t));
    if (rest.length) list.append(el('li', 'head', 'Classified'));
  }
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
  const li = el('li', 'trip' + (t.kind === 'unclassified' ? ' unclassified' : '') + (t.state === 'deleted' ? ' deleted' : ''));
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
  a.append(when, dist, what);
  li.append(a);
  return li;
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

// ---------- One trip ----------

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
    ['Source', { gps: 'GPS', manual: 'entered by hand', regular: 'from a regular trip', unrecorded: 'odometer gap', correction: 'odometer correction' }[t.source] || t.source],
    ['Track', d.track_points ? `${d.track_points} point${d.track_points === 1 ? '' : 's'}` + (d.segments > 1 ? ` in ${d.segments} pieces` : '') : null],
    ['Gaps', t.gaps ? `${t.gaps}, ${Math.round(t.bridged_s || 0)} s and ${km(t.bridged_m)} ${u} bridged` : null],
    ['Ended', t.end_reason && t.end_reason !== 'stopped' ? t.end_reason : null],
  ]);
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

// ---------- Places ----------

async function loadPlaces() {
  const list = $('place-list'), sugg = $('suggestion-list');
  const [pl, sg] = await Promise.allSettled([rpc('place.list'), rpc('place.suggest')]);
  list.replaceChildren();
  if (pl.status === 'fulfilled') {
    S.places = pl.value;
    for (const p of pl.value) {
      const li = el('li', 'place');
      li.dataset.id = p.id;
      const top = el('span', 'line');
      top.append(el('b', null, p.name));
      if (p.kind) top.append(' ', el('span', 'badge k-' + p.kind, p.kind));
      top.append(el('span', 'muted small', ` ${p.radius_m} m`));
      li.append(top);
      if (p.address) li.append(el('span', 'muted', p.address));
      const more = [p.customer, p.purpose].filter(Boolean).join(' · ');
      if (more) li.append(el('span', 'muted', more));
      list.append(li);
    }
    if (!pl.value.length) list.append(el('li', 'empty', 'No named places yet. Name one where the car stands, or from a suggestion.'));
  } else {
    list.append(el('li', 'empty', pl.reason.message));
  }
  sugg.replaceChildren();
  if (sg.status === 'fulfilled') {
    for (const s of sg.value) {
      const li = el('li', 'suggestion');
      li.dataset.number = s.number;
      const text = el('span', 'grow');
      text.append(el('b', null, `${s.position.latitude.toFixed(5)}, ${s.position.longitude.toFixed(5)}`));
      const n = (s.trips_ending_here || []).length;
      text.append(el('span', 'muted', `${s.visits} parkings` + (n ? `, ${n} trips ended here` : '') +
        (s.last_visit ? `, last on ${fmt('full', s.last_visit)}` : '')));
      const b = el('button', 'name-suggestion', 'Name it');
      b.type = 'button';
      b.dataset.change = '';
      b.disabled = isViewer();
      b.addEventListener('click', () => openPlace(s.position, `Name suggestion ${s.number}`,
        `The spot where the car parked ${s.visits} times (${s.position.latitude.toFixed(5)}, ${s.position.longitude.toFixed(5)}).`,
        s.radius_m));
      li.append(text, b);
      sugg.append(li);
    }
    if (!sg.value.length) sugg.append(el('li', 'empty', 'No suggestions: no spot without a name has seen three parkings yet.'));
  } else {
    sugg.append(el('li', 'empty', sg.reason.message));
  }
  for (const r of [pl, sg]) if (r.status === 'rejected') fail(r.reason);
}

// ---------- Reports ----------

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

// ---------- the profile's forms: Settings' and the first run's ----------

// The fields profile.set takes, each a field of a form: `${form}-driver`, …, `${form}-timezone`.
const PROFILE_KEYS = ['driver', 'plate', 'company', 'country', 'unit', 'car', 'rate', 'time_zone'];
const field = (form, k) => $(form + '-' + (k === 'time_zone' ? 'timezone' : k));
// An own rate as the profile keeps it (thousandths of the currency per unit) as a person types it: 450 is "0.45".
const rateText = (r) => r == null ? '' : (r / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
const profileText = (p, k) => !p || p[k] == null ? '' : k === 'rate' ? rateText(p.rate) : String(p[k]);

// Fills a form with the profile; each field keeps what it held, to send only what changed.
function fillProfile(form, p) {
  for (const k of PROFILE_KEYS) {
    const f = field(form, k);
    f.value = f.dataset.was = profileText(p, k);
  }
  profileHints(form);
}

// What the chosen country means for the unit and the rate: the unit it counts in, its currency.
function profileHints(form) {
  const c = COUNTRIES[field(form, 'country').value];
  field(form, 'unit').options[0].textContent = `Country’s (${c ? c.unit : 'km'})`;
  $(form + '-rate-name').textContent = c ? `Own rate, ${c.currency}/${c.unit}` : 'Own rate';
  field(form, 'rate').placeholder = c ? 'The country’s' : 'Needs a country';
  $(form + '-rate-note').textContent = c
    ? `An employer’s own, in ${c.currency} per ${c.unit === 'mi' ? 'mile' : 'kilometre'} (0.42); empty: the country’s table.`
    : 'An employer’s own rate is paid in a country’s currency: choose the country first.';
}

// The fields that changed, as profile.set takes them; refused before anything is sent when they cannot be saved.
function profileChanges(form) {
  const changes = {};
  for (const k of PROFILE_KEYS) {
    const f = field(form, k);
    const v = f.value.trim();
    if (v !== (f.dataset.was || '')) changes[k] = v;
  }
  if (field(form, 'rate').value.trim() && !field(form, 'country').value) {
    refuse('An own rate is paid in a country’s currency per its unit: choose the country too, or leave the rate empty.');
  }
  if ('time_zone' in changes && !changes.time_zone) {
    refuse('Give a time zone, such as Europe/London: the log counts its days and months in it.');
  }
  return changes;
}

// ---------- Settings ----------

function useProfile(p) {
  const before = unit();
  S.profile = p;
  showUnits();
  if (unit() !== before) {
    if (S.trips && S.screen === 'trips') renderTrips();
    if (S.detail && S.screen === 'trip') renderDetail(S.detail);
    if (S.st) showStatus(S.st);
    if (S.regulars) choices();
  }
  let tz = p && p.time_zone;
  try { new Intl.DateTimeFormat(undefined, { timeZone: tz }); } catch (e) { tz = undefined; }
  if (tz !== S.tz) {
    S.tz = tz;
    if (S.trips && S.screen === 'trips') renderTrips();
    if (S.detail && S.screen === 'trip') renderDetail(S.detail);
    if (S.st) showStatus(S.st);
  }
}

function showDevice() {
  const me = S.me;
  if (!me) return;
  $('device-name').textContent = me.name;
  $('device-role').textContent = me.role;
  $('device-paired').textContent = me.paired_at ? fmt('full', me.paired_at * 1000) : '–';
  $('role-note').textContent = me.role === 'viewer'
    ? 'This device may read the log but change nothing.'
    : 'This device may start and stop trips and change the log.';
}

// The car's Wi-Fi (the card image's access point), for a driver's device: its name, password and a QR code that
// joins it. Hidden where the board has none (404) or the device reads only (403).
async function showWiFi() {
  if (!S.me || S.me.role !== 'driver') { $('wifi-card').hidden = true; return; }
  try {
    const w = (await api('/api/wifi')).wifi;
    if (!w) { $('wifi-card').hidden = true; return; }
    $('wifi-name').textContent = w.name;
    $('wifi-password').textContent = w.passphrase;
    $('wifi-qr').src = '/api/wifi.svg';
    $('wifi-card').hidden = false;
  } catch (e) {
    $('wifi-card').hidden = true;
  }
}

async function loadSettings() {
  showDevice();
  showWiFi();
  if (!$('dl-zones').children.length && Intl.supportedValuesOf) fillList('dl-zones', Intl.supportedValuesOf('timeZone'));
  const [p, o] = await Promise.allSettled([rpc('profile'), rpc('odometer')]);
  if (p.status === 'fulfilled') {
    useProfile(p.value);
    fillProfile('profile', p.value);
  }
  if (o.status === 'fulfilled') showOdometer(o.value);
  for (const r of [p, o]) if (r.status === 'rejected') fail(r.reason);
}

function showOdometer(o) {
  $('odometer-current').textContent = o.kilometres != null ? kmText(o.kilometres) + ' ' + unit() : 'no reading yet';
  const last = (o.readings || [])[o.readings.length - 1];
  $('odometer-last').textContent = last
    ? `${kmText(last.reading_m / 1000)} ${unit()}, ${fmt('full', last.time)}${last.reason ? ' (' + last.reason + ')' : ''}` : 'none';
  $('odometer-factor').textContent = o.calibration_factor != null ? '× ' + Number(o.calibration_factor).toFixed(4).replace(/0+$/, '').replace(/\.$/, '') : '–';
}

async function saveProfile() {
  const changes = profileChanges('profile');
  if (!Object.keys(changes).length) refuse('Nothing to save: change a field first.');
  const p = { changes };
  const reason = $('profile-reason').value.trim();
  if (reason) p.reason = reason;
  const r = await rpc('profile.set', p);
  $('profile-reason').value = '';
  useProfile(r);
  fillProfile('profile', r);
  say('Profile saved.');
}

async function saveOdometer() {
  const k = num($('odometer-reading').value);
  if (k == null) refuse(`Type the reading from the dashboard, in ${unit()}.`);
  const reason = $('odometer-reason').value.trim();
  if (!reason) refuse('Say why: the reason is kept with the reading.');
  await recordOdometer(k, reason);
  $('odometer-reading').value = '';
}

// Records a dashboard reading typed in the unit, and says what the log made of it.
async function recordOdometer(k, reason) {
  const r = await rpc('odometer.set', { kilometres: typedMetres(k) / 1000, reason });
  let text = `Odometer reading ${kmText(typedMetres(k) / 1000)} ${unit()} saved.`;
  if (r.entry) text += ` Trip ${r.entry.id} (${r.entry.source === 'correction' ? 'a correction' : 'unrecorded driving'}, ${km(Math.abs(r.entry.distance_m))} ${unit()}) was added.`;
  if (r.calibration_note) text += ' ' + cap(r.calibration_note) + '.';
  say(text.replace(/\.\.$/, '.'));
  rpc('odometer').then(showOdometer, fail);
  refreshStatus();
}

// ---------- First run ----------

// A driver's device is shown the first run (docs/web.md, "First run") while the log's profile names neither a driver
// nor a plate, the two things every country's log must give, unless this device closed it since it paired. Saving a
// driver or a plate ends it for every device (the profile is the board's); pressing Now or "Later" with neither typed
// is remembered by this browser alone, as the profile is left as it was.
const FIRST_RUN_KEY = 'trackd.first-run-closed';
const deviceKey = () => S.me ? `${S.me.id}:${S.me.paired_at}` : '';
function firstRunClosed() {
  try { return localStorage.getItem(FIRST_RUN_KEY) === deviceKey(); } catch (e) { return false; }
}
function wantsFirstRun() {
  const p = S.profile;
  return !!(S.me && S.me.role === 'driver' && p && !p.driver && !p.plate && !firstRunClosed());
}
function closeFirstRun() {
  // A browser that keeps nothing (private mode): the profile alone decides next time.
  try { localStorage.setItem(FIRST_RUN_KEY, deviceKey()); } catch (e) { /* nothing kept */ }
  location.hash = '#now';
}
// The step shown (1 the profile, 2 the odometer, 3 the receiver and the adapter), 0 outside the first run.
const firstStep = () => S.screen === 'first-run' ? S.step : 0;
// This phone's own time zone: the first run's suggestion.
function phoneZone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) { return ''; }
}

// Decides, once this device and the profile are known, whether the first run shows instead of Now; a device that may
// not change the log leaves it. The body's data-first-run says what was decided.
function firstRunDecision() {
  if (S.screen === 'first-run' && !(S.me && S.me.role === 'driver')) { location.replace('#now'); return; }
  const show = S.screen === 'now' && wantsFirstRun();
  document.body.dataset.firstRun = show || S.screen === 'first-run' ? 'shown' : 'not shown';
  if (show) {
    history.replaceState(null, '', '#first-run/1');
    route();
  }
}

async function loadFirstRun(step) {
  for (const s of document.querySelectorAll('#screen-first-run [data-step]')) s.hidden = s.dataset.step !== String(step);
  for (let i = 1; i <= 3; i++) {
    const m = $('first-mark-' + i);
    m.className = i < step ? 'done' : '';
    if (i === step) m.setAttribute('aria-current', 'step'); else m.removeAttribute('aria-current');
  }
  if (step === 1) {
    if (!$('dl-zones').children.length && Intl.supportedValuesOf) fillList('dl-zones', Intl.supportedValuesOf('timeZone'));
    const p = await rpc('profile');
    useProfile(p);
    fillProfile('first', p);
    // The time zone: the one the profile was given (the card's setup file), else this phone's.
    const zone = phoneZone(), tz = field('first', 'time_zone');
    if (zone && (!p.time_zone || p.time_zone === 'UTC')) tz.value = zone;
    $('first-timezone-note').textContent = !zone ? 'An IANA name, such as Europe/London: the log counts its days in it.'
      : tz.value === zone ? 'This phone’s time zone.' : `This phone’s time zone is ${zone}.`;
  } else if (step === 2) {
    odometerButton();
    const [o] = await Promise.all([rpc('odometer'), refreshStatus()]);
    $('first-odometer-now').textContent = o.kilometres != null ? kmText(o.kilometres) + ' ' + unit() : 'no reading yet';
  } else {
    await refreshStatus();
  }
}

// The first run's live parts, at each status: a running trip on the odometer step; the receiver and the adapter.
function firstRunLive() {
  const step = firstStep();
  if (!S.st || !step) return;
  if (step === 2) {
    const t = S.st.trip, busy = $('first-odometer-busy');
    busy.hidden = !t;
    if (t) {
      busy.textContent = `Trip ${t.number} is being recorded: the log takes a dashboard reading between trips only. `
        + 'Give it in Settings once the trip has stopped.';
    }
    $('first-odometer-reading').disabled = !!t;
    odometerButton();
  } else if (step === 3) {
    showReceiver();
    showFirstFix();
    showAdapter();
  }
}

function odometerButton() {
  const typed = !$('first-odometer-reading').disabled && $('first-odometer-reading').value.trim();
  $('first-odometer-save').textContent = typed ? 'Save and go on' : 'Go on without a reading';
}

// What an address of trackd.conf names: what it is and where (serial:///dev/ttyACM0?baud=9600, gpsd://host:port,
// tcp://host:port, file:///path?speed=N); null for none.
function place(address) {
  const m = /^([a-z]+):\/\/([^?]*)(?:\?(.*))?$/i.exec(address || '');
  if (!m) return address ? { what: address, port: '' } : null;
  const q = new URLSearchParams(m[3] || '');
  switch (m[1].toLowerCase()) {
    case 'serial': return { what: 'A serial receiver (NMEA)', port: m[2] + (q.get('baud') ? `, ${q.get('baud')} baud` : '') };
    case 'gpsd': return { what: 'gpsd', port: m[2] };
    case 'tcp': return { what: 'Over the network', port: m[2] };
    case 'file': return { what: 'A recording, played', port: m[2] };
    default: return { what: address, port: '' };
  }
}

// Writes a fact (its line, the muted lines under it, its class) only when it changed: the live ones are announced.
function fact(dd, text, more, cls) {
  const key = JSON.stringify([text, more, cls]);
  if (dd.dataset.shown === key) return;
  dd.dataset.shown = key;
  dd.textContent = text;
  dd.className = cls || '';
  for (const m of more) if (m) dd.append(el('span', 'muted', m));
}

const STATES = { connected: 'connected', connecting: 'connecting…', lost: 'lost', ended: 'ended' };
function showReceiver() {
  const s = S.st.source || {};
  const auto = s.address === 'auto';
  const at = place(auto ? s.chosen : s.address);
  fact($('first-source'), at ? at.what : auto ? 'Looking for one…' : '–',
    [auto && (at ? 'Found by itself (source: auto)' : 'A USB receiver, a GPS HAT on the header, or gpsd')]);
  fact($('first-port'), at && at.port ? at.port : '–', []);
  fact($('first-source-state'), S.ended ? 'trackd is not answering' : STATES[s.state] || s.state || '–',
    [s.state !== 'connected' && s.detail, s.reason && 'Why this one: ' + s.reason],
    s.state === 'connected' && !S.ended ? 'good' : s.state === 'lost' ? 'warn' : '');
}

function showFirstFix() {
  const f = S.fix, age = S.fixAt ? (now() - S.fixAt) / 1000 : (S.st && S.st.last_fix_age) || 0;
  const has = !!(f && f.mode >= 2) && age <= 10;
  fact($('first-fix'), f ? quality(f, age) : 'no fix yet',
    [!has && 'A receiver finds its first fix within a minute or so under open sky.'], has ? 'good' : '');
}

function showAdapter() {
  const o = S.st && S.st.obd;
  const car = $('first-obd-car');
  $('first-car-label').hidden = car.hidden = !o;
  if (!o) {
    fact($('first-obd'), 'None configured', ['Not needed: trips come from the GPS. The setup file’s obd line names one.']);
    return;
  }
  const found = o.state === 'connected';
  if (o.address === 'auto' && !o.chosen && !found) {
    // Looked for on the USB ports and none there: no fault, the GPS keeps the log.
    $('first-car-label').hidden = car.hidden = true;
    fact($('first-obd'), o.state === 'lost' ? 'None plugged in' : 'Looking…',
      ['Not needed: trips come from the GPS. A USB OBD-II adapter plugged in is found by itself.']);
    return;
  }
  fact($('first-obd'), found ? 'Found' + (o.adapter ? ': ' + o.adapter : '') : o.state === 'lost' ? 'Not found' : 'Looking…',
    [[o.detail, found ? o.protocol : (place(o.address) || {}).port].filter(Boolean).join(' · ')],
    found ? 'good' : o.state === 'lost' ? 'warn' : '');
  const more = [o.car_detail, o.vin && 'VIN ' + o.vin,
    o.odometer_supported === false ? 'no odometer (PID A6)' : o.odometer != null ? `odometer ${kmText(o.odometer)} ${unit()}` : ''];
  fact(car, { answering: 'answering', silent: 'not answering', unknown: 'not asked yet' }[o.car] || o.car,
    [more.filter(Boolean).join(' · ')]);
}

async function saveFirstProfile() {
  const changes = profileChanges('first');
  if (Object.keys(changes).length) {
    const r = await rpc('profile.set', { changes, reason: 'the first run on the page' });
    useProfile(r);
    fillProfile('first', r);
    say('Profile saved.');
  }
  location.hash = '#first-run/2';
}

async function saveFirstOdometer() {
  const reading = $('first-odometer-reading');
  const k = reading.disabled ? null : num(reading.value);
  if (k != null) {
    await recordOdometer(k, 'the first run on the page: the dashboard’s reading');
    reading.value = '';
  }
  location.hash = '#first-run/3';
}

// ---------- routing ----------

const TITLES = { now: 'Now', trips: 'Trips', places: 'Places', reports: 'Reports', settings: 'Settings', 'first-run': 'First run' };
function title(t) {
  $('title').textContent = t;
  document.title = t + ' · trackd';
}

function route() {
  const [name, id] = (location.hash.slice(1) || 'now').split('/');
  const screen = name === 'trip' && /^\d+$/.test(id || '') ? 'trip' : TITLES[name] ? name : 'now';
  const step = screen === 'first-run' ? Math.min(3, Math.max(1, Number(id) || 1)) : 0;
  const changed = screen !== S.screen || step !== S.step;
  S.screen = screen;
  S.step = step;
  document.body.classList.toggle('first-run', screen === 'first-run');
  for (const s of document.querySelectorAll('main > .screen')) s.hidden = true;
  (screen === 'trip' ? $('trip-detail') : $('screen-' + screen)).hidden = false;
  const tab = screen === 'trip' ? 'trips' : screen;
  for (const a of document.querySelectorAll('nav.tabs a')) {
    if (a.id === 'nav-' + tab) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (screen !== 'trip') title(TITLES[screen]);
  if (changed) { window.scrollTo(0, 0); if (now() - saidAt > 1500) hush(); }
  if (!S.booted) return;
  load(screen, id);
}

function load(screen, id) {
  if (S.paired === false) return;
  if (screen === 'now') refreshStatus();
  else if (screen === 'trips') loadTrips();
  else if (screen === 'trip') loadDetail(Number(id));
  else if (screen === 'places') loadPlaces().catch(fail);
  else if (screen === 'reports') { showReport(); verify(); }
  else if (screen === 'settings') loadSettings().catch(fail);
  else if (screen === 'first-run') loadFirstRun(S.step).catch(fail);
}

// Fills the month pickers with trackd's month once it is known.
function defaults() {
  if (!$('period-month').value) $('period-month').value = thisMonth();
  if (!$('report-month').value) {
    $('report-month').value = thisMonth();
    if (S.screen === 'reports') showReport();
  }
}

// ---------- start ----------

async function checkMe() {
  try {
    S.me = await api('/api/me');
    return true;
  } catch (e) {
    if (e.status !== 401) fail(e);
    return false;
  }
}

// Everything at once: who this device is, the live feed, the state and the screen's data (a 401 on any says
// "not paired"; the page does not wait for one answer before asking the next).
async function boot() {
  S.booted = true;
  S.paired = null;
  const me = checkMe();
  connect();
  const profile = rpc('profile').then(useProfile, (e) => { if (e.status !== 401) fail(e); });
  refreshStatus();
  if (S.screen !== 'now') load(S.screen, location.hash.split('/')[1] || '');
  if (!(await me)) {
    if (S.paired !== false) setTimeout(boot, 10000);
    return;
  }
  S.paired = true;
  document.body.classList.remove('unpaired');
  $('unpaired').hidden = true;
  applyRole();
  await profile;
  firstRunDecision();
}

function on(id, type, fn) { $(id).addEventListener(type, fn); }
function submit(id, fn) {
  on(id, 'submit', (e) => {
    e.preventDefault();
    act(e.submitter || $(id).querySelector('[type=submit]'), fn);
  });
}

function init() {
  on('message-close', 'click', hush);
  on('start-business', 'click', (e) => start('business', e.currentTarget));
  on('start-private', 'click', (e) => start('private', e.currentTarget));
  on('stop', 'click', stopClicked);
  on('stop-details', 'click', openStop);
  on('name-place', 'click', () => openPlace(null));
  on('name-place-here', 'click', () => openPlace(null));
  submit('stop-form', async () => {
    const purpose = $('stop-purpose').value.trim(), customer = $('stop-customer').value.trim();
    if (!purpose) refuse('A business trip needs a purpose for the report: say what it was for.');
    await stopTrip(purpose, customer);
    $('stop-dialog').close();
  });
  submit('place-form', savePlace);
  submit('add-form', saveAdd);
  submit('edit-form', saveEdit);
  submit('delete-form', deleteTrip);
  submit('profile-form', saveProfile);
  submit('odometer-form', saveOdometer);
  submit('first-profile', saveFirstProfile);
  submit('first-odometer', saveFirstOdometer);
  for (const form of ['profile', 'first']) on(form + '-country', 'change', () => profileHints(form));
  on('first-odometer-reading', 'input', odometerButton);
  for (const id of ['first-now', 'first-skip-1', 'first-skip-2']) on(id, 'click', closeFirstRun);
  for (const d of document.querySelectorAll('dialog')) {
    d.querySelector('.cancel').addEventListener('click', () => d.close());
    d.addEventListener('click', (e) => { if (e.target === d) d.close(); });
    d.addEventListener('input', () => { d.querySelector('.dlg-msg').hidden = true; });
  }
  on('add-trip', 'click', openAdd);
  on('add-regular', 'change', regularChosen);
  on('period', 'change', () => {
    if ($('period').value === 'month' && !$('period-month').value) $('period-month').value = thisMonth();
    loadTrips();
  });
  const monthPicked = () => { if ($('period-month').value) { $('period').value = 'month'; loadTrips(); } };
  on('period-month', 'change', monthPicked);
  on('kind-filter', 'change', loadTrips);
  on('trip-map', 'error', mapFailed);
  on('report-month', 'change', showReport);
  on('mail-report', 'click', (e) => mail(e.currentTarget));
  on('verify-again', 'click', verify);
  window.addEventListener('hashchange', route);
  document.addEventListener('visibilitychange', () => {
    if (S.paired === false) return;
    if (document.hidden) { if (S.es) { S.es.close(); S.es = null; } }
    else { connect(); refreshStatus(); }
  });
  setInterval(tick, 1000);
  setInterval(() => { if (!document.hidden && S.paired) refreshStatus(); }, 10000);
  route();
  boot();
}

init();
})();
