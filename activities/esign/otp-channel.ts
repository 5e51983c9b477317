import type { Logger } from '../../src/infra/logger';

/** How a one-time code reaches the signer. The signer has no account, so no in-app notification. */
export interface OtpChannel {
  send(msg: { ceremonyId: string; codAzienda: string; to: { nome: string; email: string }; code: string }): Promise<void>;
}

/**
 * Development channel: the code goes to the log, at info level. A deployment plugs in an
 * e-mail or SMS channel here; production must not use this one.
 */
export const logOtpChannel = (logger: Logger): OtpChannel => ({
  async send({ ceremonyId, codAzienda, to, code }) {
    logger.info({ ceremonyId, codAzienda, email: to.email, otp: code }, `OTP for ceremony ${ceremonyId}: ${code}`);
  },
});
