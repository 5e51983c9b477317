import type { RegisterRoutes } from '../../kit/area';
import { registerCddEvidencePages } from './cdd.page-evidence';
import { registerCddExecutePages } from './cdd.page-execute';
import { registerCddHistoryPage } from './cdd.page-history';
import { registerCddListPages } from './cdd.page-lists';
import { registerCddNewPage } from './cdd.page-new';
import { registerCddReviewPages } from './cdd.page-review';
import { registerCddTaskPages } from './cdd.page-task';

/**
 * The /cdd staff pages. The fixed paths (/cdd/nuovo, /cdd/overview, /cdd/refresh-queue) are
 * registered before /cdd/:id, which would otherwise take them as a task's id.
 */
export const registerCddPages: RegisterRoutes = (router, services) => {
  registerCddListPages(router, services);
  registerCddNewPage(router, services);
  registerCddEvidencePages(router, services);
  registerCddHistoryPage(router, services);
  registerCddReviewPages(router, services);
  registerCddExecutePages(router, services);
  registerCddTaskPages(router, services);
};
