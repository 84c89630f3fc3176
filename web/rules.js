// trackd's page: Settings: the rules that classify trips as they close (docs/rules.md), and confirming what they did.
import { $, act, el, fail, refuse, rpc, S, say, t, ruleText } from './core.js';
import { isViewer } from './live.js';
import { kindName } from './trips.js';

// What a rule makes of a trip, as a person reads it: "business (Delivery, Example Ltd)", "private, commute".
function outcome(r) {
  if (r.type === 'regular') return t('as the regular trip');
  const details = [r.purpose, r.customer].filter(Boolean);
  const kind = kindName(r.commute ? 'commute' : r.kind);
  return details.length ? `${kind} (${details.join(', ')})` : kind;
}

async function loadRules() {
  const list = $('rule-list');
  const [rules, places] = await Promise.allSettled([rpc('rule.list'), rpc('place.list')]);
  if (places.status === 'fulfilled') { S.places = places.value; fillPlaces(); }
  if (rules.status === 'fulfilled') { S.rules = rules.value; renderRules(); }
  else list.replaceChildren(el('li', 'empty', rules.reason.message));
  for (const r of [rules, places]) if (r.status === 'rejected') fail(r.reason);
}

function fillPlaces() {
  for (const id of ['rule-from', 'rule-to']) {
    const select = $(id), chosen = select.value;
    select.replaceChildren(...(S.places || []).map((p) => { const o = el('option', null, p.name); o.value = p.id; return o; }));
    if (chosen) select.value = chosen;
  }
  if (!$('rule-to').value || $('rule-to').value === $('rule-from').value) {
    const other = (S.places || []).find((p) => String(p.id) !== $('rule-from').value);
    if (other) $('rule-to').value = other.id;
  }
}

function renderRules() {
  const list = $('rule-list');
  list.replaceChildren();
  const shown = (S.rules || []).filter((r) => r.state !== 'declined');
  if (!shown.length) list.append(el('li', 'empty', t('No rules yet: every trip waits for you to classify it.')));
  for (const r of shown) {
    const li = el('li', 'rule' + (r.state === 'paused' ? ' paused' : ''));
    li.dataset.id = r.id;
    const text = el('span', 'grow');
    text.append(el('b', null, ruleText(r.text)), el('span', 'muted', '→ ' + outcome(r) + (r.state === 'paused' ? ' · ' + t('paused') : '')));
    li.append(text);
    if (!isViewer()) {
      const pause = el('button', 'pause', r.state === 'paused' ? t('Resume') : t('Pause'));
      pause.type = 'button';
      pause.setAttribute('aria-label', r.state === 'paused' ? t('Resume rule {rule}', { rule: ruleText(r.text) }) : t('Pause rule {rule}', { rule: ruleText(r.text) }));
      pause.addEventListener('click', () => change(pause, r, { state: r.state === 'paused' ? 'active' : 'paused' }));
      const del = el('button', 'delete', t('Delete'));
      del.type = 'button';
      del.setAttribute('aria-label', t('Delete rule {rule}', { rule: ruleText(r.text) }));
      del.addEventListener('click', () => remove(del, r));
      li.append(pause, del);
    }
    list.append(li);
  }
}

async function change(button, rule, changes) {
  button.disabled = true;
  try {
    await rpc('rule.edit', { rule: rule.id, changes });
    say(changes.state === 'paused' ? t('Rule “{rule}” paused.', { rule: ruleText(rule.text) }) : t('Rule “{rule}” classifies trips again.', { rule: ruleText(rule.text) }));
    await loadRules();
  } catch (e) { fail(e); } finally { button.disabled = false; }
}

async function remove(button, rule) {
  button.disabled = true;
  try {
    await rpc('rule.delete', { rule: rule.id, reason: 'deleted on the page' });
    say(t('Rule “{rule}” deleted. Trips it classified keep what they got.', { rule: ruleText(rule.text) }));
    await loadRules();
  } catch (e) { fail(e); } finally { button.disabled = false; }
}

function ruleTypeChosen() {
  const type = $('rule-type').value;
  $('rule-places').hidden = type !== 'places';
  $('rule-either-label').hidden = type !== 'places';
  $('rule-hours').hidden = type === 'places';
}

