// trackd's page: Places: the named places and the suggestions from where trips end.
import { $, el, fail, fmt, rpc, S, t } from './core.js';
import { isViewer } from './live.js';
import { openPlace } from './now.js';
import { kindName } from './trips.js';
import { decimal } from './i18n.js';

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
      if (p.kind) top.append(' ', el('span', 'badge k-' + p.kind, kindName(p.kind)));
      top.append(el('span', 'muted small', ` ${p.radius_m} m`));
      li.append(top);
      if (p.address) li.append(el('span', 'muted', p.address));
      const more = [p.customer, p.purpose].filter(Boolean).join(' · ');
      if (more) li.append(el('span', 'muted', more));
      list.append(li);
    }
    if (!pl.value.length) list.append(el('li', 'empty', t('No named places yet. Name one where the car stands, or from a suggestion.')));
  } else {
    list.append(el('li', 'empty', pl.reason.message));
  }
  sugg.replaceChildren();
  if (sg.status === 'fulfilled') {
    for (const s of sg.value) {
      const li = el('li', 'suggestion');
      li.dataset.number = s.number;
      const text = el('span', 'grow');
      const latitude = decimal(s.position.latitude, 5, false), longitude = decimal(s.position.longitude, 5, false);
      text.append(el('b', null, `${latitude}, ${longitude}`));
      const n = (s.trips_ending_here || []).length;
      const seen = [s.visits === 1 ? t('1 parking') : t('{n} parkings', { n: s.visits })];
      if (n) seen.push(n === 1 ? t('1 trip ended here') : t('{n} trips ended here', { n }));
      if (s.last_visit) seen.push(t('last on {date}', { date: fmt('full', s.last_visit) }));
      text.append(el('span', 'muted', seen.join(', ')));
      const b = el('button', 'name-suggestion', t('Name it'));
      b.type = 'button';
      b.dataset.change = '';
      b.disabled = isViewer();
      b.addEventListener('click', () => openPlace(s.position, t('Name suggestion {number}', { number: s.number }),
        s.visits === 1 ? t('The spot where the car parked 1 time ({latitude}, {longitude}).', { latitude, longitude })
          : t('The spot where the car parked {n} times ({latitude}, {longitude}).', { n: s.visits, latitude, longitude }),
        s.radius_m));
      li.append(text, b);
      sugg.append(li);
    }
    if (!sg.value.length) sugg.append(el('li', 'empty', t('No suggestions: no spot without a name has seen three parkings yet.')));
  } else {
    sugg.append(el('li', 'empty', sg.reason.message));
  }
  for (const r of [pl, sg]) if (r.status === 'rejected') fail(r.reason);
}

export { loadPlaces };
