import {
  checkAteco, checkExternalCode, createOrMatchCustomer, dedupeKey, isValidCodiceFiscale, isValidCodiceFiscalePersona, isValidPartitaIva,
  normalisePartitaIva, normaliseTaxId, todayInRome, CLASSI_RISCHIO, MAX_VOLUME_EUR, TIPI_SOGGETTO, USI_CONTANTI, type CustomerFields, type TipoSoggetto,
} from '../../records';
import type { ImportKind, Parsed, RowError } from '../import-kind';
import { parseAmount, parseBool, parseCountry, parseDate, parseText, rowChecker, type Cell } from '../import-values';
import { externalCodeConflicts } from './customers.external-codes';

const oneOf = <T extends string>(list: readonly T[], what: string) => (raw: string): Cell<T> => {
  const s = raw.trim().toLowerCase().replace(/[\s-]+/g, '_') as T;
  return list.includes(s) ? { ok: true, value: s } : { ok: false, messaggio: `${what} non valido "${raw.trim()}": ${list.join(', ')}` };
};

/**
 * Customers (anagrafe). Each row must carry a verified tax identity (codice fiscale, partita IVA,
 * or a foreign tax id with its country): that identity is the dedupe key, so the same person in two
 * rows, or in a file imported twice, is one record (createOrMatchCustomer of the records area).
 */
