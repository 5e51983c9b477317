import type { Knex } from 'knex';
import { checkExternalCode, createRapporto, dedupeKey, normaliseTaxId, STATI_RAPPORTO } from '../../records';
import type { ImportKind, Parsed, RowError } from '../import-kind';
import { parseDate, parseText, rowChecker, type Cell } from '../import-values';

export interface RelationshipImport {
  codice_esterno: string;
  /** The holder by tax id or cod_anagrafe, or by its code in the source system (at least one; both must name one subject). */
  cliente: string | null;
  codice_esterno_cliente: string | null;
  tipo: string;
  stato: (typeof STATI_RAPPORTO)[number];
  data_apertura: string;
  data_chiusura: string | null;
  scopo: string | null;
  natura: string | null;
}

const stato = (raw: string): Cell<(typeof STATI_RAPPORTO)[number]> => {
  const s = raw.trim().toLowerCase() as (typeof STATI_RAPPORTO)[number];
  return STATI_RAPPORTO.includes(s) ? { ok: true, value: s } : { ok: false, messaggio: `Stato non valido "${raw.trim()}": ${STATI_RAPPORTO.join(', ')}` };
};

/**
 * The subject a row names as holder: its cod_anagrafe (ANA-000123), or its codice fiscale or partita
 * IVA, looked up through the dedupe key the records area keeps (anagrafe.chiave_fiscale).
 */
function holderKey(cliente: string): { cod?: string; chiave?: string } {
  const s = normaliseTaxId(cliente);
  if (/^ANA-\d+$/.test(s)) return { cod: s };
  const chiave = dedupeKey({ tipo_soggetto: s.length === 11 ? 'societa' : 'persona_fisica', codice_fiscale: s });
  return chiave ? { chiave } : {};
}

/** The customers of the tenant by their code in the source system (anagrafe.codice_esterno; deleted ones are no holders). */
async function holdersByExternalCode(trx: Knex.Transaction, codAzienda: string, codes: string[]): Promise<Map<string, string>> {
  if (!codes.length) return new Map();
  const found = await trx('anagrafe').where('cod_azienda', codAzienda).whereNot('stato', 'eliminato').whereIn('codice_esterno', codes)
    .select<{ cod_anagrafe: string; codice_esterno: string }[]>('cod_anagrafe', 'codice_esterno');
  return new Map(found.map((f) => [f.codice_esterno, f.cod_anagrafe]));
}

async function resolveHolders(trx: Knex.Transaction, codAzienda: string, clienti: string[]): Promise<Map<string, string>> {
  const keys = clienti.map((c) => [c, holderKey(c)] as const);
  const cods = keys.flatMap(([, k]) => (k.cod ? [k.cod] : []));
  const chiavi = keys.flatMap(([, k]) => (k.chiave ? [k.chiave] : []));
  const found = await trx('anagrafe').where('cod_azienda', codAzienda).whereNot('stato', 'eliminato')
    .where((w) => w.whereIn('cod_anagrafe', cods).orWhereIn('chiave_fiscale', chiavi))
    .select<{ cod_anagrafe: string; chiave_fiscale: string | null }[]>('cod_anagrafe', 'chiave_fiscale');
  const byCod = new Set(found.map((f) => f.cod_anagrafe));
  const byKey = new Map(found.filter((f) => f.chiave_fiscale).map((f) => [f.chiave_fiscale!, f.cod_anagrafe]));
  const out = new Map<string, string>();
  for (const [c, k] of keys) {
    const cod = k.cod && byCod.has(k.cod) ? k.cod : k.chiave ? byKey.get(k.chiave) : undefined;
    if (cod) out.set(c, cod);
  }
  return out;
}

/**
 * Relationships (rapporti), each under the code it had in the system it comes from
 * (rapporti.codice_esterno, unique per tenant): a code already present is skipped, so a re-run adds
 * nothing. The holder must already be a customer (import customers first).
 */
