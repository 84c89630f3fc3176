// trackd's page: First run: the profile, the odometer, the receiver and the adapter, for a new board.
import { boardSays, $, el, fillList, kmText, now, num, rpc, S, say, t, time, unit } from './core.js';
import { quality, refreshStatus, sourceState } from './now.js';
import { field, fillProfile, profileChanges } from './profile.js';
import { recordOdometer, useProfile } from './settings.js';
import { route } from './app.js';

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
    $('first-timezone-note').textContent = !zone ? t('An IANA name, such as Europe/London: the log counts its days in it.')
      : tz.value === zone ? t('This phone’s time zone.') : t('This phone’s time zone is {zone}.', { zone });
  } else if (step === 2) {
    odometerButton();
    const [o] = await Promise.all([rpc('odometer'), refreshStatus()]);
    $('first-odometer-now').textContent = o.kilometres != null ? kmText(o.kilometres) + ' ' + unit() : t('no reading yet');
  } else {
    await refreshStatus();
  }
}

// The first run's live parts, at each status: a running trip on the odometer step; the receiver and the adapter.
function firstRunLive() {
  const step = firstStep();
  if (!S.st || !step) return;
  if (step === 2) {
    const trip = S.st.trip, busy = $('first-odometer-busy');
    busy.hidden = !trip;
    if (trip) {
      busy.textContent = t('Trip {number} is being recorded: the log takes a dashboard reading between trips only. Give it in Settings once the trip has stopped.',
        { number: trip.number });
    }
    $('first-odometer-reading').disabled = !!trip;
    odometerButton();
  } else if (step === 3) {
    showReceiver();
    showFirstFix();
    showAdapter();
  }
}

function odometerButton() {
  const typed = !$('first-odometer-reading').disabled && $('first-odometer-reading').value.trim();
  $('first-odometer-save').textContent = typed ? t('Save and go on') : t('Go on without a reading');
}

// What an address of trackd.conf names: what it is and where (serial:///dev/ttyACM0?baud=9600, gpsd://host:port,
// tcp://host:port, file:///path?speed=N); null for none.
function place(address) {
  const m = /^([a-z]+):\/\/([^?]*)(?:\?(.*))?$/i.exec(address || '');
  if (!m) return address ? { what: address, port: '' } : null;
  const q = new URLSearchParams(m[3] || '');
  switch (m[1].toLowerCase()) {
    case 'serial': return { what: t('A serial receiver (NMEA)'), port: m[2] + (q.get('baud') ? `, ${q.get('baud')} baud` : '') };
    case 'gpsd': return { what: 'gpsd', port: m[2] };
    case 'tcp': return { what: t('Over the network'), port: m[2] };
    case 'file': return { what: t('A recording, played'), port: m[2] };
    default: return { what: address, port: '' };
  }
}

// Writes a fact (its line, the muted lines under it, its class) only when it changed: the live ones are announced.
function fact(dd, text, more, cls) {
  const key = JSON.stringify([text, more.map((m) => m && (m.textContent || m)), cls]);
  if (dd.dataset.shown === key) return;
  dd.dataset.shown = key;
  dd.textContent = text;
  dd.className = cls || '';
  for (const m of more) if (m) dd.append(typeof m === 'string' ? el('span', 'muted', m) : m);
}

function showReceiver() {
  const s = S.st.source || {};
  const auto = s.address === 'auto';
  const at = place(auto ? s.chosen : s.address);
  fact($('first-source'), at ? at.what : auto ? t('Looking for one…') : '–',
    [auto && (at ? t('Found by itself (source: auto)') : t('A USB receiver, a GPS HAT on the header, or gpsd'))]);
  fact($('first-port'), at && at.port ? at.port : '–', []);
  fact($('first-source-state'), S.ended ? t('trackd is not answering') : sourceState(s.state) || s.state || '–',
    [s.state !== 'connected' && s.detail && boardSays('muted', s.detail), s.reason && t('Why this one: {reason}', { reason: s.reason })],
    s.state === 'connected' && !S.ended ? 'good' : s.state === 'lost' ? 'warn' : '');
}

function showFirstFix() {
  const f = S.fix, age = S.fixAt ? (now() - S.fixAt) / 1000 : (S.st && S.st.last_fix_age) || 0;
  const has = !!(f && f.mode >= 2) && age <= 10;
  fact($('first-fix'), f ? quality(f, age) : t('no fix yet'),
    [!has && t('A receiver finds its first fix within a minute or so under open sky.')], has ? 'good' : '');
}

function showAdapter() {
  const o = S.st && S.st.obd;
  const car = $('first-obd-car');
  $('first-car-label').hidden = car.hidden = !o;
  if (!o) {
    fact($('first-obd'), t('None configured'), [t('Not needed: trips come from the GPS. The setup file’s obd line names one.')]);
    return;
  }
  const found = o.state === 'connected';
  if (o.address === 'auto' && !o.chosen && !found) {
    // Looked for on the USB ports and none there: no fault, the GPS keeps the log.
    $('first-car-label').hidden = car.hidden = true;
    fact($('first-obd'), o.state === 'lost' ? t('None plugged in') : t('Looking…'),
      [t('Not needed: trips come from the GPS. A USB OBD-II adapter plugged in is found by itself.')]);
    return;
  }
  fact($('first-obd'), found ? (o.adapter ? t('Found: {adapter}', { adapter: o.adapter }) : t('Found'))
    : o.state === 'lost' ? t('Not found') : t('Looking…'),
    [o.detail && boardSays('muted', o.detail), found ? o.protocol : (place(o.address) || {}).port],
    found ? 'good' : o.state === 'lost' ? 'warn' : '');
  const more = [o.car_detail, o.vin && t('VIN {vin}', { vin: o.vin }),
    o.odometer_supported === false ? t('no odometer (PID A6)')
      : o.odometer != null ? t('odometer {reading} {unit}', { reading: kmText(o.odometer), unit: unit() }) : ''];
  fact(car, carState(o.car) || o.car, [o.car_detail && boardSays('muted', o.car_detail), more.slice(1).filter(Boolean).join(' · ')]);
}
// Whether the car behind the adapter answers (status.obd.car), as a person reads it.
function carState(state) {
  switch (state) {
    case 'answering': return t('answering');
    case 'silent': return t('not answering');
    case 'unknown': return t('not asked yet');
    default: return undefined;
  }
}

async function saveFirstProfile() {
  const changes = profileChanges('first');
  if (Object.keys(changes).length) {
    const r = await rpc('profile.set', { changes, reason: 'the first run on the page' });
    useProfile(r);
    fillProfile('first', r);
    say(t('Profile saved.'));
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

export { FIRST_RUN_KEY, deviceKey, firstRunClosed, wantsFirstRun, closeFirstRun, firstStep, phoneZone, firstRunDecision, loadFirstRun, firstRunLive, odometerButton, place, fact, carState, showReceiver, showFirstFix, showAdapter, saveFirstProfile, saveFirstOdometer };
