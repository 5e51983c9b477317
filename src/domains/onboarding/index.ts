// The onboarding area's public surface.
export { customerSessionMiddleware } from './onboarding.session';
