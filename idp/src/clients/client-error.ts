/**
 * Invalid client metadata. `field` names the offending member, so dynamic registration can
 * answer `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2).
 */
export class ClientError extends Error {
  override name = 'ClientError';
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}
