import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { ethPersonalMessageHash } from '../../src/domains/onboarding/wallet-proof';

/** An EIP-191 personal_sign signature (0x r s v, v = 27 + recovery), as an Ethereum wallet makes it. */
export function ethSign(secret: Uint8Array, message: string): string {
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(ethPersonalMessageHash(message), secret, { prehash: false, format: 'recovered' }), 'recovered');
  return `0x${hex.encode(sig.toBytes('compact'))}${(27 + sig.recovery!).toString(16)}`;
}
