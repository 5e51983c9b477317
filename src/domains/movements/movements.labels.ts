/** The direction of a movement, as stored (CHECK movimenti_segno). */
export const SEGNI = ['entrata', 'uscita'] as const;
export type Segno = (typeof SEGNI)[number];

/** Italian labels for what a person sees about movements. */
export const SEGNO_LABELS: Record<Segno, string> = {
  entrata: 'Entrata',
  uscita: 'Uscita',
};

export const SEGNO_TONES: Record<Segno, string> = {
  entrata: 'green',
  uscita: 'orange',
};
