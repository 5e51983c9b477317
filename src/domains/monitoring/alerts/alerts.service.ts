import type { Deps } from '../../../deps';
import { assertReferencesInTenant } from '../../../db/references';
import type { SessionUser } from '../../../http/context';
import { notFound, ValidationError } from '../../../http/errors';
import { staffActor } from '../../../kit/actor';
import { newRecordId } from '../../../kit/request-context';
import { allowedActions } from '../../../../workflows/lib/machine';
import { movementsByIds } from '../../movements';
import { fourEyesThreshold, machineFor, tenantTx } from './alerts.commands';
import { raiseAlerts } from './alerts.raise';
import { alertParts, findAlert, type AlertRow } from './alerts.repo';
import type { CreateAlertInput } from './alerts.schemas';

/** What the API and the pages share about one alert: the record, what is behind it, and what the caller may do now. */

const todayInRome = (now = new Date()) => now.toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

export const allowedFor = (row: AlertRow, user: SessionUser) => allowedActions(machineFor(row), row.stato, staffActor(user), { ...row });

export async function alertDetail(deps: Deps, codAzienda: string, user: SessionUser, id: string) {
  return tenantTx(deps, codAzienda, user, async (trx) => {
    const row = await findAlert(trx, codAzienda, id);
    if (!row) throw notFound('Alert', 'm');
    const parts = await alertParts(trx, codAzienda, row.id);
    const soglia = await fourEyesThreshold(trx, codAzienda);
    return {
      ...row,
      allowed_actions: allowedFor(row, user),
      quattro_occhi: { soglia, richiesto_per_archiviazione: row.punteggio >= soglia },
      movimenti: parts.movimenti.map((m) => ({ ...m, importo: Number(m.importo), importo_eur: Number(m.importo_eur) })),
      riscontri_elenco: parts.riscontri,
      audit: parts.audit,
      caso: row.cod_caso ? { id: row.cod_caso, url: `/casi/${row.cod_caso}` } : null,
    };
  });
}
export type AlertDetail = Awaited<ReturnType<typeof alertDetail>>;

/**
 * An alert made by hand on a customer, with the operations the analyst picked: the customer,
 * the relationship and every operation must be the tenant's, and the operations the customer's
 * (422 on the field otherwise). Its period is the operations' (or the one given, or today).
 * The record id comes from the request, so a retried request answers the same alert.
 */
export async function createManualAlert(deps: Deps, codAzienda: string, user: SessionUser, body: CreateAlertInput) {
  const alertId = newRecordId();
  return tenantTx(deps, codAzienda, user, async (trx) => {
    await assertReferencesInTenant(trx, codAzienda, {
      cod_anagrafe: { kind: 'cliente', value: body.cod_anagrafe }, cod_rapporto: { kind: 'rapporto', value: body.cod_rapporto },
    });
    const found = new Map((await movementsByIds(trx, codAzienda, body.movimenti)).map((m) => [m.id, m]));
    const errors = body.movimenti.flatMap((mid, i) => {
      const m = found.get(mid);
      if (!m) return [{ path: `movimenti.${i}`, message: 'Movimento non trovato in questa azienda' }];
      if (m.cod_anagrafe !== body.cod_anagrafe) return [{ path: `movimenti.${i}`, message: 'Il movimento non è del cliente indicato' }];
      return [];
    });
    if (errors.length) throw new ValidationError(errors, errors[0]!.message);
    const picked = body.movimenti.map((mid) => found.get(mid)!);
    const days = picked.map((m) => m.data_operazione).sort();
    const today = todayInRome();
    const finestraDa = body.finestra_da ?? days[0] ?? today;
    const finestraA = body.finestra_a ?? days[days.length - 1] ?? today;
    if (finestraDa > finestraA) throw new ValidationError([{ path: 'finestra_a', message: 'La fine del periodo precede il suo inizio' }]);
    const [raised] = await raiseAlerts(trx, codAzienda, [{
      codAnagrafe: body.cod_anagrafe, codRapporto: body.cod_rapporto ?? null, tipologia: body.tipologia, origine: 'manuale', punteggio: body.punteggio,
      dataRilevazione: new Date(), finestraDa, finestraA, chiaveRiscontro: `manuale:${alertId}`,
      evidenza: { descrizione: body.motivazione, movimenti_scelti: picked.length, importo_totale_eur: picked.reduce((s, m) => s + Number(m.importo_eur), 0) },
      movimenti: picked.map((m) => ({ id: m.id, data_operazione: m.data_operazione })),
    }], { actor: user.username, alertId });
    return raised!;
  });
}
