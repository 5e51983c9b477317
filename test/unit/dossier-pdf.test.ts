import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DossierData } from '../../src/domains/dossier/dossier.data';
import { renderDossierPdf } from '../../src/domains/dossier/dossier.pdf';
import type { DossierStructure } from '../../src/domains/dossier/dossier.structure';
import { allowedActions, checkTransition } from '../../workflows/lib/machine';
import { dossierMachine } from '../../workflows/dossier/dossier.machine';
import { DOSSIER_SECTIONS, normaliseSections } from '../../workflows/dossier/dossier.sections';
import { pdfPagesText, pdfText } from '../helpers/pdf-text';

const day = (m: number) => `2026-${String(m).padStart(2, '0')}`;

/** A customer with something in every section; sixty cases, so the PDF runs over several pages. */
const data: DossierData = {
  subject: { cod_anagrafe: 'ANA-UNIT1', denominazione: 'Ferri Costruzioni S.r.l.', tipo_soggetto: 'persona_giuridica', fields: [{ label: 'Partita IVA', value: '01234567890' }, { label: 'Paese di residenza', value: 'Italia (IT)' }] },
  relationships: [{ cod_rapporto: 'RAP-1', tipo: 'Conto corrente', stato: 'Attivo', ruolo: 'Intestatario', apertura: '2024-03-01', chiusura: null, altri: 'Luca Ferri (Delegato)' }],
  owners: [
    { cod_anagrafe: 'ANA-UBO1', denominazione: 'Luca Ferri', tipo: 'Titolare effettivo', percentuale: 60, controllo: 'Proprietà diretta', posizione: 'sopra', persona: true, pep: false, attivo: true },
    { cod_anagrafe: 'ANA-UBO2', denominazione: 'Sara Ferri', tipo: 'Socio', percentuale: 40, controllo: null, posizione: 'sopra', persona: true, pep: true, attivo: false },
    { cod_anagrafe: 'ANA-SUB1', denominazione: 'Ferri Immobiliare S.r.l.', tipo: 'Controllante', percentuale: 100, controllo: 'Controllo', posizione: 'sotto', persona: false, pep: false, attivo: true },
  ],
  structure: null,
  documents: [{ tipo: 'Visura camerale', numero: 'VC-2026-1', rilascio: '2026-01-10', scadenza: null, stato: 'Valido' }],
  cdd: [{ codice: 'CDD-000001', livello: 'Rafforzata', motivo: 'Onboarding', stato: 'Completata', aperta: '2026-01-02T10:00:00Z', chiusa: '2026-01-05T10:00:00Z' }],
  edd: [{ codice: 'EDD-000001', motivi: 'PEP', stato: 'Chiusa', aperta: '2026-01-03T10:00:00Z', chiusa: '2026-02-01T10:00:00Z' }],
  risk: {
    classe: 'Alto', punteggio: 72,
    valutazione: {
      codice: 'VAL-000001', stato: 'Rilasciata', calcolata_il: '2026-02-01', punteggio: 72, classe_calcolata: 'Medio-alto', classe_effettiva: 'Alto',
      contributi: [{ nome: 'Titolare effettivo PEP', punti: 30, frase: 'Un titolare effettivo è una persona politicamente esposta: +30 punti' }],
      pavimento: 'Classe minima Alto', override: null,
    },
  },
  screening: { ultimo: '2026-02-01T08:00:00Z', hits: [{ lista: 'ONU (Consiglio di sicurezza)', nome: 'Luca Ferri', score: 0.91, stato: 'Falso positivo', data: '2026-02-01T08:00:00Z' }] },
  movements: Array.from({ length: 12 }, (_, i) => ({ mese: day(i + 1), entrate: 12_000 + i * 1_000, uscite: 9_000 + i * 500, contanti: i % 3 ? 0 : 2_500, numero: 10 + i })),
  cases: Array.from({ length: 60 }, (_, i) => ({ titolo: `Bonifici frazionati ${i + 1}`, tipo: 'indagine', stato: 'Aperto', priorita: 'Alta', aperto: '2026-02-02T10:00:00Z', chiuso: null })),
};
const meta = { dossierId: '0a0b0c0d-0000-4000-8000-000000000001', codAzienda: 'UNIT', ragioneSociale: 'Banca Unit S.p.A.', generatedAt: new Date('2026-03-04T09:05:00Z'), generatedBy: 'Anna Conti' };

