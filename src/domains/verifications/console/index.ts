// The console (issue 13 part 3): the /admin/kyc and /admin/kyb pages, their forms, the audited document downloads.
export { registerConsolePages } from './console.pages';
export { registerConsoleActions } from './console.actions';
export { registerConsoleDownloads, DOCUMENT_DOWNLOADERS } from './console.downloads';
export { consoleHome } from './console.home';
export { consoleNavigation } from './console.navigation';
