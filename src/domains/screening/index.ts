// The screening area's public surface: screening of subjects and wallets for other areas' processes.
export { listaLabel } from './screening.labels';
export { checkNames, screenSubjects, screenStoredSubject, screenWallet, syncRegistrySubject, type NameCheckInput, type SubjectScreening } from './screening.service';
export { screeningForCustomer, type CustomerHit, type CustomerScreening } from './screening.customer';
export { sanctionedAddressesInData, sanctionedAddressesVersion, sanctionedCryptoAddresses } from './screening.crypto-list';
