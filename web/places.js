// trackd's page: Places: the named places and the suggestions from where trips end.
import { $, el, fail, fmt, rpc, S } from './core.js';
import { isViewer } from './live.js';
import { openPlace } from './now.js';

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

export { loadPlaces };
