import type { Knex } from 'knex';
import type { FieldError } from '../../../http/errors';
import type { KytEventInput } from './kyt.schemas';

/**
 * Whose transfer a KYT event is (docs/monitoring.md, "KYT"): the customer who holds one of its
 * addresses (a wallet recorded at onboarding, or the customer's side of a travel-rule transfer),
 * or the customer the sender names (cod_anagrafe or codice_esterno, inside the tenant). Nothing
 * found, or an address two customers hold, is a 422 on the field to fill in.
 */

export type RisoltoDa = 'wallet' | 'travel_rule' | 'cod_anagrafe' | 'codice_esterno';
export interface Resolution { cod_anagrafe: string; direzione: 'entrata' | 'uscita'; risolto_da: RisoltoDa }

/** ETH-family hex addresses compare lower-cased; base58 and bech32 addresses are case-significant. */
export const canonicalAddress = (a: string) => (/^0x[0-9a-fA-F]{40}$/.test(a.trim()) ? a.trim().toLowerCase() : a.trim());

export interface Holder { cod_anagrafe: string; fonte: 'wallet' | 'travel_rule' }

/** The customers holding each of these addresses (by canonical address). */
export async function addressHolders(trx: Knex.Transaction, codAzienda: string, addresses: readonly string[]): Promise<Map<string, Holder[]>> {
  const out = new Map<string, Holder[]>();
  if (!addresses.length) return out;
  const lowered = [...new Set(addresses.map((a) => a.trim().toLowerCase()))];
  const wanted = new Set(addresses.map(canonicalAddress));
  const add = (address: string, h: Holder) => {
    const key = canonicalAddress(address);
    if (!wanted.has(key)) return;
    const list = out.get(key) ?? out.set(key, []).get(key)!;
    if (!list.some((x) => x.cod_anagrafe === h.cod_anagrafe)) list.push(h);
  };
  // The onboarding wallets and the customer's own side of a travel-rule transfer (the originator's address when we sent it,
  // the beneficiary's when we received it), in one statement.
  const { rows } = await trx.raw<{ rows: { fonte: Holder['fonte']; cod_anagrafe: string; indirizzo: string }[] }>(`
    select 'wallet' as fonte, cod_anagrafe, indirizzo from wallets where cod_azienda = :cod and lower(indirizzo) = any(:lowered)
    union all
    select 'travel_rule', cod_anagrafe, coalesce(indirizzo_originatore, '') from travel_rule_transazioni
     where cod_azienda = :cod and cod_anagrafe is not null and direzione = 'in_uscita' and lower(indirizzo_originatore) = any(:lowered)
    union all
    select 'travel_rule', cod_anagrafe, indirizzo_beneficiario from travel_rule_transazioni
     where cod_azienda = :cod and cod_anagrafe is not null and direzione = 'in_entrata' and lower(indirizzo_beneficiario) = any(:lowered)`,
  { cod: codAzienda, lowered });
  // Wallets first: a customer found by both is found by its wallet.
  for (const r of rows.filter((x) => x.fonte === 'wallet')) add(r.indirizzo, { cod_anagrafe: r.cod_anagrafe, fonte: 'wallet' });
  for (const r of rows.filter((x) => x.fonte === 'travel_rule')) add(r.indirizzo, { cod_anagrafe: r.cod_anagrafe, fonte: 'travel_rule' });
  return out;
}

/** The customers the events name, by code and by external code (those of the tenant only). */
export async function namedCustomers(trx: Knex.Transaction, codAzienda: string, events: readonly KytEventInput[]) {
  const codes = [...new Set(events.map((e) => e.cod_anagrafe).filter((c): c is string => !!c))];
  const external = [...new Set(events.map((e) => e.codice_esterno).filter((c): c is string => !!c))];
  const found = codes.length || external.length
    ? await trx('anagrafe').where('cod_azienda', codAzienda).andWhere((q) => q.whereIn('cod_anagrafe', codes).orWhereIn('codice_esterno', external))
      .select('cod_anagrafe', 'codice_esterno') as { cod_anagrafe: string; codice_esterno: string | null }[]
    : [];
  const byCode = new Set(found.filter((r) => codes.includes(r.cod_anagrafe)).map((r) => r.cod_anagrafe));
  const byExternal = new Map(found.filter((r) => r.codice_esterno !== null && external.includes(r.codice_esterno)).map((r) => [r.codice_esterno!, r.cod_anagrafe]));
  return { byCode, byExternal };
}

