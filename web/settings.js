// trackd's page: Settings: the profile, the odometer, the rules, the car's Wi-Fi, this device.
import { $, api, cap, fail, fillList, fmt, km, kmText, num, refuse, rpc, S, say, showUnits, t, typedMetres, unit } from './core.js';
import { choices, refreshStatus, showStatus } from './now.js';
import { renderTrips } from './trips.js';
import { renderDetail } from './trip.js';
import { fillProfile, profileChanges } from './profile.js';
import { loadRules } from './rules.js';
import { decimal, ownChoice, useLanguage } from './i18n.js';
import { route } from './app.js';

function useProfile(p) {
  const before = unit();
  S.profile = p;
  // The profile's language, where this device has chosen none: the page's fixed words in it, and the screen again.
  useLanguage((p && p.language) || '').then((changed) => { if (changed) route(true); });
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
  $('device-language').value = ownChoice();
  $('device-role').textContent = me.role === 'driver' ? t('driver') : me.role === 'viewer' ? t('viewer') : me.role;
  $('device-paired').textContent = me.paired_at ? fmt('full', me.paired_at * 1000) : '–';
  $('role-note').textContent = me.role === 'viewer'
    ? t('This device may read the log but change nothing.')
    : t('This device may start and stop trips and change the log.');
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
  loadRules().catch(fail);
  const [p, o] = await Promise.allSettled([rpc('profile'), rpc('odometer')]);
  if (p.status === 'fulfilled') {
    useProfile(p.value);
    fillProfile('profile', p.value);
  }
  if (o.status === 'fulfilled') showOdometer(o.value);
  for (const r of [p, o]) if (r.status === 'rejected') fail(r.reason);
}

function showOdometer(o) {
  $('odometer-current').textContent = o.kilometres != null ? kmText(o.kilometres) + ' ' + unit() : t('no reading yet');
  const last = (o.readings || [])[o.readings.length - 1];
  $('odometer-last').textContent = last
    ? `${kmText(last.reading_m / 1000)} ${unit()}, ${fmt('full', last.time)}${last.reason ? ' (' + last.reason + ')' : ''}` : t('none');
  $('odometer-factor').textContent = o.calibration_factor != null
    ? '× ' + decimal(Number(o.calibration_factor), 4, false).replace(/0+$/, '').replace(/[.,]$/, '') : '–';
}

async function saveProfile() {
  const changes = profileChanges('profile');
  if (!Object.keys(changes).length) refuse(t('Nothing to save: change a field first.'));
  const p = { changes };
  const reason = $('profile-reason').value.trim();
  if (reason) p.reason = reason;
  const r = await rpc('profile.set', p);
  $('profile-reason').value = '';
  useProfile(r);
  fillProfile('profile', r);
  say(t('Profile saved.'));
}

async function saveOdometer() {
  const k = num($('odometer-reading').value);
  if (k == null) refuse(t('Type the reading from the dashboard, in {unit}.', { unit: unit() }));
  const reason = $('odometer-reason').value.trim();
  if (!reason) refuse(t('Say why: the reason is kept with the reading.'));
  await recordOdometer(k, reason);
  $('odometer-reading').value = '';
}

// Records a dashboard reading typed in the unit, and says what the log made of it.
async function recordOdometer(k, reason) {
  const r = await rpc('odometer.set', { kilometres: typedMetres(k) / 1000, reason });
  const said = [t('Odometer reading {reading} {unit} saved.', { reading: kmText(typedMetres(k) / 1000), unit: unit() })];
  if (r.entry) {
    const a = { number: r.entry.id, distance: km(Math.abs(r.entry.distance_m)), unit: unit() };
    said.push(r.entry.source === 'correction' ? t('Trip {number} (a correction, {distance} {unit}) was added.', a)
      : t('Trip {number} (unrecorded driving, {distance} {unit}) was added.', a));
  }
  // The board's own sentence about the calibration.
  if (r.calibration_note) said.push(cap(r.calibration_note) + '.');
  say(said.join(' ').replace(/\.\.$/, '.'));
  rpc('odometer').then(showOdometer, fail);
  refreshStatus();
}

export { useProfile, showDevice, showWiFi, loadSettings, showOdometer, saveProfile, saveOdometer, recordOdometer };
