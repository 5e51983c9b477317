import assert from 'node:assert/strict';
import { nameCode, surnameCode, codiceFiscaleMismatches } from '../../src/domains/verifications/documents/codice-fiscale-match';
import { verifyDocument, type DocumentCheckInput } from '../../src/domains/verifications/documents/document-checks';
import { readability } from '../../src/domains/verifications/documents/file-structure';
import { minimalJpeg, minimalPdf, smallPng } from '../helpers/document-files';

const TD3 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10';
/** Anna Maria Eriksson, born 12 August 1974, a woman (day 52), born abroad (Z132): her codice fiscale. */
const ANNA_CF = 'RKSNMR74M52Z132E';

const pdf = minimalPdf(2);
const base = (over: Partial<DocumentCheckInput> = {}, doc: Partial<DocumentCheckInput['documento']> = {}): DocumentCheckInput => ({
  documento: { tipo: 'passaporto', numero: 'L898902C3', data_scadenza: '2012-04-15', mrz: TD3, mime: 'application/pdf', dimensione: pdf.length, ...doc },
  copia: { bytes: pdf, mimeLetto: 'application/pdf' },
  persona: { tipo_soggetto: 'persona_fisica', cognome: 'Eriksson', nome: 'Anna Maria', data_nascita: '1974-08-12', codice_fiscale: ANNA_CF },
  maxBytes: 10 * 1024 * 1024,
  // The specimen expired in 2012: read on a day before that, it is in force.
  oggi: '2011-06-01',
  ...over,
});
const byName = (i: DocumentCheckInput) => Object.fromEntries(verifyDocument(i).controlli.map((c) => [c.controllo, c]));

