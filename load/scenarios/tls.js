// k6 scenario `tls`: new TLS 1.3 handshakes against the IdP's HTTPS listener. The runner starts
// one listener with ecdhCurve "X25519MLKEM768:X25519" (hybrid, Node 24 / OpenSSL 3.5) and one
// with "X25519" only, and runs this script once per listener. noConnectionReuse makes every
// request a fresh handshake (k6's Go TLS offers X25519MLKEM768 and X25519 key shares).
import http from 'k6/http';
import { Counter, Rate } from 'k6/metrics';

const config = JSON.parse(open(__ENV.LOAD_CONFIG));
const handshakesOk = new Counter('handshakes_ok');
const handshakeErrors = new Rate('handshake_errors');

export const options = {
  scenarios: {
    handshakes: {
      executor: 'constant-vus',
      vus: config.vus,
      duration: `${config.duration}s`,
      gracefulStop: '5s',
    },
  },
  noConnectionReuse: true,
  insecureSkipTLSVerify: true,
  thresholds: { handshake_errors: [`rate<=${config.maxErrorRate}`] },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  userAgent: 'pqid-load/k6',
};

export default function () {
  const res = http.get(config.url, { tags: { name: 'ping' } });
  const ok = res.status === 200;
  handshakeErrors.add(!ok);
  if (ok) handshakesOk.add(1);
}

/** @param {unknown} data */
export function handleSummary(data) {
  return { [config.summaryFile]: JSON.stringify(data) };
}
