import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import { quota } from '../../http/share-format';
import { countryName } from './countries';
import { cddAnswerLabel, cddSchemaFor, isKnownCddVersion } from './onboarding.cdd-schema';
import { DOCUMENT_TYPES } from './onboarding.schemas';
import { cddAnswers, uboOwners } from './onboarding.validation';

/**
 * The documents the applicant signs in a child e-signature ceremony: a readable summary
 * of what was submitted with the declarations (purpose 'dichiarazioni'), or the
 * travel-rule declaration about the wallets (purpose 'travel_rule'). Text only, so the
 * PDF stays small: it travels through the workflow's history into the ceremony.
 * The risk assessment is the reviewers' working data and is never shown here.
 */

type Obj = Record<string, unknown>;
export type SigningPurpose = 'dichiarazioni' | 'travel_rule';

export interface SigningInput {
  caseId: string;
  codAzienda: string;
  ragioneSociale: string;
  tipoSoggetto: SubjectType | null;
  email: string;
  anagrafe: Obj;
  ubo: unknown;
  cddVersion: string | null;
  cddAnswers: unknown;
  countries: unknown;
  travelRule: Obj;
  documents: { tipo: string; riferimento: string; nome_file: string; sha256: string }[];
  wallets: { rete: string; indirizzo: string; tipo: string; vasp_nome?: string | null; volume_annuo_eur?: number | string | null; prova?: { metodo?: string; verificata?: boolean | null } | null }[];
  generatedAt: Date;
}

export const CONSENTS: Record<SigningPurpose, { testo: string; versione: string }> = {
  dichiarazioni: {
    versione: 'onb-dichiarazioni-2026-1',
    testo: 'Dichiaro, ai sensi dell\'art. 22 del d.lgs. 231/2007 e consapevole delle sanzioni previste dall\'art. 55 dello stesso decreto per chi fornisce '
      + 'dati falsi o informazioni non veritiere, che i dati, le informazioni e i documenti riportati nel riepilogo sono completi, aggiornati e veritieri, '
      + 'e mi impegno a comunicare senza ritardo ogni loro variazione. Dichiaro di aver preso visione dell\'informativa sul trattamento dei dati personali '
      + '(artt. 13 e 14 del Regolamento UE 2016/679). Sottoscrivo con firma elettronica tramite codice monouso (OTP) e accetto che la piattaforma conservi '
      + 'le prove della firma (impronta del documento, data e ora, indirizzo IP e browser).',
  },
  travel_rule: {
    versione: 'onb-travel-rule-2026-1',
    testo: 'Dichiaro di essere titolare dei wallet indicati e di controllarli, che i fondi trasferiti hanno provenienza lecita e che comunicherò ogni '
      + 'variazione, ai fini degli artt. 14 e 16 del Regolamento UE 2023/1113 (trasferimenti di cripto-attività). Sottoscrivo con firma elettronica '
      + 'tramite codice monouso (OTP) e accetto che la piattaforma conservi le prove della firma.',
  },
};

const TIPO_LABEL: Record<SubjectType, string> = { persona_fisica: 'Persona fisica', ditta_individuale: 'Ditta individuale', societa: 'Società' };
const CONTROLLO: Record<string, string> = {
  proprieta_diretta: 'proprietà diretta', proprieta_indiretta: 'proprietà indiretta', controllo: 'controllo', rappresentanza: 'poteri di rappresentanza',
};
const RUOLO_PAESE: Record<string, string> = { sede_operativa: 'sede operativa', clienti: 'clienti', fornitori: 'fornitori', origine_fondi: 'origine dei fondi' };
const DOC_LABEL: Record<string, string> = DOCUMENT_TYPES;

const s = (v: unknown) => (v === undefined || v === null || v === '' ? '—' : typeof v === 'boolean' ? (v ? 'Sì' : 'No') : String(v));
const yes = (v: unknown) => v === true || v === 'true' || v === 'si' || v === 'sì' || v === 'on';
const paese = (v: unknown) => (typeof v === 'string' && v ? `${countryName(v)} (${v})` : '—');
const person = (p: Obj | undefined) => [p?.nome, p?.cognome].filter((x) => typeof x === 'string' && x).join(' ');
const address = (a: unknown) => {
  const x = (a ?? {}) as Obj;
  return [x.via, [x.cap, x.citta].filter(Boolean).join(' '), x.provincia, typeof x.paese === 'string' ? countryName(x.paese) : null].filter(Boolean).join(', ') || '—';
};
const when = (d: Date) => `${d.toLocaleString('it-IT', { timeZone: 'Europe/Rome' })} (ora italiana)`;

/** The signer: the applicant, or the legal representative who signs for a company. */
export function signerName(tipo: SubjectType | null, anagrafe: Obj): string {
  const p = tipo === 'societa' ? (anagrafe.legale_rappresentante as Obj | undefined) : anagrafe;
  return person(p) || (typeof anagrafe.denominazione === 'string' ? anagrafe.denominazione : '') || 'Richiedente';
}

