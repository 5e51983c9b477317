import { fileURLToPath } from 'node:url';
import { createOutboxActivities } from '../../../activities/outbox/outbox.activities';
import { messaging } from '../../../activities/outbox/messaging';
import { defineArea } from '../../kit/area';
import { outboxHome } from './outbox.home';
import { OUTBOX_OPERATORS, registerOutboxRoutes } from './outbox.routes';
import { outboxList } from './outbox.list';

/** Outgoing messages: the outbox, their delivery by SMTP, and the operators' view of failures. */
export const outboxArea = defineArea({
  name: 'outbox',
  label: 'Messaggi in uscita',
  routes: [registerOutboxRoutes],
  activities: (deps) => createOutboxActivities(deps, messaging(deps)),
  workflowModules: [fileURLToPath(new URL('../../../workflows/outbox/outbox.workflow.ts', import.meta.url))],
  lists: [outboxList],
  navigation: [{ section: 'Organizzazione', label: 'Messaggi in uscita', href: '/organizzazione/messaggi', roles: OUTBOX_OPERATORS, order: 35 }],
  home: outboxHome,
});
