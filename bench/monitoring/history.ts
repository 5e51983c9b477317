import type { Knex } from 'knex';
import type { MovementRows } from '../records/seed';

/**
 * Movements that look like customers' real histories, so the rules' aggregates read what they
 * would read in a bank (bench/records/seed.ts writes them; customers and relationships are its
 * own: a company every fifth code). Every row draws its customer and its kind at random:
 * - people (80 % of the customers, 55 % of the movements): card spending at a few thousand
 *   merchants, ATM cash, a monthly salary from their employer, rent to one landlord in round
 *   amounts, utilities, transfers to and from a dozen people of their own, cash deposits, and a
 *   few foreign transfers (some to high-risk countries);
 * - companies (20 %, 45 % of the movements: several times a person's): customer invoices from a
 *   shared pool, suppliers, wages to their employees (the legitimate fan-out), POS takings, cash
 *   deposits (one company in five is cash-intensive), taxes, foreign trade.
 * Days are uniform over the period, times of day in office hours; bank transfers carry an IBAN
 * whose first letters are the counterparty's country.
 */
/** One kind of movement: its fields as one text array (sign, causale, channel, cash, amount, counterparty, country). */
const kind = (segno: string, causale: string, canale: string, cash: boolean, amount: string, name: string, country: string) =>
  `array[${segno.startsWith('case') ? segno : `'${segno}'`}, '${causale}', '${canale}', '${cash}', (${amount})::text, (${name})::text, ${country}]`;

const PERSON = `
  case
    when k < 0.35 then ${kind('uscita', 'Pagamento POS', 'POS', false, 'round((5 + r3 * r3 * 180)::numeric, 2)', "'Esercente ' || floor(r6 * 3000)", country('r6', 0.95))}
    when k < 0.45 then ${kind('uscita', 'Prelievo', 'ATM', true, '50 * (1 + floor(r3 * 10))', 'null', "'IT'")}
    when k < 0.52 then ${kind('entrata', 'Stipendio', 'bonifico', false, 'round((1200 + (c * 37) % 2500 + r3 * 60)::numeric, 2)', "'Datore ' || (c % 4000)", "'IT'")}
    when k < 0.57 then ${kind('uscita', 'Affitto', 'bonifico', false, '400 + ((c * 13) % 9) * 100', "'Locatore ' || c", "'IT'")}
    when k < 0.72 then ${kind('uscita', 'Utenze', 'addebito diretto', false, 'round((30 + r3 * 250)::numeric, 2)',
      "(array['Enel Energia','A2A','Hera','TIM','Vodafone','Iren','Acea','Fastweb'])[1 + floor(r6 * 8)::int]", "'IT'")}
    when k < 0.85 then ${kind('uscita', 'Bonifico', 'home banking', false, 'round((50 + r3 * r3 * r3 * 5000)::numeric, 2)', "'Beneficiario ' || c || '-' || floor(r6 * 12)", country('r7', 0.9))}
    when k < 0.93 then ${kind('entrata', 'Bonifico', 'bonifico', false, 'round((50 + r3 * r3 * r3 * 3000)::numeric, 2)', "'Ordinante ' || c || '-' || floor(r6 * 8)", country('r7', 0.92))}
    when k < 0.97 then ${kind('entrata', 'Versamento contanti', 'sportello', true, 'round((100 + r3 * r3 * 3000)::numeric, 0)', 'null', "'IT'")}
    else ${kind("case when r6 < 0.5 then 'entrata' else 'uscita' end", 'Bonifico estero', 'bonifico', false, 'round((200 + r3 * r3 * 15000)::numeric, 2)',
      "'Estero ' || c || '-' || floor(r6 * 4)", foreign('r7'))}
  end`;

const COMPANY = `
  case
    when k < 0.40 then ${kind('entrata', 'Incasso fattura', 'bonifico', false, 'round((100 + r3 * r3 * 20000)::numeric, 2)', "'Cliente ' || floor(r6 * 5000)", country('r7', 0.93))}
    when k < 0.65 then ${kind('uscita', 'Pagamento fornitore', 'bonifico', false, 'round((200 + r3 * r3 * 30000)::numeric, 2)', "'Fornitore ' || (c % 300) || '-' || floor(r6 * 25)", country('r7', 0.88))}
    when k < 0.72 then ${kind('uscita', 'Stipendi', 'bonifico', false, 'round((1200 + r3 * 2000)::numeric, 2)', "'Dipendente ' || c || '-' || floor(r6 * 30)", "'IT'")}
    when k < 0.80 then ${kind('entrata', 'Incasso POS', 'POS', false, 'round((20 + r3 * 500)::numeric, 2)', "'Circuito carte'", "'IT'")}
    when k < 0.88 then ${kind('entrata', 'Versamento contanti', 'sportello', true, 'round((200 + r3 * r3 * (case when c % 25 = 0 then 8000 else 2000 end))::numeric, 0)', 'null', "'IT'")}
    when k < 0.93 then ${kind('uscita', 'F24', 'home banking', false, 'round((500 + r3 * r3 * 20000)::numeric, 2)', "'Agenzia delle Entrate'", "'IT'")}
    else ${kind("case when r6 < 0.4 then 'entrata' else 'uscita' end", 'Bonifico estero', 'bonifico', false, 'round((1000 + r3 * r3 * 80000)::numeric, 2)',
      "'Partner estero ' || (c % 500) || '-' || floor(r6 * 6)", foreign('r7'))}
  end`;

