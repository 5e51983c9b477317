import { defineArea } from '../../kit/area';
import { aziendeList, utentiList } from './admin.lists';
import { registerAdminRoutes } from './admin.routes';
import { registerOrganizzazionePages } from './organizzazione.pages';
import { registerTenantLogoPages } from './tenant-logo.pages';

/** Tenants, users and settings. */
export const adminArea = defineArea({
  name: 'admin',
  label: 'Organizzazione',
  routes: [registerAdminRoutes, registerTenantLogoPages, registerOrganizzazionePages],
  lists: [aziendeList, utentiList],
  navigation: [
    { section: 'Organizzazione', label: 'Aziende', href: '/organizzazione', roles: ['superadmin'], order: 10 },
    { section: 'Organizzazione', label: 'Utenti', href: '/organizzazione/utenti', roles: ['superadmin', 'admin'], order: 20 },
    { section: 'Organizzazione', label: 'Configurazione', href: '/organizzazione/configurazione', roles: ['superadmin', 'admin'], order: 30 },
  ],
});
