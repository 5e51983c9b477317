import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../audit';
import { conflict } from '../../http/errors';
import { Legame } from './legame.model';
import { assertSubjects, fieldError } from './records.references';
import type { Fonte, TipoControllo, TipoLegame } from './records.vocabulary';

/** A link between two subjects (from the company or the represented, to the person). */
export interface LegameInput {
  cod_anagrafe_da: string;
  cod_anagrafe_a: string;
  tipo: TipoLegame;
  percentuale?: number | null;
  tipo_controllo?: TipoControllo | null;
  dal?: string | null;
  al?: string | null;
  fonte?: Fonte;
  note?: string | null;
}

/**
 * Records a link. Both subjects must be the tenant's; a subject is never linked to itself; a
 * beneficial owner (tipo 'titolare_effettivo') is a natural person and says how the control is
 * held; the same open link of a type between two subjects exists once (409).
 */
export async function createLegame(trx: Knex.Transaction, codAzienda: string, actor: string, input: LegameInput): Promise<Legame> {
  if (input.cod_anagrafe_da === input.cod_anagrafe_a) throw fieldError('cod_anagrafe_a', 'Un soggetto non può essere collegato a sé stesso');
  if (input.dal && input.al && input.al < input.dal) throw fieldError('al', 'La fine della validità non può precedere il suo inizio');
  const owner = input.tipo === 'titolare_effettivo';
  if (owner && !input.tipo_controllo) throw fieldError('tipo_controllo', 'Indica come il titolare effettivo esercita il controllo');
  if (!owner && input.tipo_controllo) throw fieldError('tipo_controllo', 'Il tipo di controllo si indica solo per un titolare effettivo');
  await assertSubjects(trx, codAzienda, { cod_anagrafe_da: input.cod_anagrafe_da, cod_anagrafe_a: input.cod_anagrafe_a });
  if (owner) {
    const person = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: input.cod_anagrafe_a }).first('tipo_soggetto');
    if (person.tipo_soggetto === 'societa') throw fieldError('cod_anagrafe_a', 'Il titolare effettivo è una persona fisica (art. 20 d.lgs. 231/2007)');
  }
  if (!input.al) {
    const open = await trx('legami').where({ cod_azienda: codAzienda, cod_anagrafe_da: input.cod_anagrafe_da, cod_anagrafe_a: input.cod_anagrafe_a, tipo: input.tipo })
      .whereNull('al').first('id');
    if (open) throw conflict('DUPLICATE_LINK', 'Tra questi soggetti esiste già un legame aperto di questo tipo', { id: open.id });
  }
  const id = randomUUID();
  await trx('legami').insert({
    id, cod_azienda: codAzienda, cod_anagrafe_da: input.cod_anagrafe_da, cod_anagrafe_a: input.cod_anagrafe_a, tipo: input.tipo,
    percentuale: input.percentuale ?? null, tipo_controllo: input.tipo_controllo ?? null, dal: input.dal ?? null, al: input.al ?? null,
    fonte: input.fonte ?? 'manuale', note: input.note ?? null, created_by: actor,
  });
  await appendAudit(trx, {
    codAzienda, actor, action: owner ? 'titolare_effettivo.create' : 'legame.create', entityType: 'legame', entityId: id,
    data: {
      cod_anagrafe_da: input.cod_anagrafe_da, cod_anagrafe_a: input.cod_anagrafe_a, tipo: input.tipo, percentuale: input.percentuale ?? null,
      ...(owner ? { tipo_controllo: input.tipo_controllo } : {}),
    },
  });
  return (await Legame.of(trx).findById(id))!;
}