async function render(title: string, body: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  // Loaded on first use: pdfkit and its fonts are about 19 MB that a process not signing never needs.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    body(doc);
    doc.end();
  });
}

const writer = (doc: PDFKit.PDFDocument) => ({
  h1: (t: string) => doc.font('Helvetica-Bold').fontSize(15).text(t).moveDown(0.4).fontSize(10),
  h2: (t: string) => doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).text(t).moveDown(0.2).fontSize(10),
  line: (label: string, value: string) => doc.font('Helvetica-Bold').text(`${label}:`, { continued: true }).font('Helvetica').text(` ${value}`),
  para: (t: string) => doc.font('Helvetica').text(t, { align: 'justify' }),
  small: (t: string) => doc.font('Helvetica').fontSize(8).text(t).fontSize(10),
});

function header(w: ReturnType<typeof writer>, i: SigningInput, title: string) {
  w.h1(title);
  w.line('Destinatario', `${i.ragioneSociale} (${i.codAzienda})`);
  w.line('Pratica', i.caseId);
  w.line('Richiedente', `${signerName(i.tipoSoggetto, i.anagrafe)} <${i.email}>`);
  w.line('Documento generato', when(i.generatedAt));
}

function subjectSection(w: ReturnType<typeof writer>, i: SigningInput) {
  const a = i.anagrafe;
  w.h2(`Cliente: ${i.tipoSoggetto ? TIPO_LABEL[i.tipoSoggetto] : '—'}`);
  if (i.tipoSoggetto === 'societa') {
    w.line('Denominazione', s(a.denominazione));
    w.line('Forma giuridica', s(a.forma_giuridica));
    w.line('Codice fiscale / Partita IVA', `${s(a.codice_fiscale)} / ${s(a.partita_iva)}`);
    w.line('Costituzione', `${s(a.data_costituzione)}, ${paese(a.paese_costituzione)}`);
    w.line('Sede', address(a.sede));
    w.line('Attività', s(a.attivita));
    w.line('PEC', s(a.email_pec));
    const r = (a.legale_rappresentante ?? {}) as Obj;
    const d = (r.documento ?? {}) as Obj;
    w.h2('Legale rappresentante');
    w.line('Nome', person(r) || '—');
    w.line('Codice fiscale', s(r.codice_fiscale));
    w.line('Nascita', `${s(r.data_nascita)}, nazionalità ${paese(r.nazionalita)}`);
    w.line('Documento', `${s(d.tipo)} n. ${s(d.numero)}, rilasciato da ${s(d.rilasciato_da)}, scadenza ${s(d.scadenza)}`);
    w.line('Persona politicamente esposta', yes(r.pep) ? `Sì: ${s(r.pep_dettaglio)}` : 'No');
  } else {
    const d = (a.documento ?? {}) as Obj;
    w.line('Nome', person(a) || '—');
    w.line('Codice fiscale', s(a.codice_fiscale));
    w.line('Nascita', `${s(a.data_nascita)}, ${s(a.luogo_nascita)}`);
    w.line('Nazionalità / residenza', `${paese(a.nazionalita)} / ${paese(a.paese_residenza)}`);
    w.line('Indirizzo di residenza', address(a.residenza));
    w.line('Telefono', s(a.telefono));
    w.line('Professione', s(a.professione));
    w.line('Documento', `${s(d.tipo)} n. ${s(d.numero)}, rilasciato da ${s(d.rilasciato_da)}, scadenza ${s(d.scadenza)}`);
    w.line('Persona politicamente esposta', yes(a.pep) ? `Sì: ${s(a.pep_dettaglio)}` : 'No');
    if (i.tipoSoggetto === 'ditta_individuale') {
      w.line('Ditta', s(a.denominazione));
      w.line('Partita IVA', s(a.partita_iva));
      w.line('Attività', s(a.attivita));
      w.line('Sede', address(a.sede));
    }
  }
}

function ownersSection(w: ReturnType<typeof writer>, i: SigningInput) {
  const owners = uboOwners(i.ubo);
  if (i.tipoSoggetto !== 'societa') return;
  w.h2('Titolari effettivi (art. 20 d.lgs. 231/2007)');
  if (!owners.length) w.para('Nessun titolare effettivo indicato.');
  for (const o of owners) {
    w.para(`${person(o) || '—'}: ${CONTROLLO[String(o.tipo_controllo)] ?? s(o.tipo_controllo)}, ${quota(o.percentuale)}; nato/a il ${s(o.data_nascita)}; `
      + `nazionalità ${paese(o.nazionalita)}, residenza ${paese(o.paese_residenza)}; codice fiscale ${s(o.codice_fiscale)}; `
      + `persona politicamente esposta: ${yes(o.pep) ? `sì (${s(o.pep_dettaglio)})` : 'no'}.`);
  }
}

