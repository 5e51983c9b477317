// The screening area's public surface: screening of subjects and wallets for other areas' processes.
export { screenSubjects, screenStoredSubject, screenWallet, type SubjectScreening } from './screening.service';
