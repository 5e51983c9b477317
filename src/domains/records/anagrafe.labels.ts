import {
  CAMPO_ANAGRAFE_LABELS, CLASSE_RISCHIO_LABELS, FONTE_LABELS, RUOLO_RAPPORTO_LABELS, STATO_ANAGRAFE_LABELS, STATO_DOCUMENTO_LABELS,
  STATO_RAPPORTO_LABELS, TIPO_CONTROLLO_LABELS, TIPO_DOCUMENTO_LABELS, TIPO_LEGAME_LABELS, TIPO_SOGGETTO_LABELS, USO_CONTANTI_LABELS,
} from './records.labels';
import { SEGNO_LABELS, SEGNO_TONES } from '../movements';

/**
 * What the anagrafe pages add to the area's dictionaries (records.labels.ts): the badges' colours,
 * the words of the version history, and the kinds of relationship onboarding and imports write.
 */

export const STATO_TONES: Record<string, string> = { attivo: 'green', sospeso: 'yellow', cessato: 'secondary', eliminato: 'red' };
export const CLASSE_RISCHIO_TONES: Record<string, string> = { basso: 'green', medio: 'azure', medio_alto: 'yellow', alto: 'red' };
export const RAPPORTO_STATO_TONES: Record<string, string> = { attivo: 'green', sospeso: 'yellow', chiuso: 'secondary' };
export const DOCUMENTO_STATO_TONES: Record<string, string> = { valido: 'green', scaduto: 'red', sostituito: 'secondary' };

/** Kinds of relationship as onboarding and imports write them; an unknown kind shows as written. */
export const RAPPORTO_TIPO_LABELS: Record<string, string> = {
  rapporto_continuativo: 'Rapporto continuativo',
  operazione_occasionale: 'Operazione occasionale',
  conto_corrente: 'Conto corrente',
  conto_deposito: 'Conto deposito',
  conto_pagamento: 'Conto di pagamento',
  carta: 'Carta',
  finanziamento: 'Finanziamento',
  investimento: 'Investimento',
  custodia_cripto: 'Custodia di cripto-attività',
  cambio_cripto: 'Cambio di cripto-attività',
  altro: 'Altro',
};

/** What a version of the record did (anagrafe_versioni.operazione). */
export const OPERAZIONE_LABELS: Record<string, string> = { create: 'Creazione', update: 'Modifica', delete: 'Eliminazione' };
export const OPERAZIONE_TONES: Record<string, string> = { create: 'green', update: 'blue', delete: 'red' };

/** The record's fields in the version history: the area's names, and those of the deletion. */
export const CAMPO_LABELS: Record<string, string> = {
  ...CAMPO_ANAGRAFE_LABELS,
  eliminato_at: 'Eliminato il',
  eliminato_da: 'Eliminato da',
};

/** Fields whose values are enums: the history shows their labels, not the identifiers. */
export const CAMPO_VALUE_LABELS: Record<string, Record<string, string>> = {
  tipo_soggetto: TIPO_SOGGETTO_LABELS,
  stato: STATO_ANAGRAFE_LABELS,
  classe_rischio: CLASSE_RISCHIO_LABELS,
  pep: { true: 'Sì', false: 'No' },
  uso_contanti_atteso: USO_CONTANTI_LABELS,
};

export { CLASSE_RISCHIO_LABELS, TIPO_SOGGETTO_LABELS, STATO_ANAGRAFE_LABELS, TIPO_LEGAME_LABELS, TIPO_CONTROLLO_LABELS, RUOLO_RAPPORTO_LABELS, USO_CONTANTI_LABELS };

/** The dictionaries the anagrafe templates read (`labels.tipo[...]`, `x | etichetta(labels.ruolo)`). */
export const PAGE_LABELS = {
  tipo: TIPO_SOGGETTO_LABELS,
  stato: STATO_ANAGRAFE_LABELS,
  statoTone: STATO_TONES,
  rischio: CLASSE_RISCHIO_LABELS,
  rischioTone: CLASSE_RISCHIO_TONES,
  rapportoTipo: RAPPORTO_TIPO_LABELS,
  rapportoStato: STATO_RAPPORTO_LABELS,
  rapportoStatoTone: RAPPORTO_STATO_TONES,
  ruolo: RUOLO_RAPPORTO_LABELS,
  legame: TIPO_LEGAME_LABELS,
  controllo: TIPO_CONTROLLO_LABELS,
  fonte: FONTE_LABELS,
  documento: TIPO_DOCUMENTO_LABELS,
  documentoStato: STATO_DOCUMENTO_LABELS,
  documentoStatoTone: DOCUMENTO_STATO_TONES,
  segno: SEGNO_LABELS,
  segnoTone: SEGNO_TONES,
  contanti: USO_CONTANTI_LABELS,
} as const;

/** A dictionary's word for a value, or the value itself when it has none (data written before a vocabulary grew). */
export const labelOf = (dict: Record<string, string>, key: string): string => dict[key] ?? key;
