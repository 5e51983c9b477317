// The cases area's public surface: what other areas may read of the investigation cases.
export { casesForCustomer, type CustomerCase } from './cases.customer';
