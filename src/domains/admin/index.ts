// The admin area's public surface: the tenant settings every area reads, and the
// tenant and user creation the seed and the tests use.
export { getSetting, type SettingKey, type SettingValue } from './admin.settings';
export { createAzienda, createUtente } from './admin.commands';
export { adminListScope, inAdminScope } from './admin.access';
export { isSuperadmin } from './admin.access';
export { loadPublicBrand, publicBrand, type PublicBrand } from './tenant-logo';
