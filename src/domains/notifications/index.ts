// The notifications area's public surface: every area tells users through notify().
export { notify, type NotifyInput, type NotifyResult } from './notifications.commands';