export const relationshipsKind: ImportKind<RelationshipImport> = {
  tipo: 'rapporti',
  columns: [
    { name: 'codice_esterno', required: true, description: 'Codice del rapporto nel sistema di origine (identifica il rapporto se il file viene importato di nuovo)' },
    { name: 'cliente', required: false, description: 'Intestatario: codice fiscale, partita IVA o codice anagrafe (ANA-000123) di un cliente già presente (o codice_esterno_cliente)' },
    { name: 'codice_esterno_cliente', required: false, description: 'Intestatario: il suo codice nel sistema di origine (il codice esterno del cliente importato), al posto di cliente' },
    { name: 'tipo', required: true, description: 'Tipo di rapporto (conto corrente, deposito titoli, wallet...)' },
    { name: 'stato', required: false, description: 'attivo (predefinito), sospeso o chiuso' },
    { name: 'data_apertura', required: true, description: 'Data di apertura' },
    { name: 'data_chiusura', required: false, description: 'Data di chiusura (obbligatoria se chiuso)' },
    { name: 'scopo', required: false, description: 'Scopo del rapporto' },
    { name: 'natura', required: false, description: 'Natura del rapporto' },
  ],
  parse(values): Parsed<RelationshipImport> {
    const { take, errors } = rowChecker(values);
    const r = {
      codice_esterno: take('codice_esterno', (v) => parseText(v, 100), true),
      cliente: take('cliente', (v) => parseText(v, 100)),
      codice_esterno_cliente: take('codice_esterno_cliente', (v) => {
        const c = checkExternalCode(v);
        return c.ok ? c : { ok: false, messaggio: c.message };
      }),
      tipo: take('tipo', (v) => parseText(v, 100), true),
      stato: take('stato', stato) ?? 'attivo',
      data_apertura: take('data_apertura', parseDate, true),
      data_chiusura: take('data_chiusura', parseDate),
      scopo: take('scopo', (v) => parseText(v, 500)),
      natura: take('natura', (v) => parseText(v, 500)),
    };
    if (!r.cliente && !r.codice_esterno_cliente && !errors.some((e) => e.colonna === 'cliente' || e.colonna === 'codice_esterno_cliente')) {
      errors.push({ colonna: 'cliente', messaggio: 'Indica l\'intestatario: cliente (codice fiscale, partita IVA o codice anagrafe) o codice_esterno_cliente' });
    }
    if (r.data_apertura && r.data_chiusura && r.data_chiusura < r.data_apertura) errors.push({ colonna: 'data_chiusura', messaggio: 'La data di chiusura precede quella di apertura' });
    if (r.stato === 'chiuso' && !r.data_chiusura && !errors.some((e) => e.colonna === 'data_chiusura')) errors.push({ colonna: 'data_chiusura', messaggio: 'Indica la data di chiusura di un rapporto chiuso' });
    if (errors.length) return { ok: false, errors };
    return { ok: true, value: r as RelationshipImport };
  },
  async write(trx, ctx, rows) {
    const present = new Set((await trx('rapporti').where('cod_azienda', ctx.codAzienda)
      .whereIn('codice_esterno', rows.map((r) => r.value.codice_esterno)).pluck('codice_esterno')) as string[]);
    const holders = await resolveHolders(trx, ctx.codAzienda, [...new Set(rows.flatMap((r) => (r.value.cliente ? [r.value.cliente] : [])))]);
    const byExternal = await holdersByExternalCode(trx, ctx.codAzienda, [...new Set(rows.flatMap((r) => (r.value.codice_esterno_cliente ? [r.value.codice_esterno_cliente] : [])))]);
    const errors: RowError[] = [];
    let imported = 0;
    let skipped = 0;
    for (const { riga, value: v } of rows) {
      if (present.has(v.codice_esterno)) { skipped += 1; continue; }
      const byCliente = v.cliente ? holders.get(v.cliente) : undefined;
      const byCode = v.codice_esterno_cliente ? byExternal.get(v.codice_esterno_cliente) : undefined;
      if (v.cliente && !byCliente) { errors.push({ riga, colonna: 'cliente', messaggio: `Cliente "${v.cliente}" non trovato: importa prima i clienti` }); continue; }
      if (v.codice_esterno_cliente && !byCode) {
        errors.push({ riga, colonna: 'codice_esterno_cliente', messaggio: `Nessun cliente con il codice esterno "${v.codice_esterno_cliente}": importa prima i clienti` });
        continue;
      }
      if (byCliente && byCode && byCliente !== byCode) {
        errors.push({ riga, colonna: 'codice_esterno_cliente', messaggio: `Il codice esterno indica ${byCode}, la colonna cliente ${byCliente}: devono indicare lo stesso cliente` });
        continue;
      }
      const holder = (byCliente ?? byCode)!;
      const saved = await createRapporto(trx, ctx.codAzienda, ctx.actor, {
        cod_anagrafe: holder, tipo: v.tipo, stato: v.stato, data_apertura: v.data_apertura, data_chiusura: v.data_chiusura,
        scopo: v.scopo, natura: v.natura, fonte: 'import',
      });
      await trx('rapporti').where({ cod_azienda: ctx.codAzienda, cod_rapporto: saved.cod_rapporto }).update({ codice_esterno: v.codice_esterno });
      present.add(v.codice_esterno);
      imported += 1;
    }
    return { imported, skipped, errors };
  },
};
