// The screening area's public surface: screening of subjects and wallets for other areas' processes.
export { listaLabel } from './screening.labels';
export { screenSubjects, screenStoredSubject, screenWallet, syncRegistrySubject, type SubjectScreening } from './screening.service';
