import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../../kit/home';
import { STAFF_READ } from '../../../kit/roles';

/**
 * The verifications waiting to be taken in hand, per kind: the count is what the tile's link
 * lists (/admin/kyc?stato=pending), read through the verifiche_stato index.
 */
export const consoleHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    for (const [tipo, sigla] of [['kyc', 'KYC'], ['kyb', 'KYB']] as const) {
      const waiting = await tileCount(trx, trx('verifiche').where({ cod_azienda: tenant, tipo, stato: 'pending' }));
      tiles.push({
        area: 'verifications', kind: 'due', label: `Verifiche ${sigla} da prendere in lavorazione`, ...waiting, tone: waiting.count > 0 ? 'yellow' : 'green',
        href: `/admin/${tipo}?stato=pending`,
        hint: tipo === 'kyc' ? 'Verifiche di persone in attesa' : 'Verifiche di società in attesa', empty: `Nessuna verifica ${sigla} in attesa`,
      });
    }
    return tiles;
  });
};
