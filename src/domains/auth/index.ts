// The auth area's public surface.
export { hashPassword, PASSWORD_MIN_LENGTH } from './password';
