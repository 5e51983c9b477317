import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../../kit/home';
import { STAFF_READ } from '../../../kit/roles';
import { OVERRIDE_CONFIRMERS } from './views.roles';

/**
 * Risk on the home: the class overrides waiting for this compliance officer's confirmation (never
 * those they requested: four eyes), read through the index rischio_valutazioni_stato.
 */
export const riskViewsHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ) || !hasAnyRole(user, OVERRIDE_CONFIRMERS)) return [];
  return tx(async (trx) => {
    const waiting = await tileCount(trx, trx('rischio_valutazioni').where({ cod_azienda: tenant, stato: 'override_pending' }).whereNot('override_by', user.id));
    const tile: HomeTile = {
      area: 'risk', kind: 'four-eyes', label: 'Modifiche di classe di rischio da confermare', ...waiting, href: '/rischio/approvazioni?da_confermare=true',
      tone: waiting.count > 0 ? 'yellow' : 'green',
      hint: 'Classi di rischio modificate da un collega, in attesa della tua conferma', empty: 'Nessuna modifica di classe da confermare',
    };
    return [tile];
  });
};
