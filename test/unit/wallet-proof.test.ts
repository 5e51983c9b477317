import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58check, base64, hex } from '@scure/base';
import {
  btcAddressOf, btcMessageHash, ethAddressOf, ethPersonalMessageHash, verifyBtcMessage, verifyEthPersonalSign, verifyWalletProof,
} from '../../src/domains/onboarding/wallet-proof';
import { ethSign } from '../helpers/wallet-sign';

/** Signs as a Bitcoin wallet does: header 27 + recovery (+4 compressed, +12 for P2WPKH when asked). */
function btcSign(secret: Uint8Array, message: string, header: 'compressed' | 'uncompressed' | 'p2wpkh' | 'p2sh-p2wpkh') {
  const sig = secp256k1.Signature.fromBytes(secp256k1.sign(btcMessageHash(message), secret, { prehash: false, format: 'recovered' }), 'recovered');
  const base = { uncompressed: 27, compressed: 31, 'p2sh-p2wpkh': 35, p2wpkh: 39 }[header];
  const out = new Uint8Array(65);
  out[0] = base + sig.recovery!;
  out.set(sig.toBytes('compact'), 1);
  return base64.encode(out);
}


describe('wallet proof of control', () => {
  describe('Ethereum personal_sign (EIP-191)', () => {
    // web3.js documentation example (eth.accounts.sign), a published test key: interop, not only our own round trip.
    const DOC_ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
    const DOC_SIG = '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c';

    it('hashes the message with the EIP-191 prefix as web3.js does', () => {
      assert.equal(hex.encode(ethPersonalMessageHash('Some data')), '1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655');
    });

    it('accepts the published signature, comparing the address case-insensitively', () => {
      assert.deepEqual(verifyEthPersonalSign(DOC_ADDRESS, 'Some data', DOC_SIG), { result: 'valid' });
      assert.deepEqual(verifyEthPersonalSign(DOC_ADDRESS.toLowerCase(), 'Some data', DOC_SIG), { result: 'valid' });
      assert.deepEqual(verifyWalletProof('ERC20', DOC_ADDRESS, 'Some data', DOC_SIG.slice(2)), { result: 'valid' });
    });

    it('accepts v as 0/1 as well as 27/28', () => {
      assert.deepEqual(verifyEthPersonalSign(DOC_ADDRESS, 'Some data', `${DOC_SIG.slice(0, -2)}01`), { result: 'valid' });
    });

    it('refuses another message, another address, a malformed signature', () => {
      assert.equal(verifyEthPersonalSign(DOC_ADDRESS, 'Some data!', DOC_SIG).result, 'invalid');
      assert.equal(verifyEthPersonalSign('0x0000000000000000000000000000000000000001', 'Some data', DOC_SIG).result, 'invalid');
      assert.equal(verifyEthPersonalSign(DOC_ADDRESS, 'Some data', '0x1234').result, 'invalid');
      assert.equal(verifyEthPersonalSign(DOC_ADDRESS, 'Some data', `${DOC_SIG.slice(0, -2)}05`).result, 'invalid');
      const r = verifyEthPersonalSign(DOC_ADDRESS, 'Some data', `0x${'00'.repeat(64)}1b`);
      assert.equal(r.result, 'invalid');
    });

    it('round-trips a fresh key with a UTF-8 message', () => {
      const { secretKey, publicKey } = secp256k1.keygen();
      const address = ethAddressOf(secp256k1.getPublicKey(secretKey, false));
      assert.equal(publicKey.length, 33);
      const msg = 'Dichiaro di controllare questo wallet — pratica 42, àèìòù';
      assert.deepEqual(verifyWalletProof('ETH', address, msg, ethSign(secretKey, msg)), { result: 'valid' });
    });
  });

  describe('Bitcoin signed messages (BIP-137)', () => {
    // bitcoinjs-message / bitcore published vectors (compressed and uncompressed legacy keys).
    const MSG = 'This is an example of a signed message.';

    it('accepts the published compressed P2PKH signature and rejects it for another message or address', () => {
      const sig = 'H9L5yLFjti0QTHhPyFrZCT1V/MMnBtXKmoiKDZ78NDBjERki6ZTQZdSMCtkgoNmp17By9ItJr8o7ChX0XxY91nk=';
      assert.deepEqual(verifyBtcMessage('1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', MSG, sig), { result: 'valid' });
      assert.equal(verifyBtcMessage('1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', `${MSG} `, sig).result, 'invalid');
      assert.equal(verifyBtcMessage('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', MSG, sig).result, 'invalid');
    });

    it('accepts the published uncompressed-key signature (header 27/28) for that key\'s legacy address', () => {
      // BlueWallet's test of bitcoinjs-message: WIF of an uncompressed key and its signature of MSG.
      const wif = base58check(sha256).decode('5JqSfbkoVDrzM5i7PH7939G5fwWVDWmnFTSMbVctAmet3tYMq2S');
      assert.equal(wif[0], 0x80);
      const pub = secp256k1.getPublicKey(wif.subarray(1), false);
      const address = base58check(sha256).encode(Uint8Array.of(0, ...ripemd160(sha256(pub))));
      const sig = 'G19XLC0OYWN5ftv3N01s1PSt9Zpy0ZRKL2THZA46qGb0Jax29+SFmsdlsup0QKFeGJYN+m2HQTG1Na+YxcjU9ew=';
      assert.deepEqual(verifyWalletProof('BTC', address, MSG, sig), { result: 'valid' });
      // The same key's compressed address is another address.
      assert.equal(verifyBtcMessage(btcAddressOf(secp256k1.getPublicKey(wif.subarray(1), true), 'p2pkh'), MSG, sig).result, 'invalid');
    });

    it('checks native SegWit (bech32 P2WPKH) with the P2WPKH or the plain compressed header', () => {
      const { secretKey } = secp256k1.keygen();
      const address = btcAddressOf(secp256k1.getPublicKey(secretKey, true), 'p2wpkh');
      assert.match(address, /^bc1q/);
      assert.deepEqual(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'p2wpkh')), { result: 'valid' });
      assert.deepEqual(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'compressed')), { result: 'valid' });
      assert.equal(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'altro', 'p2wpkh')).result, 'invalid');
      // An uncompressed key can never own a P2WPKH address.
      assert.equal(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'uncompressed')).result, 'invalid');
    });

    it('checks nested SegWit (P2SH-P2WPKH, addresses starting with 3)', () => {
      const { secretKey } = secp256k1.keygen();
      const address = btcAddressOf(secp256k1.getPublicKey(secretKey, true), 'p2sh-p2wpkh');
      assert.match(address, /^3/);
      assert.deepEqual(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'p2sh-p2wpkh')), { result: 'valid' });
      assert.equal(verifyBtcMessage(address, 'prova', btcSign(secp256k1.keygen().secretKey, 'prova', 'p2sh-p2wpkh')).result, 'invalid');
    });

    it('distinguishes compressed and uncompressed legacy keys', () => {
      const { secretKey } = secp256k1.keygen();
      const address = btcAddressOf(secp256k1.getPublicKey(secretKey, true), 'p2pkh');
      assert.deepEqual(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'compressed')), { result: 'valid' });
      assert.equal(verifyBtcMessage(address, 'prova', btcSign(secretKey, 'prova', 'uncompressed')).result, 'invalid');
    });

    it('refuses malformed signatures with a message, and leaves Taproot and other chains to the analyst', () => {
      assert.equal(verifyBtcMessage('1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', MSG, 'not base64!').result, 'invalid');
      assert.equal(verifyBtcMessage('1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', MSG, base64.encode(new Uint8Array(64))).result, 'invalid');
      const badHeader = base64.decode('H9L5yLFjti0QTHhPyFrZCT1V/MMnBtXKmoiKDZ78NDBjERki6ZTQZdSMCtkgoNmp17By9ItJr8o7ChX0XxY91nk=');
      badHeader[0] = 50;
      assert.equal(verifyBtcMessage('1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV', MSG, base64.encode(badHeader)).result, 'invalid');
      assert.deepEqual(verifyBtcMessage('bc1ps5pt865e77nr9t9z7fdefryx27lsz0ced875lxcc68lszvc7x3qsxx25fy', MSG, 'x'), { result: 'unverifiable' });
      assert.deepEqual(verifyWalletProof('TRX', 'TJ9mRAhHq4uK6sBz3c1bBv1QGxZ2Yt4jE7', MSG, 'abc'), { result: 'unverifiable' });
      assert.deepEqual(verifyWalletProof('SOL', '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', MSG, 'abc'), { result: 'unverifiable' });
    });
  });
});