async function saveRule() {
  const type = $('rule-type').value, kind = $('rule-kind').value;
  const rule = {};
  if (type === 'places') {
    const from = Number($('rule-from').value), to = Number($('rule-to').value);
    if (!from || !to) refuse(t('Name the places first (Places), then choose where the trips go from and to.'));
    Object.assign(rule, { type: 'places', from_place: from, to_place: to, either_way: $('rule-either').checked });
  } else {
    const days = [...document.querySelectorAll('input[name="rule-day"]:checked')].map((c) => Number(c.value));
    if (!days.length) refuse(t('Choose at least one day.'));
    const start = $('rule-start').value, end = $('rule-end').value || '24:00';
    if (!start) refuse(t('Give the time your hours begin.'));
    if (end !== '24:00' && end <= start) refuse(t('The hours must end after they begin.'));
    Object.assign(rule, { type: 'hours', days, start, end, outside: type === 'outside' });
  }
  rule.kind = kind === 'commute' ? 'private' : kind;
  if (kind === 'commute') rule.commute = true;
  const purpose = $('rule-purpose').value.trim(), customer = $('rule-customer').value.trim();
  if (kind === 'business' && !purpose) refuse(t('A business rule needs a purpose: the trips it classifies need one.'));
  if (purpose) rule.purpose = purpose;
  if (customer) rule.customer = customer;
  const added = await rpc('rule.add', { rule });
  $('rule-purpose').value = '';
  $('rule-customer').value = '';
  say(t('Rule added: {rule} → {outcome}. Trips it classifies wait for you to confirm them.', { rule: added.text, outcome: outcome(added) }));
  await loadRules();
}

// Suggested rules (rule.suggest): a pair of places the driver classified the same way three times, offered on the
// Trips screen until it is made a rule, put off ("Not now": on this device, until another trip repeats it) or
// declined for good ("Never": a declined rule in the log).
const NOT_NOW = 'trackd.suggestions.notNow';
const suggestionKey = (s) => [s.rule.from_place, s.rule.to_place, s.rule.kind, s.rule.commute ? 'commute' : ''].join('/');
function putOff() {
  try { return JSON.parse(localStorage.getItem(NOT_NOW) || '{}'); } catch (e) { return {}; }
}

async function loadSuggestions(onChange) {
  const box = $('rule-suggestions');
  if (isViewer()) { box.replaceChildren(); return; }
  let list;
  try { list = await rpc('rule.suggest'); } catch (e) { box.replaceChildren(); return; }
  const later = putOff();
  box.replaceChildren(...list.filter((s) => (later[suggestionKey(s)] || 0) < s.trips.length).map((s) => suggestionCard(s, onChange)));
}

function suggestionCard(s, onChange) {
  const card = el('div', 'card suggestion-card');
  card.dataset.key = suggestionKey(s);
  const a = { rule: ruleText(s.rule.text), outcome: outcome(s.rule), n: s.trips.length };
  card.append(el('p', null, s.trips.length === 1
    ? t('You classified {rule} as {outcome} 1 time. Classify such trips by a rule from now on? You confirm each.', a)
    : t('You classified {rule} as {outcome} {n} times. Classify such trips by a rule from now on? You confirm each.', a)));
  const actions = el('div', 'actions');
  const button = (cls, label, fn) => {
    const b = el('button', cls, label);
    b.type = 'button';
    b.addEventListener('click', () => act(b, fn));
    actions.append(b);
  };
  button('primary accept-suggestion', t('Make it a rule'), async () => {
    const r = await rpc('rule.add', { rule: s.rule, reason: 'suggested on the page' });
    say(t('Rule added: {rule} → {outcome}.', { rule: ruleText(r.text), outcome: outcome(r) }));
    await onChange();
  });
  button('not-now', t('Not now'), async () => {
    const later = putOff();
    later[suggestionKey(s)] = s.trips.length;
    localStorage.setItem(NOT_NOW, JSON.stringify(later));
    card.remove();
  });
  button('never', t('Never'), async () => {
    await rpc('rule.add', { rule: Object.assign({}, s.rule, { state: 'declined' }), reason: 'suggestion declined on the page' });
    say(t('{rule} will not be suggested again.', { rule: ruleText(s.rule.text) }));
    await onChange();
  });
  card.append(actions);
  return card;
}

export { outcome, loadRules, renderRules, ruleTypeChosen, saveRule, loadSuggestions };
