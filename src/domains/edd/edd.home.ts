import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { STAFF_READ, STAFF_WRITE } from '../../kit/roles';

/**
 * EDD on the home: the cases waiting for this compliance officer's approval (never those they
 * submitted), the open measures assigned to the user, and the cases still being worked.
 */
export const eddHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    if (user.roles.includes('co')) {
      const toApprove = await tileCount(trx, trx('edd_casi').where({ cod_azienda: tenant, stato: 'pending_supervisor' }).whereNot('submitted_by', user.id));
      tiles.push({
        area: 'edd', kind: 'four-eyes', label: 'Verifiche rafforzate da approvare', ...toApprove, href: '/edd?da_approvare=true', tone: toApprove.count > 0 ? 'yellow' : 'green',
        hint: 'Misure rafforzate completate da un collega, in attesa della tua approvazione', empty: 'Nessuna verifica rafforzata da approvare',
      });
    }
    if (hasAnyRole(user, STAFF_WRITE)) {
      const mine = await tileCount(trx, trx('edd_step').where({ cod_azienda: tenant, assegnatario: user.id, stato: 'aperto' }));
      tiles.push({
        area: 'edd', kind: 'assigned', label: 'Misure rafforzate assegnate a te', ...mine, tone: mine.count > 0 ? 'blue' : 'green',
        hint: 'Misure di verifiche rafforzate ancora da completare', empty: 'Nessuna misura rafforzata assegnata a te',
      });
    }
    const open = await tileCount(trx, trx('edd_casi').where({ cod_azienda: tenant }).whereNot('stato', 'closed'));
    tiles.push({
      area: 'edd', kind: 'overview', label: 'Verifiche rafforzate aperte', ...open, href: '/edd?aperti=true', tone: 'azure',
      hint: 'Verifiche rafforzate non ancora chiuse', empty: 'Nessuna verifica rafforzata aperta',
    });
    return tiles;
  });
};