describe('document checks', () => {
  it('passes every check of the specimen passport read before its expiry, each with an Italian message', () => {
    const r = verifyDocument(base());
    assert.equal(r.esito, 'valido');
    assert.deepEqual(r.controlli.map((c) => [c.controllo, c.esito]), [
      ['tipo_dimensione', 'ok'], ['leggibile', 'ok'], ['scadenza', 'ok'], ['mrz_cifre', 'ok'], ['mrz_dati', 'ok'], ['codice_fiscale', 'ok'],
    ]);
    const c = byName(base());
    assert.match(c.leggibile!.messaggio, /PDF 1\.4, 2 pagine/);
    assert.match(c.scadenza!.messaggio, /valido fino al 15\/04\/2012/);
    assert.match(c.mrz_cifre!.messaggio, /TD3: tutte le 5 cifre di controllo/);
    assert.match(c.codice_fiscale!.messaggio, /e al sesso indicato nel documento/);
  });

  it('refuses an expired document, a missing copy, a type that is not the recorded one and a file over the limit', () => {
    assert.equal(byName(base({ oggi: '2026-11-23' })).scadenza!.esito, 'ko');
    assert.match(byName(base({ oggi: '2026-11-23' })).scadenza!.messaggio, /scaduto il 15\/04\/2012/);
    assert.equal(verifyDocument(base({ oggi: '2026-11-23' })).esito, 'non_valido');
    assert.equal(byName(base({ copia: null })).tipo_dimensione!.esito, 'ko');
    assert.match(byName(base({ copia: null })).tipo_dimensione!.messaggio, /Nessuna copia/);
    assert.match(byName(base({ copia: { bytes: pdf, mimeLetto: 'image/png' } })).tipo_dimensione!.messaggio, /registrato come application\/pdf è in realtà image\/png/);
    assert.match(byName(base({ maxBytes: 100 })).tipo_dimensione!.messaggio, /supera la dimensione massima/);
    assert.match(byName(base({}, { dimensione: 12 })).tipo_dimensione!.messaggio, /non ha la dimensione registrata/);
    assert.match(byName(base({ copia: { motivo: 'La copia conservata non corrisponde alla sua impronta SHA-256: è stata alterata' } })).leggibile!.messaggio, /alterata/);
    assert.equal(byName(base({}, { data_scadenza: null })).scadenza!.esito, 'ko', 'an identity document needs its expiry');
    assert.equal(byName(base({}, { tipo: 'visura_camerale', data_scadenza: null, mrz: null })).scadenza!.esito, 'non_applicabile');
  });

  it('reads the structure of PDF, JPEG and PNG copies and refuses truncated ones', () => {
    assert.equal(readability(pdf, 'application/pdf').ok, true);
    const cut = readability(pdf.subarray(0, pdf.length - 20), 'application/pdf');
    assert.equal(cut.ok, false);
    assert.match(cut.ok ? '' : cut.motivo, /troncato|startxref/);
    const badXref = Buffer.from(pdf.toString('latin1').replace(/startxref\n\d+/, 'startxref\n12'), 'latin1');
    assert.match((readability(badXref, 'application/pdf') as { motivo: string }).motivo, /non è dove il file la indica/);
    const jpg = readability(minimalJpeg(640, 480), 'image/jpeg');
    assert.ok(jpg.ok);
    assert.equal(jpg.descrizione, 'Immagine JPEG 640 × 480 pixel');
    assert.equal(readability(minimalJpeg().subarray(0, 12), 'image/jpeg').ok, false);
    const png = readability(smallPng(), 'image/png');
    assert.ok(png.ok);
    assert.equal(png.descrizione, 'Immagine PNG 8 × 6 pixel');
    const broken = Buffer.from(smallPng());
    broken[18] = 0x7f; // the width, under the header's CRC
    assert.match((readability(broken, 'image/png') as { motivo: string }).motivo, /CRC/);
    assert.match((readability(smallPng().subarray(0, 40), 'image/png') as { motivo: string }).motivo, /IEND/);
    assert.match((readability(Buffer.alloc(0), 'image/png') as { motivo: string }).motivo, /vuoto/);
  });

  it('fails the MRZ digits of a corrupted zone and names the field, the digit read and the one expected', () => {
    const corrupted = TD3.replace('7408122F', '7408132F');
    const c = byName(base({}, { mrz: corrupted }));
    assert.equal(c.mrz_cifre!.esito, 'ko');
    assert.match(c.mrz_cifre!.messaggio, /data di nascita \(letta 2, attesa \d\); cifra composita/);
    assert.equal(byName(base({}, { mrz: 'P<UTO' })).mrz_cifre!.esito, 'ko');
    assert.equal(byName(base({}, { mrz: null })).mrz_cifre!.esito, 'non_applicabile');
    assert.equal(byName(base({}, { mrz: null })).mrz_dati!.esito, 'non_applicabile');
  });

  it('refuses a zone of another kind of document (an identity card zone on a passport record)', () => {
    const td1 = 'I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<';
    assert.match(byName(base({}, { mrz: td1, numero: 'D23145890' })).mrz_cifre!.messaggio, /non è quella di un passaporto/);
    assert.equal(byName(base({}, { mrz: td1, numero: 'D23145890', tipo: 'carta_identita' })).mrz_cifre!.esito, 'ok');
  });

  it('compares the zone with the record: number, expiry, surname, name and birth date', () => {
    const c = byName(base({ persona: { tipo_soggetto: 'persona_fisica', cognome: 'Eriksen', nome: 'Anna Maria Luisa', data_nascita: '1974-08-13', codice_fiscale: null } }, { numero: 'L898902C4', data_scadenza: '2012-04-16' }));
    assert.equal(c.mrz_dati!.esito, 'ko');
    for (const s of ['numero del documento L898902C3 invece di L898902C4', 'data di scadenza 15/04/2012 invece di 16/04/2012', 'cognome ERIKSSON invece di Eriksen', 'data di nascita 12/08/1974 invece di 13/08/1974']) {
      assert.ok(c.mrz_dati!.messaggio.includes(s), `${c.mrz_dati!.messaggio} names ${s}`);
    }
    assert.ok(!c.mrz_dati!.messaggio.includes('nome ANNA MARIA'), 'a name the zone cut to fit is not a difference: "Anna Maria Luisa" starts with "ANNA MARIA"');
    const shorter = byName(base({ persona: { tipo_soggetto: 'persona_fisica', cognome: 'Eriksson', nome: 'Anna', data_nascita: '1974-08-12', codice_fiscale: null } }));
    assert.match(shorter.mrz_dati!.messaggio, /nome ANNA MARIA invece di Anna/, 'a second name missing from the record is a difference');
    // Accents and apostrophes are transliterated in the zone.
    const accents = byName(base({ persona: { tipo_soggetto: 'persona_fisica', cognome: 'Erikssón', nome: 'Anna Maria', data_nascita: '1974-08-12', codice_fiscale: ANNA_CF } }));
    assert.equal(accents.mrz_dati!.esito, 'ok');
  });

  it('checks the codice fiscale against surname, name, birth date and the sex the document gives', () => {
    assert.equal(surnameCode('Rossi'), 'RSS');
    assert.equal(nameCode('Mario'), 'MRA');
    assert.equal(surnameCode('Fo'), 'FOX');
    assert.equal(nameCode('Gianfranco'), 'GFR', 'four consonants or more: the 1st, 3rd and 4th');
    assert.equal(surnameCode("D'Amico"), 'DMC');
    assert.deepEqual(codiceFiscaleMismatches('RSSMRA85T10A562S', { cognome: 'Rossi', nome: 'Mario', data_nascita: '1985-12-10', sesso: 'M' }), []);
    // Omocodia: digits replaced by letters (10 → MN) still read as the same birth day.
    assert.deepEqual(codiceFiscaleMismatches('RSSMRA85T1LA562V', { cognome: 'Rossi', nome: 'Mario', data_nascita: '1985-12-10' }).map((d) => d.campo), []);
    const wrong = codiceFiscaleMismatches('RSSMRA85T10A562S', { cognome: 'Russo', nome: 'Marco', data_nascita: '1985-12-11', sesso: 'F' });
    assert.deepEqual(wrong.map((d) => d.campo), ['nome', 'data_nascita', 'sesso'], 'RSS is also Russo\'s surname code');
    assert.deepEqual(codiceFiscaleMismatches('RSSMRA85T10A562X', { cognome: 'Rossi' }).map((d) => d.campo), ['codice_fiscale']);

    // In the document checks: a man's code on the specimen's woman, and a non-person.
    const man = byName(base({ persona: { tipo_soggetto: 'persona_fisica', cognome: 'Eriksson', nome: 'Anna Maria', data_nascita: '1974-08-12', codice_fiscale: 'RKSNMR74M12Z132A' } }));
    assert.equal(man.codice_fiscale!.esito, 'ko');
    assert.match(man.codice_fiscale!.messaggio, /sesso \(nel codice M, registrato F\)/);
    assert.equal(byName(base({ persona: { tipo_soggetto: 'societa', cognome: null, nome: null, data_nascita: null, codice_fiscale: '01234567890' } })).codice_fiscale!.esito, 'non_applicabile');
    assert.equal(byName(base({ persona: { tipo_soggetto: 'persona_fisica', cognome: 'Eriksson', nome: 'Anna Maria', data_nascita: '1974-08-12', codice_fiscale: null } })).codice_fiscale!.esito, 'non_applicabile');
  });
});
