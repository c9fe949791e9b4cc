/**
 * Single Logout, SP-initiated (saml-profiles §4.4): a LogoutRequest from a registered SP ends the
 * browser session here when it names the signed-in user, and a signed LogoutResponse goes back
 * to the SP's registered SLO URL over HTTP-POST.
 */
import type { Account } from '../accounts/accounts.ts';
import { NS, nameIdFormatName } from './constants.ts';
import type { AcceptedRequest } from './requests.ts';
import { attr, child, text } from './xml.ts';

export interface LogoutRequestInfo {
  id: string;
  nameId?: string;
  format?: string;
}

export function readLogoutRequest(req: AcceptedRequest): LogoutRequestInfo {
  const nameIdEl = child(req.root, NS.saml, 'NameID');
  const nameId = text(nameIdEl);
  const format = nameIdEl ? attr(nameIdEl, 'Format') : undefined;
  return { id: req.id, ...(nameId ? { nameId } : {}), ...(format ? { format } : {}) };
}

/**
 * Does the request name this account? Persistent and email identifiers are recomputed; a
 * transient one cannot be (it is never stored), so a request from the registered SP is trusted.
 */
export function namesAccount(info: LogoutRequestInfo, account: Account, persistentId: string): boolean {
  const kind = info.format ? nameIdFormatName(info.format) : undefined;
  if (kind === 'transient') return true;
  if (info.nameId === undefined) return false;
  return info.nameId === persistentId || (account.email !== undefined && info.nameId === account.email);
}
