// trackd's page: its service worker (docs/web.md, "Out of the car's Wi-Fi"). The page's files and the last answers
// to the calls that only read are kept on this device; when the board is out of reach (the phone left the car's
// Wi-Fi) the page is served from them, each answer marked with when it was the board's (X-Trackd-Old). A change is
// never kept to send later: out of reach it is refused at once, saying that nothing was changed.
const FILES = 'trackd-files-1';
const ANSWERS = 'trackd-answers-1';
// The calls that only read (their answers are kept); any other call changes the log.
const READS = new Set(['status', 'trips', 'trips.overview', 'show', 'profile', 'odometer', 'regular.list', 'place.list',
  'place.suggest', 'rule.list', 'rule.suggest', 'check', 'verify']);

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (e) => {
  const request = e.request;
  const url = new URL(request.url);
  // Live events, downloads, maps and pairing go to the board as they are.
  if (url.origin !== self.location.origin || url.pathname === '/api/events' || url.pathname.startsWith('/api/export')
      || url.pathname.startsWith('/api/map') || url.pathname.startsWith('/pair') || url.pathname === '/api/pair') return;
  if (url.pathname.startsWith('/api/rpc/')) {
    const method = url.pathname.slice('/api/rpc/'.length);
    e.respondWith(READS.has(method) ? read(request, method) : change(request));
  } else if (url.pathname === '/api/me') {
    e.respondWith(read(request, 'me'));
  } else if (request.method === 'GET') {
    e.respondWith(file(request));
  }
});

// A JSON-RPC-shaped failure the page shows as it shows the board's own.
function outOfReach(message) {
  return new Response(JSON.stringify({ error: { code: -32050, message } }),
    { status: 503, headers: { 'Content-Type': 'application/json', 'X-Trackd-Unreachable': '1' } });
}

// A change: to the board, or refused at once.
async function change(request) {
  try {
    return await fetch(request);
  } catch (e) {
    return outOfReach('The board is out of reach, so nothing was changed: connect this device to the car’s Wi-Fi and try again.');
  }
}

// A call that reads: the board's answer, kept; out of reach, the one kept last, marked with its time.
async function read(request, method) {
  const body = request.method === 'POST' ? await request.clone().text() : '';
  const key = new Request(`/offline/${method}?${encodeURIComponent(body)}`);
  const answers = await caches.open(ANSWERS);
  let response;
  try {
    response = await fetch(request);
  } catch (e) {
    const kept = await answers.match(key);
    return kept || outOfReach('The board is out of reach, and this device has no earlier answer to show here.');
  }
  if (response.status === 401) {
    // Not paired (any more): nothing of the log stays on this device.
    await caches.delete(ANSWERS);
  } else if (response.ok) {
    const headers = new Headers(response.headers);
    headers.set('X-Trackd-Old', new Date().toISOString());
    await answers.put(key, new Response(await response.clone().arrayBuffer(), { status: 200, headers }));
  }
  return response;
}

// The page's files: the board's, kept; out of reach, the ones kept (the page itself for any address of it).
async function file(request) {
  const files = await caches.open(FILES);
  const key = request.mode === 'navigate' ? new Request('/') : request;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await files.put(key, response.clone());
    return response;
  } catch (e) {
    const kept = await files.match(key, { ignoreSearch: true });
    if (kept) return kept;
    throw e;
  }
}
