// trackd's page: the page's state, talking to the board, the message area and the small helpers every screen uses.
import { unpaired } from './live.js';
import { decimal, localeName, t } from './i18n.js';

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

// The answer early.js asked for as the page started, once, for the same call (a GET, or a POST of {}).
function early(url, body) {
  const asked = window.trackdEarly;
  if (!asked || !(url in asked) || (body !== undefined && Object.keys(body).length)) return null;
  const answer = asked[url];
  delete asked[url];
  return answer;
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
    res = await (early(url, body) || fetch(url, init));
  } catch (e) {
    throw new Fail(t('The board did not answer. Check that this device is on the car’s network, then try again.'));
  }
  if (url === '/api/me') S.csp = res.headers.get('Content-Security-Policy');
  if (res.ok) showOld(res.headers.get('X-Trackd-Old'));
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  const err = data && data.error;
  if (!res.ok || err) {
    // The service worker's refusals (the board out of reach) are said in the page's language.
    // Not paired: said in the page's own words (the board's sentence is in the browser's language).
    const message = res.status === 401 ? t('This device is not paired with the car’s logger. At the board, run “trackctl web pair” and open the address it prints (or scan its QR code).')
      : res.headers.get('X-Trackd-Unreachable') ? unreachable(err.message)
      : (err && err.message) || t('The board answered “{status}”.', { status: `${res.status} ${res.statusText}`.trim() });
    const f = new Fail(message, err && err.code, res.status);
    if (res.status === 401) unpaired(f.message);
    throw f;
  }
  if (!data || typeof data !== 'object') throw new Fail(t('The board sent an answer this page cannot read.'));
  return 'result' in data ? data.result : data;
}
// The service worker's two refusals (sw.js, which knows no language), in the page's.
const unreachable = (message) => /nothing was changed/.test(message)
  ? t('The board is out of reach, so nothing was changed: connect this device to the car’s Wi-Fi and try again.')
  : t('The board is out of reach, and this device has no earlier answer to show here.');
