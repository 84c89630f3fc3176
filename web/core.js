// trackd's page: the page's state, talking to the board, the message area and the small helpers every screen uses.
import { unpaired } from './live.js';

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
  if (res.ok) showOld(res.headers.get('X-Trackd-Old'));
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
// The banner over the screen while the page shows answers this device kept (the board out of reach): since when.
// The service worker marks a kept answer with the time it was the board's; a fresh one clears the banner.
function showOld(at) {
  const banner = $('old-state');
  if (!at) { banner.hidden = true; S.oldSince = null; return; }
  S.oldSince = S.oldSince && S.oldSince < at ? S.oldSince : at;
  banner.textContent = `The board is out of reach: this is what it said at ${fmt('full', S.oldSince)}. Nothing can be changed until this device is on the car’s Wi-Fi again.`;
  banner.hidden = false;
}
const rpc = (method, params) => api('/api/rpc/' + method, params || {});

// ---------- the message area ----------

let sayTimer = 0, saidAt = 0, undoing = null;
function say(text, kind, undo) {
  saidAt = now();
  kind = kind || 'ok';
  // An action's undo, offered while the message shows (10 s): any other message takes it away.
  undoing = undo || null;
  $('message-undo').hidden = !undoing;
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
function hush() { $('message-bar').hidden = true; undoing = null; }
// The undo of the message's action, once.
async function undoLast(btn) {
  const fn = undoing;
  if (!fn) return;
  undoing = null;
  btn.hidden = true;
  await act(null, fn);
}
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
// their tax office counts in, the currency their allowance is paid in, and whether their log keeps commutes apart
// (the Fahrtenbuch's column: the trip list's one-tap Commute).
const COUNTRIES = {
  EE: { unit: 'km', currency: '€' }, DE: { unit: 'km', currency: '€', commute: true },
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
// Minor units (cents, pence) of an ISO currency as the page's language writes money.
function money(minor, currency) {
  try { return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(minor / 100); }
  catch (e) { return (minor / 100).toFixed(2) + ' ' + currency; }
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

export { $, now, S, Fail, api, rpc, sayTimer, saidAt, say, hush, undoLast, money, fail, act, refuse, el, pad, MILE, COUNTRIES, unit, unitMetres, speedUnit, tenths, km, tripTenths, tripDist, kmText, typedMetres, showUnits, cap, dur, num, fmts, FMT, fmt, time, day, monthTitle, today, thisMonth, distance, fillList, dl };
