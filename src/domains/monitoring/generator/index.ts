// The synthetic labelled year (docs/monitoring.md, "The generator and the seed"): pure, deterministic from a seed.
export { generaAnno, pianoAnno, TIPOLOGIE_PIANTATE, type PianoAnno } from './generator';
export { Casuale } from './generator.random';
export type {
  AnagraficaGenerata, AnnoGenerato, ClienteGenerato, Comportamento, Etichetta, IndirizzoCripto, OpzioniAnno, TipologiaPiantata,
} from './generator.types';
