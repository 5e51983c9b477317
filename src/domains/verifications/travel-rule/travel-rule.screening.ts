import type { Knex } from 'knex';
import { checkNames, screenWallet } from '../../screening';
import { readIvms101, type Ivms101Party } from './ivms101.read';
import type { RuoloSoggetto, TravelRuleScreening } from './travel-rule.types';

/** The transfer's data the screening reads. */
export interface ScreeningSubjectRow {
  ivms101: unknown;
  indirizzo_originatore: string | null;
  indirizzo_beneficiario: string;
}

/**
 * Screens a transfer's parties: every name of the originators, beneficiaries and the providers on
 * the path through the screening area (nothing recorded there: they are counterparties, not
 * customers), and the originator's and beneficiary's addresses (the transfer's own and the
 * payload's account numbers) against the sanctioned-address list.
 */
export async function screenTransferParties(db: Knex, codAzienda: string, row: ScreeningSubjectRow, now = new Date()): Promise<TravelRuleScreening> {
  const v = readIvms101(row.ivms101);
  const subjects: { ruolo: RuoloSoggetto; party: Ivms101Party }[] = [
    ...v.originatori.map((party) => ({ ruolo: 'originatore' as const, party })),
    ...v.beneficiari.map((party) => ({ ruolo: 'beneficiario' as const, party })),
    ...(v.vaspOriginatore ? [{ ruolo: 'vasp_originatore' as const, party: v.vaspOriginatore }] : []),
    ...(v.vaspBeneficiario ? [{ ruolo: 'vasp_beneficiario' as const, party: v.vaspBeneficiario }] : []),
    ...v.intermediari.map((party) => ({ ruolo: 'intermediario' as const, party })),
  ];
  const names = subjects.flatMap((s) => s.party.nomi.map((nome) => ({ ruolo: s.ruolo, tipo: s.party.tipo ?? 'person', nome, party: s.party })));
  const checked = await checkNames(db, codAzienda, names.map((n) => ({
    tipo: n.tipo, nome: n.nome, data_nascita: n.party.nascita?.data ?? null, nazionalita: n.party.paeseResidenza ?? n.party.paeseRegistrazione ?? null,
  })));
  const addresses = new Map<string, 'originatore' | 'beneficiario'>();
  for (const a of [row.indirizzo_originatore, ...v.contiOriginatore]) if (a) addresses.set(a, 'originatore');
  for (const a of [row.indirizzo_beneficiario, ...v.contiBeneficiario]) if (a && !addresses.has(a)) addresses.set(a, 'beneficiario');
  const indirizzi = [];
  for (const [indirizzo, ruolo] of addresses) {
    const w = await screenWallet(db, indirizzo);
    indirizzi.push({ ruolo, indirizzo, hit: w.hit, entries: w.entries.map((e) => ({ list_name: e.list_name, entry_id: e.entry_id, name: e.name })) });
  }
  return {
    eseguito_at: now.toISOString(),
    soglie: checked.thresholds,
    nomi: names.map((n, i) => ({
      ruolo: n.ruolo, nome: n.nome, tipo: n.tipo,
      hits: checked.results[i]!.hits.map((h) => ({ list_name: h.list_name, entry_id: h.entry_id, entry_name: h.entry_name, score: h.score, alert: h.alert })),
    })),
    indirizzi,
  };
}