/** Italy with probability `domestic`, else another EU country. */
function country(r: string, domestic: number) {
  return `case when ${r} < ${domestic} then 'IT' else (array['DE','FR','ES','AT','NL','BE'])[1 + floor((${r} - ${domestic}) / ${1 - domestic} * 6)::int] end`;
}
/** A foreign counterparty: mostly EU and large trading partners, one in ten a high-risk or grey-list country. */
function foreign(r: string) {
  return `(array['DE','FR','ES','CH','GB','US','CN','TR','AE','RO','AL','NL','DE','FR','US','CN','IR','KP','MM','PA'])[1 + floor((${r}) * 20)::int]`;
}

export const REALISTIC_HISTORY: MovementRows = {
  days: 731,
  columns: `id, cod_azienda, cod_rapporto, cod_anagrafe, data_operazione, data_valuta, ora_operazione, importo, valuta, importo_eur, segno, causale, canale,
    contanti, controparte_nome, controparte_conto, controparte_paese, chiave_esterna, created_by, created_at`,
  rows: `select gen_random_uuid(), :cod, 'RAP-' || lpad(c::text, 6, '0'), 'ANA-' || lpad(c::text, 6, '0'), d, d, make_time(8 + floor(r4 * 11)::int, floor(r5 * 60)::int, 0),
      m[5]::numeric, 'EUR', m[5]::numeric, m[1], m[2], m[3], m[4]::boolean, m[6],
      -- An IBAN for bank transfers: the counterparty's country first, then digits fixed per counterparty.
      case when m[3] in ('bonifico', 'home banking') and m[6] is not null
        then m[7] || lpad((abs(hashtext(m[6])) % 100)::text, 2, '0') || 'X0542811101' || lpad((abs(hashtext(m[6] || c)) % 1000000000)::text, 12, '0') end,
      m[7], 'SEED-' || i, 'bench', now()
    from (
      select i, c, d, r4, r5, case when c % 5 = 0 then ${COMPANY} else ${PERSON} end as m
      from (
        select i, r2 as k, r3, r4, r5, r6, r7, current_date - floor(rd * :days)::int as d,
          -- 45 % of the movements to the companies (codes multiple of 5), the rest to the people (four in five codes).
          case when r1 < 0.45 and :c::int >= 5 then 5 * (1 + floor(rc * floor(:c::int / 5)))::int
               else least(:c::int, 5 * floor(rc * ceil(:c::int / 5.0))::int + 1 + floor(r8 * 4)::int) end as c
        from (select i, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6, random() r7, random() r8, random() rc, random() rd
                from generate_series(:from::bigint + 1, :to::bigint) i) s
      ) t
    ) u`,
};

/**
 * The declared profile monitoring compares with (docs/monitoring.md, part 0): sector, occupation,
 * onboarding date, expected monthly volume and cash use, for every customer of the tenant.
 */
export async function seedDeclaredProfiles(owner: Knex, codAzienda: string): Promise<void> {
  await owner.raw(`update anagrafe set
      ateco = case when tipo_soggetto = 'societa' then (array['47.11','56.10','41.20','62.01','46.90','96.02','47.30','10.71'])[1 + abs(hashtext(cod_anagrafe)) % 8] end,
      professione = case when tipo_soggetto = 'persona_fisica' then (array['impiegato','operaio','insegnante','libero professionista','pensionato','commerciante','studente'])[1 + abs(hashtext(cod_anagrafe)) % 7] end,
      data_onboarding = date '2015-01-01' + abs(hashtext(cod_anagrafe || 'o')) % 3000,
      volume_mensile_atteso_eur = case when tipo_soggetto = 'societa' then 20000 + (abs(hashtext(cod_anagrafe)) % 10) * 15000 else 1500 + (abs(hashtext(cod_anagrafe)) % 6) * 1000 end,
      uso_contanti_atteso = case when tipo_soggetto = 'societa' and substr(cod_anagrafe, 5)::int % 25 = 0 then 'alto'
        else (array['nessuno','basso','basso','basso','medio'])[1 + abs(hashtext(cod_anagrafe || 'c')) % 5] end
    where cod_azienda = ?`, [codAzienda]);
  await owner.raw('vacuum (analyze) anagrafe');
}
