// trackd's page, its entry: routing between screens, the start, the buttons and forms wired.
import { $, act, api, fail, hush, undoLast, now, refuse, rpc, S, saidAt, t, thisMonth } from './core.js';
import { applyRole, connect } from './live.js';
import { openPlace, openStop, refreshStatus, savePlace, start, stopClicked, stopTrip, tick } from './now.js';
import { loadTrips, openAdd, regularChosen, saveAdd } from './trips.js';
import { confirmDetail, deleteTrip, loadDetail, mapFailed, saveEdit } from './trip.js';
import { loadPlaces } from './places.js';
import { mail, showReport, verify } from './reports.js';
import { profileHints } from './profile.js';
import { loadSettings, saveOdometer, saveProfile, useProfile } from './settings.js';
import { ruleTypeChosen, saveRule } from './rules.js';
import { chooseLanguage, useLanguage } from './i18n.js';
import { closeFirstRun, firstRunDecision, loadFirstRun, odometerButton, saveFirstOdometer, saveFirstProfile } from './first-run.js';

// Each screen's title, in the page's language when it is shown.
const TITLES = {
  now: () => t('Now'), trips: () => t('Trips'), places: () => t('Places'), reports: () => t('Reports'),
  settings: () => t('Settings'), 'first-run': () => t('First run'),
};
function title(text) {
  $('title').textContent = text;
  document.title = text + ' · trackd';
}

// Shows the screen the address names, and loads it when it is another one or `again` (the language changed).
function route(again) {
  const [name, id] = (location.hash.slice(1) || 'now').split('/');
  const screen = name === 'trip' && /^\d+$/.test(id || '') ? 'trip' : TITLES[name] ? name : 'now';
  const step = screen === 'first-run' ? Math.min(3, Math.max(1, Number(id) || 1)) : 0;
  const changed = screen !== S.screen || step !== S.step || again === true;
  S.screen = screen;
  S.step = step;
  document.body.classList.toggle('first-run', screen === 'first-run');
  for (const s of document.querySelectorAll('main > .screen')) s.hidden = true;
  (screen === 'trip' ? $('trip-detail') : $('screen-' + screen)).hidden = false;
  const tab = screen === 'trip' ? 'trips' : screen;
  for (const a of document.querySelectorAll('nav.tabs a')) {
    if (a.id === 'nav-' + tab) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (screen !== 'trip') title(TITLES[screen]());
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

async function init() {
  // The page's words in this device's language, its profile's as last seen, or the browser's, before anything shows.
  await useLanguage();
  on('message-close', 'click', hush);
  on('message-undo', 'click', (e) => undoLast(e.currentTarget));
  on('start-business', 'click', (e) => start('business', e.currentTarget));
  on('start-private', 'click', (e) => start('private', e.currentTarget));
  on('stop', 'click', stopClicked);
  on('stop-details', 'click', openStop);
  on('name-place', 'click', () => openPlace(null));
  on('name-place-here', 'click', () => openPlace(null));
  submit('stop-form', async () => {
    const purpose = $('stop-purpose').value.trim(), customer = $('stop-customer').value.trim();
    if (!purpose) refuse(t('A business trip needs a purpose for the report: say what it was for.'));
    await stopTrip(purpose, customer);
    $('stop-dialog').close();
  });
  submit('place-form', savePlace);
  submit('add-form', saveAdd);
  submit('edit-form', saveEdit);
  submit('delete-form', deleteTrip);
  submit('profile-form', saveProfile);
  submit('odometer-form', saveOdometer);
  submit('rule-form', saveRule);
  on('rule-type', 'change', ruleTypeChosen);
  on('detail-confirm', 'click', (e) => act(e.currentTarget, confirmDetail));
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
  // This device's own language: the page again, in it.
  on('device-language', 'change', (e) => { chooseLanguage(e.currentTarget.value); location.reload(); });
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
  offline();
}

// The service worker keeps the page and its last answers for when the board is out of reach. Browsers run one only
// on a secure origin (https, or localhost): on the plain-HTTP address of the car's access point the page says what
// that costs.
function offline() {
  const note = $('offline-note');
  if (!('serviceWorker' in navigator)) {
    note.textContent = t('Out of the car’s Wi-Fi this page shows nothing: this browser keeps a copy only for the board’s HTTPS address (docs/web.md, “Out of the car’s Wi-Fi”).');
    return;
  }
  navigator.serviceWorker.register('/sw.js').then(() => {
    note.textContent = t('Out of the car’s Wi-Fi this page shows what the board last said, marked as old; nothing can be changed until it is back on the car’s Wi-Fi.');
  }, (e) => { note.textContent = t('This device keeps no copy of the page: {error}', { error: e.message }); });
}

init();

export { TITLES, title, route, load, defaults, checkMe, boot, on, submit, init };