// The banner over the screen while the page shows answers this device kept (the board out of reach): since when.
// The service worker marks a kept answer with the time it was the board's; a fresh one clears the banner.
function showOld(at) {
  const banner = $('old-state');
  if (!at) { banner.hidden = true; S.oldSince = null; return; }
  S.oldSince = S.oldSince && S.oldSince < at ? S.oldSince : at;
  banner.textContent = t('The board is out of reach: this is what it said at {time}. Nothing can be changed until this device is on the car’s Wi-Fi again.', { time: fmt('full', S.oldSince) });
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
  else say(t('Something went wrong on this page: {error}. Reload it and try again.', { error: (e && e.message) || e }), 'error');
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
// A rule's condition as trackd writes it (ClassificationRule.text: "Office ↔ Example Ltd", "Home → Office",
// "Mon–Fri 08:00–18:00", "outside Mon, Wed 07:30–12:00", "regular trip 'commute'"), in the page's language: the
// weekdays as the language shortens them, the words around the names translated, the names as they are.
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
function ruleText(text) {
  text = String(text || '');
  const regular = /^regular trip '(.*)'$/.exec(text);
  if (regular) return t('regular trip “{name}”', { name: regular[1] });
  const hours = /^(outside )?((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:(?:–|, )(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun))*) (\d\d:\d\d–\d\d:\d\d)$/.exec(text);
  if (hours) {
    // 2 November 2026 was a Monday: each weekday's short name in the page's language.
    const names = new Intl.DateTimeFormat(localeName(), { weekday: 'short', timeZone: 'UTC' });
    const days = hours[2].replace(/Mon|Tue|Wed|Thu|Fri|Sat|Sun/g, (d) => names.format(new Date(Date.UTC(2026, 10, 2 + WEEKDAYS.indexOf(d)))));
    const when = `${days} ${hours[3]}`;
    return hours[1] ? t('outside {hours}', { hours: when }) : when;
  }
  return text.replace(/\bplace (\d+)\b/g, (m, n) => t('place {number}', { number: n }));
}

// The board's own words, in English whatever the page's language (a receiver's error, an event's detail, a note
// trackd wrote in the log): marked so, for screen readers and for the tests that look for English left on a screen.
function boardSays(cls, text) {
  const e = el('span', cls, text);
  e.lang = 'en';
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
// Tenths as the page's language writes them (12.3, 12,3); a figure for a field, without digit grouping.
const tenthsText = (n, grouping) => decimal(n / 10, 1, grouping);
const km = (m, grouping) => tenthsText(tenths(m), grouping);
// A trip's tenths as the reports print them (LogTrip.reportedTenths): with both odometer readings (kilometres in the
// protocol) each is rounded and the distance is their difference, so that rows chain; else its distance.
const tripTenths = (t) => t.odometer_start != null && t.odometer_end != null
  ? tenths(t.odometer_end * 1000) - tenths(t.odometer_start * 1000) : tenths(t.distance_m);
const tripDist = (trip) => tenthsText(tripTenths(trip));
// A reading in kilometres (the protocol's odometer values) in the unit, with digit grouping.
const kmText = (k) => decimal(Math.round(Number(k) * 1000 / unitMetres() * 10) / 10, 1);
// A figure typed in the unit, in metres.
const typedMetres = (v) => v * unitMetres();
// The unit's labels on the page (the speedometer, the trip's distance, the forms).
function showUnits() {
  for (const e of document.querySelectorAll('[data-unit]')) e.textContent = e.dataset.unit === 'speed' ? speedUnit() : unit();
}
// Minor units (cents, pence) of an ISO currency as the page's language writes money.
function money(minor, currency) {
  try { return new Intl.NumberFormat(localeName(), { style: 'currency', currency }).format(minor / 100); }
  catch (e) { return decimal(minor / 100, 2) + ' ' + currency; }
}
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
function dur(s) {
  s = Math.max(0, Math.floor(s || 0));
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s % 3600 / 60))}:${pad(s % 60)}`;
}
// A figure a person typed: a decimal point or comma (12.3, 12,3); with both, the last is the decimal sign and the
// others group digits (1.234,5 and 1,234.5); spaces group digits too.
function num(v) {
  const typed = String(v || '').trim();
  let s = typed.replace(/[\s\u00a0\u202f']/g, '');
  if (!s) return null;
  const last = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  if (s.includes('.') && s.includes(',')) s = s.slice(0, last).replace(/[.,]/g, '') + '.' + s.slice(last + 1);
  else s = s.replace(',', '.');
  const n = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : NaN;
  if (!isFinite(n)) refuse(t('“{text}” is not a number.', { text: typed }));
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
  const key = kind + '|' + (S.tz || '') + '|' + localeName();
  let f = fmts[key];
  if (!f) {
    const loc = kind === 'ymd' ? 'en-CA' : localeName();
    try { f = new Intl.DateTimeFormat(loc, Object.assign({ timeZone: S.tz }, FMT[kind])); }
    catch (e) { f = new Intl.DateTimeFormat(loc, FMT[kind]); }
    fmts[key] = f;
  }
  return f.format(d instanceof Date ? d : new Date(d));
}
const time = (iso) => iso ? fmt('time', iso) : '';
// A log date (YYYY-MM-DD, already local) as "Sun 22 Nov".
function day(date) {
  if (!date) return t('No date yet');
  const [y, m, d] = date.split('-').map(Number);
  const o = { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (y !== Number(today().slice(0, 4))) o.year = 'numeric';
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(localeName(), o);
}
function monthTitle(ym) {
  const [y, m] = String(ym).split('-').map(Number);
  if (!y || !m) return ym;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(localeName(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
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

export { t, boardSays, ruleText, $, now, S, Fail, api, rpc, sayTimer, saidAt, say, hush, undoLast, money, fail, act, refuse, el, pad, MILE, COUNTRIES, unit, unitMetres, speedUnit, tenths, tenthsText, km, tripTenths, tripDist, kmText, typedMetres, showUnits, cap, dur, num, fmts, FMT, fmt, time, day, monthTitle, today, thisMonth, distance, fillList, dl };
