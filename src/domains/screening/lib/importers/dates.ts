const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06',
  jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

const pad = (n: string | number) => String(n).padStart(2, '0');

/**
 * Parses the free-text date forms of the lists ("10 Dec 1948", "Dec 1948", "circa 1951",
 * "1962 to 1964", "22/08/1990", "00/00/1994", "1988-01-07") into ISO partial dates.
 * A range becomes every year in it so a qualifier check can test membership.
 */
export function parseLooseDates(text: string | undefined | null): string[] {
  if (!text) return [];
  const s = text.trim().replace(/^(circa|approximately|approx\.?|about|c\.)\s*/i, '');
  let m = s.match(/^(\d{4})\s*(?:to|-|–)\s*(\d{4})/);
  if (m) {
    const from = Number(m[1]), to = Number(m[2]);
    if (to >= from && to - from <= 20) return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  }
  m = s.match(/^(\d{4})-(\d{2})(?:-(\d{2}))?/);
  if (m) return [m[3] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}`];
  m = s.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})/);
  if (m) {
    if (m[2] === '00' || m[2] === '0') return [m[3]!];
    if (m[1] === '00' || m[1] === '0') return [`${m[3]}-${pad(m[2]!)}`];
    return [`${m[3]}-${pad(m[2]!)}-${pad(m[1]!)}`];
  }
  m = s.match(/^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/);
  if (m && MONTHS[m[2]!.toLowerCase()]) return [`${m[3]}-${MONTHS[m[2]!.toLowerCase()]}-${pad(m[1]!)}`];
  m = s.match(/^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/);
  if (m && MONTHS[m[1]!.toLowerCase()]) return [`${m[2]}-${MONTHS[m[1]!.toLowerCase()]}`];
  m = s.match(/^(\d{4})$/) ?? s.match(/^(\d{4})\b/);
  if (m) return [m[1]!];
  return [];
}
