// trackd's page, its language (docs/web.md, "In the driver's language"): the page's words in English, German and
// Estonian, and numbers, dates and times as the language writes them. The English text is the key: the page and its
// modules are written in English, and texts-de.js and texts-et.js give each English text its German and Estonian
// (one table per language, as the reports have). A text missing from a table is shown in English; WebTextsTests
// fails on any text of the page that a table lacks.
// A language's table is fetched when the page first speaks it: a device in English fetches neither.
const TABLES = {};
// The languages the page speaks, each in its own words (Settings' choice).
const LANGUAGES = { en: 'English', de: 'Deutsch', et: 'Eesti' };
// This device's own choice, and the profile's language as last seen (so that the next start is in it at once).
const CHOICE = 'trackd.language';
const PROFILE = 'trackd.profile-language';

let lang = 'en';
let locale = 'en-GB';

function stored(key) {
  try { return localStorage.getItem(key) || ''; } catch (e) { return ''; }
}
function store(key, value) {
  try { if (value) localStorage.setItem(key, value); else localStorage.removeItem(key); } catch (e) { /* private mode */ }
}
const known = (l) => Object.prototype.hasOwnProperty.call(LANGUAGES, l);
const primary = (tag) => String(tag || '').toLowerCase().split('-')[0];

// The browser's first language the page speaks, else English.
function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language]) if (known(primary(tag))) return primary(tag);
  return 'en';
}
// The language the page speaks: this device's choice, else the profile's, else the browser's.
function chosenLanguage(profileLanguage) {
  const own = stored(CHOICE);
  if (known(own)) return own;
  const p = profileLanguage === undefined ? stored(PROFILE) : profileLanguage;
  return known(p) ? p : browserLanguage();
}
// The locale numbers and dates are written in: the browser's own variant of the language where it has one
// (en-US, de-AT), else the language's home (en-GB, de-DE, et-EE). German and Estonian count hours to 24.
function localeOf(l) {
  for (const tag of navigator.languages || [navigator.language]) if (primary(tag) === l) return tag;
  return { en: 'en-GB', de: 'de-DE', et: 'et-EE' }[l];
}

// The page's text for `text` (English) in the page's language, with {name} replaced by args.name.
function t(text, args) {
  let s = text;
  if (lang !== 'en') {
    const table = TABLES[lang];
    if (Object.prototype.hasOwnProperty.call(table, text)) s = table[text];
  }
  return args ? s.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : s;
}

// The page's fixed words (index.html's text and its placeholder, aria-label, title and alt attributes) in the
// language; each node's English is kept, so that a later change of language starts from it.
const ATTRIBUTES = ['placeholder', 'aria-label', 'title', 'alt'];
const english = new WeakMap();
// Not words of the page's: the unit (set by the page), what is not text, and what is the same in every language
// (a language's own name: translate="no").
const SKIP = '[data-unit], [translate="no"], script, style, datalist';
function translate(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    if (node.nodeType === Node.ELEMENT_NODE) {
      if (node.closest(SKIP)) continue;
      let was = english.get(node);
      for (const a of ATTRIBUTES) {
        if (!node.hasAttribute(a) && !(was && a in was)) continue;
        if (!was) { was = {}; english.set(node, was); }
        if (!(a in was)) was[a] = node.getAttribute(a);
        if (/\p{L}/u.test(was[a])) node.setAttribute(a, t(was[a]));
      }
      continue;
    }
    if (node.parentElement && node.parentElement.closest(SKIP)) continue;
    const source = english.has(node) ? english.get(node) : node.nodeValue;
    const words = source.trim();
    if (!/\p{L}/u.test(words)) continue;
    english.set(node, source);
    const lead = source.slice(0, source.indexOf(words)), tail = source.slice(source.indexOf(words) + words.length);
    node.nodeValue = lead + t(words) + tail;
  }
}

// The table of `l`, fetched once; English if it cannot be had (the board out of reach, nothing kept).
async function load(l) {
  if (l === 'en' || TABLES[l]) return l;
  try {
    TABLES[l] = (await import(`./texts-${l}.js`)).default;
    return l;
  } catch (e) {
    return 'en';
  }
}

// Takes the language: the profile's (when it is known), this device's choice or the browser's; the page's fixed
// words in it (the page shows once they are: app.css hides it until html has its data-lang). Whether it changed.
async function useLanguage(profileLanguage) {
  if (profileLanguage !== undefined) store(PROFILE, known(profileLanguage) ? profileLanguage : '');
  const l = await load(chosenLanguage(profileLanguage));
  const changed = l !== lang || !document.documentElement.dataset.lang;
  lang = l;
  locale = localeOf(l);
  document.documentElement.lang = l;
  document.documentElement.dataset.lang = l;
  if (changed) translate(document.body);
  return changed;
}
// This device's own choice ('' follows the profile, else the browser).
function chooseLanguage(l) {
  store(CHOICE, known(l) ? l : '');
}
const ownChoice = () => { const c = stored(CHOICE); return known(c) ? c : ''; };
const localeName = () => locale;

// Numbers as the language writes them: `digits` after the decimal sign (a comma in German and Estonian).
const numbers = {};
function decimal(x, digits, grouping) {
  const key = locale + '|' + digits + '|' + (grouping === false ? 0 : 1);
  const f = numbers[key] || (numbers[key] = new Intl.NumberFormat(locale,
    { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: grouping !== false }));
  return f.format(x);
}

export { t, useLanguage, chooseLanguage, ownChoice, localeName, decimal };
