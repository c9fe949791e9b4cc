/**
 * Invalid client metadata. `field` names the offending member, so dynamic registration can
 * answer `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2).
 */
import { IdpError } from '../errors/index.ts';

export class ClientError extends IdpError<'ERR_CLIENT_METADATA'> {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super('ERR_CLIENT_METADATA', message, { status: 400 });
    this.field = field;
  }
}
