/**
 * The emulator as a development OIDC issuer: its own signing key, a JWKS, and a way to mint a token
 * for any subject, so the token exchange can be exercised with no outside provider. Tokens from any
 * other issuer or key are refused.
 */
import type { CryptoKey, JWK } from 'jose';
import { randomUUID, webcrypto } from 'node:crypto';

/** The `iss` of minted tokens. Fixed (not the listening address) so datasets can name it. */
export const DEV_OIDC_ISSUER = 'https://oidc.emulator.migrate-v2.invalid';
const ALGORITHM = 'ES256';

export interface MintOptions {
  subject: string;
  /** The service the token is for: the token exchange takes only the API's base URL. */
  audience: string;
  ttlSeconds?: number;
  /** Sign with another issuer name, to show a refused exchange. */
  issuer?: string;
}

export class DevOidcIssuer {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
    private readonly now: () => number,
  ) {}

  /**
   * The key is made with WebCrypto, as jose makes it, so that jose (60 ms to load) is loaded by the
   * first token minted or exchanged, not by every start of the emulator.
   */
  static async create(now: () => number): Promise<DevOidcIssuer> {
    const { privateKey, publicKey } = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const { kty, x, y, crv } = await webcrypto.subtle.exportKey('jwk', publicKey);
    const jwk = { kty, x, y, crv, alg: ALGORITHM, use: 'sig', kid: randomUUID() } as JWK;
    return new DevOidcIssuer(privateKey as CryptoKey, jwk, now);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(options: MintOptions): Promise<string> {
    const { SignJWT } = await import('jose');
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: this.publicJwk.kid! })
      .setIssuer(options.issuer ?? DEV_OIDC_ISSUER)
      .setSubject(options.subject)
      .setAudience(options.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + (options.ttlSeconds ?? 600))
      .sign(this.privateKey);
  }

  /** Issuer and subject of a valid token minted for `audience`; throws with the reason otherwise. */
  async verify(token: string, audience: string): Promise<{ issuer: string; subject: string }> {
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, createLocalJWKSet(this.jwks()), {
      issuer: DEV_OIDC_ISSUER,
      // A URL may be written with its trailing slash; either spelling names the same service.
      audience: [audience, `${audience}/`],
      currentDate: new Date(this.now()),
      algorithms: [ALGORITHM],
    });
    if (!payload.sub) throw new Error('token has no subject');
    return { issuer: payload.iss!, subject: payload.sub };
  }
}
