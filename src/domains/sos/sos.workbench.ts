import type { Knex } from 'knex';
import type { SosContent } from '../../../workflows/sos/sos.contract';
import { ValidationError, type FieldError } from '../../http/errors';
import { casesForCustomer } from '../cases';
import { subIndice } from '../monitoring';
import { recentMovements, type MovementRecord } from '../movements';
import { readSosContent, type SosContentRows } from './sos.content';
import { fenomeniSos } from './sos.codes';

/**
 * The investigation view's data (docs/sos.md, "Investigation"): the customer file, their movements,
 * alerts and cases, and what the report already holds; and the content a submitted selection makes.
 */
export async function investigationData(trx: Knex.Transaction, codAzienda: string, row: { id: string; cod_anagrafe: string }) {
  const customer = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: row.cod_anagrafe })
    .first('cod_anagrafe', 'denominazione', 'codice_fiscale', 'tipo_soggetto', 'classe_rischio', 'pep') as Record<string, unknown> | undefined;
  const rapporti = await trx('rapporti').where({ cod_azienda: codAzienda, cod_anagrafe: row.cod_anagrafe }).orderBy('cod_rapporto').select('cod_rapporto', 'tipo', 'data_apertura');
  const movimenti = await recentMovements(trx, row.cod_anagrafe, 200);
  const alerts = await trx('monitoring_alert').where({ cod_azienda: codAzienda, cod_anagrafe: row.cod_anagrafe }).whereNull('deleted_at')
    .orderBy('data_rilevazione', 'desc').limit(50).select('id', 'cod_alert', 'tipologia', 'stato', 'disposizione', 'punteggio', 'data_rilevazione');
  const cases = await casesForCustomer(trx, codAzienda, row.cod_anagrafe, 20);
  const content = await readSosContent(trx, row.id);
  const executors = [...new Set(movimenti.map((m) => m.cod_anagrafe_esecutore).filter((e): e is string => !!e && e !== row.cod_anagrafe))];
  const esecutori = executors.length
    ? await trx('anagrafe').where({ cod_azienda: codAzienda }).whereIn('cod_anagrafe', executors).select('cod_anagrafe', 'denominazione', 'codice_fiscale') as { cod_anagrafe: string; denominazione: string; codice_fiscale: string | null }[]
    : [];
  const controparti = [...new Set(movimenti.map((m) => m.controparte_nome).filter((n): n is string => !!n))];
  return { customer, rapporti, movimenti, alerts, cases, content, esecutori, controparti, fenomeni: fenomeniSos() };
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

/**
 * The report's new content from the investigation form: the operations picked among the customer's
 * movements, the customer with the executors and counterparties picked, the relationships and
 * links kept as they were, the phenomenon codes ticked and the sub-index codes typed.
 */
export function contentFromSelection(form: Record<string, unknown>, data: Awaited<ReturnType<typeof investigationData>>, customer: { cod_anagrafe: string; nominativo: string; codice_fiscale: string | null }): SosContent {
  const errors: FieldError[] = [];
  const picked = new Set(list(form.movimenti));
  const byId = new Map<string, MovementRecord>(data.movimenti.map((m) => [m.id, m]));
  for (const id of picked) if (!byId.has(id)) errors.push({ path: 'movimenti', message: 'Movimento non trovato tra quelli del cliente' });
  const proposte = new Map(data.content.operazioni.map((o) => [o.movimento_id, o.cod_alert]));
  const operazioni = [...picked].filter((id) => byId.has(id)).map((id) => {
    const m = byId.get(id)!;
    return { movimento_id: m.id, cod_alert: proposte.get(m.id) ?? null, data_operazione: String(m.data_operazione).slice(0, 10), importo: Number(m.importo), valuta: m.valuta, segno: m.segno, causale: m.causale, descrizione: '' };
  });
  // Operations entered by hand (no movement) stay.
  const manual = data.content.operazioni.filter((o) => !o.movimento_id).map((o) => ({ ...o, importo: Number(o.importo) }));
  const esecutori = new Set(list(form.esecutori));
  const controparti = new Set(list(form.controparti));
  const soggetti: SosContent['soggetti'] = [
    { cod_anagrafe: customer.cod_anagrafe, nominativo: customer.nominativo, codice_fiscale: customer.codice_fiscale, ruolo: 'cliente' },
    ...data.esecutori.filter((e) => esecutori.has(e.cod_anagrafe)).map((e) => ({ cod_anagrafe: e.cod_anagrafe, nominativo: e.denominazione, codice_fiscale: e.codice_fiscale, ruolo: 'esecutore' as const })),
    ...data.controparti.filter((n) => controparti.has(n)).map((n) => ({ cod_anagrafe: null, nominativo: n, codice_fiscale: null, ruolo: 'controparte' as const })),
    // Subjects the view does not offer (a beneficial owner, another subject given through the API) stay.
    ...data.content.soggetti.filter((x) => x.ruolo === 'titolare_effettivo' || x.ruolo === 'altro')
      .map((x) => ({ cod_anagrafe: x.cod_anagrafe, nominativo: x.nominativo, codice_fiscale: x.codice_fiscale, ruolo: x.ruolo as 'titolare_effettivo' | 'altro' })),
  ];
  const known = new Set(data.fenomeni.map((f) => f.codice));
  const fenomeni = list(form.fenomeni).filter((f) => { if (known.has(f)) return true; errors.push({ path: 'fenomeni', message: `Codice fenomeno sconosciuto: ${f}` }); return false; });
  const proposed = new Set(data.content.indicatori.filter((i) => i.proposto).map((i) => i.sottoindice));
  const codes = String(form.indicatori ?? '').split(/[\s,;]+/).filter(Boolean);
  const indicatori = codes.flatMap((code) => {
    const s = subIndice(code);
    if (!s) { errors.push({ path: 'indicatori', message: `Sub-indice sconosciuto: ${code} (Provvedimento UIF 12 maggio 2023)` }); return []; }
    return [{ indicatore: s.indicatore, sottoindice: s.codice, proposto: proposed.has(s.codice) }];
  });
  if (errors.length) throw new ValidationError(errors, errors[0]!.message);
  // Links between subjects stay while both of their subjects stay (links name subjects by index in the new list).
  const key = (x: { cod_anagrafe?: string | null; nominativo: string; ruolo: string }) => `${x.ruolo}|${x.cod_anagrafe ?? x.nominativo}`;
  const indexOf = new Map(soggetti.map((x, i) => [key(x), i]));
  const rowKey = new Map(data.content.soggetti.map((x) => [x.id, key(x)]));
  const legami = data.content.legami.flatMap((l) => {
    const da = indexOf.get(rowKey.get(l.soggetto_da) ?? '');
    const a = indexOf.get(rowKey.get(l.soggetto_a) ?? '');
    return da === undefined || a === undefined ? [] : [{ da, a, tipo: l.tipo }];
  });
  return { operazioni: [...manual, ...operazioni], soggetti, rapporti: data.content.rapporti, legami, fenomeni, indicatori };
}

export const selectedOf = (c: SosContentRows) => ({
  movimenti: c.operazioni.map((o) => o.movimento_id).filter(Boolean),
  esecutori: c.soggetti.filter((s) => s.ruolo === 'esecutore').map((s) => s.cod_anagrafe),
  controparti: c.soggetti.filter((s) => s.ruolo === 'controparte').map((s) => s.nominativo),
  fenomeni: c.fenomeni.map((f) => f.codice),
  indicatori: c.indicatori.map((i) => i.sottoindice).filter(Boolean).join(', '),
});
