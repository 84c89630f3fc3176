// trackd's page: the profile's forms, Settings' and the first run's.
import { $, COUNTRIES, refuse, t } from './core.js';
import { decimal } from './i18n.js';

// The fields profile.set takes, each a field of a form: `${form}-driver`, …, `${form}-timezone`.
// (The language only in Settings': the first run's form has none, its page speaks the browser's.)
const PROFILE_KEYS = ['driver', 'plate', 'company', 'country', 'unit', 'car', 'rate', 'time_zone', 'language'];
const field = (form, k) => $(form + '-' + (k === 'time_zone' ? 'timezone' : k));
// An own rate as the profile keeps it (thousandths of the currency per unit) as a person types it: 450 is "0.45"
// ("0,45" in German and Estonian; the board takes either).
const rateText = (r) => r == null ? '' : decimal(r / 1000, 3, false).replace(/0+$/, '').replace(/[.,]$/, '');
const profileText = (p, k) => !p || p[k] == null ? '' : k === 'rate' ? rateText(p.rate) : String(p[k]);

// Fills a form with the profile; each field keeps what it held, to send only what changed.
function fillProfile(form, p) {
  for (const k of PROFILE_KEYS) {
    const f = field(form, k);
    if (f) f.value = f.dataset.was = profileText(p, k);
  }
  profileHints(form);
}

// What the chosen country means for the unit and the rate: the unit it counts in, its currency.
function profileHints(form) {
  const c = COUNTRIES[field(form, 'country').value];
  field(form, 'unit').options[0].textContent = t('Country’s ({unit})', { unit: c ? c.unit : 'km' });
  $(form + '-rate-name').textContent = c ? t('Own rate, {currency}/{unit}', { currency: c.currency, unit: c.unit }) : t('Own rate');
  field(form, 'rate').placeholder = c ? t('The country’s') : t('Needs a country');
  const example = decimal(0.42, 2);
  $(form + '-rate-note').textContent = !c
    ? t('An employer’s own rate is paid in a country’s currency: choose the country first.')
    : c.unit === 'mi' ? t('An employer’s own, in {currency} per mile ({example}); empty: the country’s table.', { currency: c.currency, example })
      : t('An employer’s own, in {currency} per kilometre ({example}); empty: the country’s table.', { currency: c.currency, example });
}

// The fields that changed, as profile.set takes them; refused before anything is sent when they cannot be saved.
function profileChanges(form) {
  const changes = {};
  for (const k of PROFILE_KEYS) {
    const f = field(form, k);
    if (!f) continue;
    const v = f.value.trim();
    if (v !== (f.dataset.was || '')) changes[k] = v;
  }
  if (field(form, 'rate').value.trim() && !field(form, 'country').value) {
    refuse(t('An own rate is paid in a country’s currency per its unit: choose the country too, or leave the rate empty.'));
  }
  if ('time_zone' in changes && !changes.time_zone) {
    refuse(t('Give a time zone, such as Europe/London: the log counts its days and months in it.'));
  }
  return changes;
}

export { PROFILE_KEYS, field, rateText, profileText, fillProfile, profileHints, profileChanges };
