import { ROLE_LABELS, ROLES, type Role } from '../../kit/roles';
import { TIPI_INTERMEDIARIO } from './admin.schemas';

/** Form bodies arrive as strings; turn them into what the API schemas expect. */
export const asArray = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === '' ? [] : [String(v)]);
export const blankToUndefined = (v: unknown) => (v === undefined || v === null || String(v).trim() === '' ? undefined : String(v));

export const TIPO_LABELS: Record<(typeof TIPI_INTERMEDIARIO)[number], string> = {
  banca: 'Banca', istituto_pagamento: 'Istituto di pagamento', imel: 'Istituto di moneta elettronica', sim: 'SIM', sgr: 'SGR',
  casp: 'Prestatore di servizi per le cripto-attività (CASP)', assicurazione: 'Impresa di assicurazione', fiduciaria: 'Società fiduciaria',
  professionista: 'Professionista', altro: 'Altro',
};
export const tipoOptions = TIPI_INTERMEDIARIO.map((v) => ({ value: v, label: TIPO_LABELS[v] }));

export function roleOptions(canGrantSuperadmin: boolean) {
  return ROLES.filter((r) => canGrantSuperadmin || r !== 'superadmin').map((r: Role) => ({ value: r, label: ROLE_LABELS[r] }));
}

export function aziendaFromForm(body: Record<string, unknown>) {
  return {
    cod_azienda: blankToUndefined(body.cod_azienda)?.toUpperCase(),
    ragione_sociale: String(body.ragione_sociale ?? ''),
    codice_fiscale: blankToUndefined(body.codice_fiscale),
    partita_iva: blankToUndefined(body.partita_iva),
    tipo_intermediario: String(body.tipo_intermediario ?? ''),
    indirizzo: blankToUndefined(body.indirizzo),
    email: blankToUndefined(body.email),
    pec: blankToUndefined(body.pec),
  };
}

export function utenteFromForm(body: Record<string, unknown>) {
  return {
    cod_azienda: blankToUndefined(body.cod_azienda) ?? null,
    username: String(body.username ?? ''),
    email: String(body.email ?? ''),
    nome: String(body.nome ?? ''),
    cognome: String(body.cognome ?? ''),
    password: blankToUndefined(body.password),
    ruoli: asArray(body.ruoli),
  };
}
