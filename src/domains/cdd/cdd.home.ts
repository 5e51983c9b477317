import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { STAFF_READ } from '../../kit/roles';

/** Reviews coming due within this many days are announced on the home. */
const SOON_DAYS = 30;

/**
 * The periodic CDD reviews that are due: late ones (the workflow marked them `scaduta`) and those
 * coming due soon. Each links to the refresh queue filtered as it counts (/cdd/refresh-queue).
 */
export const cddHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const late = await tileCount(trx, trx('cdd_reviews').where({ cod_azienda: tenant, stato: 'scaduta' }));
    const soon = await tileCount(trx, trx('cdd_reviews').where({ cod_azienda: tenant, stato: 'programmata' })
      .where('due_at', '<=', trx.raw(`now() + interval '${SOON_DAYS} days'`)));
    const tiles: HomeTile[] = [
      {
        area: 'cdd', kind: 'due', label: 'Revisioni di adeguata verifica scadute', ...late, tone: late.count > 0 ? 'red' : 'green',
        href: '/cdd/refresh-queue?finestra=scadute',
        hint: 'Revisioni periodiche dei clienti oltre la data prevista', empty: 'Nessuna revisione scaduta',
      },
      {
        area: 'cdd', kind: 'due', label: `Revisioni in scadenza entro ${SOON_DAYS} giorni`, ...soon, tone: soon.count > 0 ? 'yellow' : 'green',
        href: '/cdd/refresh-queue?finestra=entro30',
        hint: 'Revisioni periodiche da preparare', empty: 'Nessuna revisione in scadenza',
      },
    ];
    return tiles;
  });
};
