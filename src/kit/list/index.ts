/** One way to read a list, for every list of the product: see docs/lists.md. */
export { defineList, sortNamesOf, sortKeysOf, tenantScope, PLATFORM_SCOPE } from './list-definition';
export type { ConfidentialExportEvent, ListDefinition, ListExport, ListFilter, ListScope, SortKey, SortKeyType } from './list-definition';
export { COUNT_CAP } from './list-count';
export { listParamsShape, listResponse, MAX_OFFSET, type ListParams } from './list-params';
export { listBaseQuery, listCountQuery, listPageQuery, runList, type ListPage, type ListRequest } from './list-page';
export { walkList } from './list-walk';
