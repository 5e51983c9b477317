/**
 * The name people know a sanctions list by, from the id the import gives it (screening.sources.ts).
 * The OFAC SDN list is imported per monthly publication (`us_ofac_sdn_2021_07`): its name carries
 * the month. An id this does not know is shown as it is, so a new list is never hidden.
 */
const LIST_NAMES: Record<string, string> = {
  un_sc_sanctions: 'ONU, Consiglio di sicurezza',
  gb_hmt_sanctions: 'Regno Unito, HM Treasury (OFSI)',
  eu_fsf: 'UE, sanzioni finanziarie consolidate',
  us_ofac_crypto: 'OFAC, indirizzi di criptovalute',
  opensanctions: 'OpenSanctions',
};

const month = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', month: 'long', year: 'numeric' });

export function listName(id: string): string {
  const sdn = /^us_ofac_sdn_(\d{4})_(\d{2})$/.exec(id);
  if (sdn) return `OFAC SDN, ${month.format(new Date(Date.UTC(Number(sdn[1]), Number(sdn[2]) - 1, 1)))}`;
  return LIST_NAMES[id] ?? id;
}
