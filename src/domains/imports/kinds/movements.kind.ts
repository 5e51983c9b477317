import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { insertMovements, movementInputSchema, resolveMovementParties, type MovementRow } from '../../movements';
import { checkExternalCode } from '../../records';
import type { ImportKind, Parsed, RowError } from '../import-kind';
import { parseAmount, parseBool, parseDate, parseTime, type Cell } from '../import-values';
import { IMPORT_MOVEMENT_WRITERS } from '../../../../workflows/imports/imports.contract';

/** The file's column for each field of the movements area's input, where the names differ. */
const COLUMN_OF: Record<string, string> = { cod_rapporto: 'rapporto' };
const columnOf = (field: string) => COLUMN_OF[field] ?? field;

/**
 * A movement of the file: the movements area's input, and the subjects the row names by their code
 * in the source system (anagrafe.codice_esterno), resolved for the batch when it is written.
 */
export interface MovementImport {
  movement: MovementRow;
  /** The customer it is read under, instead of cod_anagrafe. */
  codice_esterno_cliente?: string;
  /** Who executed it, instead of cod_anagrafe_esecutore. */
  codice_esterno_esecutore?: string;
}
const BY_EXTERNAL = [['codice_esterno_cliente', 'cod_anagrafe'], ['codice_esterno_esecutore', 'cod_anagrafe_esecutore']] as const;

const cell = <T>(c: Cell<T>, raw: string): T | string => (c.ok ? c.value : raw);

/**
 * Movements, through the movements area's own validation (movementInputSchema) and insert path
 * (insertMovements: one statement per batch, idempotent by chiave_esterna). The relationship is
 * named by its code (RAP-000123) or by the code it had in the system it comes from.
 */
export const movementsKind: ImportKind<MovementImport> = {
  tipo: 'movimenti',
  // Three batches at once: the keys are claimed in one order (no deadlock) and a key two batches
  // both hold is written once and counted once as already present.
  writers: IMPORT_MOVEMENT_WRITERS,
  columns: [
    { name: 'chiave_esterna', required: true, description: 'Identificativo del movimento nel sistema di origine (un movimento già importato con la stessa chiave non viene ripetuto)' },
    { name: 'rapporto', required: true, description: 'Rapporto: codice (RAP-000123) o codice esterno del rapporto importato' },
    { name: 'cod_anagrafe', required: false, description: 'Cliente del rapporto a cui si riferisce il movimento (predefinito: l\'intestatario)' },
    { name: 'codice_esterno_cliente', required: false, description: 'Lo stesso cliente indicato con il suo codice nel sistema di origine, al posto di cod_anagrafe' },
    { name: 'cod_anagrafe_esecutore', required: false, description: 'Chi ha eseguito l\'operazione (codice anagrafe): anche un delegato, un legale rappresentante o un terzo allo sportello' },
    { name: 'codice_esterno_esecutore', required: false, description: 'Chi ha eseguito l\'operazione, con il suo codice nel sistema di origine, al posto di cod_anagrafe_esecutore' },
    { name: 'data_operazione', required: true, description: 'Data dell\'operazione' },
    { name: 'ora_operazione', required: false, description: 'Ora dell\'operazione (HH:MM o HH:MM:SS), se il sistema di origine la registra' },
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
  parse(values): Parsed<MovementImport> {
    const v = (c: string) => (values[c] ?? '').trim();
    const opt = (c: string) => v(c) || undefined;
    const input = {
      cod_rapporto: v('rapporto'), cod_anagrafe: opt('cod_anagrafe'), cod_anagrafe_esecutore: opt('cod_anagrafe_esecutore'),
      data_operazione: v('data_operazione') ? cell(parseDate(v('data_operazione')), v('data_operazione')) : undefined,
      ora_operazione: opt('ora_operazione') && cell(parseTime(v('ora_operazione')), v('ora_operazione')),
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
    const seen = new Set<string>();
    const errors = parsed.success ? [] : parsed.error.issues.map((i) => ({ colonna: columnOf(String(i.path[0] ?? '')), messaggio: i.message }))
      .filter((e) => (seen.has(e.colonna) ? false : (seen.add(e.colonna), true)));
    const external: Omit<MovementImport, 'movement'> = {};
    for (const [column] of BY_EXTERNAL) {
      if (!v(column)) continue;
      const c = checkExternalCode(v(column));
      if (c.ok) external[column] = c.value; else errors.push({ colonna: column, messaggio: c.message });
    }
    if (!parsed.success || errors.length) return { ok: false, errors };
    return { ok: true, value: { movement: parsed.data, ...external } };
  },
  async write(trx, ctx, rows) {
    const byExternal = await externalCodes(trx, ctx.codAzienda, rows.map((r) => r.value.movement.cod_rapporto));
    // The subjects named by their code in the source system, for the batch in one query.
    const subjects = await subjectsByExternalCode(trx, ctx.codAzienda, rows.flatMap((r) => BY_EXTERNAL.flatMap(([c]) => r.value[c] ?? [])));
    const errors: RowError[] = [];
    const resolved = rows.flatMap((r) => {
      const m: MovementRow = { ...r.value.movement, cod_rapporto: byExternal.get(r.value.movement.cod_rapporto) ?? r.value.movement.cod_rapporto };
      for (const [column, field] of BY_EXTERNAL) {
        const code = r.value[column];
        if (!code) continue;
        const cod = subjects.get(code);
        if (!cod) { errors.push({ riga: r.riga, colonna: column, messaggio: `Nessun soggetto con il codice esterno "${code}": importa prima i clienti` }); return []; }
        if (m[field] && m[field] !== cod) {
          errors.push({ riga: r.riga, colonna: column, messaggio: `Il codice esterno indica ${cod}, la colonna ${field} ${m[field]}: devono indicare lo stesso soggetto` });
          return [];
        }
        m[field] = cod;
      }
      return [{ riga: r.riga, value: m, named: r.value }];
    });
    const { codAnagrafe, errors: refErrors } = await resolveMovementParties(trx, ctx.codAzienda, resolved.map((r) => r.value));
    // A subject the row named by its external code is reported at that column, where the row named it.
    const columnNamed = (i: number, field: string) => BY_EXTERNAL.find(([c, f]) => f === field && resolved[i]!.named[c])?.[0] ?? columnOf(field);
    errors.push(...refErrors.map((e) => ({ riga: resolved[e.index]!.riga, colonna: columnNamed(e.index, e.field), messaggio: e.message })));
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

/** Subjects' codes of the source system (anagrafe.codice_esterno) -> the tenant's cod_anagrafe. */
async function subjectsByExternalCode(trx: Knex.Transaction, codAzienda: string, codes: string[]): Promise<Map<string, string>> {
  if (!codes.length) return new Map();
  const rows = await trx('anagrafe').where('cod_azienda', codAzienda).whereIn('codice_esterno', [...new Set(codes)])
    .select<{ codice_esterno: string; cod_anagrafe: string }[]>('codice_esterno', 'cod_anagrafe');
  return new Map(rows.map((r) => [r.codice_esterno, r.cod_anagrafe]));
}

/** Relationship codes of the source system (rapporti.codice_esterno) -> the tenant's cod_rapporto. */
async function externalCodes(trx: Knex.Transaction, codAzienda: string, codes: string[]): Promise<Map<string, string>> {
  const rows = await trx('rapporti').where('cod_azienda', codAzienda).whereIn('codice_esterno', [...new Set(codes)])
    .select<{ codice_esterno: string; cod_rapporto: string }[]>('codice_esterno', 'cod_rapporto');
  return new Map(rows.map((r) => [r.codice_esterno, r.cod_rapporto]));
}
