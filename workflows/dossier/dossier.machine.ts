import type { MachineDef } from '../lib/machine';

export const DOSSIER_STATES = ['generated', 'signing', 'signed', 'archived'] as const;
export type DossierStatus = (typeof DOSSIER_STATES)[number];

export const DOSSIER_ACTIONS = ['sign', 'complete-signing', 'archive'] as const;
export type DossierAction = (typeof DOSSIER_ACTIONS)[number];

const SIGNERS = ['co'] as const;
const ARCHIVERS = ['co', 'admin'] as const;

/**
 * Customer dossier, as in docs/processes.md ("Also workflows"): generated --sign--> signing
 * --complete-signing--> signed --archive--> archived. The design asks no four-eyes here: the
 * signature is the compliance officer's own statement, made through the e-signature ceremony.
 * A dossier that will never be signed (superseded by a newer one) may be archived unsigned.
 */
export const dossierMachine: MachineDef<DossierStatus, DossierAction> = {
  name: 'dossier',
  initial: 'generated',
  states: DOSSIER_STATES,
  final: ['archived'],
  transitions: [
    // From signing too: a ceremony that ended unsigned (24 h, wrong codes) is started again.
    { action: 'sign', from: ['generated', 'signing'], to: 'signing', roles: SIGNERS },
    { action: 'complete-signing', from: ['signing'], to: 'signed', roles: SIGNERS },
    { action: 'archive', from: ['generated', 'signed'], to: 'archived', roles: ARCHIVERS },
  ],
};