function documentsSection(w: ReturnType<typeof writer>, i: SigningInput) {
  const owners = new Map(uboOwners(i.ubo).map((o) => [String(o.id), person(o)]));
  w.h2('Documenti caricati');
  if (!i.documents.length) w.para('Nessun documento.');
  for (const d of i.documents) {
    const ref = d.riferimento === 'soggetto' ? '' : ` di ${owners.get(d.riferimento) || 'titolare effettivo'}`;
    w.para(`${DOC_LABEL[d.tipo] ?? d.tipo}${ref}: ${d.nome_file}`);
    w.small(`SHA-256 ${d.sha256}`);
  }
}

function cddSection(w: ReturnType<typeof writer>, i: SigningInput) {
  w.h2(`Questionario di adeguata verifica (versione ${s(i.cddVersion)})`);
  const answers = cddAnswers(i.cddAnswers);
  if (!isKnownCddVersion(i.cddVersion)) {
    for (const [k, v] of Object.entries(answers)) w.line(k, s(v));
    return;
  }
  for (const q of cddSchemaFor(i.tipoSoggetto, i.cddVersion).domande) w.line(q.etichetta.replace(/\?$/, ''), cddAnswerLabel(q, answers[q.id]));
}

function countriesSection(w: ReturnType<typeof writer>, i: SigningInput) {
  w.h2('Paesi di operatività');
  const list = (Array.isArray(i.countries) ? i.countries : []) as Obj[];
  if (!list.length) w.para('Nessun paese indicato.');
  for (const c of list) w.para(`${paese(c.paese)}: ${RUOLO_PAESE[String(c.ruolo)] ?? s(c.ruolo)}`);
}

function walletsSection(w: ReturnType<typeof writer>, i: SigningInput) {
  w.h2('Wallet di cripto-attività');
  if (!i.wallets.length) w.para('Nessun wallet indicato.');
  for (const x of i.wallets) {
    const kind = x.tipo === 'self_hosted' ? 'self-hosted' : `presso ${s(x.vasp_nome)}`;
    const proof = x.prova?.metodo === 'firma_messaggio' ? (x.prova.verificata === true ? 'firma di un messaggio, verificata' : 'firma di un messaggio')
      : x.prova?.metodo === 'dichiarazione' ? 'dichiarazione di titolarità' : 'nessuna';
    w.para(`${x.rete} ${x.indirizzo} (${kind}); volume annuo previsto ${x.volume_annuo_eur === null || x.volume_annuo_eur === undefined ? '—' : `${Number(x.volume_annuo_eur).toLocaleString('it-IT')} euro`}; prova del controllo: ${proof}.`);
  }
}

function declarationsPdf(i: SigningInput): Promise<Buffer> {
  return render(`Dichiarazioni del cliente ${i.caseId}`, (doc) => {
    const w = writer(doc);
    header(w, i, 'Richiesta di apertura del rapporto: riepilogo e dichiarazioni');
    subjectSection(w, i);
    ownersSection(w, i);
    documentsSection(w, i);
    cddSection(w, i);
    countriesSection(w, i);
    walletsSection(w, i);
    w.h2('Dichiarazioni');
    w.para(CONSENTS.dichiarazioni.testo);
  });
}

function travelRulePdf(i: SigningInput): Promise<Buffer> {
  const d = ((i.travelRule.dichiarazione ?? {}) as Obj);
  return render(`Dichiarazione travel rule ${i.caseId}`, (doc) => {
    const w = writer(doc);
    header(w, i, 'Dichiarazione sui wallet di cripto-attività (travel rule)');
    walletsSection(w, i);
    w.h2('Il richiedente dichiara');
    w.para(`di essere titolare dei wallet sopra indicati e di averne il controllo: ${yes(d.titolare_wallet) ? 'sì' : 'no'};`);
    w.para(`che i fondi trasferiti da e verso tali wallet hanno provenienza lecita: ${yes(d.fondi_leciti) ? 'sì' : 'no'};`);
    w.para(`di impegnarsi a comunicare senza ritardo ogni variazione: ${yes(d.aggiornamento) ? 'sì' : 'no'}.`);
    w.line('Luogo', s(d.luogo));
    w.line('Versione della dichiarazione', s(i.travelRule.versione));
    w.h2('Riferimenti');
    w.para('Regolamento UE 2023/1113, art. 14 (informazioni che accompagnano i trasferimenti di cripto-attività) e art. 16 '
      + '(trasferimenti da o verso indirizzi self-hosted: per importi superiori a 1.000 euro il prestatore verifica che l\'indirizzo sia di proprietà o sotto il controllo del cliente).');
    w.h2('Consenso alla firma');
    w.para(CONSENTS.travel_rule.testo);
  });
}

/** The PDF (and its name and consent) for a ceremony of the given purpose. */
export async function signingDocument(purpose: SigningPurpose, i: SigningInput) {
  const pdf = purpose === 'dichiarazioni' ? await declarationsPdf(i) : await travelRulePdf(i);
  const nome = purpose === 'dichiarazioni' ? `dichiarazioni-onboarding-${i.caseId.slice(0, 8)}.pdf` : `dichiarazione-travel-rule-${i.caseId.slice(0, 8)}.pdf`;
  return { nome, pdf, consent: CONSENTS[purpose] };
}
