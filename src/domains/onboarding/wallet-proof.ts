import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58check, base64, bech32, hex } from '@scure/base';

/**
 * Proof of control of a wallet: the applicant signs a message with the wallet's key and
 * we recover the signer from the signature. Only ECDSA message signatures with a known
 * recovery scheme can be checked here (Ethereum personal_sign, Bitcoin signed messages);
 * anything else is left to the analyst.
 *
 * - valid: the signature recovers to the stated address.
 * - invalid: it does not (wrong key, wrong message, malformed): the applicant must retry.
 * - unverifiable: the chain or address type has no automatic check (verificata: null).
 */
export type ProofCheck = { result: 'valid' } | { result: 'invalid'; message: string } | { result: 'unverifiable' };

/**
 * The text the applicant signs with the wallet's key: it names the case and the address,
 * so a signature made for another case or another address (or one published anywhere)
 * proves nothing here. The server rebuilds it from the case and the address; a proof over
 * any other text is refused.
 */
export function walletProofMessage(caseId: string, codAzienda: string, rete: string, indirizzo: string): string {
  return `Confermo di controllare l'indirizzo ${indirizzo.trim()} sulla rete ${rete} per la pratica di adeguata verifica ${caseId} presso ${codAzienda}.`;
}

const enc = new TextEncoder();
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const invalid = (message: string): ProofCheck => ({ result: 'invalid', message });
const MISMATCH = 'La firma non corrisponde all\'indirizzo indicato: firma di nuovo il messaggio con questo wallet';

/** Public key (compressed or not) recovered from a compact signature and its recovery id over a 32-byte digest. */
function recover(compact: Uint8Array, recovery: number, digest: Uint8Array, compressed: boolean): Uint8Array | null {
  try {
    const sig = secp256k1.Signature.fromBytes(compact, 'compact').addRecoveryBit(recovery);
    return sig.recoverPublicKey(digest).toBytes(compressed);
  } catch {
    return null;
  }
}

// ---- Ethereum (EIP-191 personal_sign) ----

export function ethPersonalMessageHash(message: string): Uint8Array {
  const body = enc.encode(message);
  return keccak_256(concat(enc.encode(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

export const ethAddressOf = (uncompressedPublicKey: Uint8Array) => `0x${hex.encode(keccak_256(uncompressedPublicKey.subarray(1)).subarray(12))}`;

export function verifyEthPersonalSign(address: string, message: string, signature: string): ProofCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { result: 'unverifiable' };
  const h = signature.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{130}$/.test(h)) return invalid('Firma non valida: attesa una firma esadecimale di 65 byte (0x…)');
  const bytes = hex.decode(h.toLowerCase());
  const v = bytes[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return invalid('Firma non valida: byte di recupero (v) non riconosciuto');
  const pub = recover(bytes.subarray(0, 64), recovery, ethPersonalMessageHash(message), false);
  if (!pub) return invalid('Firma non valida');
  return ethAddressOf(pub) === address.toLowerCase() ? { result: 'valid' } : invalid(MISMATCH);
}

// ---- Bitcoin (signmessage / BIP-137) ----

const varint = (n: number) => (n < 0xfd ? Uint8Array.of(n) : n <= 0xffff ? Uint8Array.of(0xfd, n & 0xff, n >> 8) : Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24));

export function btcMessageHash(message: string): Uint8Array {
  const body = enc.encode(message);
  return sha256(sha256(concat(enc.encode('\x18Bitcoin Signed Message:\n'), varint(body.length), body)));
}

const hash160 = (b: Uint8Array) => ripemd160(sha256(b));
const b58 = base58check(sha256);
const bytesEqual = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

type BtcAddress = { kind: 'p2pkh' | 'p2sh' | 'p2wpkh'; hash: Uint8Array } | { kind: 'other' };

function parseBtcAddress(address: string): BtcAddress {
  if (/^bc1/i.test(address)) {
    try {
      const d = bech32.decode(address.toLowerCase() as `${string}1${string}`);
      const program = bech32.fromWords(d.words.slice(1));
      if (d.prefix === 'bc' && d.words[0] === 0 && program.length === 20) return { kind: 'p2wpkh', hash: program };
    } catch { /* taproot (bech32m) or malformed: not checked here */ }
    return { kind: 'other' };
  }
  try {
    const payload = b58.decode(address);
    if (payload.length !== 21) return { kind: 'other' };
    if (payload[0] === 0x00) return { kind: 'p2pkh', hash: payload.subarray(1) };
    if (payload[0] === 0x05) return { kind: 'p2sh', hash: payload.subarray(1) };
  } catch { /* not base58check */ }
  return { kind: 'other' };
}

/**
 * A Bitcoin message signature (base64, 65 bytes): header byte 27–42 (BIP-137) carries the
 * recovery id and the key/address type. Legacy P2PKH (compressed or not), native SegWit
 * P2WPKH and nested P2SH-P2WPKH are checked; other scripts (Taproot, multisig) are not.
 */
export function verifyBtcMessage(address: string, message: string, signature: string): ProofCheck {
  const addr = parseBtcAddress(address.trim());
  if (addr.kind === 'other') return { result: 'unverifiable' };
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(signature.trim());
  } catch {
    return invalid('Firma non valida: attesa la firma in base64 prodotta dal wallet');
  }
  if (bytes.length !== 65) return invalid('Firma non valida: attesa una firma di 65 byte in base64');
  const header = bytes[0]!;
  if (header < 27 || header > 42) return invalid('Firma non valida: intestazione della firma non riconosciuta');
  const recovery = (header - 27) & 3;
  const compressed = header >= 31;
  const pub = recover(bytes.subarray(1), recovery, btcMessageHash(message), compressed);
  if (!pub) return invalid('Firma non valida');
  const h160 = hash160(pub);
  // Many wallets sign SegWit addresses with the plain compressed header (31–34), so the header's address hint is not required to match.
  const ok = addr.kind === 'p2pkh' ? bytesEqual(h160, addr.hash)
    : addr.kind === 'p2wpkh' ? compressed && bytesEqual(h160, addr.hash)
      : compressed && bytesEqual(hash160(concat(Uint8Array.of(0x00, 0x14), h160)), addr.hash);
  return ok ? { result: 'valid' } : invalid(MISMATCH);
}

/** The check for a wallet's network: ETH and ERC-20 tokens share Ethereum addresses. */
export function verifyWalletProof(rete: string, address: string, message: string, signature: string): ProofCheck {
  if (rete === 'ETH' || rete === 'ERC20') return verifyEthPersonalSign(address.trim(), message, signature);
  if (rete === 'BTC') return verifyBtcMessage(address, message, signature);
  return { result: 'unverifiable' };
}

/** Test and tooling helper: the legacy P2PKH, nested P2SH-P2WPKH or native P2WPKH address of a compressed public key. */
export function btcAddressOf(compressedPublicKey: Uint8Array, kind: 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh'): string {
  const h = hash160(compressedPublicKey);
  if (kind === 'p2pkh') return b58.encode(concat(Uint8Array.of(0), h));
  if (kind === 'p2sh-p2wpkh') return b58.encode(concat(Uint8Array.of(5), hash160(concat(Uint8Array.of(0x00, 0x14), h))));
  return bech32.encode('bc', [0, ...bech32.toWords(h)]);
}
