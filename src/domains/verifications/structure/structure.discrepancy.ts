import type { Knex } from 'knex';
import { quota } from '../../../http/share-format';
import type { VerificationRow } from '../kyc-kyb/verification.repo';
import { Fraction } from './fraction';
import type { Discrepancy } from './structure.repo';
import type { UboOwner } from './ubo.types';

/** An owner the customer declared: at onboarding (dati_dichiarati.titolari) or as a beneficial-owner link of its record. */
export interface DeclaredOwner { denominazione: string; codice_fiscale: string | null; cod_anagrafe: string | null; percentuale: number | null; fonte: 'onboarding' | 'anagrafe' }

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const numberOf = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);

export async function declaredOwners(trx: Knex.Transaction, codAzienda: string, v: VerificationRow): Promise<DeclaredOwner[]> {
  const dati = (v.dati_dichiarati ?? {}) as Record<string, unknown>;
  const fromOnboarding = (Array.isArray(dati.titolari) ? dati.titolari : []).flatMap((t: Record<string, unknown>): DeclaredOwner[] => {
    const name = text(t.denominazione) ?? [text(t.nome), text(t.cognome)].filter(Boolean).join(' ');
    return name ? [{ denominazione: name, codice_fiscale: text(t.codice_fiscale)?.toUpperCase() ?? null, cod_anagrafe: text(t.cod_anagrafe), percentuale: numberOf(t.percentuale), fonte: 'onboarding' }] : [];
  });
  const links = await trx('legami').join('anagrafe', function join() {
    this.on('anagrafe.cod_azienda', 'legami.cod_azienda').andOn('anagrafe.cod_anagrafe', 'legami.cod_anagrafe_a');
  }).where({ 'legami.cod_azienda': codAzienda, 'legami.cod_anagrafe_da': v.cod_anagrafe, 'legami.tipo': 'titolare_effettivo' }).whereNull('legami.al')
    .select('anagrafe.cod_anagrafe', 'anagrafe.denominazione', 'anagrafe.codice_fiscale', 'legami.percentuale');
  const fromRecord: DeclaredOwner[] = links.map((l) => ({
    denominazione: l.denominazione, codice_fiscale: l.codice_fiscale ? String(l.codice_fiscale).toUpperCase() : null, cod_anagrafe: l.cod_anagrafe, percentuale: numberOf(l.percentuale), fonte: 'anagrafe',
  }));
  // The same person declared both ways is one declared owner.
  const out: DeclaredOwner[] = [];
  for (const d of [...fromRecord, ...fromOnboarding]) if (!out.some((o) => samePerson(o, d))) out.push(d);
  return out;
}

const normalName = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).sort().join(' ');

/** The same person: by tax code when both have one, else by customer code, else by name in any word order. */
function samePerson(a: { codice_fiscale: string | null; cod_anagrafe: string | null; denominazione: string }, b: typeof a): boolean {
  if (a.codice_fiscale && b.codice_fiscale) return a.codice_fiscale.toUpperCase() === b.codice_fiscale.toUpperCase();
  if (a.cod_anagrafe && b.cod_anagrafe) return a.cod_anagrafe === b.cod_anagrafe;
  return normalName(a.denominazione) === normalName(b.denominazione);
}

/**
 * What differs between the declared owners and the computed ones: a computed owner not declared,
 * a declared owner the structure does not confirm, or the same owner with a share more than half
 * a point apart (declarations are rounded).
 */
export function discrepancies(declared: DeclaredOwner[], computed: UboOwner[]): Discrepancy[] {
  const out: Discrepancy[] = [];
  for (const c of computed) {
    const d = declared.find((x) => samePerson(x, c));
    if (!d) {
      out.push({ tipo: 'non_dichiarato', denominazione: c.denominazione, codice_fiscale: c.codice_fiscale, messaggio: `${c.denominazione} risulta titolare effettivo dalla struttura ma non è stato dichiarato dal cliente`, calcolata: c.percentuale });
    } else if (d.percentuale !== null && c.percentuale !== null && Math.abs(d.percentuale - c.percentuale) > 0.5) {
      out.push({
        tipo: 'quota', denominazione: c.denominazione, codice_fiscale: c.codice_fiscale, dichiarata: d.percentuale, calcolata: c.percentuale,
        messaggio: `${c.denominazione}: quota dichiarata ${quota(d.percentuale)}, risultante dalla struttura ${quota(Fraction.parse(c.frazione) ?? c.percentuale)}`,
      });
    }
  }
  for (const d of declared) {
    if (computed.some((c) => samePerson(d, c))) continue;
    out.push({ tipo: 'mancante', denominazione: d.denominazione, codice_fiscale: d.codice_fiscale, messaggio: `${d.denominazione} è stato dichiarato titolare effettivo ma la struttura non lo conferma`, dichiarata: d.percentuale });
  }
  return out;
}
