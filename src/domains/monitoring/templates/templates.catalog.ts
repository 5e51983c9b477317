import { contantiOltreSoglia, incoerenzaProfiloContanti, strutturazioneContanti } from './templates.cash';
import { cryptoIndirizziSanzionati, cryptoListeInterne } from './templates.crypto';
import { riattivazioneDormiente } from './templates.dormant';
import { fanIn, fanOut, importiTondi, transitoRapido } from './templates.flows';
import { paesiAltoRischio } from './templates.geography';
import { incoerenzaProfiloVolume, piccoVelocita, piccoVolume } from './templates.spikes';
import type { ModelloRegola } from './template.types';

/** The standard templates, in the typologies' order (monitoring.typologies.ts), `altro` excepted. */
export const MODELLI_MONITORAGGIO: readonly ModelloRegola[] = [
  strutturazioneContanti, contantiOltreSoglia, piccoVelocita, piccoVolume, paesiAltoRischio, importiTondi, transitoRapido,
  fanIn, fanOut, riattivazioneDormiente, incoerenzaProfiloVolume, incoerenzaProfiloContanti, cryptoIndirizziSanzionati, cryptoListeInterne,
];

export const findModello = (codRegola: string): ModelloRegola | undefined => MODELLI_MONITORAGGIO.find((m) => m.cod_regola === codRegola);