export const customersKind: ImportKind<CustomerFields> = {
  tipo: 'clienti',
  columns: [
    { name: 'tipo_soggetto', required: true, description: 'Tipo di soggetto', values: ['persona_fisica', 'ditta_individuale', 'societa'] },
    { name: 'denominazione', required: false, description: 'Ragione sociale (società e ditte; per le persone si ricava da nome e cognome)' },
    { name: 'nome', required: false, description: 'Nome (persone fisiche e ditte individuali)' },
    { name: 'cognome', required: false, description: 'Cognome (persone fisiche e ditte individuali)' },
    { name: 'codice_fiscale', required: false, description: 'Codice fiscale, verificato con il carattere di controllo' },
    { name: 'partita_iva', required: false, description: 'Partita IVA, verificata con la cifra di controllo' },
    { name: 'codice_fiscale_estero', required: false, description: 'Identificativo fiscale estero (con paese_fiscale)' },
    { name: 'paese_fiscale', required: false, description: 'Paese dell\'identificativo estero (ISO a due lettere)' },
    { name: 'data_nascita', required: false, description: 'Data di nascita (GG/MM/AAAA o AAAA-MM-GG)' },
    { name: 'luogo_nascita', required: false, description: 'Luogo di nascita' },
    { name: 'nazionalita', required: false, description: 'Cittadinanza (ISO a due lettere)' },
    { name: 'paese_residenza', required: false, description: 'Paese di residenza o sede (ISO a due lettere)' },
    { name: 'email', required: false, description: 'Indirizzo e-mail' },
    { name: 'telefono', required: false, description: 'Telefono' },
    { name: 'attivita', required: false, description: 'Attività economica o professione' },
    { name: 'pep', required: false, description: 'Persona politicamente esposta: sì o no' },
    { name: 'classe_rischio', required: false, description: 'Classe di rischio', values: ['basso', 'medio', 'medio_alto', 'alto'] },
    { name: 'codice_esterno', required: false, description: 'Codice del cliente nel sistema di origine (unico): i file di rapporti e movimenti possono indicare il cliente con questo codice' },
    { name: 'ateco', required: false, description: 'Codice ATECO dell\'attività economica (es. 47.11.10)' },
    { name: 'professione', required: false, description: 'Professione' },
    { name: 'data_onboarding', required: false, description: 'Data di inizio del rapporto con il cliente' },
    { name: 'volume_mensile_atteso_eur', required: false, description: 'Volume mensile atteso dichiarato, in euro (es. 2500,00)' },
    { name: 'uso_contanti_atteso', required: false, description: 'Uso del contante atteso dichiarato', values: USI_CONTANTI },
  ],
  parse(values): Parsed<CustomerFields> {
    const { take, errors } = rowChecker(values);
    const tipo = take('tipo_soggetto', oneOf(TIPI_SOGGETTO, 'Tipo di soggetto'), true) as TipoSoggetto | null;
    const text = (c: string, max: number) => take(c, (r) => parseText(r, max));
    const f = {
      denominazione: text('denominazione', 200), nome: text('nome', 100), cognome: text('cognome', 100),
      codice_fiscale: take('codice_fiscale', (r) => taxId(r, tipo)),
      partita_iva: take('partita_iva', (r) => (isValidPartitaIva(normalisePartitaIva(r)) ? { ok: true, value: normalisePartitaIva(r) } : { ok: false, messaggio: 'Partita IVA non valida: 11 cifre con la cifra di controllo corretta' })),
      codice_fiscale_estero: text('codice_fiscale_estero', 50), paese_fiscale: take('paese_fiscale', parseCountry),
      data_nascita: take('data_nascita', parseDate), luogo_nascita: text('luogo_nascita', 100),
      nazionalita: take('nazionalita', parseCountry), paese_residenza: take('paese_residenza', parseCountry),
      email: take('email', (r) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.trim()) && r.length <= 254 ? { ok: true, value: r.trim().toLowerCase() } : { ok: false, messaggio: 'Indirizzo e-mail non valido' })),
      telefono: text('telefono', 30), attivita: text('attivita', 200),
      pep: take('pep', parseBool) ?? false,
      classe_rischio: take('classe_rischio', oneOf(CLASSI_RISCHIO, 'Classe di rischio')),
      codice_esterno: take('codice_esterno', cellOf(checkExternalCode)),
      ateco: take('ateco', cellOf(checkAteco)),
      professione: text('professione', 200),
      data_onboarding: take('data_onboarding', pastDate),
      volume_mensile_atteso_eur: take('volume_mensile_atteso_eur', (r) => {
        const c = parseAmount(r, { zero: true });
        if (!c.ok) return c;
        return Number(c.value) <= MAX_VOLUME_EUR ? { ok: true, value: Number(c.value) } : { ok: false, messaggio: 'Importo troppo grande' };
      }),
      uso_contanti_atteso: take('uso_contanti_atteso', oneOf(USI_CONTANTI, 'Uso del contante atteso')),
    };
    if (tipo === 'persona_fisica' || tipo === 'ditta_individuale') {
      if (!f.nome && !errors.some((e) => e.colonna === 'nome')) errors.push({ colonna: 'nome', messaggio: 'Campo obbligatorio per una persona' });
      if (!f.cognome && !errors.some((e) => e.colonna === 'cognome')) errors.push({ colonna: 'cognome', messaggio: 'Campo obbligatorio per una persona' });
    }
    if (tipo === 'societa' && !f.denominazione && !errors.some((e) => e.colonna === 'denominazione')) errors.push({ colonna: 'denominazione', messaggio: 'Campo obbligatorio per una società' });
    if (f.codice_fiscale_estero && !f.paese_fiscale && !errors.some((e) => e.colonna === 'paese_fiscale')) {
      errors.push({ colonna: 'paese_fiscale', messaggio: 'Indica il paese che ha rilasciato il codice fiscale estero' });
    }
    if (errors.length || !tipo) return { ok: false, errors };
    const fields: CustomerFields = { tipo_soggetto: tipo, ...f, denominazione: f.denominazione ?? [f.nome, f.cognome].filter(Boolean).join(' ') };
    if (!dedupeKey(fields)) {
      return { ok: false, errors: [{ colonna: 'codice_fiscale', messaggio: 'Serve un identificativo fiscale valido (codice fiscale, partita IVA o identificativo estero con il paese): senza, il cliente non si può riconoscere se il file viene importato di nuovo' }] };
    }
    return { ok: true, value: fields };
  },
  async write(trx, ctx, rows) {
    let imported = 0;
    let skipped = 0;
    const errors: RowError[] = [];
    // An external code held by another subject, or a known customer with another code, is the row's error, not the batch's.
    const conflicts = await externalCodeConflicts(trx, ctx.codAzienda, rows.map((r) => r.value));
    for (const { riga, value } of rows) {
      const conflict = conflicts.check(value);
      if (conflict) { errors.push({ riga, colonna: 'codice_esterno', messaggio: conflict }); continue; }
      const r = await createOrMatchCustomer(trx, ctx.codAzienda, ctx.actor, { ...value, ruolo: 'cliente', dati: { import_id: ctx.importId } });
      conflicts.recorded(value, r.codAnagrafe);
      if (r.created) imported += 1; else skipped += 1;
    }
    return { imported, skipped, errors };
  },
};

const cellOf = (check: (raw: string) => { ok: true; value: string } | { ok: false; message: string }) => (raw: string): Cell<string> => {
  const r = check(raw);
  return r.ok ? r : { ok: false, messaggio: r.message };
};

function pastDate(raw: string): Cell<string> {
  const d = parseDate(raw);
  return d.ok && d.value > todayInRome() ? { ok: false, messaggio: 'La data non può essere nel futuro' } : d;
}

/** A codice fiscale: 16 characters for a person (and a sole trader), 11 digits or 16 characters for a company. */
function taxId(raw: string, tipo: TipoSoggetto | null): Cell<string> {
  const cf = normaliseTaxId(raw);
  const ok = tipo === 'societa' ? isValidCodiceFiscale(cf) : isValidCodiceFiscalePersona(cf);
  return ok ? { ok: true, value: cf } : {
    ok: false,
    messaggio: tipo === 'societa'
      ? 'Codice fiscale non valido: 11 cifre (o 16 caratteri) con il carattere di controllo corretto'
      : 'Codice fiscale non valido: 16 caratteri con il carattere di controllo corretto',
  };
}
