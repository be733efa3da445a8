/**
 * The emulator as a development OIDC issuer: its own signing key, a JWKS, and a way to mint a token
 * for any subject, so the token exchange can be exercised with no outside provider. Tokens from any
 * other issuer or key are refused.
 */
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';

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

  static async create(now: () => number): Promise<DevOidcIssuer> {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), alg: ALGORITHM, use: 'sig', kid: randomUUID() };
    return new DevOidcIssuer(privateKey, jwk, now);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async mint(options: MintOptions): Promise<string> {
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
