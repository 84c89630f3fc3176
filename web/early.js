// trackd's page, before its modules (docs/web.md, "Figures"): the first screen's three calls (who this device is,
// the profile, the state) sent as the page starts, so that their round trips overlap the modules' instead of
// following them; core.js's api() takes each answer once. No imports: it runs as soon as it has come.
const ask = (url, body) => fetch(url, {
  credentials: 'same-origin', referrerPolicy: 'same-origin',
  headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
});
const early = { '/api/me': ask('/api/me'), '/api/rpc/profile': ask('/api/rpc/profile', {}), '/api/rpc/status': ask('/api/rpc/status', {}) };
// A failure is api()'s to say, when it takes the answer.
for (const answer of Object.values(early)) answer.catch(() => {});
window.trackdEarly = early;
