import type { SosContentRows } from './sos.content';

/**
 * What a report still lacks before transmission (docs/sos.md, "Completeness"), each item with the
 * rule behind it. Required items block the transmission (the page and the API refuse it);
 * advised ones are shown and left to the delegate's judgement.
 */
export interface CompletenessItem {
  code: string;
  label: string;
  ok: boolean;
  required: boolean;
  /** The rule the item comes from, in the words shown on the page. */
  rule: string;
  /** Where it is fixed. */
  fix: 'istruttoria' | 'dettaglio';
}

export const MIN_DESCRIPTION = 50;

export function sosCompleteness(row: { descrizione: string; tipo: string; sostituisce_id: string | null; stato: string }, c: SosContentRows, xmlValid: boolean | null): CompletenessItem[] {
  return [
    {
      code: 'soggetto_cliente', label: 'Il soggetto segnalato (cliente) è tra i soggetti', required: true, fix: 'istruttoria',
      ok: c.soggetti.some((s) => s.ruolo === 'cliente'),
      rule: 'Art. 35 d.lgs. 231/2007 e istruzioni UIF: la segnalazione identifica il soggetto cui è riferita l\'operatività.',
    },
    {
      code: 'operazioni', label: 'Almeno un\'operazione segnalata', required: true, fix: 'istruttoria',
      ok: c.operazioni.length > 0,
      rule: 'Art. 35 d.lgs. 231/2007: si segnalano operazioni; il contenuto strutturato della segnalazione le elenca.',
    },
    {
      code: 'descrizione', label: `Descrizione di almeno ${MIN_DESCRIPTION} caratteri`, required: true, fix: 'istruttoria',
      ok: row.descrizione.trim().length >= MIN_DESCRIPTION,
      rule: 'Istruzioni UIF: la descrizione in forma libera illustra i motivi del sospetto richiamando gli elementi strutturati.',
    },
    {
      code: 'indicatori', label: 'Almeno un indicatore di anomalia', required: false, fix: 'istruttoria',
      ok: c.indicatori.length > 0,
      rule: 'Provvedimento UIF 12 maggio 2023, art. 3: gli indicatori orientano la valutazione; si indicano quelli riscontrati.',
    },
    {
      code: 'fenomeni', label: 'Codice del fenomeno, quando ricorre', required: false, fix: 'istruttoria',
      ok: c.fenomeni.length > 0,
      rule: 'Comunicazione UIF 29 dicembre 2023: il codice del fenomeno si valorizza quando l\'operatività vi è riconducibile.',
    },
    {
      code: 'sostituita', label: 'Una sostitutiva indica la segnalazione che sostituisce', required: true, fix: 'dettaglio',
      ok: row.tipo !== 'sostitutiva' || !!row.sostituisce_id,
      rule: 'Istruzioni UIF: la segnalazione sostitutiva annulla e sostituisce quella già inviata, che va richiamata.',
    },
    {
      code: 'valutazione', label: 'Valutata dal delegato SOS e avviata alla trasmissione', required: true, fix: 'dettaglio',
      ok: ['to_transmit', 'transmitted', 'closed'].includes(row.stato),
      rule: 'Art. 36 d.lgs. 231/2007: il delegato valuta le segnalazioni e trasmette alla UIF quelle ritenute fondate.',
    },
    {
      code: 'schema', label: 'Il documento di esportazione rispetta lo schema pubblicato', required: true, fix: 'istruttoria',
      ok: xmlValid === true,
      rule: 'Schema sos-segnalazione-1.0.xsd della piattaforma (formato di esportazione della segnalazione).',
    },
  ];
}

export const missingRequired = (items: readonly CompletenessItem[]) => items.filter((i) => i.required && !i.ok);
