import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { insertMovements, movementInputSchema, resolveMovementParties, type MovementRow } from '../../movements';
import type { ImportKind, Parsed, RowError } from '../import-kind';
import { parseAmount, parseBool, parseDate, type Cell } from '../import-values';
import { IMPORT_MOVEMENT_WRITERS } from '../../../../workflows/imports/imports.contract';

/** The file's column for each field of the movements area's input, where the names differ. */
const COLUMN_OF: Record<string, string> = { cod_rapporto: 'rapporto' };
const columnOf = (field: string) => COLUMN_OF[field] ?? field;

const cell = <T>(c: Cell<T>, raw: string): T | string => (c.ok ? c.value : raw);

/**
 * Movements, through the movements area's own validation (movementInputSchema) and insert path
 * (insertMovements: one statement per batch, idempotent by chiave_esterna). The relationship is
 * named by its code (RAP-000123) or by the code it had in the system it comes from.
 */
export const movementsKind: ImportKind<MovementRow> = {
  tipo: 'movimenti',
  // Three batches at once: the keys are claimed in one order (no deadlock) and a key two batches
  // both hold is written once and counted once as already present.
  writers: IMPORT_MOVEMENT_WRITERS,
  columns: [
    { name: 'chiave_esterna', required: true, description: 'Identificativo del movimento nel sistema di origine (un movimento già importato con la stessa chiave non viene ripetuto)' },
    { name: 'rapporto', required: true, description: 'Rapporto: codice (RAP-000123) o codice esterno del rapporto importato' },
    { name: 'cod_anagrafe', required: false, description: 'Soggetto del rapporto che ha operato (predefinito: l\'intestatario)' },
    { name: 'data_operazione', required: true, description: 'Data dell\'operazione' },
    { name: 'data_valuta', required: false, description: 'Data valuta' },
    { name: 'importo', required: true, description: 'Importo positivo (1234,56 o 1234.56)' },
    { name: 'valuta', required: false, description: 'Valuta ISO a tre lettere (predefinita EUR)' },
    { name: 'importo_eur', required: false, description: 'Controvalore in euro (obbligatorio per le valute estere)' },
    { name: 'segno', required: true, description: 'Segno del movimento', values: ['entrata', 'uscita'] },
    { name: 'causale', required: false, description: 'Causale' },
    { name: 'canale', required: false, description: 'Canale (sportello, home banking, ATM...)' },
    { name: 'contanti', required: false, description: 'Operazione in contanti: sì o no' },
    { name: 'controparte_nome', required: false, description: 'Nome della controparte' },
    { name: 'controparte_conto', required: false, description: 'Conto o IBAN della controparte' },
    { name: 'controparte_paese', required: false, description: 'Paese della controparte (ISO a due lettere)' },
  ],
  parse(values): Parsed<MovementRow> {
    const v = (c: string) => (values[c] ?? '').trim();
    const opt = (c: string) => v(c) || undefined;
    const input = {
      cod_rapporto: v('rapporto'), cod_anagrafe: opt('cod_anagrafe'),
      data_operazione: v('data_operazione') ? cell(parseDate(v('data_operazione')), v('data_operazione')) : undefined,
      data_valuta: opt('data_valuta') && cell(parseDate(v('data_valuta')), v('data_valuta')),
      importo: v('importo') ? cell(parseAmount(v('importo')), v('importo')) : undefined,
      valuta: opt('valuta'),
      importo_eur: opt('importo_eur') && cell(parseAmount(v('importo_eur')), v('importo_eur')),
      segno: v('segno').toLowerCase() || undefined,
      causale: opt('causale'), canale: opt('canale'),
      contanti: opt('contanti') === undefined ? undefined : cell(parseBool(v('contanti')), v('contanti')),
      controparte_nome: opt('controparte_nome'), controparte_conto: opt('controparte_conto'), controparte_paese: opt('controparte_paese'),
      chiave_esterna: v('chiave_esterna'),
    };
    const parsed = movementInputSchema.safeParse(input);
    if (parsed.success) return { ok: true, value: parsed.data };
    const seen = new Set<string>();
    const errors = parsed.error.issues.map((i) => ({ colonna: columnOf(String(i.path[0] ?? '')), messaggio: i.message }))
      .filter((e) => (seen.has(e.colonna) ? false : (seen.add(e.colonna), true)));
    return { ok: false, errors };
  },
  async write(trx, ctx, rows) {
    const byExternal = await externalCodes(trx, ctx.codAzienda, rows.map((r) => r.value.cod_rapporto));
    const resolved = rows.map((r) => ({ ...r, value: { ...r.value, cod_rapporto: byExternal.get(r.value.cod_rapporto) ?? r.value.cod_rapporto } }));
    const { codAnagrafe, errors: refErrors } = await resolveMovementParties(trx, ctx.codAzienda, resolved.map((r) => r.value));
    const errors: RowError[] = refErrors.map((e) => ({ riga: resolved[e.index]!.riga, colonna: columnOf(e.field), messaggio: e.message }));
    const bad = new Set(refErrors.map((e) => e.index));
    const keep = (_: unknown, i: number) => !bad.has(i);
    // The subjects just resolved go along: insertMovements does not read them again.
    const r = await insertMovements(trx, ctx.codAzienda, ctx.actor, resolved.filter(keep).map((x) => x.value),
      { importId: ctx.importId, codAnagrafe: codAnagrafe.filter(keep) as string[] });
    if (r.inserted > 0) {
      // One event per batch, like the API's one per request: who loaded how many movements of which days.
      const days = r.items.filter((i) => i.inserted).map((i) => i.data_operazione).sort();
      await appendAudit(trx, {
        codAzienda: ctx.codAzienda, actor: ctx.actor, action: 'movimenti.insert', entityType: 'import', entityId: ctx.importId,
        data: { inseriti: r.inserted, gia_presenti: r.skipped, dal: days[0], al: days.at(-1) },
      });
    }
    return { imported: r.inserted, skipped: r.skipped, errors };
  },
};

/** Relationship codes of the source system (rapporti.codice_esterno) -> the tenant's cod_rapporto. */
async function externalCodes(trx: Knex.Transaction, codAzienda: string, codes: string[]): Promise<Map<string, string>> {
  const rows = await trx('rapporti').where('cod_azienda', codAzienda).whereIn('codice_esterno', [...new Set(codes)])
    .select<{ codice_esterno: string; cod_rapporto: string }[]>('codice_esterno', 'cod_rapporto');
  return new Map(rows.map((r) => [r.codice_esterno, r.cod_rapporto]));
}
