// trackd's page: the device's role and the live feed (Server-Sent Events from trackd).
import { $, hush, now, S, say, t, time } from './core.js';
import { freshTripDistance, refreshStatus, showFix, showMail, showSource, showTrip } from './now.js';
import { loadTrips } from './trips.js';
import { showDevice } from './settings.js';
import { firstStep, showAdapter } from './first-run.js';
import { checkMe } from './app.js';

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
  live('down', t('Not paired'));
  say(sentence, 'error');
}

// ---------- the live feed ----------

function live(state, text) {
  const l = $('live');
  l.className = 'live is-' + state;
  l.textContent = text || liveText(state);
}
function liveText(state) {
  switch (state) {
    case 'live': return t('Live');
    case 'wait': return t('Connecting…');
    case 'down': return t('trackd is not answering…');
    default: return undefined;
  }
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
      live('down', S.ended ? t('trackd is not answering…') : t('No live data'));
      setTimeout(() => { if (!S.es) { connect(); checkMe(); } }, 5000);
    } else {
      live(S.ended ? 'down' : 'wait', S.ended ? t('trackd is not answering…') : t('Reconnecting…'));
    }
  };
}

// trackd answers again: what was said about its absence goes.
let endedSaid = null;
function alive() {
  if (S.ended) {
    S.ended = null;
    refreshStatus();
  }
  const m = $('message').textContent;
  if ((endedSaid && m === endedSaid) || m === S.away) hush();
  endedSaid = null;
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
      if (p.speed > 3 && S.st && S.st.motion && S.st.motion.state !== 'moving') $('motion').textContent = t('moving');
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
      say(t('The car has stood still since {time} while trip {number} runs: stop it if the trip is over.',
        { time: time(p.stationary_since), number: p.trip }), 'warn');
      break;
    case 'lagged':
      refreshStatus();
      break;
    case 'superseded':
      // This device follows the car in a newer page (or tab): this one stops, until it is shown again.
      if (S.es) { S.es.close(); S.es = null; }
      live('down', t('Live in another page'));
      break;
    case 'ended': {
      const first = !S.ended;
      S.ended = p.message || t('the connection to trackd ended');
      live('down');
      $('source-state').textContent = t('trackd is not answering');
      $('speed').textContent = '–';
      if (first) {
        endedSaid = t('trackd is not answering: {reason}', { reason: S.ended });
        say(endedSaid, 'error');
      }
      break;
    }
  }
}

export { isViewer, applyRole, unpaired, live, connect, alive, onEvent };
