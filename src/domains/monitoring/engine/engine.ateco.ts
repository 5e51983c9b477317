/**
 * The ATECO section (A–U) of an ATECO code, from its division (the first two digits), as the
 * ATECO 2007 / NACE Rev. 2 table groups them: peer groups and rules compare sectors by section.
 */
const SECTIONS: readonly [number, string][] = [
  [3, 'A'], [9, 'B'], [33, 'C'], [35, 'D'], [39, 'E'], [43, 'F'], [47, 'G'], [53, 'H'], [56, 'I'], [63, 'J'],
  [66, 'K'], [68, 'L'], [75, 'M'], [82, 'N'], [84, 'O'], [85, 'P'], [88, 'Q'], [93, 'R'], [96, 'S'], [98, 'T'], [99, 'U'],
];

export function atecoSection(ateco: string | null | undefined): string | null {
  const m = ateco ? /^(\d{2})/.exec(ateco.trim()) : null;
  if (!m) return null;
  const division = Number(m[1]);
  if (division < 1) return null;
  for (const [last, section] of SECTIONS) if (division <= last) return section;
  return null;
}
