import type { Knex } from 'knex';
import { getSetting } from '../../admin';
import { romeMidnight } from '../../risk';

const DAY_MS = 86_400_000;

/** The day after a yyyy-mm-dd day (calendar arithmetic in UTC: no time zone shifts a date). */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

export interface Deadline {
  /** When the verification expires. */
  scadeIl: Date;
  /** What decided it: the tenant's validity, or the document that expires first. */
  motivo: { tipo: 'validita'; giorni: number } | { tipo: 'documento'; documento_id: string; cod_documento: string | null; data_scadenza: string };
}

/**
 * A verification's deadline: `verifiche.validita_giorni` days from its opening, earlier when a
 * document it relied on (verifiche_documenti) expires first. A document is valid through its
 * expiry day: it stops counting at the next midnight in Rome. Replaced documents no longer count.
 */
export async function computeDeadline(trx: Knex.Transaction, codAzienda: string, verificaId: string, openedAt: Date): Promise<Deadline> {
  const giorni = Number(await getSetting(trx, 'verifiche.validita_giorni', codAzienda));
  let best: Deadline = { scadeIl: new Date(openedAt.getTime() + giorni * DAY_MS), motivo: { tipo: 'validita', giorni } };
  const docs: { id: string; cod_documento: string | null; giorno: string }[] = await trx('verifiche_documenti as vd')
    .join('documenti as d', 'd.id', 'vd.documento_id')
    .where({ 'vd.cod_azienda': codAzienda, 'vd.verifica_id': verificaId })
    .whereNotNull('d.data_scadenza').whereNot('d.stato', 'sostituito')
    .select('d.id', 'd.cod_documento', trx.raw("to_char(d.data_scadenza, 'YYYY-MM-DD') as giorno"));
  for (const d of docs) {
    const at = romeMidnight(nextDay(d.giorno));
    if (at < best.scadeIl) best = { scadeIl: at, motivo: { tipo: 'documento', documento_id: d.id, cod_documento: d.cod_documento, data_scadenza: d.giorno } };
  }
  return best;
}
