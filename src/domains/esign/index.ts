// The e-signature area's public surface: the platform's signing key (other areas sign their manifests with it) and the bundle check.
export { platformKey } from './platform-key';
export { verifyBundle } from './esign.bundle';