const NOBODY = "Nessun cliente dell'azienda detiene l'indirizzo di origine o di destinazione: indica cod_anagrafe o codice_esterno";
const AMBIGUOUS = "L'indirizzo è di più clienti: indica cod_anagrafe o codice_esterno";

/** One event's customer and side, or the errors to answer (paths relative to the event). */
export function resolveEvent(e: KytEventInput, holders: ReadonlyMap<string, Holder[]>, named: Awaited<ReturnType<typeof namedCustomers>>):
  { ok: true; value: Resolution } | { ok: false; errors: FieldError[] } {
  const to = holders.get(canonicalAddress(e.indirizzo_a)) ?? [];
  const from = holders.get(canonicalAddress(e.indirizzo_da)) ?? [];
  const fail = (path: string, message: string) => ({ ok: false as const, errors: [{ path, message }] });

  if (e.cod_anagrafe || e.codice_esterno) {
    let cod: string | undefined;
    let how: RisoltoDa = 'cod_anagrafe';
    if (e.cod_anagrafe) {
      if (!named.byCode.has(e.cod_anagrafe)) return fail('cod_anagrafe', 'Cliente non trovato in questa azienda');
      cod = e.cod_anagrafe;
    }
    if (e.codice_esterno) {
      const ext = named.byExternal.get(e.codice_esterno);
      if (!ext) return fail('codice_esterno', 'Nessun cliente di questa azienda ha questo codice esterno');
      if (cod && cod !== ext) return fail('codice_esterno', 'Il codice esterno è di un altro cliente rispetto a cod_anagrafe');
      if (!cod) { cod = ext; how = 'codice_esterno'; }
    }
    const direzione = e.direzione ?? (to.some((h) => h.cod_anagrafe === cod) ? 'entrata' : from.some((h) => h.cod_anagrafe === cod) ? 'uscita' : undefined);
    if (!direzione) return fail('direzione', 'Indica la direzione: nessuno dei due indirizzi risulta del cliente');
    return { ok: true, value: { cod_anagrafe: cod!, direzione, risolto_da: how } };
  }

  const side = (list: Holder[], direzione: 'entrata' | 'uscita', path: string) => {
    if (list.length > 1) return fail(path, AMBIGUOUS);
    if (!list.length) return fail('cod_anagrafe', NOBODY);
    return { ok: true as const, value: { cod_anagrafe: list[0]!.cod_anagrafe, direzione, risolto_da: list[0]!.fonte } };
  };
  if (e.direzione) return e.direzione === 'entrata' ? side(to, 'entrata', 'indirizzo_a') : side(from, 'uscita', 'indirizzo_da');
  if (to.length && from.length) return fail('direzione', 'Entrambi gli indirizzi sono di clienti dell\'azienda: indica la direzione');
  if (to.length) return side(to, 'entrata', 'indirizzo_a');
  if (from.length) return side(from, 'uscita', 'indirizzo_da');
  return fail('cod_anagrafe', NOBODY);
}

/** The day and time of an instant in Europe/Rome (the records keep days and times as the tenant lives them). */
export function romeDayTime(iso: string): { giorno: string; ora: string } {
  const s = new Date(iso).toLocaleString('sv-SE', { timeZone: 'Europe/Rome', hour12: false });
  const [giorno, ora] = s.split(' ');
  return { giorno: giorno!, ora: ora!.length === 8 ? ora! : ora!.padStart(8, '0') };
}
