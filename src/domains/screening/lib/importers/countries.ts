/**
 * Country name -> ISO 3166 alpha-2 resolution built from the ICU data that ships with Node,
 * so list spellings ("Korea, North", "Russian Federation") and query codes ("RU") compare equal.
 */
const ALIASES: Record<string, string> = {
  'russian federation': 'ru', russia: 'ru', 'korea, north': 'kp', 'north korea': 'kp',
  "democratic people's republic of korea": 'kp', 'korea, south': 'kr', 'south korea': 'kr',
  'republic of korea': 'kr', 'iran (islamic republic of)': 'ir', iran: 'ir', syria: 'sy',
  'syrian arab republic': 'sy', burma: 'mm', 'united states': 'us', usa: 'us',
  'united kingdom': 'gb', uk: 'gb', 'great britain': 'gb', 'viet nam': 'vn', vietnam: 'vn',
  'congo, democratic republic of the': 'cd', 'democratic republic of the congo': 'cd',
  'congo, republic of the': 'cg', 'bolivia (plurinational state of)': 'bo',
  'venezuela (bolivarian republic of)': 've', 'united republic of tanzania': 'tz',
  "lao people's democratic republic": 'la', 'the former yugoslav republic of macedonia': 'mk',
  'republic of moldova': 'md', palestinian: 'ps', palestine: 'ps', 'west bank': 'ps', gaza: 'ps',
  'state of palestine': 'ps', turkiye: 'tr', türkiye: 'tr', 'czech republic': 'cz',
  "cote d'ivoire": 'ci', 'ivory coast': 'ci', 'bosnia-herzegovina': 'ba', kosovo: 'xk',
  crimea: 'ua', 'region: crimea': 'ua', 'hong kong': 'hk', macau: 'mo', taiwan: 'tw',
};

/** Demonyms that appear in nationality fields of the lists. */
const DEMONYMS: Record<string, string> = {
  russian: 'ru', iranian: 'ir', syrian: 'sy', iraqi: 'iq', afghan: 'af', pakistani: 'pk',
  american: 'us', british: 'gb', chinese: 'cn', 'north korean': 'kp', korean: 'kr', lebanese: 'lb',
  yemeni: 'ye', somali: 'so', libyan: 'ly', sudanese: 'sd', saudi: 'sa', egyptian: 'eg',
  ukrainian: 'ua', belarusian: 'by', venezuelan: 've', cuban: 'cu', mexican: 'mx', colombian: 'co',
  turkish: 'tr', jordanian: 'jo', kuwaiti: 'kw', emirati: 'ae', german: 'de', french: 'fr',
  tunisian: 'tn', algerian: 'dz', moroccan: 'ma', nigerian: 'ng', malian: 'ml', indian: 'in',
};

let byName: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try { name = display.of(code); } catch { name = undefined; }
      if (name && name !== code) byName.set(name.toLowerCase(), code.toLowerCase());
    }
  }
  for (const [k, v] of Object.entries({ ...ALIASES, ...DEMONYMS })) byName.set(k, v);
  return byName;
}

/** Returns the alpha-2 code (lower case) or the cleaned text lower case when unknown. */
export function countryCode(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const clean = text.replace(/\s+/g, ' ').replace(/[.;]+$/, '').trim().toLowerCase();
  if (!clean) return undefined;
  if (/^[a-z]{2}$/.test(clean)) return clean === 'uk' ? 'gb' : clean;
  const t = table();
  return t.get(clean) ?? t.get(clean.replace(/^the /, '')) ?? t.get(clean.replace(/\s*\(.*\)$/, '')) ?? clean;
}