describe('customer dossier PDF (read back from its text)', function () {
  this.timeout(30_000);

  it('numbers every page "Pagina n di N" with the generation date, and prints the chosen sections in order', async () => {
    const { pdf, pages } = await renderDossierPdf(data, { ...meta, sections: DOSSIER_SECTIONS });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const texts = pdfPagesText(pdf);
    assert.equal(texts.length, pages);
    assert.ok(pages >= 3, `sixty cases take several pages (got ${pages})`);
    texts.forEach((t, i) => assert.match(t, new RegExp(`Pagina ${i + 1} di ${pages} · Generato il 04/03/26, 10:05 · Fascicolo ${meta.dossierId}`), `page ${i + 1}`));
    const all = pdfText(pdf);
    const order = ['Identità', 'Rapporti', 'Titolari effettivi e struttura proprietaria', 'Indice dei documenti', 'Adeguata verifica', 'Verifica rafforzata',
      'Rischio e sua spiegazione', 'Esiti dello screening', 'Sintesi dei movimenti', 'Casi di indagine'];
    let at = all.indexOf('Ferri Costruzioni');
    for (const h of order) {
      const next = all.indexOf(`\n${h}\n`, at);
      assert.ok(next > at, `section "${h}" after the previous one`);
      at = next;
    }
    for (const fact of ['Soggetto obbligato: Banca Unit S.p.A. (UNIT)', 'Luca Ferri (Delegato)', 'Titolare effettivo 60%', 'VC-2026-1', 'CDD-000001', 'EDD-000001',
      'Un titolare effettivo è una persona politicamente esposta: +30 punti', 'Classe minima Alto', 'ONU (Consiglio di sicurezza)', 'Entrate', '210.000,00 €', 'Bonifici frazionati 60']) {
      assert.ok(all.includes(fact), `missing: ${fact}`);
    }
  });

  it('leaves out what was not chosen, keeps identity, and says so when a section has nothing', async () => {
    const sections = normaliseSections(['casi', 'rischio']);
    assert.deepEqual(sections, ['identita', 'rischio', 'casi']);
    const { pdf, pages } = await renderDossierPdf({ ...data, cases: [], risk: { classe: null, punteggio: null, valutazione: null } }, { ...meta, sections });
    const all = pdfText(pdf);
    assert.equal(pages, 1);
    assert.ok(!all.includes('Sintesi dei movimenti') && !all.includes('Esiti dello screening'));
    assert.ok(all.includes('Nessun caso di indagine sul cliente.'));
    assert.ok(all.includes('Nessuna valutazione del rischio conclusa'));
    assert.match(all, /Pagina 1 di 1/);
  });

  it('draws a deep chain level by level up to its bounds and lists the subjects left out, with the beneficial owners\' table', async () => {
    // Seven levels of holding companies, each also held by four persons: more than five levels and twenty boxes.
    const nodes: DossierStructure['nodes'] = [{ cod_anagrafe: 'ANA-L0', denominazione: 'Ferri Costruzioni S.r.l.', persona: false, pep: false, livello: 0, titolare: null }];
    const edges: DossierStructure['edges'] = [];
    for (let l = 1; l <= 7; l++) {
      nodes.push({ cod_anagrafe: `ANA-L${l}`, denominazione: `Holding livello ${l} S.p.A.`, persona: false, pep: false, livello: l, titolare: null });
      edges.push({ da: `ANA-L${l}`, a: `ANA-L${l - 1}`, etichetta: 'Socio 70%' });
      for (let p = 1; p <= 4; p++) {
        nodes.push({ cod_anagrafe: `ANA-P${l}${p}`, denominazione: `Persona ${l}.${p}`, persona: true, pep: false, livello: l, titolare: l === 1 && p === 1 ? 'Titolare effettivo 10%' : null });
        edges.push({ da: `ANA-P${l}${p}`, a: `ANA-L${l - 1}`, etichetta: 'Socio 10%' });
      }
    }
    const structure: DossierStructure = {
      nodes, edges, criterio: 'Proprietà (art. 20, comma 2)', note: [],
      titolari: [{ cod_anagrafe: 'ANA-P11', denominazione: 'Persona 1.1', quota_effettiva: '10%', quota_attribuita: '10%', motivo: 'Proprietà diretta', riferimento: 'art. 20, comma 2, lett. a), d.lgs. 231/2007' }],
    };
    assert.equal(nodes.length, 36);
    const { pdf } = await renderDossierPdf({ ...data, structure }, { ...meta, sections: ['identita', 'titolari'] });
    const all = pdfText(pdf);
    assert.ok(all.includes('Altri 16 soggetti della'), all);
    for (const fact of ['Soggetti della catena non disegnati', 'Holding livello 5 S.p.A. (ANA-L5)', 'Socio 70% di Holding livello 4 S.p.A.', 'Persona 7.3 (ANA-P73)', 'Persona 4.4 (ANA-P44)',
      'Titolare effettivo 10%', 'Titolari effettivi calcolati sulla catena: Proprietà (art. 20, comma 2)', 'Quota effettiva', 'Legami registrati del soggetto']) {
      assert.ok(all.includes(fact), `missing: ${fact}`);
    }
    // Drawn, so not in the table: the first twenty boxes, five levels at most.
    assert.ok(!all.includes('Holding livello 4 S.p.A. (ANA-L4)'));
  });

  it('signs a manifest naming the PDF\'s SHA-256 with the platform key, and fails on one changed byte', async () => {
    process.env.ESIGN_KEY_DIR = mkdtempSync(join(tmpdir(), 'dossier-keys-'));
    const { signManifest, verifyManifest, sha256Hex } = await import('../../src/domains/dossier/dossier.manifest');
    const { pdf, pages } = await renderDossierPdf(data, { ...meta, sections: ['identita'] });
    const manifest = {
      format: 'dossier-manifest/1' as const, dossier_id: meta.dossierId, cod_azienda: 'UNIT', cod_anagrafe: 'ANA-UNIT1', generated_at: meta.generatedAt.toISOString(),
      generated_by: 'anna', sections: ['identita' as const], pages, file: { name: 'f.pdf', bytes: pdf.length, sha256: sha256Hex(pdf) },
    };
    const jws = await signManifest(manifest);
    const ok = await verifyManifest(jws, pdf);
    assert.equal(ok.valid, true);
    const tampered = Buffer.from(pdf);
    tampered[tampered.length - 10] ^= 1;
    assert.equal((await verifyManifest(jws, tampered)).valid, false);
    const [h, p, s] = jws.split('.');
    const forged = JSON.parse(Buffer.from(p!, 'base64url').toString());
    forged.pages = 99;
    assert.equal((await verifyManifest(`${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`)).valid, false);
  });

  it('lets only the compliance officer sign, and never from archived (the machine)', () => {
    const co = { id: 'u1', username: 'co', roles: ['co'] };
    const analyst = { id: 'u2', username: 'an', roles: ['analyst'] };
    assert.deepEqual(allowedActions(dossierMachine, 'generated', co), ['sign', 'archive']);
    assert.equal(checkTransition(dossierMachine, { state: 'generated', action: 'sign', actor: analyst }).ok, false);
    assert.equal(checkTransition(dossierMachine, { state: 'archived', action: 'sign', actor: co }).ok, false);
    assert.equal(checkTransition(dossierMachine, { state: 'generated', action: 'complete-signing', actor: co }).ok, false);
  });
});
